"""The embedded store: one SQLite file in WAL mode, safe for several processes at once.

Where the work runs (measured with bench/store.py, `python -m bench.store`):
- The calls of a tap (a `get`, or none; a `compare_and_set`, which writes with one statement and
  reads the game's kind back with another) run inline on the event loop: each takes
  tens of microseconds, less than handing a call to a thread and back costs on its own, so a
  thread would more than double the cost of a tap.
- Blocking inline is only acceptable if nothing can make SQLite wait, so the inline connection
  has `busy_timeout = 0`: when another process holds the write lock the call fails at once with
  SQLITE_BUSY and is retried after an `asyncio.sleep` with a growing delay (up to
  BUSY_GIVE_UP seconds), so other requests keep being served meanwhile. A write of several
  statements takes the lock up front (`BEGIN IMMEDIATE`), so BUSY can only come before anything
  was changed and the retry is always safe; a write of one statement (a game's
  compare-and-set, the call of every move) is a transaction of its own, which SQLite applies
  whole or not at all, so the same holds without the two extra statements.
- The slow work runs on one maintenance thread with its own connection (whose `busy_timeout`
  may block, as it is not the loop): WAL checkpoints, which fsync (automatic checkpoints are off
  on the inline connection, else one commit in a thousand would stall the loop for milliseconds),
  and the purge of expired rows. Checkpoints are PASSIVE, so they never make writers wait,
  unless the WAL keeps growing (see _maintain).

Durability: `synchronous = NORMAL` in WAL mode means a commit is in the WAL file (the operating
system's cache) before the call returns, so killing the process loses nothing that was
answered; only a power cut or kernel crash could lose the last commits.

Expiry: rows older than the TTL are invisible to every read at once; the purge only reclaims the
space. It runs when the store is opened, then on the maintenance thread after a write once
PURGE_EVERY seconds have passed since the last one (an idle store has nothing to reclaim in a
hurry), and whenever `purge_expired()` is called.

One store object per process and event loop: the connections must not cross a fork.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from app.metrics import STORE_ERRORS
from app.store import (
    SECONDS_PER_DAY,
    BoardRow,
    Clock,
    StoredGame,
    StoredTable,
    StoreError,
    StreamSeen,
    create_new,
    dump_json,
    load_object,
    new_table_id,
    stored_game,
    window_end,
)
from app.store.feed import TableWaiters

logger = logging.getLogger(__name__)

T = TypeVar("T")

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game_id    TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    kind       TEXT NOT NULL,
    version    INTEGER NOT NULL,
    state      TEXT NOT NULL,
    updated_at REAL NOT NULL
);
DROP INDEX IF EXISTS games_by_age;
CREATE TABLE IF NOT EXISTS current_games (
    session_id TEXT NOT NULL,
    kind       TEXT NOT NULL,
    game_id    TEXT NOT NULL,
    PRIMARY KEY (session_id, kind)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS current_games_by_game ON current_games (game_id);
CREATE TABLE IF NOT EXISTS profiles (
    session_id TEXT PRIMARY KEY,
    version    INTEGER NOT NULL,
    data       TEXT NOT NULL,
    updated_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS profiles_by_age ON profiles (updated_at);
-- the results boards before issue 29 (every game a row, capped): not carried over
DROP TABLE IF EXISTS results;
-- a results board lives until keep_until, its rows with it
CREATE TABLE IF NOT EXISTS boards (
    board      TEXT PRIMARY KEY,
    keep_until REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS boards_by_age ON boards (keep_until);
-- one row per session and board, the rowid its order of arrival (the order of a tie)
CREATE TABLE IF NOT EXISTS board_rows (
    board      TEXT NOT NULL,
    session_id TEXT NOT NULL,
    section    TEXT NOT NULL,
    ord        INTEGER NOT NULL,
    grp        TEXT NOT NULL,
    nickname   TEXT,
    row        TEXT NOT NULL,
    UNIQUE (board, session_id)
);
CREATE INDEX IF NOT EXISTS board_rows_in_order ON board_rows (board, section, ord);
CREATE INDEX IF NOT EXISTS board_rows_by_group ON board_rows (board, section, grp);
-- how many rows each group of a section holds, kept with the rows: a board of 100,000 rows is
-- counted and scored from a few thousand tallies
CREATE TABLE IF NOT EXISTS board_tallies (
    board   TEXT NOT NULL,
    section TEXT NOT NULL,
    grp     TEXT NOT NULL,
    rows    INTEGER NOT NULL,
    PRIMARY KEY (board, section, grp)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS tables (
    table_id   TEXT PRIMARY KEY,
    version    INTEGER NOT NULL,
    state      TEXT NOT NULL,
    updated_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS tables_by_age ON tables (updated_at);
-- stream '' is the seat's last closed stream
CREATE TABLE IF NOT EXISTS table_streams (
    table_id TEXT NOT NULL,
    seat     INTEGER NOT NULL,
    stream   TEXT NOT NULL,
    seen_at  REAL NOT NULL,
    PRIMARY KEY (table_id, seat, stream)
);
CREATE INDEX IF NOT EXISTS table_streams_by_age ON table_streams (seen_at);
-- a rate-limit bucket's requests in the window ending at `until` (no index by age: one row
-- per bucket in use, which the hourly purge reads whole)
CREATE TABLE IF NOT EXISTS rate_counts (
    bucket TEXT PRIMARY KEY,
    until  INTEGER NOT NULL,
    taken  INTEGER NOT NULL
) WITHOUT ROWID;
"""

