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
from typing import Annotated, Any, Literal
from weakref import WeakValueDictionary

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.metrics import CAS_RETRIES
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


RECENT_RESULTS = 30  # how many results the statistics' chart shows


class HeartToHeartStats(_Checked):
    # Games in which the player had help (a hint, an undo): the same figures, kept apart.
    assisted: HeartToHeartStats | None = None
    played: Count = 0
    won: Count = 0
    streak: Count = 0
    best_streak: Count = 0
    best_time: Count | None = None
    fewest_moves: Count | None = None
    recent: list[bool] = []  # won or not, oldest first, at most RECENT_RESULTS
    news: list[Literal["time", "moves", "streak"]] = []  # the records the last win set


class HeartsStats(_Checked):
    assisted: HeartsStats | None = None  # as for Heart to Heart
    played: Count = 0
    won: Count = 0
    streak: Count = 0
    best_streak: Count = 0
    hands: Count = 0
    points: int = 0  # below zero after a house rule that subtracts (a moon, the J♦)
    moons: Count = 0
    moons_suffered: Count = 0
    queens: Count = 0  # hands in which the player took the Q♠
    recent: list[bool] = []


class Stats(_Checked):
    heart_to_heart: HeartToHeartStats | None = None
    hearts: HeartsStats | None = None
    hearts_levels: dict[Literal["easy", "normal", "hard", "expert"], HeartsStats] | None = None
    hearts_rules: dict[str, HeartsStats] | None = None


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


async def load_profile(store: GameStore, session_id: str) -> Profile:
    """The session's profile; absent when it cannot be read."""
    version, data = await store.get_profile(session_id)
    if data:
        try:
            ProfileData.model_validate(data)
        except ValidationError as exc:
            logger.warning("a stored profile cannot be read, so it counts as absent: %s", exc)
            data = {}
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
            CAS_RETRIES.labels("profile").inc()
            if time.monotonic() >= give_up_at:
                raise ProfileBusy(f"the profile kept changing for {UPDATE_GIVE_UP} s")
            await asyncio.sleep(random.uniform(0, delay))
            delay = min(2 * delay, RETRY_MAX_DELAY)


# Statistics ----------------------------------------------------------------------------------
# Every figure is kept per bucket: a game's own (``stats.heart_to_heart``, ``stats.hearts``),
# Hearts per bot level (``stats.hearts_levels.easy`` …), Hearts per house-rule set
# (``stats.hearts_rules.J`` …: the rules' short form, ``seed`` for the seed's rules), and
# assisted games apart (``stats.heart_to_heart.assisted`` …), which never touch the others.
SEED_RULES_KEY = "seed"


def _bucket(data: dict[str, Any], game: str, *, assisted: bool = False,
            level: str | None = None, rules: str | None = None) -> dict[str, Any]:
    model = HeartToHeartStats if game == "heart_to_heart" else HeartsStats
    stats = data.setdefault("stats", {})
    if assisted:
        bucket = _bucket(data, game).setdefault("assisted", {})
    elif level is not None:
        bucket = stats.setdefault("hearts_levels", {}).setdefault(level, {})
    elif rules is not None:
        key = rules or SEED_RULES_KEY
        bucket = stats.setdefault("hearts_rules", {}).setdefault(key, {})
    else:
        bucket = stats.setdefault(game, {})
    for key, value in model().model_dump(exclude={"assisted"}).items():
        bucket.setdefault(key, value)
    return bucket


def _count_result(stats: dict[str, Any], won: bool) -> None:
    stats["played"] += 1
    stats["won"] += int(won)
    stats["streak"] = stats["streak"] + 1 if won else 0
    stats["best_streak"] = max(stats["best_streak"], stats["streak"])
    stats["recent"] = [*stats["recent"], won][-RECENT_RESULTS:]


