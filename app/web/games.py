"""What both games' services share: a game loaded from the store, the game errors they
raise (the pages and the API turn them into answers), and games not stored yet.

A visit that finds no game of its kind (a first visit, a crawler, a link preview) stores
nothing: its page shows the session's next game, which lives only in the page until its first
action stores it. That game is the same on every such visit of the session: its deal and its id
(:func:`unstored_id`: a digest keyed by the session id, then the deal code) come from the
session id, so a reload shows it again and the page, its answers and the stored game share one id.
(A Hearts match keeps its code secret: app/web/hearts/service.py derives its deal differently.)

An action that carries no version applies to the game as it is when its turn comes:
:func:`until_applied` tries it again when another request changed the game first.

:class:`GameNotFound` needs no route of its own: app/web/errors.py answers it with a 404 (a
page, or the API's error shape) in the player's language.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from app.metrics import CAS_RETRIES, GAMES_STARTED
from app.rules.deal_codes import DealCodeError
from app.store import SECONDS_PER_DAY, GameStore, GameUnreadable, StoredGame, Unreadable, read_game

G = TypeVar("G")
T = TypeVar("T")

# How often an action sent without a version is applied again when other requests keep
# changing the game first; past that it answers as a stale version would.
CAS_ATTEMPTS = 8


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


def readable_as(
    kind: str, load: Callable[[StoredGame], G]
) -> Callable[[StoredGame | None], Loaded[G] | None]:
    """A reader of stored games of ``kind``: the game, or None when there is none, it is of
    another kind or ``load`` cannot read it (GameUnreadable: a format this version does not
    read)."""

    def readable(stored: StoredGame | None) -> Loaded[G] | None:
        if stored is None or stored.kind != kind:
            return None
        try:
            return Loaded(stored, load(stored))
        except GameUnreadable:
            return None

    return readable


class LatestGames:
    """The game each session's last action in this process stored, by (session, game id):
    one object, owned by the app (``app.state.latest_games``), so that a player's next action,
    sent with that version, is applied to it without reading the game back and decoding it.

    Invariants:

    - an entry is exactly what this process stored for that session and game at that version;
      nobody changes it after (a service copies it before applying an action);
    - it is used only for the version it was stored at, and less than a day after (the
      shortest expiry): within that time the game cannot have expired and been dealt again
      under its id, so that version still names that state if the store still holds it;
    - it is used only for an action that changes the game: the store's compare-and-set then
      checks that the version (and the session) still hold, so another tab, another worker or
      another instance that moved the game first makes it a stale version, as a read would;
    - at most ``size`` entries, the oldest dropped first.
    """

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._entries: OrderedDict[tuple[str, str], Loaded[Any]] = OrderedDict()

    def keep(self, session_id: str, loaded: Loaded[Any]) -> None:
        key = (session_id, loaded.stored.game_id)
        self._entries[key] = loaded
        self._entries.move_to_end(key)
        if len(self._entries) > self._size:
            self._entries.popitem(last=False)

    def at(self, session_id: str, game_id: str, version: int | None, now: float) -> Any:
        """The kept game of that session and id stored at ``version`` less than a day before
        ``now``, else None."""
        found = self._entries.get((session_id, game_id))
        if (found is None or version is None or found.stored.version != version
                or now - found.stored.updated_at >= SECONDS_PER_DAY):
            return None
        return found

    def __len__(self) -> int:
        return len(self._entries)


class _UnstoredState(dict[str, Any]):
    """The state of a game that is not stored yet (told apart by its type: see is_stored)."""


_MAC_BYTES = 12  # 16 characters in the id, then "-" and the deal code
_CODE_AT = _MAC_BYTES * 4 // 3 + 1


def session_digest(session_id: str, text: str, size: int) -> bytes:
    # Keyed by the session id, which only its browser knows: another browser can neither guess
    # nor take the id of a page's game before that page stores it.
    return hashlib.blake2b(text.encode(), key=session_id.encode()[:64], digest_size=size).digest()


def session_number(session_id: str, text: str) -> int:
    """A number this session always gets for ``text`` (its next deal)."""
    return int.from_bytes(session_digest(session_id, text, 8), "big")


def unstored_id(session_id: str, code: str) -> str:
    """The id of this session's game of ``code`` before it is stored."""
    mac = base64.urlsafe_b64encode(session_digest(session_id, code, _MAC_BYTES)).decode()
    return f"{mac}-{code}"


