"""Per-browser data kept in the store's profile: language, options and statistics.

``data`` is a plain dict: ``{"v": 1, "lang": "vi", "h2h_options": {...}, "stats": {...}}``; every
key is optional. Writers go through :func:`update_profile`, a compare-and-set loop, so two tabs,
or two app instances, never lose each other's changes.

A profile this version cannot read (written by a newer version, or with a value of the wrong
type) counts as absent: it reads as ``{}``, and the next write replaces it. A new key of the
profile gets its type in :class:`ProfileData`, so that a wrong value is caught on reading.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any
from weakref import WeakValueDictionary

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.store import GameStore, StoreError

logger = logging.getLogger(__name__)

PROFILE_VERSION = 1
# Conflicting writes come from other processes (this one's take turns): a few short, random
# waits settle them; past UPDATE_GIVE_UP seconds the store is in trouble (a 503).
UPDATE_GIVE_UP = 5.0
RETRY_FIRST_DELAY = 0.002
RETRY_MAX_DELAY = 0.05


class ProfileBusy(StoreError):
    """The profile kept changing under us for UPDATE_GIVE_UP seconds."""


Count = Annotated[int, Field(ge=0)]


class _Checked(BaseModel):
    # Strict: a string where a number belongs is damage, not something to convert. Other keys
    # are left alone (they may be a newer feature's, which checks its own).
    model_config = ConfigDict(strict=True, extra="allow")


class AssistedStats(_Checked):
    """Games in which the player had help (an undo), kept apart from the others."""

    played: Count = 0
    won: Count = 0


class HeartToHeartStats(_Checked):
    assisted: AssistedStats | None = None
    played: Count = 0
    won: Count = 0
    streak: Count = 0
    best_streak: Count = 0
    best_time: Count | None = None
    fewest_moves: Count | None = None


class HeartsStats(_Checked):
    assisted: AssistedStats | None = None
    played: Count = 0
    won: Count = 0
    hands: Count = 0
    points: Count = 0
    moons: Count = 0


class Stats(_Checked):
    heart_to_heart: HeartToHeartStats | None = None
    hearts: HeartsStats | None = None


class ProfileData(_Checked):
    """The types the stored profile's keys must have; it is only checked, never rewritten."""

    v: Annotated[int, Field(ge=1, le=PROFILE_VERSION)] = PROFILE_VERSION
    lang: str | None = None
    h2h_options: dict[str, bool] | None = None
    stats: Stats | None = None
    # The player's settings (app/web/preferences.py reads each key, a bad one as unset).
    settings: dict[str, Any] | None = None


@dataclass(slots=True)
class Profile:
    version: int
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def lang(self) -> str | None:
        return self.data.get("lang")

    @property
    def nickname(self) -> str | None:
        return self.data.get("nickname")


# Profiles this process found readable, by (session, version): a version names one content,
# so it need not be checked again on every request.
_READABLE: set[tuple[str, int]] = set()
READABLE_KEPT = 10_000


async def load_profile(store: GameStore, session_id: str) -> Profile:
    version, data = await store.get_profile(session_id)
    if data and (session_id, version) not in _READABLE:
        try:
            ProfileData.model_validate(data)
        except ValidationError as exc:
            logger.warning("a stored profile cannot be read, so it counts as absent: %s", exc)
            data = {}
        else:
            if len(_READABLE) >= READABLE_KEPT:
                _READABLE.clear()
            _READABLE.add((session_id, version))
    return Profile(version, data)


# One lock per profile being updated in this process; it goes away when nobody holds it.
_updating: WeakValueDictionary[str, asyncio.Lock] = WeakValueDictionary()


