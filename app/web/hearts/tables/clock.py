"""The table clock: each process watches the tables it has served for the moment something is
due without anyone asking, and then has it done (service.clock_tick): a turn that ran past its
limit (the Normal bot plays for the awaited player), a player who has gone (their page has
had no event stream open for the grace period of service.Waits: away, the Normal bot plays for
them), and each turn of a player who is away, at the bots' pace (service.Table.bot_due).

Several processes may watch one table (its players' requests and streams reach any instance):
each tries, the compare-and-set on the table's version lets one through, and the others find
nothing due any more. A process learns a table's turn deadline from every change it makes and
every view it sends, and who may be gone from the presence its event streams read every few
seconds and from each stream that closes; so a table is watched as long as anyone is looking.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from app.logs import detached_task
from app.store import GameStore, StoreError
from app.web.errors import Busy
from app.web.games import GameNotFound
from app.web.hearts.tables import service
from app.web.hearts.tables.service import Presence, Table, TableRefused, Waits
from app.web.hearts.tables.streams import OpenStreams

logger = logging.getLogger(__name__)

TICK = 0.25  # how often the watched times are looked at


class TableClock:
    def __init__(self, store: GameStore, now: Callable[[], float], waits: Waits) -> None:
        self._store = store
        self._now = now
        self.waits = waits
        self._deadlines: dict[str, float] = {}  # the turn limits and the away players' turns
        self._gone_checks: dict[str, float] = {}  # when a player without a stream may be gone
        self._task: asyncio.Task[None] | None = None
        self.streams = OpenStreams(store, now, waits)  # the tables' event streams open here

    def note(self, table: Table, presence: Presence | None = None) -> None:
        """Watch ``table``'s next due time as it is now (the turn limit, an away player's turn;
        none: stop watching it) and, given its presence, when its next player without a stream
        will be gone."""
        deadline = table.due()
        if deadline is None:
            self._deadlines.pop(table.table_id, None)
        else:
            self._deadlines[table.table_id] = deadline
        if presence is not None:
            gone = table.next_gone(presence)
            if gone is None:
                self._gone_checks.pop(table.table_id, None)
            else:
                self._gone_checks[table.table_id] = gone
        self._start()

    def check_gone_at(self, table_id: str, when: float) -> None:
        """Look at the table's presence at ``when`` (a stream of it closed here)."""
        self._gone_checks[table_id] = min(when, self._gone_checks.get(table_id, when))
        self._start()

    def _start(self) -> None:
        if (self._deadlines or self._gone_checks) and (self._task is None or self._task.done()):
            self._task = detached_task(self._run())

    async def _run(self) -> None:
        while self._deadlines or self._gone_checks:
            await asyncio.sleep(TICK)
            now = self._now()
            due = {t for t, at in (*self._deadlines.items(), *self._gone_checks.items())
                   if at <= now}
            for table_id in due:
                await self.tick(table_id, now)

    async def tick(self, table_id: str, now: float) -> None:
        self._gone_checks.pop(table_id, None)  # noted again below while someone may go
        try:
            present = await service.presence(self._store, table_id, now, self.waits)
            table = await service.change(
                self._store, table_id, None, service.clock_tick(now, present), self._now,
                slow=True,
            )
        except TableRefused as refused:  # nothing due any more: another process or a player acted
            table = refused.table
        except GameNotFound:
            self._deadlines.pop(table_id, None)
            return
        except (StoreError, Busy):  # tried again a moment later
            logger.warning("the clock of table %s could not act yet", table_id)
            self.check_gone_at(table_id, now + 1.0)
            return
        self.note(table, present)

    async def stop(self) -> None:
        await self.streams.stop()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
