"""What both games' services share: a game loaded from the store, and the game errors they
raise (the pages and the API turn them into answers).

:class:`GameNotFound` needs no route of its own: app/web/errors.py answers it with a 404 (a
page, or the API's error shape) in the player's language.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from app.store import StoredGame, Unreadable, read_game

G = TypeVar("G")


@dataclass(frozen=True, slots=True)
class Loaded(Generic[G]):
    """A stored game and the game it holds (a Heart to Heart game, a Hearts match)."""

    stored: StoredGame
    game: G
    # A new game dealt because the stored one could not be read: the page says so.
    replaced_unreadable: bool = False


async def read_loaded(
    fetch: Awaitable[StoredGame | None], kind: str, load: Callable[[StoredGame], G]
) -> Loaded[G] | Unreadable | None:
    """:func:`~app.store.read_game` for one kind of game: a game of another kind is None."""

    async def of_kind() -> StoredGame | None:
        stored = await fetch
        return stored if stored is not None and stored.kind == kind else None

    found = await read_game(of_kind(), load)
    return Loaded(*found) if isinstance(found, tuple) else found


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