async def update_profile(
    store: GameStore, session_id: str, change: Callable[[dict[str, Any]], None]
) -> Profile:
    """Apply ``change`` (which edits the dict in place) and store it, retrying on conflicts.

    This process's updates of one profile take turns, so they never conflict with each other;
    a conflict with another process is retried after a random wait that grows, so that two
    processes do not collide again and again.
    """
    lock = _updating.get(session_id)
    if lock is None:
        lock = _updating[session_id] = asyncio.Lock()
    async with lock:
        delay = RETRY_FIRST_DELAY
        give_up_at = time.monotonic() + UPDATE_GIVE_UP
        while True:
            profile = await load_profile(store, session_id)
            change(profile.data)
            profile.data["v"] = PROFILE_VERSION
            if await store.put_profile(session_id, profile.version, profile.data):
                return Profile(profile.version + 1, profile.data)
            if time.monotonic() >= give_up_at:
                raise ProfileBusy(f"the profile kept changing for {UPDATE_GIVE_UP} s")
            await asyncio.sleep(random.uniform(0, delay))
            delay = min(2 * delay, RETRY_MAX_DELAY)


# Statistics ----------------------------------------------------------------------------------


def _h2h_stats(data: dict[str, Any]) -> dict[str, Any]:
    stats = data.setdefault("stats", {}).setdefault("heart_to_heart", {})
    for key in ("played", "won", "streak", "best_streak"):
        stats.setdefault(key, 0)
    stats.setdefault("best_time", None)
    stats.setdefault("fewest_moves", None)
    _assisted_stats(stats)
    return stats


def _hearts_stats(data: dict[str, Any]) -> dict[str, Any]:
    stats = data.setdefault("stats", {}).setdefault("hearts", {})
    for key in ("played", "won", "hands", "points", "moons"):
        stats.setdefault(key, 0)
    _assisted_stats(stats)
    return stats


def _assisted_stats(stats: dict[str, Any]) -> dict[str, Any]:
    assisted = stats.setdefault("assisted", {})
    for key in ("played", "won"):
        assisted.setdefault(key, 0)
    return assisted


def _count_assisted(stats: dict[str, Any], won: bool) -> None:
    """An assisted game counts apart: it changes no other figure (streaks, bests, averages)."""
    assisted = _assisted_stats(stats)
    assisted["played"] += 1
    assisted["won"] += int(won)


async def record_heart_to_heart_game(
    store: GameStore, session_id: str, *, won: bool, seconds: int, moves: int,
    assisted: bool = False,
) -> Profile:
    """Count one finished Heart to Heart game: a win, or a game left unwon; an ``assisted``
    one (the player took moves back) apart from the others."""

    def change(data: dict[str, Any]) -> None:
        stats = _h2h_stats(data)
        if assisted:
            _count_assisted(stats, won)
            return
        stats["played"] += 1
        if won:
            stats["won"] += 1
            stats["streak"] += 1
            stats["best_streak"] = max(stats["best_streak"], stats["streak"])
            if stats["best_time"] is None or seconds < stats["best_time"]:
                stats["best_time"] = seconds
            if stats["fewest_moves"] is None or moves < stats["fewest_moves"]:
                stats["fewest_moves"] = moves
        else:
            stats["streak"] = 0

    return await update_profile(store, session_id, change)


async def record_hearts_match(
    store: GameStore, session_id: str, *, won: bool, hand_points: Sequence[int], moons: int,
    assisted: bool = False,
) -> Profile:
    """Count one finished Hearts match for the player.

    ``hand_points``: the player's score in each hand of the match (after the moon rule);
    ``moons``: how many times the player shot the moon in it; ``assisted``: the player took
    plays back, so the match counts apart from the others.
    """

    def change(data: dict[str, Any]) -> None:
        stats = _hearts_stats(data)
        if assisted:
            _count_assisted(stats, won)
            return
        stats["played"] += 1
        stats["won"] += int(won)
        stats["hands"] += len(hand_points)
        stats["points"] += sum(hand_points)
        stats["moons"] += moons

    return await update_profile(store, session_id, change)


def statistics(profile: Profile) -> dict[str, dict[str, Any]]:
    """Both games' statistics with derived figures, ready for a template."""
    data = {"stats": copy.deepcopy(profile.data.get("stats", {}))}
    h2h = _h2h_stats(data)
    hearts = _hearts_stats(data)
    h2h["win_rate"] = round(100 * h2h["won"] / h2h["played"]) if h2h["played"] else None
    hearts["average"] = round(hearts["points"] / hearts["hands"], 1) if hearts["hands"] else None
    return {"heart_to_heart": h2h, "hearts": hearts}
