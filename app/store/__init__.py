"""Where games live: one `GameStore` protocol, an embedded SQLite backend and a shared Redis one.

A game belongs to the session that created it: every call takes the session id, and a game of
another session behaves exactly as if it did not exist. Writes are compare-and-set on `version`,
so two requests that read the same version can never both apply (a double tap, a second tab, a
second app instance).

States and profiles are stored as JSON (orjson: a move writes and reads its game's state, so the
encoder's speed shows in every tap): give plain dicts, lists, strings, numbers, booleans and None
(tuples come back as lists, dict keys as strings). JSON has no NaN or infinity: orjson writes
them as null, so the web layer refuses them where they could come in (a page's reported time).

Expiry: a game or profile not written for `ttl_days` is gone. Reads do not extend its life.

Damage: what cannot be read is treated as absent, never as an error of the request. A profile
whose JSON is not an object reads as `{}` (with its version, so the next write replaces it); a
game whose JSON is not an object raises `GameUnreadable` from `get` and `current`, as a game's
loader does for a state it cannot read (a newer version, a wrong shape), and `read_game` turns
either into `Unreadable`, for the caller to start afresh.

Tables (Hearts with friends) are shared by several sessions, so they have calls of their own:
anyone holding a table's id may read it (the web layer decides what each seat may see), every
write is a compare-and-set on its version, and :meth:`GameStore.wait_table` is the change feed:
it returns as soon as the table is past a version, whichever process wrote it.

Presence at a table: each open event stream of a seat says so every few seconds
(:meth:`GameStore.table_streams_seen`) and once more when it closes; the web layer decides from
these times who is connected and who has been gone long enough to be away.

Rate limits: :meth:`GameStore.take_allowance` counts requests in fixed windows of the store's
clock (a window of ``w`` seconds starts at each multiple of ``w``), shared by every process that
uses the store; the web layer decides what a bucket is and how much it holds.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import orjson

__all__ = [
    "BoardRow",
    "Clock",
    "GameStore",
    "GameUnreadable",
    "StoreError",
    "StoredGame",
    "StoredTable",
    "StreamSeen",
    "Unreadable",
    "new_game_id",
    "new_table_id",
    "open_store",
    "read_game",
]

logger = logging.getLogger(__name__)

T = TypeVar("T")

Clock = Callable[[], float]

SQLITE_PREFIX = "sqlite:///"
REDIS_SCHEMES = ("redis://", "rediss://")
DEFAULT_REDIS_PREFIX = "cardroom:"
SECONDS_PER_DAY = 86_400


class StoreError(Exception):
    """The store cannot be used: a bad URL or settings, or the backend is unreachable or broken."""


class GameUnreadable(Exception):
    """A stored game that this version cannot read. The stores raise it for a state that is not
    a JSON object; a game's loader raises it for a state written by a newer version or of the
    wrong shape. :func:`read_game` turns it into :class:`Unreadable`."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    game_id: str
    kind: str
    version: int
    state: dict[str, Any]
    updated_at: float


@dataclass(frozen=True, slots=True)
class StoredTable:
    table_id: str
    version: int
    state: dict[str, Any]
    updated_at: float


@dataclass(frozen=True, slots=True)
class BoardRow:
    """A session's result on a board: its row, the nickname it shows, its section and its
    place there (1 for the first row by order, then arrival)."""

    session_id: str
    nickname: str | None
    row: dict[str, Any]
    section: str = ""
    place: int = 0


@dataclass(frozen=True, slots=True)
class StreamSeen:
    """An event stream of a table's seat as last heard of: an open one, or (``open`` False)
    the seat's last closed one (a store keeps one closed stream per seat)."""

    seat: int
    seen_at: float
    open: bool


