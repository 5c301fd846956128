"""The game errors both games' services raise; the pages and the API turn them into answers.

:class:`GameNotFound` needs no route of its own: app/web/errors.py answers it with a 404 (a
page, or the API's error shape) in the player's language.
"""

from __future__ import annotations

from typing import Generic, TypeVar

Loaded = TypeVar("Loaded")


class GameNotFound(Exception):
    """No game of that id and kind for this session (another browser's, expired, unreadable).
    ``message`` is the English text, translated when the answer is made."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StaleVersion(Exception, Generic[Loaded]):
    """The game is not at the version the caller acted on; ``current`` is what it is now."""

    def __init__(self, current: Loaded) -> None:
        super().__init__("stale_version")
        self.current = current
