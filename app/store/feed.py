"""The tables' change feed inside one process: who waits for which table, and waking them.

Per table waited on, the process keeps the last version it knows and one reader: each backend
tells it of a change that reaches this process (SQLite: its own writes; Redis: its own writes
and the versions other instances publish), and the reader also reads the version again every
`poll` seconds, so a change no message announced (SQLite written by another worker process, a
Redis message lost while subscribing again) is still seen within that time. However many
streams wait on a table, the store is asked once per `poll` for it, not once per stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable

from app.logs import detached_task

VersionOf = Callable[[str], Awaitable[int | None]]


class _Watched:
    """One table's known version (None: it does not exist), and the event of its next change."""

    def __init__(self) -> None:
        self.version: int | None = None
        self.changed = asyncio.Event()
        self.read_now = asyncio.Event()
        self.ready = asyncio.Event()  # the version was read once
        self.waiters = 0
        self.reader: asyncio.Task[None] | None = None

    def learn(self, version: int | None) -> None:
        """A version read or announced: news when newer (or when the table came or went)."""
        newer = version is None or self.version is None or version > self.version
        if newer and version != self.version:
            self.version = version
            # The waiters hold this event: set it, and the next change gets a new one.
            self.changed.set()
            self.changed = asyncio.Event()


class TableWaiters:
    def __init__(self, poll: float, version_of: VersionOf) -> None:
        self._poll = poll
        self._version_of = version_of
        self._tables: dict[str, _Watched] = {}

    def wake(self, table_id: str, version: int | None = None) -> None:
        """The table changed (to ``version`` when known; else its version is read again)."""
        watched = self._tables.get(table_id)
        if watched is None:
            return
        if version is None:
            watched.read_now.set()
        else:
            watched.learn(version)

    def wake_all(self) -> None:
        """Every table may have changed unannounced: read their versions again."""
        for watched in self._tables.values():
            watched.read_now.set()

    async def _read(self, table_id: str, watched: _Watched) -> None:
        while watched.waiters:
            watched.read_now.clear()
            with contextlib.suppress(Exception):  # the store is down: try at the next poll
                watched.learn(await self._version_of(table_id))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(watched.read_now.wait(), self._poll)

    async def wait(self, table_id: str, after: int, timeout: float) -> int | None:
        give_up_at = time.monotonic() + timeout
        watched = self._tables.get(table_id)
        first = watched is None
        if watched is None:
            watched = self._tables[table_id] = _Watched()
        watched.waiters += 1
        try:
            if first:
                watched.learn(await self._version_of(table_id))
                watched.ready.set()
            else:
                await asyncio.wait_for(watched.ready.wait(), timeout)
            if watched.reader is None or watched.reader.done():
                watched.reader = detached_task(self._read(table_id, watched))
            while True:
                version = watched.version
                left = give_up_at - time.monotonic()
                if version is None or version > after or left <= 0:
                    return version
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(watched.changed.wait(), left)
        finally:
            watched.waiters -= 1
            if not watched.waiters:
                watched.read_now.set()  # the reader sees nobody waits, and ends
                if self._tables.get(table_id) is watched:
                    del self._tables[table_id]
