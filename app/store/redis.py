"""The shared store: Redis, for several app instances (redis-py's asyncio client).

Keys (all under the prefix, `cardroom:` by default):
- `game:{game_id}`       hash: session, kind, version, state (JSON), updated_at
- `current:{session_id}` hash: kind -> game_id of the session's current game of that kind
- `profile:{session_id}` hash: version, data (JSON), updated_at
- `board:{board}:rows`   hash: session -> "{section}|{member}" (one result per session); a
  member is "{arrival, 12 digits}:{session}", so equal orders list by arrival
- `board:{board}:data`   hash: member -> the row (JSON)
- `board:{board}:names`  hash: session -> nickname
- `board:{board}:seq`    integer: the board's last arrival number
- `board:{board}:in:{section}` sorted set: members by order
- `board:{board}:groups:{section}` hash: group -> its rows; `board:{board}:group:{section}:{group}`
  list: its members by arrival
- `table:{table_id}`     hash: version, state (JSON), updated_at
- `streams:{table_id}`   hash: "{seat}:{stream}" -> when that open event stream was last heard of;
  "{seat}:" -> when the seat's last stream closed
- `rate:{bucket}:{until}` integer: a rate-limit bucket's requests in the window ending at
  `until` (expires a window after its first request, so once its window is over)
- channel `table-changed:{table_id}`: the new version, published by each table write; every
  process listens on one pattern subscription and wakes its own waiters (app/store/feed.py)

Every key expires `ttl_days` after its last write, and every write sets the expiry again; a
game's writes also keep its session's `current` hash alive. Redis drops expired keys itself, so
`purge_expired()` has nothing to do. Compare-and-set runs as a small Lua script, which Redis
executes atomically: no other command can come between the version check and the write.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from app.logs import detached_task
from app.metrics import STORE_ERRORS
from app.store import (
    SECONDS_PER_DAY,
    BoardRow,
    Clock,
    GameUnreadable,
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

# KEYS: the game, the session's current-game hash.
# ARGV: session id, expected version, new state, updated_at, ttl in seconds.
COMPARE_AND_SET = """
local game = redis.call('HMGET', KEYS[1], 'session', 'version', 'kind')
if game[1] ~= ARGV[1] or tonumber(game[2]) ~= tonumber(ARGV[2]) then
    return false
