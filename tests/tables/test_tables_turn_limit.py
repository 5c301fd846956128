"""The turn limit, and the bot taking over a seat and giving it back, with the app's clock
moved by the test (the table clock of app/web/hearts/tables/clock.py acts on that clock) while
both players' pages keep their event stream open (so only the turn limit acts)."""

from __future__ import annotations

import asyncio

import pytest
from clocked import pass_time

LIMIT = 15


async def changed(client, url: str, version: int) -> dict:
    """The view once the table has moved past ``version`` (the table clock acts on its own)."""
    for _ in range(200):
        view = (await client.get(url)).json()
        if view["version"] > version:
            return view
        await asyncio.sleep(0.05)
    pytest.fail("the table clock did not act")


async def test_turn_limit_bot_takes_over_and_gives_back(app, new_client, clock):
    south, north = new_client(), new_client()
    created = await south.post(
        "/api/hearts/tables", json={"bot_level": "easy", "turn_seconds": LIMIT, "name": "An"}
    )
    table_id = created.json()["table_id"]
    url = f"/api/hearts/tables/{table_id}"
    assert (await north.post(f"{url}/seats", json={"seat": 2, "name": "Lan"})).status_code == 200
    view = (await south.post(f"{url}/start")).json()
    assert view["phase"] == "passing" and view["turn_deadline"] == LIMIT

    await pass_time(app, clock, table_id, LIMIT - 1)  # not yet: nothing happens
    await asyncio.sleep(0.6)
    assert (await south.get(url)).json()["version"] == view["version"]

    # Both players ran out of time: the Normal bot passes for them.
    await pass_time(app, clock, table_id, 2)
    view = await changed(south, url, view["version"])
    assert view["phase"] == "playing" and len(view["passed"]) == 3
    assert [s["autoplayed"] for s in view["seats"]] == [True, False, True, False]
    assert not any(s["away"] for s in view["seats"])
    assert [s["connected"] for s in view["seats"]] == [True, False, True, False]

    # Whoever is to play next among the two players runs out of time again: away.
    turn = view["turn"]
    assert turn in (0, 2)
    await pass_time(app, clock, table_id, LIMIT + 1)
    view = await changed(south, url, view["version"])
    seat = view["seats"][turn]
    assert seat["autoplayed"] and seat["away"]
    assert seat["autoplayed_card"] in {c["card"] for t in view["tricks"] for c in t["cards"]} | {
        c["card"] for c in view["trick"]
    }
    other = view["seats"][2 - turn]
    assert not other["away"]

    # While away, the bot plays that seat: the table only ever waits for the other player.
    assert view["turn"] in (2 - turn, None)
    # One tap brings the player back.
    player = south if turn == 0 else north
    back = await player.post(f"{url}/back")
    assert back.status_code == 200
    assert not back.json()["seats"][turn]["away"]
    # A browser without a seat cannot do it for them.
    stranger = new_client()
    assert (await stranger.post(f"{url}/back")).status_code == 403


async def test_bad_table_requests_change_nothing(new_client):
    client = new_client()
    assert (await client.post("/api/hearts/tables", json={"turn_seconds": 5})).status_code == 422
    assert (await client.post("/api/hearts/tables", json={"name": "  "})).status_code == 422
    assert (await client.post("/api/hearts/tables", json={"name": "x" * 21})).status_code == 422
    assert (await client.get("/api/hearts/tables/nope")).status_code == 404
    assert (await client.get("/api/hearts/tables/nope/events")).status_code == 404
    created = (await client.post("/api/hearts/tables", json={"turn_seconds": None})).json()
    url = f"/api/hearts/tables/{created['table_id']}"
    guest = new_client()
    bad = await guest.post(f"{url}/seats", json={"seat": 0, "name": "Lan"})
    assert bad.status_code == 409 and bad.json()["error"]["code"] == "taken"
    assert (await guest.post(f"{url}/start")).status_code == 403
    assert (await guest.post(f"{url}/play", json={"card": "2C"})).status_code == 403
    assert (await client.post(f"{url}/play", json={"card": "2C"})).status_code == 409
    assert (await client.get(url)).json()["version"] == created["version"]
