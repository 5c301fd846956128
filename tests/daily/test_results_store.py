"""Results boards in the store: SQLite and Redis alike (rows in order, renames, retention)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator

import pytest
import redis

from app.store import MAX_RESULTS, GameStore, open_store
from app.store.sqlite import SqliteStore

DAY = 86_400


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def redis_url(redis_server) -> str:
    return redis_server.url("daily")


@pytest.fixture
def prefix() -> str:
    return f"cardroom-test-{secrets.token_hex(6)}:"


@pytest.fixture(params=["sqlite", "redis"])
async def store(request, tmp_path, clock, prefix, redis_url) -> AsyncIterator[GameStore]:
    url = f"sqlite:///{tmp_path / 'cardroom.sqlite3'}" if request.param == "sqlite" else redis_url
    opened = open_store(url, 30, clock=clock, redis_prefix=prefix)
    yield opened
    await opened.close()
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(match=f"{prefix}*"))
    if keys:
        client.delete(*keys)
    client.close()


async def test_rows_come_back_in_order_with_their_session(store):
    await store.add_result("hearts:HT1-N-AAAAAAA", "s1", {"points": 3, "nickname": None}, 30)
    await store.add_result("hearts:HT1-N-AAAAAAA", "s2", {"points": 0, "nickname": "Lan"}, 30)
    await store.add_result("hearts:HT1-N-AAAAAAB", "s1", {"points": 9, "nickname": None}, 30)
    assert await store.results("hearts:HT1-N-AAAAAAA") == [
        ("s1", {"points": 3, "nickname": None}),
        ("s2", {"points": 0, "nickname": "Lan"}),
    ]
    assert await store.results("hearts:HT1-N-ZZZZZZZ") == []


async def test_a_rename_changes_only_that_sessions_rows_on_that_board(store):
    board = "heart_to_heart:HH1-W-AAAAAAM"
    await store.add_result(board, "s1", {"won": True, "nickname": None}, 30)
    await store.add_result(board, "s2", {"won": False, "nickname": "B"}, 30)
    await store.add_result(board, "s1", {"won": False, "nickname": None}, 30)
    await store.add_result("other", "s1", {"nickname": None}, 30)
    await store.rename_results(board, "s1", 'A "quoted" <name> ♥')
    assert [row["nickname"] for _, row in await store.results(board)] == [
        'A "quoted" <name> ♥', "B", 'A "quoted" <name> ♥',
    ]
    assert await store.results("other") == [("s1", {"nickname": None})]


async def test_a_board_is_capped(store, monkeypatch):
    monkeypatch.setattr("app.store.redis.MAX_RESULTS", 3)
    monkeypatch.setattr("app.store.sqlite.MAX_RESULTS", 3)
    for n in range(5):
        await store.add_result("b", f"s{n}", {"n": n}, 30)
    assert [row["n"] for _, row in await store.results("b")] == [0, 1, 2]
    assert MAX_RESULTS >= 1000


async def test_sqlite_keeps_a_daily_board_ninety_days_and_others_thirty(tmp_path, clock):
    store = SqliteStore(str(tmp_path / "c.sqlite3"), 30 * DAY, clock=clock)
    try:
        await store.add_result("daily", "s", {"n": 1}, 90)
        await store.add_result("plain", "s", {"n": 1}, 30)
        clock.now += 31 * DAY
        assert await store.results("plain") == []
        assert len(await store.results("daily")) == 1
        # A new row keeps the whole board alive: the older row stays with it.
        await store.add_result("daily", "t", {"n": 2}, 30)
        clock.now += 50 * DAY
        await store.purge_expired()
        assert [row["n"] for _, row in await store.results("daily")] == [1, 2]
        clock.now += 10 * DAY
        assert await store.results("daily") == []
    finally:
        await store.close()


async def test_sqlite_keeps_results_as_long_as_games_when_that_is_longer(tmp_path, clock):
    store = SqliteStore(str(tmp_path / "c.sqlite3"), 60 * DAY, clock=clock)
    try:
        await store.add_result("plain", "s", {"n": 1}, 30)
        clock.now += 59 * DAY
        assert len(await store.results("plain")) == 1
    finally:
        await store.close()


async def test_redis_board_ttl_grows_and_never_shrinks(clock, prefix, redis_url):
    store = open_store(redis_url, 30, clock=clock, redis_prefix=prefix)
    client = redis.Redis.from_url(redis_url)
    try:
        await store.add_result("daily", "s", {"n": 1}, 90)
        key = f"{prefix}results:daily"
        assert 89 * DAY < client.ttl(key) <= 90 * DAY
        await store.add_result("daily", "t", {"n": 2}, 30)
        assert client.ttl(key) > 89 * DAY
        await store.add_result("plain", "s", {"n": 1}, 30)
        assert 29 * DAY < client.ttl(f"{prefix}results:plain") <= 30 * DAY
    finally:
        await store.close()
        for key in client.scan_iter(match=f"{prefix}*"):
            client.delete(key)
        client.close()


async def test_redis_keeps_results_as_long_as_games_when_that_is_longer(clock, prefix, redis_url):
    store = open_store(redis_url, 60, clock=clock, redis_prefix=prefix)
    client = redis.Redis.from_url(redis_url)
    try:
        await store.add_result("plain", "s", {"n": 1}, 30)
        assert client.ttl(f"{prefix}results:plain") > 59 * DAY
    finally:
        await store.close()
        for key in client.scan_iter(match=f"{prefix}*"):
            client.delete(key)
        client.close()


async def test_two_instances_adding_at_once_lose_no_row(tmp_path, clock, prefix, redis_url):
    """Two store objects on one file or one Redis (two app instances) add rows together."""
    for url in (f"sqlite:///{tmp_path / 'shared.sqlite3'}", redis_url):
        first = open_store(url, 30, clock=clock, redis_prefix=prefix)
        second = open_store(url, 30, clock=clock, redis_prefix=prefix)
        try:
            await asyncio.gather(
                *(
                    (first if n % 2 else second).add_result("board", f"s{n}", {"n": n}, 30)
                    for n in range(40)
                )
            )
            rows = await first.results("board")
            assert sorted(row["n"] for _, row in rows) == list(range(40))
            assert await second.results("board") == rows
        finally:
            await first.close()
            await second.close()