class GameStore(Protocol):
    async def get(self, session_id: str, game_id: str) -> StoredGame | None:
        """The game, or None if it is missing, expired or owned by another session."""

    async def get_shared(self, game_id: str) -> StoredGame | None:
        """The game whoever owns it, or None if it is missing or expired: only for what a
        signed share link opens read-only (a finished game's replay, app/web/replays.py)."""

    async def create(self, session_id: str, kind: str, state: dict[str, Any]) -> StoredGame:
        """A new game at version 1; it also becomes the session's current game of that kind."""

    async def create_named(
        self, session_id: str, kind: str, state: dict[str, Any], game_id: str
    ) -> StoredGame | None:
        """Like `create`, under an id the caller chose (made from `new_game_id()`); None, and
        nothing written, when a game of that id exists already."""

    async def compare_and_set(
        self, session_id: str, game_id: str, version: int, state: dict[str, Any]
    ) -> StoredGame | None:
        """Write `state` as version+1 only if the stored version is `version`; None otherwise."""

    async def current(self, session_id: str, kind: str) -> StoredGame | None:
        """The game of that kind this session created last, if it still exists."""

    async def get_profile(self, session_id: str) -> tuple[int, dict[str, Any]]:
        """Per-browser data and its version; (0, {}) when there is none."""

    async def put_profile(self, session_id: str, version: int, data: dict[str, Any]) -> bool:
        """Compare-and-set like games: version 0 creates. False when the version is stale."""

    async def add_result(
        self, board: str, session_id: str, row: dict[str, Any], nickname: str | None, *,
        section: str, order: int, group: str, keep_days: int,
    ) -> bool:
        """The session's result on a results board (say ``"hearts:HT1-N-ABCDEFG"``), once: True
        when added, False (nothing written) when the session has one there already. A board is
        split in ``section``s; a section lists its rows by ``order`` (smaller first, an integer
        below 2**50), then by arrival; ``group`` tallies rows of one outcome
        (:meth:`result_groups`). The board is kept at least ``keep_days`` after its last row,
        and at least as long as games are."""

    async def results_page(
        self, board: str, section: str, offset: int, limit: int
    ) -> list[BoardRow]:
        """At most ``limit`` rows of a section from ``offset`` on, by order then arrival."""

    async def results_count(self, board: str, section: str) -> int:
        """How many rows a section holds."""

    async def result_groups(self, board: str, section: str) -> dict[str, int]:
        """How many rows of a section each group holds."""

    async def group_page(
        self, board: str, section: str, group: str, offset: int, limit: int
    ) -> list[BoardRow]:
        """At most ``limit`` rows of one group of a section from ``offset`` on, by arrival."""

    async def result_of(
        self, board: str, session_id: str, *, place: bool = True
    ) -> BoardRow | None:
        """The session's row on the board, with its section and (unless ``place`` is False,
        which saves counting the rows before it) its place; None when it has none."""

    async def rename_results(self, board: str, session_id: str, nickname: str) -> None:
        """The session's row on the board shows ``nickname`` from now on."""

    async def create_table(self, state: dict[str, Any]) -> StoredTable:
        """A new table at version 1, with an unguessable id."""

    async def get_table(self, table_id: str) -> StoredTable | None:
        """The table, or None if it is missing or expired."""

    async def table_compare_and_set(
        self, table_id: str, version: int, state: dict[str, Any]
    ) -> StoredTable | None:
        """Write `state` as version+1 only if the stored version is `version`, and tell every
        process waiting on the table; None otherwise."""

    async def wait_table(self, table_id: str, after: int, timeout: float) -> int | None:
        """The table's version as soon as it is past `after` (at once if it already is), or
        its version when `timeout` seconds have passed; None if the table does not exist."""

    async def table_streams_seen(self, streams: Sequence[tuple[str, int, str]]) -> None:
        """These event streams, each ``(table_id, seat, stream)``, are open now."""

    async def table_stream_closed(self, table_id: str, seat: int, stream: str) -> None:
        """The event stream ``stream`` of ``seat`` closed now."""

    async def table_streams(self, table_ids: Sequence[str]) -> dict[str, list[StreamSeen]]:
        """By table: every open stream as last heard of, and each seat's last closed one."""

    async def take_allowance(self, buckets: Sequence[tuple[str, int]], window: int) -> float:
        """One request against each ``(bucket, limit)`` in the current window of ``window``
        seconds: when every bucket has been taken fewer than its limit times in this window, take
        one from each and answer 0; else take nothing and answer the seconds until the window
        ends. Atomic: concurrent calls never take past a limit."""

    async def purge_expired(self) -> int:
        """Delete games, tables and profiles not written for ttl_days; returns how many were
        deleted."""

    async def ping(self) -> None:
        """Raise StoreError if the backend cannot be used (for /readyz)."""

    async def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Unreadable:
    """:func:`read_game`'s answer for a game that is stored but cannot be read."""

    reason: str


