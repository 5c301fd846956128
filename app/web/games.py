"""The games of the card room, as the home page lists them.

Each game's web module registers itself on import with :func:`register_game`, giving the test
that decides whether a stored game is unfinished (so the home page can offer Continue).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.store import StoredGame


@dataclass(frozen=True, slots=True)
class GameEntry:
    kind: str  # the store's kind: "heart_to_heart" | "hearts"
    path: str  # the game's page
    unfinished: Callable[[StoredGame], bool]


GAMES: dict[str, GameEntry] = {}


def register_game(entry: GameEntry) -> None:
    GAMES[entry.kind] = entry
