"""Per-browser data kept in the store's profile: language, options and statistics.

``data`` is a plain dict: ``{"lang": "vi", "h2h_options": {...}, "stats": {...}}``; every key is
optional. Writers go through :func:`update_profile`, a compare-and-set loop, so two tabs never
lose each other's changes.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.store import GameStore

_CAS_ATTEMPTS = 8


class ProfileBusy(Exception):
    """The profile kept changing under us (only under absurd contention)."""


@dataclass(slots=True)
class Profile:
    version: int
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def lang(self) -> str | None:
        return self.data.get("lang")


async def load_profile(store: GameStore, session_id: str) -> Profile:
    version, data = await store.get_profile(session_id)
    return Profile(version, data)


async def update_profile(
    store: GameStore, session_id: str, change: Callable[[dict[str, Any]], None]
) -> Profile:
    """Apply ``change`` (which edits the dict in place) and store it, retrying on conflicts."""
    for _ in range(_CAS_ATTEMPTS):
        version, data = await store.get_profile(session_id)
        change(data)
        if await store.put_profile(session_id, version, data):
            return Profile(version + 1, data)
    raise ProfileBusy


# Statistics ----------------------------------------------------------------------------------


def _h2h_stats(data: dict[str, Any]) -> dict[str, Any]:
    stats = data.setdefault("stats", {}).setdefault("heart_to_heart", {})
    for key in ("played", "won", "streak", "best_streak"):
        stats.setdefault(key, 0)
    stats.setdefault("best_time", None)
    stats.setdefault("fewest_moves", None)
    return stats


def _hearts_stats(data: dict[str, Any]) -> dict[str, Any]:
    stats = data.setdefault("stats", {}).setdefault("hearts", {})
    for key in ("played", "won", "hands", "points", "moons"):
        stats.setdefault(key, 0)
    return stats


async def record_heart_to_heart_game(
    store: GameStore, session_id: str, *, won: bool, seconds: int, moves: int
) -> Profile:
    """Count one finished Heart to Heart game: a win, or a game left unwon."""

    def change(data: dict[str, Any]) -> None:
        stats = _h2h_stats(data)
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
    store: GameStore, session_id: str, *, won: bool, hand_points: Sequence[int], moons: int
) -> Profile:
    """Count one finished Hearts match for the player.

    ``hand_points``: the player's score in each hand of the match (after the moon rule);
    ``moons``: how many times the player shot the moon in it.
    """

    def change(data: dict[str, Any]) -> None:
        stats = _hearts_stats(data)
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
