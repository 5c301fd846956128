"""Issue 28, capacity: the bots' queue admits by expected waiting time, not by count. A turn is
refused only when the work already admitted, at the recent cost of one piece of work measured
where it ran, would make it wait more than MAX_WAIT_SECONDS for a thread."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace

import pytest

from app.web.errors import Busy
from app.web.hearts import thinking
from app.web.hearts.thinking import MAX_WAIT_SECONDS, Thinking


async def fill(room: Thinking, count: int, gate: threading.Event) -> list[asyncio.Task]:
    tasks = [asyncio.create_task(room.run(gate.wait)) for _ in range(count)]
    await asyncio.sleep(0)  # each task is admitted when it first runs
    return tasks


@pytest.fixture
def room():
    room = Thinking(workers=2)
    yield room
    room.close()


async def test_cheap_turns_are_admitted_many_at_once(room):
    """24 players' turns at once against bots that take 2 ms: no refusal (a count of 10 refused
    most of them)."""
    room.cost = 0.002
    gate = threading.Event()
    tasks = await fill(room, 40, gate)
    try:
        room.check_room()  # 39 ahead of two threads at 2 ms: 39 ms
        assert room.expected_wait() == pytest.approx(39 * 0.002 / 2)
    finally:
        gate.set()
        await asyncio.gather(*tasks)


async def test_a_turn_is_refused_past_the_wait_bound(room):
    room.cost = 0.1
    gate = threading.Event()
    # Work ahead of a new turn, less the two threads free, at 0.1 s over two threads: at
    # MAX_WAIT_SECONDS exactly it is admitted; one more is refused.
    count = int(MAX_WAIT_SECONDS * 2 / 0.1) + 1
    tasks = await fill(room, count, gate)
    try:
        assert room.expected_wait() == pytest.approx(MAX_WAIT_SECONDS)
        room.check_room()
        tasks += await fill(room, 1, gate)
        with pytest.raises(Busy) as busy:
            room.check_room()
        assert busy.value.retry_after == thinking.RETRY_AFTER_SECONDS
        with pytest.raises(Busy):
            await room.run(print)
    finally:
        gate.set()
        await asyncio.gather(*tasks)


async def test_the_cost_is_measured_where_the_work_ran(room, monkeypatch):
    # Submitted, started at once, and done half a second later.
    readings = iter([10.0, 10.0, 10.5])
    monkeypatch.setattr(thinking, "time", SimpleNamespace(monotonic=lambda: next(readings)))
    before = room.cost
    assert await room.run(lambda: 7) == 7
    assert room.cost == pytest.approx(before + thinking.COST_WEIGHT * (0.5 - before))
    room.close()
    assert room.cost == thinking.FIRST_COST_SECONDS  # a new start forgets it
