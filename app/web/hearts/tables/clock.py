"""The turn limit: each process watches the deadlines of the tables it has served and, when
one runs out, has the Normal bot play for the awaited player (service.time_out).

Several processes may watch one table (its players' requests reach any instance): each tries,
the compare-and-set lets one through, and the others find the turn no longer due. A process
learns a table's deadline from every change it makes and every view it sends, so a table is
watched as long as anyone is looking at it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from app.store import GameStore, StoreError
from app.web.games import GameNotFound
from app.web.hearts.tables import service
from app.web.hearts.tables.service import Table, TableRefused
from app.web.hearts.thinking import Busy

logger = logging.getLogger(__name__)

TICK = 0.25  # how often the deadlines are looked at


class TableClock:
    def __init__(self, store: GameStore, now: Callable[[], float]) -> None:
        self._store = store
        self._now = now
        self._deadlines: dict[str, float] = {}
        self._task: asyncio.Task[None] | None = None

    def note(self, table: Table) -> None:
        """Watch ``table``'s deadline as it is now (none: stop watching it)."""
        deadline = table.deadline()
        if deadline is None:
            self._deadlines.pop(table.table_id, None)
            return
        self._deadlines[table.table_id] = deadline
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while self._deadlines:
            await asyncio.sleep(TICK)
            now = self._now()
            for table_id, deadline in list(self._deadlines.items()):
                if deadline <= now:
                    await self.time_out(table_id, now)

    async def time_out(self, table_id: str, now: float) -> None:
        try:
            table = await service.change(
                self._store, table_id, None, service.time_out(now), self._now, slow=True
            )
        except TableRefused as refused:  # not due any more: another process or a player acted
            table = refused.table
        except GameNotFound:
            self._deadlines.pop(table_id, None)
            return
        except (StoreError, Busy):  # tried again on the next tick
            logger.warning("the turn limit of table %s could not be applied yet", table_id)
            return
        self.note(table)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
