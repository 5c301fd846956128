"""The tables' event streams open in this process, the presence they make, and what a stream
that resumes missed.

One task per process tells the store, every ``Waits.heartbeat`` seconds and in one call, that
all its seated streams are still open, and reads the presence of every table they watch in one
more; the streams then read the presence from here, so an open stream costs no store call of its
own between the table's changes. A stream that opens or closes says so to the store at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from app.logs import detached_task
from app.metrics import LIVE_TABLES, OPEN_STREAMS
from app.rules.cards import card_text
from app.store import GameStore, StoreError
from app.web.hearts.tables.service import Presence, Table, Waits
from app.web.hearts.tables.watch import WATCHER

logger = logging.getLogger(__name__)

# A Last-Event-ID is the version of the table the client has (a digit string; anything else
# counts as no id); longer than any version could be is no id either.
_VERSION_DIGITS = 16


def held_version(last_event_id: str | None, table: Table) -> int | None:
    """The version a reconnecting client says it has (its ``Last-Event-ID``); None when it
    says none, or one the table has not reached (an id from elsewhere)."""
    if last_event_id is None:
        return None
    digits = last_event_id.strip()
    if not digits.isascii() or not digits.isdigit() or len(digits) > _VERSION_DIGITS:
        return None
    version = int(digits)
    return version if version <= table.version else None


def logged_since(table: Table, after: int) -> list[list[Any]] | None:
    """The table's changes after version ``after``, oldest first, from its log
    (``[version, hand, [[seat, card], ...], was]`` each, ``was`` the hand and phase before the
    change, absent in entries older than it: every change is one version, so these are all
    of them); None when the log no longer reaches back that far. Every instance reads the
    same log from the store, so a stream resumes on any of them."""
    if after >= table.version:
        return []
    changes = [entry for entry in table.log if entry[0] > after]
    if not changes or changes[0][0] != after + 1:
        return None
    return changes


def played_since(table: Table, after: int | None) -> list[dict[str, Any]] | None:
    """The cards played after version ``after`` (the JSON stream's ``played``: each with its
    version, hand, seat and card, in order); None without a version, or when the log no longer
    reaches back that far."""
    changes = None if after is None else logged_since(table, after)
    if changes is None:
        return None
    return [
        {"version": version, "hand": hand, "seat": seat, "card": card_text(card)}
        for version, hand, plays, *_ in changes
        for seat, card in plays
    ]


class OpenStreams:
    def __init__(self, store: GameStore, now: Callable[[], float], waits: Waits) -> None:
        self._store = store
        self._now = now
        self._waits = waits
        self._streams: dict[str, dict[str, int]] = {}  # table -> stream -> seat (or WATCHER)
        self._presence: dict[str, Presence] = {}
        self._task: asyncio.Task[None] | None = None

    async def opened(self, table_id: str, stream: str, seat: int | None) -> None:
        """A stream of ``seat`` (None: a watcher's, counted in the store as seat WATCHER)
        opened here."""
        seat = WATCHER if seat is None else seat
        self._streams.setdefault(table_id, {})[stream] = seat
        OPEN_STREAMS.inc()
        LIVE_TABLES.set(len(self._streams))
        await self._store.table_streams_seen([(table_id, seat, stream)])
        await self._refresh([table_id])
        if self._task is None or self._task.done():
            self._task = detached_task(self._beat())

    async def closed(self, table_id: str, stream: str, seat: int | None) -> None:
        seat = WATCHER if seat is None else seat
        streams = self._streams.get(table_id, {})
        if streams.pop(stream, False) is not False:
            OPEN_STREAMS.dec()
        if not streams:
            self._streams.pop(table_id, None)
            self._presence.pop(table_id, None)
        LIVE_TABLES.set(len(self._streams))
        await self._store.table_stream_closed(table_id, seat, stream)
        if streams:
            await self._refresh([table_id])

    async def presence(self, table_id: str) -> Presence:
        """The table's presence: as last read here while a stream of it is open, else read."""
        known = self._presence.get(table_id)
        if known is not None:
            return known
        found = (await self._store.table_streams([table_id]))[table_id]
        return Presence.of(found, self._now(), self._waits)

    def known(self, table_id: str) -> Presence:
        """The presence last read for a table with a stream open here."""
        known = self._presence.get(table_id)
        return Presence.of((), self._now(), self._waits) if known is None else known

    async def _refresh(self, table_ids: list[str]) -> None:
        found = await self._store.table_streams(table_ids)
        now = self._now()
        for table_id in table_ids:
            if table_id in self._streams:
                self._presence[table_id] = Presence.of(found[table_id], now, self._waits)

    async def _beat(self) -> None:
        while self._streams:
            await asyncio.sleep(self._waits.heartbeat)
            seen = [
                (table_id, seat, stream)
                for table_id, streams in self._streams.items()
                for stream, seat in streams.items()
            ]
            try:
                if seen:
                    await self._store.table_streams_seen(seen)
                await self._refresh(list(self._streams))
            except StoreError as error:  # the next beat tries again
                logger.warning("the open table streams could not be told: %s", error)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