def unstored_code(session_id: str, game_id: str) -> str | None:
    """The deal code in an id that :func:`unstored_id` made for this session, else None."""
    code = game_id[_CODE_AT:]
    if code and hmac.compare_digest(game_id.encode(), unstored_id(session_id, code).encode()):
        return code
    return None


def unstored(game_id: str, kind: str, marks: dict[str, Any] | None = None) -> StoredGame:
    """A new game's place before it is stored: version 1, as the store will make it.
    ``marks``: what its service keeps beside the rules' JSON (say, that its code is secret)."""
    return StoredGame(game_id, kind, 1, _UnstoredState(marks or {}), time.time())


def is_stored(stored: StoredGame) -> bool:
    return not isinstance(stored.state, _UnstoredState)


class GameNotFound(Exception):
    """No game of that id and kind for this session (another browser's, expired, unreadable).
    ``message`` is the English text, translated when the answer is made."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ReplayMissing(Exception):
    """A finished game's replay cannot be made (either game): ``reason`` is ``"not_over"``
    (still in play) or ``"not_kept"`` (saved before its moves were remembered)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


async def owned_game(
    store: GameStore,
    session_id: str,
    game_id: str,
    readable: Callable[[StoredGame | None], Loaded[G] | None],
    unstored_game: Callable[[str], Awaitable[Loaded[G]]],
    not_found: str,
) -> Loaded[G]:
    """This session's game of that id, read by ``readable``; or, for an id that
    :func:`unstored_id` made for this session and that is not stored yet, the page's game
    ``unstored_game`` makes from the id's deal code (DealCodeError: there is none)."""
    try:
        stored = await store.get(session_id, game_id)
    except GameUnreadable as exc:  # damaged: counts as absent (app/store/__init__.py)
        raise GameNotFound(not_found) from exc
    code = unstored_code(session_id, game_id) if stored is None else None
    if code is not None:
        try:
            return await unstored_game(code)
        except DealCodeError:
            pass
    loaded = readable(stored)
    if loaded is None:
        raise GameNotFound(not_found)
    return loaded


async def store_first(
    store: GameStore,
    session_id: str,
    loaded: Loaded[G],
    state: dict[str, Any],
    readable: Callable[[StoredGame | None], Loaded[G] | None],
    not_found: str,
) -> Loaded[G]:
    """Store a page's new game (not stored yet; ``state`` is its JSON) at its first action,
    under the id the page knows it by; ``readable`` reads a stored game of this kind (None:
    there is none, or not of this kind)."""
    game_id = loaded.stored.game_id
    stored = await store.create_named(session_id, loaded.stored.kind, state, game_id)
    if stored is not None:
        GAMES_STARTED.labels(stored.kind).inc()
        return Loaded(stored, loaded.game)
    # Stored meanwhile (a double tap), or the id of another browser's game.
    found = readable(await store.get(session_id, game_id))
    if found is None:
        raise GameNotFound(not_found)
    return found


class StaleVersion(Exception, Generic[G]):
    """The game is not at the version the caller acted on; ``current`` is what it is now."""

    def __init__(self, current: Loaded[G]) -> None:
        super().__init__("stale_version")
        self.current = current


async def until_applied(
    version: int | None,
    attempt: Callable[[], Awaitable[T | None]],
    current: Callable[[], Awaitable[Loaded[Any]]],
) -> T:
    """Run ``attempt`` (read the game, apply an action, store it by compare-and-set: None when
    another request changed the game first) until it applies.

    With a ``version`` the caller saw the game at that version, so a lost compare-and-set is a
    stale version at once; without one (an API client that did not say) the action is applied
    again to what that other request stored, up to CAS_ATTEMPTS times. StaleVersion carries
    ``current()``, the game as it is now.
    """
    for _ in range(CAS_ATTEMPTS if version is None else 1):
        done = await attempt()
        if done is not None:
            return done
        if version is None:
            CAS_RETRIES.labels("game").inc()
    raise StaleVersion(await current())
