"""Many requests at once on the Redis store: a burst waits for a connection, it never fails.

Each request in flight holds a Redis connection for its store call. redis-py's default pool
allows 100 connections and *raises* "Too many connections" for the 101st, so a burst of
requests on a busy instance turned into 500s (bench/load.py saw them at 300 players). The
store now uses a blocking pool.
"""

from __future__ import annotations

import asyncio

from app.store import open_store

BURST = 300  # requests in flight at once on one instance: a busy minute, not an attack


async def test_a_burst_of_store_calls_waits_for_connections(redis_db) -> None:
    store = open_store(redis_db, 30)
    try:
        game = await store.create("burst-session", "hearts", {"n": 0})
        found = await asyncio.gather(*(store.get("burst-session", game.game_id)
                                       for _ in range(BURST)))
        assert all(f is not None and f.version == 1 for f in found)
    finally:
        await store.close()
