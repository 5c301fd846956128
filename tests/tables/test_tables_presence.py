"""Presence at a table on real uvicorn: a seat is connected while its page has the event stream
open; a seat whose stream has been closed past the grace period is away and the Normal bot
plays it at the bots' pace, with no turn limit, until "back"; the same across two instances on
Redis, where exactly one of them makes the seat away. The servers' heartbeat and grace period are
shorter than by default (4 s and 12 s); the grace is still ten heartbeats, so a page that goes
is seen gone well before its player counts as away."""

from __future__ import annotations

import pytest
from players import Player

HEARTBEAT, GRACE = 0.5, 5.0
WAITS = {"table_heartbeat_seconds": str(HEARTBEAT), "table_away_grace_seconds": str(GRACE)}
# Long enough for the grace period, a heartbeat and a busy machine; the tests wait for what
# they expect and fail only if it never comes.
AWAY_WAIT = GRACE + 4 * HEARTBEAT + 20


async def table_of_two(south_url: str, north_url: str) -> tuple[Player, Player, int]:
    south, north = Player.at(south_url), Player.at(north_url)
    created = await south.client.post(
        "/api/hearts/tables", json={"turn_seconds": None, "name": "An"}
    )
    south.table_id = north.table_id = created.json()["table_id"]
    assert (await north.post("seats", {"seat": 2, "name": "Lan"})).status_code == 200
    south.listen()
    north.listen()
    started = await south.post("start")
    assert started.status_code == 200
    return south, north, started.json()["version"]


def both_connected(view: dict) -> bool:
    return view["started"] and view["seats"][0]["connected"] and view["seats"][2]["connected"]


async def play_while_north_is_away(south: Player) -> None:
    """South passes and plays; the bot plays for North at the bots' pace, one card per change,
    and the table waits for South only."""
    view = await south.view()
    if view["phase"] == "passing":
        passed = await south.post("pass", {"cards": view["hand"][:3]})
        assert passed.status_code == 200, passed.text
        view = passed.json()
    for _ in range(5):
        if view["turn"] != 0:  # North's bot plays its card a moment later, by itself
            after = view["version"]
            view = await south.seen(lambda v, after=after: v["turn"] == 0 and v["version"] > after)
        assert view["phase"] == "playing" and view["turn"] == 0
        played = await south.post("play", {"card": view["legal"][0]})
        assert played.status_code == 200, played.text
        view = played.json()
        seat = view["seats"][2]
        assert seat["away"] and not seat["autoplayed"]  # the turn limit played nothing
    assert view["seats"][2]["played_away"]  # North's bot played by itself


@pytest.mark.slow
async def test_a_page_that_goes_is_away_until_back(servers):
    (url,) = servers("sqlite", **WAITS)
    south, north, started = await table_of_two(url, url)
    try:
        await south.seen(both_connected)
        await north.seen(both_connected)
        mark = len(south.events)
        await north.stop_listening()
        # South's screen learns that North's page went, before the grace period is over.
        left = await south.seen(lambda v: not v["seats"][2]["connected"], start=mark)
        assert not left["seats"][2]["away"] and left["version"] == started
        away = await south.seen(lambda v: v["seats"][2]["away"], timeout=AWAY_WAIT, start=mark)
        # The bot passed for North at once (hand 1 passes left): only South is awaited.
        assert away["phase"] == "passing" and not away["seats"][0]["away"]
        await play_while_north_is_away(south)

        # North opens the page again and taps "I'm back": the seat is theirs again.
        mark = len(south.events)
        north.listen()
        back = await north.post("back")
        assert back.status_code == 200
        assert not back.json()["seats"][2]["away"] and back.json()["my_seat"] == 2
        view = await south.seen(
            lambda v: not v["seats"][2]["away"] and v["seats"][2]["connected"], start=mark
        )
        assert view["version"] >= back.json()["version"]
        # Another browser cannot take it back for them.
        stranger = Player.at(url)
        stranger.table_id = south.table_id
        assert (await stranger.post("back")).status_code == 403
        await stranger.close()
    finally:
        await south.close()
        await north.close()


@pytest.mark.slow
async def test_presence_across_two_instances_on_redis(servers):
    first, second = servers("redis-2-instances", **WAITS)
    south, north, started = await table_of_two(first, second)
    try:
        # Each instance sees the other's stream.
        await south.seen(both_connected)
        await north.seen(both_connected)
        for base in (first, second):
            watcher = Player.at(base)
            watcher.table_id = south.table_id
            seats = (await watcher.view())["seats"]
            assert [s["connected"] for s in seats] == [True, False, True, False]
            await watcher.close()

        mark = len(south.events)
        await north.stop_listening()  # North's stream was on the second instance
        away = await south.seen(lambda v: v["seats"][2]["away"], timeout=AWAY_WAIT, start=mark)
        # Both instances' clocks tried; the compare-and-set let exactly one change through.
        assert away["version"] == started + 1
        for base in (first, second):
            reader = Player.at(base)
            reader.table_id = south.table_id
            assert (await reader.view())["version"] == started + 1
            await reader.close()
        await play_while_north_is_away(south)
    finally:
        await south.close()
        await north.close()
