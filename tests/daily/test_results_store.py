"""Results boards in the store: SQLite and Redis alike (one row per session, sections in
order, groups, renames, retention)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator

import pytest
import redis

from app.store import GameStore, open_store
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


async def add(store, board, session, row, *, section="ranked", order=0, group="", keep=30,
              nickname=None) -> bool:
    return await store.add_result(
        board, session, row, nickname, section=section, order=order, group=group, keep_days=keep
    )


def rows_of(found) -> list[tuple[str, dict]]:
    return [(r.session_id, r.row) for r in found]


async def test_a_section_lists_by_order_then_arrival(store):
    board = "hearts:HT1-N-AAAAAAA"
    await add(store, board, "s1", {"n": 1}, order=5)
    await add(store, board, "s2", {"n": 2}, order=3)
    await add(store, board, "s3", {"n": 3}, order=5)
    await add(store, board, "s4", {"n": 4}, order=1, section="apart")
    await add(store, "hearts:HT1-N-AAAAAAB", "s1", {"n": 9})
    page = await store.results_page(board, "ranked", 0, 10)
    assert rows_of(page) == [("s2", {"n": 2}), ("s1", {"n": 1}), ("s3", {"n": 3})]
    assert rows_of(await store.results_page(board, "ranked", 1, 1)) == [("s1", {"n": 1})]
    assert rows_of(await store.results_page(board, "apart", 0, 10)) == [("s4", {"n": 4})]
    assert await store.results_count(board, "ranked") == 3
    assert await store.results_count(board, "apart") == 1
    assert await store.results_page("hearts:HT1-N-ZZZZZZZ", "ranked", 0, 10) == []
    assert await store.results_count("hearts:HT1-N-ZZZZZZZ", "ranked") == 0
    mine = await store.result_of(board, "s3")
    assert (mine.section, mine.place, mine.row) == ("ranked", 3, {"n": 3})
    assert (await store.result_of(board, "s4")).place == 1
    assert await store.result_of(board, "nobody") is None


async def test_a_session_has_one_row_per_board(store):
    board = "heart_to_heart:HH1-W-AAAAAAM"
    assert await add(store, board, "s1", {"n": 1}, order=9)
    assert not await add(store, board, "s1", {"n": 2}, order=0, section="apart")
    assert rows_of(await store.results_page(board, "ranked", 0, 10)) == [("s1", {"n": 1})]
    assert await store.results_count(board, "apart") == 0
    assert await add(store, "other", "s1", {"n": 3})


async def test_groups_are_tallied_and_listed_by_arrival(store):
    board = "hearts:daily:2027-01-15"
    for n, group in enumerate(["0,1", "5,5", "0,1", "0,1"]):
        await add(store, board, f"s{n}", {"n": n}, group=group)
    await add(store, board, "x", {"n": 9}, group="0,1", section="apart")
    assert await store.result_groups(board, "ranked") == {"0,1": 3, "5,5": 1}
    page = await store.group_page(board, "ranked", "0,1", 1, 5)
    assert [r.session_id for r in page] == ["s2", "s3"]
    assert await store.result_groups("none", "ranked") == {}


async def test_a_rename_changes_only_that_sessions_row_on_that_board(store):
    board = "heart_to_heart:HH1-W-AAAAAAM"
    await add(store, board, "s1", {"won": True}, order=1)
    await add(store, board, "s2", {"won": False}, order=2, nickname="B")
    await add(store, "other", "s1", {}, nickname="Old")
    await store.rename_results(board, "s1", 'A "quoted" <name> ♥')
    await store.rename_results(board, "nobody", "Ghost")
    page = await store.results_page(board, "ranked", 0, 10)
    assert [(r.session_id, r.nickname) for r in page] == [
        ("s1", 'A "quoted" <name> ♥'), ("s2", "B"),
    ]
    assert (await store.result_of("other", "s1")).nickname == "Old"
    assert await store.result_of(board, "nobody") is None


async def test_sqlite_keeps_a_daily_board_ninety_days_and_others_thirty(tmp_path, clock):
    store = SqliteStore(str(tmp_path / "c.sqlite3"), 30 * DAY, clock=clock)
    try:
        await add(store, "daily", "s", {"n": 1}, keep=90)
        await add(store, "plain", "s", {"n": 1}, keep=30)
        clock.now += 31 * DAY
        assert await store.results_page("plain", "ranked", 0, 9) == []
        assert await store.results_count("daily", "ranked") == 1
        # A new row keeps the whole board alive: the older row stays with it.
        await add(store, "daily", "t", {"n": 2}, keep=30)
        clock.now += 50 * DAY
        await store.purge_expired()
        assert [r.row["n"] for r in await store.results_page("daily", "ranked", 0, 9)] == [1, 2]
        clock.now += 10 * DAY
        assert await store.results_count("daily", "ranked") == 0
    finally:
        await store.close()


async def test_sqlite_keeps_results_as_long_as_games_when_that_is_longer(tmp_path, clock):
    store = SqliteStore(str(tmp_path / "c.sqlite3"), 60 * DAY, clock=clock)
    try:
        await add(store, "plain", "s", {"n": 1}, keep=30)
        clock.now += 59 * DAY
        assert await store.results_count("plain", "ranked") == 1
    finally:
        await store.close()


async def test_redis_board_ttl_grows_and_never_shrinks(clock, prefix, redis_url):
    store = open_store(redis_url, 30, clock=clock, redis_prefix=prefix)
    client = redis.Redis.from_url(redis_url)
    try:
        await add(store, "daily", "s", {"n": 1}, keep=90)
        key = f"{prefix}board:daily:rows"
        assert 89 * DAY < client.ttl(key) <= 90 * DAY
        await add(store, "daily", "t", {"n": 2}, keep=30)
        assert client.ttl(key) > 89 * DAY
        await add(store, "plain", "s", {"n": 1}, keep=30)
        assert 29 * DAY < client.ttl(f"{prefix}board:plain:rows") <= 30 * DAY
    finally:
        await store.close()
        for key in client.scan_iter(match=f"{prefix}*"):
            client.delete(key)
        client.close()


async def test_redis_keeps_results_as_long_as_games_when_that_is_longer(clock, prefix, redis_url):
    store = open_store(redis_url, 60, clock=clock, redis_prefix=prefix)
    client = redis.Redis.from_url(redis_url)
    try:
        await add(store, "plain", "s", {"n": 1}, keep=30)
        assert client.ttl(f"{prefix}board:plain:rows") > 59 * DAY
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
                    add(first if n % 2 else second, "board", f"s{n}", {"n": n})
                    for n in range(40)
                )
            )
            rows = await first.results_page("board", "ranked", 0, 100)
            assert sorted(r.row["n"] for r in rows) == list(range(40))
            assert await second.results_page("board", "ranked", 0, 100) == rows
        finally:
            await first.close()
            await second.close()
