"""Tables in both backends: shared records with compare-and-set, and the change feed that
wakes a waiter as soon as another store object (another process, in production) writes."""

from __future__ import annotations

import asyncio


async def test_a_table_is_compare_and_set_on_its_version(store):
    table = await store.create_table({"n": 0})
    assert len(table.table_id) >= 22 and table.version == 1
    assert (await store.get_table(table.table_id)).state == {"n": 0}
    first, second = await asyncio.gather(
        store.table_compare_and_set(table.table_id, 1, {"n": 1}),
        store.table_compare_and_set(table.table_id, 1, {"n": 2}),
    )
    assert [first is None, second is None].count(True) == 1
    stored = await store.get_table(table.table_id)
    assert stored.version == 2 and stored.state in ({"n": 1}, {"n": 2})
    assert await store.table_compare_and_set(table.table_id, 1, {"n": 3}) is None
    assert await store.get_table("missing") is None
    assert await store.table_compare_and_set("missing", 1, {}) is None


async def test_waiting_returns_at_once_when_the_table_is_already_past(store):
    table = await store.create_table({})
    assert await store.wait_table(table.table_id, 0, 5.0) == 1
    assert await store.wait_table("missing", 0, 5.0) is None


async def test_a_write_through_another_store_wakes_the_waiter(open_backend):
    watcher, writer = await open_backend(), await open_backend()
    table = await writer.create_table({})
    waiting = asyncio.create_task(watcher.wait_table(table.table_id, 1, 30.0))
    await asyncio.sleep(0.3)
    assert not waiting.done()
    await writer.table_compare_and_set(table.table_id, 1, {"moved": True})
    # Far less than the 30 s the waiter would otherwise wait.
    assert await asyncio.wait_for(waiting, 5.0) == 2


async def test_a_waiter_gives_up_after_its_timeout_with_the_version(store):
    table = await store.create_table({})
    assert await store.wait_table(table.table_id, 1, 0.2) == 1


async def test_a_tables_event_streams_as_last_heard_of(store):
    """Open streams each, and one closed stream per seat (its latest): what presence reads."""
    await store.table_streams_seen([("t1", 0, "a"), ("t1", 0, "b"), ("t1", 2, "c"), ("t2", 1, "d")])
    found = await store.table_streams(["t1", "t2", "t3"])
    assert found["t3"] == []
    assert sorted((s.seat, s.open) for s in found["t1"]) == [(0, True), (0, True), (2, True)]
    assert [(s.seat, s.open) for s in found["t2"]] == [(1, True)]
    await store.table_stream_closed("t1", 0, "a")
    await store.table_stream_closed("t1", 0, "b")
    after = (await store.table_streams(["t1"]))["t1"]
    assert sorted((s.seat, s.open) for s in after) == [(0, False), (2, True)]
    assert all(s.seen_at > 0 for s in after)
