"""The tables' waits are settings (CARDROOM_TABLE_HEARTBEAT_SECONDS, _AWAY_GRACE_SECONDS): they
reach the table clock, and presence is judged by them."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.main import create_app
from app.settings import Settings
from app.store import StreamSeen
from app.web.hearts.tables.service import Presence, Waits

KEY = "tables-waits-test-key-long-enough-for-the-check"


def test_the_defaults_and_the_environment(monkeypatch):
    monkeypatch.delenv("CARDROOM_TABLE_HEARTBEAT_SECONDS", raising=False)
    monkeypatch.delenv("CARDROOM_TABLE_AWAY_GRACE_SECONDS", raising=False)
    assert Waits.of(Settings(secret_key=KEY)) == Waits(heartbeat=4.0, grace=12.0)
    monkeypatch.setenv("CARDROOM_TABLE_HEARTBEAT_SECONDS", "0.5")
    monkeypatch.setenv("CARDROOM_TABLE_AWAY_GRACE_SECONDS", "1.5")
    assert Waits.of(Settings(secret_key=KEY)) == Waits(heartbeat=0.5, grace=1.5)


@pytest.mark.parametrize("heartbeat, grace", [(0.5, 1.4), (0, 12), (4, 0)])
def test_a_grace_shorter_than_a_dead_stream_is_refused(heartbeat, grace):
    with pytest.raises(ValidationError):
        Settings(secret_key=KEY, table_heartbeat_seconds=heartbeat,
                 table_away_grace_seconds=grace)


async def test_the_table_clock_gets_them(settings):
    application = create_app(settings.model_copy(
        update={"table_heartbeat_seconds": 0.5, "table_away_grace_seconds": 2.0}))
    async with application.router.lifespan_context(application):
        assert application.state.table_clock.waits == Waits(heartbeat=0.5, grace=2.0)


def test_presence_follows_them():
    waits = Waits(heartbeat=1.0, grace=5.0)  # a stream unheard of for 3 s went with its process
    streams = [StreamSeen(0, 100.0, True), StreamSeen(2, 100.0, False)]
    fresh = Presence.of(streams, 102.9, waits)
    assert fresh.connected == (True, False, False, False)
    started = 90.0  # the match; seat 1 never opened a stream, so it counts from here
    assert fresh.gone_at(0, started) is None
    assert fresh.gone_at(1, started) == 95.0
    assert fresh.gone_at(2, started) == 105.0
    stale = Presence.of(streams, 103.1, waits)
    assert stale.connected == (False,) * 4
    assert stale.gone_at(0, started) == 105.0
