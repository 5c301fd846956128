"""What both games' services share: a game loaded from the store, and the game errors they
raise (the pages and the API turn them into answers).

:class:`GameNotFound` needs no route of its own: app/web/errors.py answers it with a 404 (a
page, or the API's error shape) in the player's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from app.store import StoredGame

G = TypeVar("G")


@dataclass(frozen=True, slots=True)
class Loaded(Generic[G]):
    """A stored game and the game it holds (a Heart to Heart game, a Hearts match)."""

    stored: StoredGame
    game: G


class GameNotFound(Exception):
    """No game of that id and kind for this session (another browser's, expired, unreadable).
    ``message`` is the English text, translated when the answer is made."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StaleVersion(Exception, Generic[G]):
    """The game is not at the version the caller acted on; ``current`` is what it is now."""

    def __init__(self, current: Loaded[G]) -> None:
        super().__init__("stale_version")
        self.current = current