# Tuned for a tap's write of a few kB: ~3 WAL pages each, so a checkpoint every ~750 pages.
CHECKPOINT_EVERY = 250
WAL_RESTART_FRAMES = 4000
PURGE_EVERY = 3600.0
PURGE_BATCH = 500
BUSY_GIVE_UP = 5.0
# A readiness probe must answer before its own timeout: a lock held this long is not a blip.
PING_GIVE_UP = 1.0
BUSY_FIRST_DELAY = 0.001
BUSY_MAX_DELAY = 0.025
MAINTENANCE_BUSY_TIMEOUT_MS = 5000
JOURNAL_SIZE_LIMIT = 32 * 1024 * 1024
# Another worker process's writes are seen by reading the version again this often.
TABLE_POLL = 0.2

GAME_COLUMNS = "game_id, kind, version, state, updated_at"


def _is_busy(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _game(row: tuple[Any, ...] | None) -> StoredGame | None:
    return None if row is None else stored_game(*row)


def _connect(path: str, busy_timeout_ms: int) -> sqlite3.Connection:
    # isolation_level=None: no implicit transactions, every write says BEGIN IMMEDIATE itself.
    # check_same_thread=False: the connection is made here and then used by one other thread.
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        conn.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute(f"PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT}")
    except BaseException:
        conn.close()
        raise
    return conn


def _write(conn: sqlite3.Connection, work: Callable[[], T]) -> T:
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = work()
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


class SqliteStore:
    def __init__(self, path: str, ttl_seconds: int, *, clock: Clock = time.time) -> None:
        self._ttl = ttl_seconds
        self._clock = clock
        self._writes_since_checkpoint = 0
        self._next_purge = 0.0
        self._maintenance: Future[None] | None = None
        self._closed = False
        self._maint: sqlite3.Connection | None = None
        self._conn: sqlite3.Connection | None = None
        try:
            directory = os.path.dirname(os.path.abspath(path))
            os.makedirs(directory, exist_ok=True)
            # The maintenance connection sets the file up: it may wait for another process.
            self._maint = _connect(path, MAINTENANCE_BUSY_TIMEOUT_MS)
            self._setup(self._maint)
            self._conn = _connect(path, 0)
            self._conn.execute("PRAGMA wal_autocheckpoint = 0")
            self._purge()
        except (OSError, sqlite3.Error) as exc:
            self._close_connections()
            raise StoreError(f"cannot open the SQLite store at {path!r}: {exc}") from exc
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardroom-sqlite")
        self._waiters = TableWaiters(TABLE_POLL, self._table_version)

    @staticmethod
    def _setup(conn: sqlite3.Connection) -> None:
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode != "wal":
            raise sqlite3.OperationalError(f"WAL mode is not available (journal mode {mode})")

        def create() -> None:
            found = conn.execute("PRAGMA user_version").fetchone()[0]
            if found > SCHEMA_VERSION:
                raise sqlite3.DatabaseError(f"schema version {found} is newer than this app")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

        _write(conn, create)

    # -- running inline --------------------------------------------------------------------

    async def _run(self, work: Callable[[], T], give_up: float | None = None) -> T:
        """``work()``, retried while the file is locked, for ``give_up`` seconds at most
        (BUSY_GIVE_UP by default); then StoreError."""
        give_up = BUSY_GIVE_UP if give_up is None else give_up
        delay = BUSY_FIRST_DELAY
        give_up_at: float | None = None
        while True:
            try:
                return work()
            except sqlite3.Error as exc:
                if not _is_busy(exc):
                    STORE_ERRORS.labels("sqlite").inc()
                    raise StoreError(f"SQLite store: {exc}") from exc
            now = time.monotonic()
            if give_up_at is None:
                give_up_at = now + give_up
            elif now >= give_up_at:
                STORE_ERRORS.labels("sqlite").inc()
                raise StoreError(f"SQLite store stayed locked for {give_up} s")
            await asyncio.sleep(delay)
            delay = min(delay * 2, BUSY_MAX_DELAY)

    def _cutoff(self) -> float:
        return self._clock() - self._ttl

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError("the SQLite store is closed")
        return self._conn

    # -- the GameStore calls ---------------------------------------------------------------

    async def get(self, session_id: str, game_id: str) -> StoredGame | None:
        conn = self._db()

        def read() -> StoredGame | None:
            return _game(
                conn.execute(
                    f"SELECT {GAME_COLUMNS} FROM games"
                    " WHERE game_id = ? AND session_id = ? AND updated_at >= ?",
                    (game_id, session_id, self._cutoff()),
                ).fetchone()
            )

        return await self._run(read)

    async def get_shared(self, game_id: str) -> StoredGame | None:
        conn = self._db()

        def read() -> StoredGame | None:
            return _game(
                conn.execute(
                    f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = ? AND updated_at >= ?",
                    (game_id, self._cutoff()),
                ).fetchone()
            )

        return await self._run(read)

    async def create(self, session_id: str, kind: str, state: dict[str, Any]) -> StoredGame:
        return await create_new(self.create_named, session_id, kind, state)

    async def create_named(
        self, session_id: str, kind: str, state: dict[str, Any], game_id: str
    ) -> StoredGame | None:
        conn = self._db()
        text = dump_json(state)

        def insert() -> StoredGame | None:
            game = StoredGame(game_id, kind, 1, state, self._clock())
            # An expired game not purged yet counts as gone, as it does for Redis.
            inserted = conn.execute(
                "INSERT INTO games (game_id, session_id, kind, version, state, updated_at)"
                " VALUES (?, ?, ?, 1, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
                " session_id = excluded.session_id, kind = excluded.kind, version = 1,"
                " state = excluded.state, updated_at = excluded.updated_at"
                " WHERE games.updated_at < ?",
                (game.game_id, session_id, kind, text, game.updated_at, self._cutoff()),
            ).rowcount
            if not inserted:
                return None
            conn.execute(
                "INSERT INTO current_games (session_id, kind, game_id) VALUES (?, ?, ?)"
                " ON CONFLICT (session_id, kind) DO UPDATE SET game_id = excluded.game_id",
                (session_id, kind, game.game_id),
            )
            return game

        game = await self._run(lambda: _write(conn, insert))
        if game is not None:
            self._after_write()
        return game

    def _write(
        self, session_id: str, game_id: str, version: int, state: dict[str, Any]
    ) -> Callable[[], float | None]:
        """The work of a compare-and-set, to run (its JSON already written): the time it wrote
        version+1 at, or None when it wrote nothing. No RETURNING: SQLite gathers those rows in
        a temporary table, which costs more than reading the row again (bench/README.md)."""
        conn = self._db()
        text = dump_json(state)

        def write() -> float | None:
            now = self._clock()
            # One statement, so no BEGIN/COMMIT of its own (see the module's docstring).
            written = conn.execute(
                "UPDATE games SET version = version + 1, state = ?, updated_at = ?"
                " WHERE game_id = ? AND session_id = ? AND version = ? AND updated_at >= ?",
                (text, now, game_id, session_id, version, now - self._ttl),
            ).rowcount
            return now if written else None

        return write

    def _written_row(self, query: str, parameters: tuple) -> tuple:
        """The row of a game just written, read after its write (a read retried on BUSY cannot
        write twice)."""
        row = self._db().execute(query, parameters).fetchone()
        if row is None:  # only the purge deletes a game, and this one was just written
            raise StoreError("SQLite store: a game is gone right after its write")
        return row

    def _kind(self, game_id: str) -> str:
        return self._written_row("SELECT kind FROM games WHERE game_id = ?", (game_id,))[0]

    async def compare_and_set(
        self, session_id: str, game_id: str, version: int, state: dict[str, Any]
    ) -> StoredGame | None:
        now = await self._run(self._write(session_id, game_id, version, state))
        if now is None:
            return None
        self._after_write()
        kind = await self._run(lambda: self._kind(game_id))
        return StoredGame(game_id, kind, version + 1, state, now)

    async def current(self, session_id: str, kind: str) -> StoredGame | None:
        conn = self._db()

        def read() -> StoredGame | None:
            return _game(
                conn.execute(
                    "SELECT g.game_id, g.kind, g.version, g.state, g.updated_at"
                    " FROM current_games AS c JOIN games AS g ON g.game_id = c.game_id"
                    " WHERE c.session_id = ? AND c.kind = ?"
                    " AND g.session_id = c.session_id AND g.updated_at >= ?",
                    (session_id, kind, self._cutoff()),
                ).fetchone()
            )

        return await self._run(read)

    def _read_profile(self, session_id: str) -> tuple[int, dict[str, Any]]:
        row = self._db().execute(
            "SELECT version, data FROM profiles WHERE session_id = ? AND updated_at >= ?",
            (session_id, self._cutoff()),
        ).fetchone()
        return (0, {}) if row is None else (row[0], load_object(row[1]) or {})

    async def get_profile(self, session_id: str) -> tuple[int, dict[str, Any]]:
        return await self._run(lambda: self._read_profile(session_id))

    async def put_profile(self, session_id: str, version: int, data: dict[str, Any]) -> bool:
        conn = self._db()
        text = dump_json(data)

        def upsert() -> bool:
            now = self._clock()
            if version == 0:
                # Creating: only where there is no profile, or only an expired one.
                cursor = conn.execute(
                    "INSERT INTO profiles (session_id, version, data, updated_at)"
                    " VALUES (?, 1, ?, ?) ON CONFLICT (session_id) DO UPDATE"
                    " SET version = 1, data = excluded.data, updated_at = excluded.updated_at"
                    " WHERE profiles.updated_at < ?",
                    (session_id, text, now, now - self._ttl),
                )
            else:
                cursor = conn.execute(
                    "UPDATE profiles SET version = version + 1, data = ?, updated_at = ?"
                    " WHERE session_id = ? AND version = ? AND updated_at >= ?",
                    (text, now, session_id, version, now - self._ttl),
                )
            return cursor.rowcount == 1

        stored = await self._run(lambda: _write(conn, upsert))
        if stored:
            self._after_write()
        return stored

    def _board_alive(self, conn: sqlite3.Connection, board: str) -> bool:
        found = conn.execute("SELECT keep_until FROM boards WHERE board = ?", (board,)).fetchone()
        return found is not None and found[0] >= self._clock()

    async def add_result(
        self, board: str, session_id: str, row: dict[str, Any], nickname: str | None, *,
        section: str, order: int, group: str, keep_days: int,
    ) -> bool:
        conn = self._db()
        text = dump_json(row)

        def insert() -> bool:
            now = self._clock()
            if not self._board_alive(conn, board):  # an expired board's rows go before anew
                conn.execute("DELETE FROM board_rows WHERE board = ?", (board,))
                conn.execute("DELETE FROM board_tallies WHERE board = ?", (board,))
            # As on Redis, the board is kept as long as its longest-kept row needs.
            until = now + max(keep_days * SECONDS_PER_DAY, self._ttl)
            conn.execute(
                "INSERT INTO boards (board, keep_until) VALUES (?, ?) ON CONFLICT (board)"
                " DO UPDATE SET keep_until = max(keep_until, excluded.keep_until)",
                (board, until),
            )
            cursor = conn.execute(
                "INSERT OR IGNORE INTO board_rows (board, session_id, section, ord, grp,"
                " nickname, row) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (board, session_id, section, order, group, nickname, text),
            )
            if cursor.rowcount != 1:
                return False
            conn.execute(
                "INSERT INTO board_tallies (board, section, grp, rows) VALUES (?, ?, ?, 1)"
                " ON CONFLICT (board, section, grp) DO UPDATE SET rows = rows + 1",
                (board, section, group),
            )
            return True

        added = await self._run(lambda: _write(conn, insert))
        self._after_write()
        return added

    def _board_rows(self, query: str, board: str, *args: Any) -> list[BoardRow]:
        """The rows ``query`` selects (session_id, nickname, row) of a live board; a row
        that cannot be read (edited by hand, say) is left out."""
        conn = self._db()
        if not self._board_alive(conn, board):
            return []
        found = []
        for session_id, nickname, text in conn.execute(query, (board, *args)):
            row = load_object(text)
            if row is not None:
                found.append(BoardRow(session_id, nickname, row))
        return found

    async def results_page(
        self, board: str, section: str, offset: int, limit: int
    ) -> list[BoardRow]:
        query = (
            "SELECT session_id, nickname, row FROM board_rows WHERE board = ? AND section = ?"
            " ORDER BY ord, rowid LIMIT ? OFFSET ?"
        )
        return await self._run(lambda: self._board_rows(query, board, section, limit, offset))

    async def results_count(self, board: str, section: str) -> int:
        conn = self._db()

        def count() -> int:
            if not self._board_alive(conn, board):
                return 0
            return conn.execute(
                "SELECT coalesce(sum(rows), 0) FROM board_tallies WHERE board = ? AND section = ?",
                (board, section),
            ).fetchone()[0]

        return await self._run(count)

    async def result_groups(self, board: str, section: str) -> dict[str, int]:
        conn = self._db()

        def groups() -> dict[str, int]:
            if not self._board_alive(conn, board):
                return {}
            return dict(
                conn.execute(
                    "SELECT grp, rows FROM board_tallies WHERE board = ? AND section = ?",
                    (board, section),
                ).fetchall()
            )

        return await self._run(groups)

    async def group_page(
        self, board: str, section: str, group: str, offset: int, limit: int
    ) -> list[BoardRow]:
        query = (
            "SELECT session_id, nickname, row FROM board_rows"
            " WHERE board = ? AND section = ? AND grp = ? ORDER BY rowid LIMIT ? OFFSET ?"
        )
        return await self._run(
            lambda: self._board_rows(query, board, section, group, limit, offset)
        )

    async def result_of(
        self, board: str, session_id: str, *, place: bool = True
    ) -> BoardRow | None:
        conn = self._db()

        def read() -> BoardRow | None:
            if not self._board_alive(conn, board):
                return None
            found = conn.execute(
                "SELECT rowid, section, ord, nickname, row FROM board_rows"
                " WHERE board = ? AND session_id = ?",
                (board, session_id),
            ).fetchone()
            if found is None or (row := load_object(found[4])) is None:
                return None
            rowid, section, order, nickname = found[:4]
            if not place:
                return BoardRow(session_id, nickname, row, section)
            before = conn.execute(
                "SELECT count(*) FROM board_rows WHERE board = ? AND section = ?"
                " AND (ord, rowid) < (?, ?)",
                (board, section, order, rowid),
            ).fetchone()[0]
            return BoardRow(session_id, nickname, row, section, before + 1)

        return await self._run(read)

    async def rename_results(self, board: str, session_id: str, nickname: str) -> None:
        conn = self._db()

        def update() -> None:
            conn.execute(
                "UPDATE board_rows SET nickname = ? WHERE board = ? AND session_id = ?",
                (nickname, board, session_id),
            )

        await self._run(lambda: _write(conn, update))
        self._after_write()

    # -- tables ----------------------------------------------------------------------------

    async def create_table(self, state: dict[str, Any]) -> StoredTable:
        conn = self._db()
        text = dump_json(state)

        def insert() -> StoredTable:
            table = StoredTable(new_table_id(), 1, state, self._clock())
            conn.execute(
                "INSERT INTO tables (table_id, version, state, updated_at) VALUES (?, 1, ?, ?)",
                (table.table_id, text, table.updated_at),
            )
            return table

        table = await self._run(lambda: _write(conn, insert))
        self._after_write()
        return table

    async def get_table(self, table_id: str) -> StoredTable | None:
        conn = self._db()

        def read() -> StoredTable | None:
            row = conn.execute(
                "SELECT version, state, updated_at FROM tables"
                " WHERE table_id = ? AND updated_at >= ?",
                (table_id, self._cutoff()),
            ).fetchone()
            state = None if row is None else load_object(row[1])
            # A state that cannot be read (edited by hand, say) is a table that is gone.
            return None if state is None else StoredTable(table_id, row[0], state, row[2])

        return await self._run(read)

    async def table_compare_and_set(
        self, table_id: str, version: int, state: dict[str, Any]
    ) -> StoredTable | None:
        conn = self._db()
        text = dump_json(state)

        def update() -> StoredTable | None:
            now = self._clock()
            row = conn.execute(
                "UPDATE tables SET version = version + 1, state = ?, updated_at = ?"
                " WHERE table_id = ? AND version = ? AND updated_at >= ? RETURNING version",
                (text, now, table_id, version, now - self._ttl),
            ).fetchone()
            return None if row is None else StoredTable(table_id, row[0], state, now)

        table = await self._run(lambda: _write(conn, update))
        if table is not None:
            self._after_write()
            self._waiters.wake(table_id, table.version)
        return table

    async def _table_version(self, table_id: str) -> int | None:
        conn = self._db()

        def read() -> int | None:
            row = conn.execute(
                "SELECT version FROM tables WHERE table_id = ? AND updated_at >= ?",
                (table_id, self._cutoff()),
            ).fetchone()
            return None if row is None else row[0]

        return await self._run(read)

    async def wait_table(self, table_id: str, after: int, timeout: float) -> int | None:
        return await self._waiters.wait(table_id, after, timeout)

    async def table_streams_seen(self, streams: Sequence[tuple[str, int, str]]) -> None:
        conn = self._db()

        def upsert() -> None:
            now = self._clock()
            conn.executemany(
                "INSERT OR REPLACE INTO table_streams VALUES (?, ?, ?, ?)",
                [(table_id, seat, stream, now) for table_id, seat, stream in streams],
            )

        await self._run(lambda: _write(conn, upsert))
        self._after_write()

    async def table_stream_closed(self, table_id: str, seat: int, stream: str) -> None:
        conn = self._db()

        def close() -> None:
            conn.execute(
                "DELETE FROM table_streams WHERE table_id = ? AND seat = ? AND stream = ?",
                (table_id, seat, stream),
            )
            conn.execute(
                "INSERT OR REPLACE INTO table_streams VALUES (?, ?, '', ?)",
                (table_id, seat, self._clock()),
            )

        await self._run(lambda: _write(conn, close))
        self._after_write()

    async def table_streams(self, table_ids: Sequence[str]) -> dict[str, list[StreamSeen]]:
        conn = self._db()
        ids = list(table_ids)

        def read() -> dict[str, list[StreamSeen]]:
            found: dict[str, list[StreamSeen]] = {table_id: [] for table_id in ids}
            marks = ", ".join("?" * len(ids))
            rows = conn.execute(
                "SELECT table_id, seat, seen_at, stream != '' FROM table_streams"
                f" WHERE table_id IN ({marks})",
                ids,
            )
            for table_id, seat, seen_at, open_ in rows:
                found[table_id].append(StreamSeen(seat, seen_at, bool(open_)))
            return found

        return await self._run(read)

    async def take_allowance(self, buckets: Sequence[tuple[str, int]], window: int) -> float:
        conn = self._db()

        names = [bucket for bucket, _ in buckets]
        marks = ", ".join("?" * len(names))

        def take() -> float:
            now = self._clock()
            until = window_end(now, window)
            taken = dict(conn.execute(
                f"SELECT bucket, taken FROM rate_counts WHERE until = ? AND bucket IN ({marks})",
                (until, *names),
            ).fetchall())
            if any(taken.get(bucket, 0) >= limit for bucket, limit in buckets):
                return until - now
            # A row of an earlier window starts again at 1 (SET reads the row's old values).
            conn.executemany(
                "INSERT INTO rate_counts (bucket, until, taken) VALUES (?, ?, 1)"
                " ON CONFLICT (bucket) DO UPDATE SET until = excluded.until,"
                " taken = CASE WHEN until = excluded.until THEN taken + 1 ELSE 1 END",
                [(bucket, until) for bucket in names],
            )
            return 0.0

        wait = await self._run(lambda: _write(conn, take))
        if not wait:
            self._after_write()
        return wait

    async def purge_expired(self) -> int:
        self._db()
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, self._purge)
        except sqlite3.Error as exc:
            raise StoreError(f"SQLite purge failed: {exc}") from exc

    async def ping(self) -> None:
        conn = self._db()

        def read() -> None:
            conn.execute("SELECT 1 FROM games LIMIT 1").fetchall()

        # Reads go on while another process holds the write lock, but no move could be saved:
        # taking the write lock (and writing nothing) tells.
        await self._run(lambda: _write(conn, read), PING_GIVE_UP)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        # The executor runs jobs in order: once this one is done no maintenance is left.
        await asyncio.get_running_loop().run_in_executor(self._executor, lambda: None)
        self._executor.shutdown(wait=True)
        self._close_connections()

    # -- maintenance (on the maintenance thread, or at open) -------------------------------

    def _close_connections(self) -> None:
        for conn in (self._conn, self._maint):
            if conn is not None:
                conn.close()
        self._conn = self._maint = None

    def _after_write(self) -> None:
        self._writes_since_checkpoint += 1
        purge_due = self._clock() >= self._next_purge
        if self._writes_since_checkpoint < CHECKPOINT_EVERY and not purge_due:
            return
        # A concurrent future knows it is done as soon as the thread is, even before the loop
        # next runs; the job is not awaited (nobody should wait for it), it logs its failure.
        if self._maintenance is not None and not self._maintenance.done():
            return
        self._writes_since_checkpoint = 0
        self._maintenance = self._executor.submit(self._maintain, purge_due)
        self._maintenance.add_done_callback(_log_failure)

    def _maintain(self, purge: bool) -> None:
        if purge:
            self._purge()
        assert self._maint is not None
        # PASSIVE copies the WAL into the database without holding anyone up. If writes kept
        # coming meanwhile it may never catch up, and the WAL only starts over once it has:
        # past WAL_RESTART_FRAMES, RESTART holds writers off (they wait on the loop, see _run)
        # until all is copied, so the WAL cannot grow without end.
        _, frames, _ = self._maint.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        if frames > WAL_RESTART_FRAMES:
            self._maint.execute("PRAGMA wal_checkpoint(RESTART)").fetchall()

    def _purge(self) -> int:
        conn = self._maint
        if conn is None:
            raise sqlite3.ProgrammingError("the store is closed")
        cutoff = self._clock() - self._ttl
        self._next_purge = self._clock() + PURGE_EVERY

        # Games have no index by age (every move would update it, doubling what a move
        # writes): the purge walks the table once, in rowid order, from where its last batch
        # stopped.
        walked = 0

        def games_batch() -> int:
            nonlocal walked
            rows = conn.execute(
                "SELECT rowid, game_id FROM games WHERE rowid > ? AND updated_at < ?"
                " ORDER BY rowid LIMIT ?",
                (walked, cutoff, PURGE_BATCH),
            ).fetchall()
            if rows:
                walked = rows[-1][0]
            ids = [(game_id,) for _, game_id in rows]
            conn.executemany("DELETE FROM current_games WHERE game_id = ?", ids)
            conn.executemany("DELETE FROM games WHERE game_id = ?", ids)
            return len(ids)

        def expired(table: str, key: str, condition: str, time: float) -> Callable[[], int]:
            """A batch of ``table``'s rows whose ``condition`` holds at ``time``."""
            statement = (f"DELETE FROM {table} WHERE {key} IN"
                         f" (SELECT {key} FROM {table} WHERE {condition} LIMIT ?)")
            return lambda: conn.execute(statement, (time, PURGE_BATCH)).rowcount

        now = self._clock()
        profiles_batch = expired("profiles", "rowid", "updated_at < ?", cutoff)
        board_rows_batch = expired(
            "board_rows", "rowid", "board IN (SELECT board FROM boards WHERE keep_until < ?)", now
        )
        tallies_batch = expired(
            "board_tallies", "board",
            "board IN (SELECT board FROM boards WHERE keep_until < ?)", now,
        )
        boards_batch = expired("boards", "board", "keep_until < ?", now)
        tables_batch = expired("tables", "rowid", "updated_at < ?", cutoff)
        streams_batch = expired("table_streams", "rowid", "seen_at < ?", cutoff)
        rates_batch = expired("rate_counts", "bucket", "until <= ?", now)  # the window is over

        removed = 0
        # Small transactions, so the other connections' writes get in between.
        for batch in (games_batch, profiles_batch, board_rows_batch, tables_batch):
            while count := _write(conn, batch):
                removed += count
        # Not counted: a board's entry and a table's streams go with their rows, and rate
        # counts are no one's data.
        for batch in (tallies_batch, boards_batch, streams_batch, rates_batch):
            while _write(conn, batch):
                pass
        return removed


def _log_failure(future: Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.error("SQLite store maintenance failed", exc_info=future.exception())
