"""A table's time moved by the test: the app's clock, the pages that keep their event stream
open meanwhile, and the table clock made to look at a table at once."""

from __future__ import annotations

from app.settings import Settings

HEARTBEAT = Settings.model_fields["table_heartbeat_seconds"].default


async def pass_time(app, clock, table_id: str, seconds: float, pages=(0, 2)) -> None:
    """``seconds`` go by while the pages of the seats ``pages`` have their stream open (the
    store is told of them every heartbeat, as a page's process does)."""
    while seconds > 0:
        await app.state.store.table_streams_seen([(table_id, s, f"page{s}") for s in pages])
        step = min(seconds, HEARTBEAT)
        clock.advance(step)
        seconds -= step


async def tick(app, clock, table_id: str) -> None:
    """The table clock looks at the table now, as its own round would."""
    await app.state.table_clock.tick(table_id, clock())
