"""The tables' change feed inside one process: who waits for which table, and waking them.

Each backend wakes the waiters of a table when a change reaches this process (SQLite: its own
writes; Redis: its own writes and what other instances publish). A waiter also reads the
version again every `poll` seconds, so a change no message announced (SQLite written by
another worker process) is still seen within that time.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable


class TableWaiters:
    def __init__(self, poll: float) -> None:
        self._poll = poll
        self._events: dict[str, set[asyncio.Event]] = {}

    def wake(self, table_id: str) -> None:
        for event in self._events.get(table_id, ()):
            event.set()

    async def wait(
        self,
        table_id: str,
        after: int,
        timeout: float,
        version_of: Callable[[str], Awaitable[int | None]],
    ) -> int | None:
        give_up_at = time.monotonic() + timeout
        event = asyncio.Event()
        waiting = self._events.setdefault(table_id, set())
        waiting.add(event)
        try:
            while True:
                # Registered before reading: a change between the read and the wait still wakes.
                event.clear()
                version = await version_of(table_id)
                left = give_up_at - time.monotonic()
                if version is None or version > after or left <= 0:
                    return version
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), min(self._poll, left))
        finally:
            waiting.discard(event)
            if not waiting:
                self._events.pop(table_id, None)
