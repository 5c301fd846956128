"""Players at a table through the JSON API, each with its own cookie and its own event
stream."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx


@dataclass
class Player:
    client: httpx.AsyncClient
    table_id: str = ""
    events: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    ids: list[int] = field(default_factory=list)
    arrived: asyncio.Condition = field(default_factory=asyncio.Condition)
    listener: asyncio.Task | None = None
    # Where its table's routes are: a watcher through the watch link has /api/hearts/watch and
    # the watch code for table_id.
    prefix: str = "/api/hearts/tables"

    @classmethod
    def at(cls, base_url: str) -> Player:
        return cls(httpx.AsyncClient(base_url=base_url, timeout=30))

    def url(self, verb: str = "") -> str:
        return f"{self.prefix}/{self.table_id}" + (f"/{verb}" if verb else "")

    async def post(self, verb: str, body: dict | None = None) -> httpx.Response:
        return await self.client.post(self.url(verb), json=body)

    async def view(self) -> dict[str, Any]:
        response = await self.client.get(self.url())
        response.raise_for_status()
        return response.json()

    def listen(self, query: str = "", last_event_id: int | None = None) -> None:
        """Open the event stream; with ``last_event_id``, as EventSource reconnects."""
        headers = {} if last_event_id is None else {"last-event-id": str(last_event_id)}
        self.listener = asyncio.create_task(self._listen(query, headers))

    async def _listen(self, query: str, headers: dict[str, str]) -> None:
        async with self.client.stream("GET", self.url("events") + query,
                                      headers=headers) as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            fields: dict[str, str] = {}
            async for line in stream.aiter_lines():
                if line:
                    name, _, value = line.partition(":")
                    fields[name] = value.strip()
                    continue
                if "data" in fields:  # a blank line ends an event (comments have no data)
                    async with self.arrived:
                        self.events.append((time.monotonic(), json.loads(fields["data"])))
                        self.ids.append(int(fields.get("id", "-1")))
                        self.arrived.notify_all()
                fields = {}

    async def reached(self, version: int, timeout: float = 10.0) -> float:
        """When this player's stream brought an event of ``version`` or later."""
        async with self.arrived:
            await asyncio.wait_for(
                self.arrived.wait_for(lambda: any(e["version"] >= version for _, e in self.events)),
                timeout,
            )
            return next(t for t, e in self.events if e["version"] >= version)

    async def seen(
        self, wanted: Callable[[dict[str, Any]], bool], timeout: float = 10.0, start: int = 0
    ) -> dict[str, Any]:
        """The first event of this player's stream, from its ``start``-th, that is ``wanted``."""

        def found() -> list[dict[str, Any]]:
            return [e for _, e in self.events[start:] if wanted(e)]

        async with self.arrived:
            await asyncio.wait_for(self.arrived.wait_for(found), timeout)
            return found()[0]

    async def stop_listening(self) -> None:
        """Close the event stream, as a page does when it is closed or hidden."""
        if self.listener is not None:
            self.listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, httpx.HTTPError):
                await self.listener
            self.listener = None

    async def close(self) -> None:
        await self.stop_listening()
        await self.client.aclose()