end
local version = tonumber(game[2]) + 1
redis.call('HSET', KEYS[1], 'version', version, 'state', ARGV[3], 'updated_at', ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('EXPIRE', KEYS[2], ARGV[5])
return {version, game[3]}
"""

# KEYS: the table. ARGV: expected version, new state, updated_at, ttl in seconds, channel.
TABLE_COMPARE_AND_SET = """
local version = redis.call('HGET', KEYS[1], 'version')
if not version or tonumber(version) ~= tonumber(ARGV[1]) then
    return false
end
version = tonumber(version) + 1
redis.call('HSET', KEYS[1], 'version', version, 'state', ARGV[2], 'updated_at', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('PUBLISH', ARGV[5], version)
return version
"""

# KEYS: the game, the session's current-game hash.
# ARGV: session id, kind, state, updated_at, ttl in seconds, game id.
CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then
    return 0
end
redis.call('HSET', KEYS[1], 'session', ARGV[1], 'kind', ARGV[2], 'version', 1,
           'state', ARGV[3], 'updated_at', ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[6])
redis.call('EXPIRE', KEYS[2], ARGV[5])
return 1
"""
# KEYS: the profile. ARGV: expected version (0: none yet), new data, updated_at, ttl in seconds.
PUT_PROFILE = """
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if version ~= tonumber(ARGV[1]) then
    return 0
end
redis.call('HSET', KEYS[1], 'version', version + 1, 'data', ARGV[2], 'updated_at', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""

# KEYS: the board's rows, data, seq, section, groups, group, names.
# ARGV: session, row (JSON), section, order, group, seconds to keep the board at least, nickname
# ('' for none). A board lives as long as its longest-kept row needs: the TTLs only ever grow.
ADD_RESULT = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
    return 0
end
local member = string.format('%012d', redis.call('INCR', KEYS[3])) .. ':' .. ARGV[1]
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3] .. '|' .. member)
redis.call('HSET', KEYS[2], member, ARGV[2])
redis.call('ZADD', KEYS[4], ARGV[4], member)
redis.call('HINCRBY', KEYS[5], ARGV[5], 1)
redis.call('RPUSH', KEYS[6], member)
if ARGV[7] ~= '' then
    redis.call('HSET', KEYS[7], ARGV[1], ARGV[7])
end
for _, key in ipairs(KEYS) do
    if redis.call('TTL', key) < tonumber(ARGV[6]) then
        redis.call('EXPIRE', key, ARGV[6])
    end
end
return 1
"""

# KEYS: the board's rows, names. ARGV: session, nickname. Only a session with a row is named.
RENAME_RESULTS = """
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 or redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
    return 0
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if redis.call('TTL', KEYS[2]) < ttl then
    redis.call('EXPIRE', KEYS[2], ttl)
end
return 1
"""

# KEYS: the buckets' counters in this window. ARGV: the window in seconds, then each limit.
# Takes one from every bucket only when none is at its limit.
TAKE_ALLOWANCE = """
for i, key in ipairs(KEYS) do
    if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[i + 1]) then
        return 0
    end
end
for _, key in ipairs(KEYS) do
    if redis.call('INCR', key) == 1 then
        redis.call('EXPIRE', key, ARGV[1])
    end
end
return 1
"""

# Fail a call rather than hang a request when Redis stops answering.
SOCKET_TIMEOUT = 5.0
MAX_CONNECTIONS = 50  # per process; more requests in flight queue for a connection
# Published versions wake the waiters at once; reading them again only covers a message lost
# while subscribing again (every table is read at once when the subscription is back, too).
TABLE_POLL = 10.0
RESUBSCRIBE_DELAY = 1.0


def _profile(version: str | None, data: str | None) -> tuple[int, dict[str, Any]]:
    """A profile as get_profile answers it, from its hash's version and data."""
    if version is None or data is None:
        return 0, {}
    return int(version), load_object(data) or {}


def _game(game_id: str, fields: dict[str, str], session_id: str) -> StoredGame | None:
    if fields.get("session") != session_id:
        return None
    try:
        kind, version, updated_at = fields["kind"], int(fields["version"]), fields["updated_at"]
        return stored_game(game_id, kind, version, fields["state"], float(updated_at))
    except (KeyError, ValueError) as exc:
        raise GameUnreadable(f"game {game_id}: {exc!r}") from exc


@asynccontextmanager
async def _errors() -> AsyncIterator[None]:
    try:
        yield
    except RedisError as exc:
        STORE_ERRORS.labels("redis").inc()
        raise StoreError(f"Redis store: {exc}") from exc


class RedisStore:
    def __init__(
        self, url: str, ttl_seconds: int, *, clock: Clock = time.time, prefix: str = "cardroom:"
    ) -> None:
        # redis-py would quietly use db 0 for a path that is not a number.
        database = urlsplit(url).path.strip("/")
        if database and not database.isdigit():
            raise StoreError(f"bad Redis store URL {url!r}: the path must be a database number")
        try:
            # A blocking pool: a burst of requests waits for a free connection instead of
            # failing with "Too many connections" as the default pool does past its limit.
            pool = aioredis.BlockingConnectionPool.from_url(
                url,
                max_connections=MAX_CONNECTIONS,
                timeout=SOCKET_TIMEOUT,
                decode_responses=True,
                socket_timeout=SOCKET_TIMEOUT,
                socket_connect_timeout=SOCKET_TIMEOUT,
            )
            self._redis = aioredis.Redis.from_pool(pool)
        except (ValueError, RedisError) as exc:
            raise StoreError(f"bad Redis store URL {url!r}: {exc}") from exc
        self._ttl = ttl_seconds
        self._clock = clock
        self._prefix = prefix
        self._cas = self._redis.register_script(COMPARE_AND_SET)
        self._create = self._redis.register_script(CREATE)
        self._put_profile = self._redis.register_script(PUT_PROFILE)
        self._add_result = self._redis.register_script(ADD_RESULT)
        self._rename_results = self._redis.register_script(RENAME_RESULTS)
        self._table_cas = self._redis.register_script(TABLE_COMPARE_AND_SET)
        self._take_allowance = self._redis.register_script(TAKE_ALLOWANCE)
        self._waiters = TableWaiters(TABLE_POLL, self._table_version)
        self._listener: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()

    def _game_key(self, game_id: str) -> str:
        return f"{self._prefix}game:{game_id}"

    def _current_key(self, session_id: str) -> str:
        return f"{self._prefix}current:{session_id}"

    def _profile_key(self, session_id: str) -> str:
        return f"{self._prefix}profile:{session_id}"

    async def get(self, session_id: str, game_id: str) -> StoredGame | None:
        async with _errors():
            fields = await self._redis.hgetall(self._game_key(game_id))
        return _game(game_id, fields, session_id)

    async def get_shared(self, game_id: str) -> StoredGame | None:
        async with _errors():
            fields = await self._redis.hgetall(self._game_key(game_id))
        return _game(game_id, fields, fields.get("session")) if fields else None

    async def create(self, session_id: str, kind: str, state: dict[str, Any]) -> StoredGame:
        return await create_new(self.create_named, session_id, kind, state)

    async def create_named(
        self, session_id: str, kind: str, state: dict[str, Any], game_id: str
    ) -> StoredGame | None:
        game = StoredGame(game_id, kind, 1, state, self._clock())
        keys = [self._game_key(game_id), self._current_key(session_id)]
        args = [session_id, kind, dump_json(state), repr(game.updated_at), self._ttl, game_id]
        async with _errors():
            # One script: the game and the pointer to it appear together, or not at all.
            created = await self._create(keys=keys, args=args)
        return game if created else None

    async def compare_and_set(
        self, session_id: str, game_id: str, version: int, state: dict[str, Any]
    ) -> StoredGame | None:
        now = self._clock()
        async with _errors():
            result = await self._cas(
                keys=[self._game_key(game_id), self._current_key(session_id)],
                args=[session_id, version, dump_json(state), repr(now), self._ttl],
            )
        if result is None:
            return None
        new_version, kind = result
        return StoredGame(game_id, kind, int(new_version), state, now)

    async def current(self, session_id: str, kind: str) -> StoredGame | None:
        async with _errors():
            game_id = await self._redis.hget(self._current_key(session_id), kind)
            if game_id is None:
                return None
            fields = await self._redis.hgetall(self._game_key(game_id))
        return _game(game_id, fields, session_id)

    async def get_profile(self, session_id: str) -> tuple[int, dict[str, Any]]:
        async with _errors():
            version, data = await self._redis.hmget(
                self._profile_key(session_id), ["version", "data"]
            )
        return _profile(version, data)

    async def put_profile(self, session_id: str, version: int, data: dict[str, Any]) -> bool:
        async with _errors():
            stored = await self._put_profile(
                keys=[self._profile_key(session_id)],
                args=[version, dump_json(data), repr(self._clock()), self._ttl],
            )
        return stored == 1

    def _board_key(self, board: str, part: str) -> str:
        return f"{self._prefix}board:{board}:{part}"

    async def add_result(
        self, board: str, session_id: str, row: dict[str, Any], nickname: str | None, *,
        section: str, order: int, group: str, keep_days: int,
    ) -> bool:
        keys = [
            self._board_key(board, part)
            for part in ("rows", "data", "seq", f"in:{section}", f"groups:{section}",
                         f"group:{section}:{group}", "names")
        ]
        keep = max(keep_days * SECONDS_PER_DAY, self._ttl)
        args = [session_id, dump_json(row), section, order, group, keep, nickname or ""]
        async with _errors():
            return bool(await self._add_result(keys=keys, args=args))

    async def _rows_of(self, board: str, members: Sequence[str]) -> list[BoardRow]:
        """The rows of ``members``, in their order; one that cannot be read is left out."""
        if not members:
            return []
        sessions = [member.partition(":")[2] for member in members]
        async with _errors():
            texts = await self._redis.hmget(self._board_key(board, "data"), members)
            names = await self._redis.hmget(self._board_key(board, "names"), sessions)
        found = []
        for session_id, name, text in zip(sessions, names, texts, strict=True):
            row = None if text is None else load_object(text)
            if row is not None:
                found.append(BoardRow(session_id, name, row))
        return found

    async def results_page(
        self, board: str, section: str, offset: int, limit: int
    ) -> list[BoardRow]:
        key = self._board_key(board, f"in:{section}")
        async with _errors():
            members = await self._redis.zrange(key, offset, offset + limit - 1)
        return await self._rows_of(board, members)

    async def results_count(self, board: str, section: str) -> int:
        async with _errors():
            return int(await self._redis.zcard(self._board_key(board, f"in:{section}")))

    async def result_groups(self, board: str, section: str) -> dict[str, int]:
        async with _errors():
            found = await self._redis.hgetall(self._board_key(board, f"groups:{section}"))
        return {group: int(count) for group, count in found.items()}

    async def group_page(
        self, board: str, section: str, group: str, offset: int, limit: int
    ) -> list[BoardRow]:
        key = self._board_key(board, f"group:{section}:{group}")
        async with _errors():
            members = await self._redis.lrange(key, offset, offset + limit - 1)
        return await self._rows_of(board, members)

    async def result_of(
        self, board: str, session_id: str, *, place: bool = True
    ) -> BoardRow | None:
        async with _errors():
            entry = await self._redis.hget(self._board_key(board, "rows"), session_id)
            if entry is None:
                return None
            section, _, member = entry.partition("|")
            # Its rank in the section (O(log n)); None when the section's key has expired.
            rank = await self._redis.zrank(self._board_key(board, f"in:{section}"), member)
        rows = await self._rows_of(board, [member])
        if rank is None or not rows:
            return None
        found = rows[0]
        return BoardRow(session_id, found.nickname, found.row, section, rank + 1 if place else 0)

    async def rename_results(self, board: str, session_id: str, nickname: str) -> None:
        keys = [self._board_key(board, "rows"), self._board_key(board, "names")]
        async with _errors():
            await self._rename_results(keys=keys, args=[session_id, nickname])

    def _table_key(self, table_id: str) -> str:
        return f"{self._prefix}table:{table_id}"

    def _table_channel(self, table_id: str) -> str:
        return f"{self._prefix}table-changed:{table_id}"

    async def create_table(self, state: dict[str, Any]) -> StoredTable:
        table = StoredTable(new_table_id(), 1, state, self._clock())
        key = self._table_key(table.table_id)
        fields = {"version": 1, "state": dump_json(state), "updated_at": repr(table.updated_at)}
        async with _errors():
            pipe = self._redis.pipeline(transaction=True)
            pipe.hset(key, mapping=fields)
            pipe.expire(key, self._ttl)
            await pipe.execute()
        return table

    async def get_table(self, table_id: str) -> StoredTable | None:
        async with _errors():
            fields = await self._redis.hgetall(self._table_key(table_id))
        state = load_object(fields["state"]) if fields else None
        if state is None:  # missing, or a state that cannot be read: the table is gone
            return None
        return StoredTable(table_id, int(fields["version"]), state, float(fields["updated_at"]))

    async def table_compare_and_set(
        self, table_id: str, version: int, state: dict[str, Any]
    ) -> StoredTable | None:
        now = self._clock()
        async with _errors():
            result = await self._table_cas(
                keys=[self._table_key(table_id)],
                args=[version, dump_json(state), repr(now), self._ttl,
                      self._table_channel(table_id)],
            )
        if result is None:
            return None
        self._waiters.wake(table_id, int(result))
        return StoredTable(table_id, int(result), state, now)

    def _streams_key(self, table_id: str) -> str:
        return f"{self._prefix}streams:{table_id}"

    async def table_streams_seen(self, streams: Sequence[tuple[str, int, str]]) -> None:
        now = repr(self._clock())
        async with _errors():
            pipe = self._redis.pipeline(transaction=False)
            for table_id, seat, stream in streams:
                key = self._streams_key(table_id)
                pipe.hset(key, f"{seat}:{stream}", now)
                pipe.expire(key, self._ttl)
            await pipe.execute()

    async def table_stream_closed(self, table_id: str, seat: int, stream: str) -> None:
        key = self._streams_key(table_id)
        async with _errors():
            pipe = self._redis.pipeline(transaction=True)
            pipe.hdel(key, f"{seat}:{stream}")
            pipe.hset(key, f"{seat}:", repr(self._clock()))
            pipe.expire(key, self._ttl)
            await pipe.execute()

    async def table_streams(self, table_ids: Sequence[str]) -> dict[str, list[StreamSeen]]:
        ids = list(table_ids)
        async with _errors():
            pipe = self._redis.pipeline(transaction=False)
            for table_id in ids:
                pipe.hgetall(self._streams_key(table_id))
            answers = await pipe.execute()
        found: dict[str, list[StreamSeen]] = {}
        for table_id, fields in zip(ids, answers, strict=True):
            seen = found[table_id] = []
            for name, at in fields.items():
                seat, _, stream = name.partition(":")
                with contextlib.suppress(ValueError):  # a field written by something else
                    seen.append(StreamSeen(int(seat), float(at), bool(stream)))
        return found

    async def _table_version(self, table_id: str) -> int | None:
        async with _errors():
            version = await self._redis.hget(self._table_key(table_id), "version")
        return None if version is None else int(version)

    async def wait_table(self, table_id: str, after: int, timeout: float) -> int | None:
        if self._listener is None or self._listener.done():
            self._listener = detached_task(self._listen())
        if not self._subscribed.is_set():
            # A change published before the subscription would only be seen by the poll.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._subscribed.wait(), min(timeout, SOCKET_TIMEOUT))
        return await self._waiters.wait(table_id, after, timeout)

    async def _listen(self) -> None:
        """One pattern subscription per process: each published table change wakes the
        waiters of that table here."""
        prefix = self._table_channel("")
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(prefix + "*")
                self._subscribed.set()
                # What was published while not subscribed was missed: read every table again.
                self._waiters.wake_all()
                async for message in pubsub.listen():
                    channel, data = message.get("channel"), message.get("data")
                    if isinstance(channel, str) and channel.startswith(prefix):
                        version = int(data) if isinstance(data, str) and data.isdigit() else None
                        self._waiters.wake(channel[len(prefix) :], version)
            except RedisError as exc:
                logger.warning("table change feed lost (%s); subscribing again", exc)
            finally:
                self._subscribed.clear()
                with contextlib.suppress(RedisError):
                    await pubsub.aclose()
            await asyncio.sleep(RESUBSCRIBE_DELAY)

    async def take_allowance(self, buckets: Sequence[tuple[str, int]], window: int) -> float:
        now = self._clock()
        until = window_end(now, window)
        keys = [f"{self._prefix}rate:{bucket}:{until}" for bucket, _ in buckets]
        async with _errors():
            taken = await self._take_allowance(
                keys=keys, args=[window, *(limit for _, limit in buckets)]
            )
        return 0.0 if taken else until - now

    async def purge_expired(self) -> int:
        # Redis deletes expired keys by itself.
        return 0

    async def ping(self) -> None:
        async with _errors():
            await self._redis.ping()

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
        await self._redis.aclose()