async def read_game(
    fetch: Awaitable[StoredGame | None], load: Callable[[StoredGame], T]
) -> tuple[StoredGame, T] | Unreadable | None:
    """The game ``fetch`` finds (``store.get(...)`` or ``store.current(...)``) with
    ``load(stored)``, its rules object; None when there is no such game.

    A game that cannot be read (the store's or ``load``'s :class:`GameUnreadable`) gives
    :class:`Unreadable`: treat it as absent (start a new game, tell the player in a short
    notice), never as an error, or a damaged game would lock its browser out until it expires.
    """
    try:
        stored = await fetch
        if stored is None:
            return None
        return stored, load(stored)
    except GameUnreadable as exc:
        logger.warning("a stored game cannot be read, so it counts as absent: %s", exc)
        return Unreadable(str(exc))


def new_game_id() -> str:
    """96 random bits, URL-safe: unguessable, so a game id alone reveals nothing."""
    return secrets.token_urlsafe(12)


def new_table_id() -> str:
    """128 random bits: a table's id is its invitation, so it must not be guessable."""
    return secrets.token_urlsafe(16)


async def create_new(
    create_named: Callable[[str, str, dict[str, Any], str], Awaitable[StoredGame | None]],
    session_id: str,
    kind: str,
    state: dict[str, Any],
) -> StoredGame:
    """A backend's ``create``: its ``create_named`` under a new random id."""
    game = await create_named(session_id, kind, state, new_game_id())
    if game is None:
        raise StoreError("a new game id was taken already")
    return game


def dump_json(value: dict[str, Any]) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def load_object(text: str) -> dict[str, Any] | None:
    """The JSON object stored as ``text``, or None when it is not one (cut short, edited by
    hand, written by something else)."""
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def stored_game(
    game_id: str, kind: str, version: int, text: str, updated_at: float
) -> StoredGame:
    """A game as a backend read it; GameUnreadable when its state is not a JSON object."""
    state = load_object(text)
    if state is None:
        raise GameUnreadable(f"game {game_id}: the stored state is not a JSON object")
    return StoredGame(game_id, kind, version, state, updated_at)


def window_end(now: float, window: int) -> int:
    """The end of the fixed window of ``window`` seconds that holds ``now``."""
    return (int(now) // window + 1) * window


def ttl_seconds(ttl_days: int) -> int:
    if isinstance(ttl_days, bool) or not isinstance(ttl_days, int) or ttl_days < 1:
        raise StoreError(f"the game TTL must be a whole number of days, at least 1: {ttl_days!r}")
    return ttl_days * SECONDS_PER_DAY


def open_store(
    url: str,
    ttl_days: int,
    *,
    clock: Clock = time.time,
    redis_prefix: str = DEFAULT_REDIS_PREFIX,
) -> GameStore:
    """Open the store named by `url`.

    - `sqlite:///./data/cardroom.sqlite3` (relative to the working directory) or
      `sqlite:////var/lib/cardroom/games.sqlite3` (absolute): the embedded store. The file, its
      directory and its tables are created when missing; it is opened (and purged) right away,
      so a bad path raises StoreError here.
    - `redis://host:port/db` (or `rediss://`): the shared store. Nothing is sent until the first
      call; `ping()` tells whether the server answers.

    `clock` gives the time stamps (and, for SQLite, decides what has expired); `redis_prefix`
    namespaces every Redis key. Both exist for tests and for sharing one Redis between apps.
    """
    seconds = ttl_seconds(ttl_days)
    if not isinstance(url, str):
        raise StoreError(f"the store URL must be a string: {url!r}")
    if url.startswith(SQLITE_PREFIX):
        from app.store.sqlite import SqliteStore

        path = url[len(SQLITE_PREFIX) :]
        if not path:
            raise StoreError(f"the store URL names no file: {url!r}")
        return SqliteStore(path, seconds, clock=clock)
    if url.startswith(REDIS_SCHEMES):
        from app.store.redis import RedisStore

        return RedisStore(url, seconds, clock=clock, prefix=redis_prefix)
    raise StoreError(
        f"unknown store URL {url!r}: use sqlite:///path/to/file.sqlite3 or redis://host:port/db"
    )