async def record_heart_to_heart_game(
    store: GameStore, session_id: str, *, won: bool, seconds: int, moves: int,
    assisted: bool = False,
) -> Profile:
    """Count one finished Heart to Heart game: a win, or a game left unwon. A win keeps, in
    ``news``, which records it set (for the celebration)."""

    def change(data: dict[str, Any]) -> None:
        stats = _bucket(data, "heart_to_heart", assisted=assisted)
        best_streak = stats["best_streak"]
        _count_result(stats, won)
        if not won:
            return
        # The celebration announces the player's own records only: an assisted win, none.
        _bucket(data, "heart_to_heart")["news"] = []
        news = []
        if stats["best_time"] is None or seconds < stats["best_time"]:
            stats["best_time"] = seconds
            news.append("time")
        if stats["fewest_moves"] is None or moves < stats["fewest_moves"]:
            stats["fewest_moves"] = moves
            news.append("moves")
        if stats["best_streak"] > best_streak:
            news.append("streak")
        stats["news"] = news

    return await update_profile(store, session_id, change)


async def record_hearts_match(
    store: GameStore, session_id: str, *, won: bool, hand_points: Sequence[int], moons: int,
    moons_suffered: int = 0, level: str | None = None, assisted: bool = False,
    rules: str | None = None,
) -> Profile:
    """Count one finished Hearts match for the player, in all, for its bot ``level`` and for
    its house ``rules`` (their short form, "" for the seed's).

    ``hand_points``: the player's score in each hand of the match (after the moon rule);
    ``moons``: how many times the player shot the moon in it, ``moons_suffered``: how many
    times another seat did.
    """

    def change(data: dict[str, Any]) -> None:
        buckets = [_bucket(data, "hearts", assisted=assisted)]
        if level is not None and not assisted:
            buckets.append(_bucket(data, "hearts", level=level))
        if rules is not None and not assisted:
            buckets.append(_bucket(data, "hearts", rules=rules))
        for stats in buckets:
            _count_result(stats, won)
            stats["hands"] += len(hand_points)
            stats["points"] += sum(hand_points)
            stats["moons"] += moons
            stats["moons_suffered"] += moons_suffered

    return await update_profile(store, session_id, change)


async def record_hearts_queen(
    store: GameStore, session_id: str, *, level: str | None, assisted: bool = False,
    rules: str | None = None,
) -> Profile:
    """Count a hand in which the player took the Q♠."""

    def change(data: dict[str, Any]) -> None:
        _bucket(data, "hearts", assisted=assisted)["queens"] += 1
        if level is not None and not assisted:
            _bucket(data, "hearts", level=level)["queens"] += 1
        if rules is not None and not assisted:
            _bucket(data, "hearts", rules=rules)["queens"] += 1

    return await update_profile(store, session_id, change)


async def reset_statistics(store: GameStore, session_id: str) -> Profile:
    return await update_profile(store, session_id, lambda data: data.pop("stats", None))


def _derived(stats: dict[str, Any]) -> dict[str, Any]:
    stats["win_rate"] = round(100 * stats["won"] / stats["played"]) if stats["played"] else None
    if "hands" in stats:
        stats["average"] = round(stats["points"] / stats["hands"], 1) if stats["hands"] else None
    return stats


def statistics(profile: Profile) -> dict[str, Any]:
    """Every bucket's statistics with derived figures (win rate, average), for a template:
    ``heart_to_heart``, ``hearts``, ``hearts_levels`` (by level), ``hearts_rules`` (by the
    short form of the house rules played, only those played) and ``assisted``."""
    data = {"stats": copy.deepcopy(profile.data.get("stats", {}))}
    played_rules = sorted(data["stats"].get("hearts_rules", {}))
    return {
        "hearts_rules": {
            key: _derived(_bucket(data, "hearts", rules=key)) for key in played_rules
        },
        "heart_to_heart": _derived(_bucket(data, "heart_to_heart")),
        "hearts": _derived(_bucket(data, "hearts")),
        "hearts_levels": {
            level: _derived(_bucket(data, "hearts", level=level))
            for level in ("easy", "normal", "hard", "expert")
        },
        "assisted": {
            game: _derived(_bucket(data, game, assisted=True))
            for game in ("heart_to_heart", "hearts")
        },
    }
