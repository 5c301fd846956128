"""Reactions at a table: a fixed set, no free text, every screen gets them through its event
stream (real uvicorn), a seat may send only a few at a time, and a reaction is no move (the
turn limit keeps running). And the table view is a game's state plus the table."""

from __future__ import annotations

from players import Player

from app.web.api_models import HeartsState, SeatState
from app.web.hearts.tables.service import REACTION_BURST, REACTIONS


async def test_reactions_reach_every_screen_and_are_limited(servers):
    (url,) = servers("sqlite")
    south, north, watcher = Player.at(url), Player.at(url), Player.at(url)
    try:
        created = await south.client.post("/api/hearts/tables", json={"turn_seconds": None})
        table_id = created.json()["table_id"]
        for player in (south, north, watcher):
            player.table_id = table_id
        assert (await north.post("seats", {"seat": 1, "name": "Lan"})).status_code == 200
        started = await south.post("start")
        for player in (south, north, watcher):
            player.listen()

        sent = await north.post("reactions", {"reaction": "clap"})
        assert sent.status_code == 200
        version = sent.json()["version"]
        assert version == started.json()["version"] + 1
        for player in (south, north, watcher):
            view = await player.seen(lambda v: v["version"] >= version)
            assert {"seat": 1, "reaction": "clap", "version": version} in view["reactions"]

        before = (await south.view())["version"]
        for body in (
            {"reaction": "hello"},
            {"reaction": "clap", "text": "free text"},
            {"reaction": "<b>clap</b>"},
            {},
        ):
            refused = await south.post("reactions", body)
            assert refused.status_code == 422, body
            assert refused.json()["error"]["message"]
        assert (await watcher.post("reactions", {"reaction": "wow"})).status_code == 403
        assert (await south.view())["version"] == before

        # A few at a time: the next one is refused with a clear message until time passes.
        for reaction in REACTIONS[:REACTION_BURST]:
            assert (await south.post("reactions", {"reaction": reaction})).status_code == 200
        too_many = await south.post("reactions", {"reaction": "sad"})
        assert too_many.status_code == 429
        assert too_many.json()["error"]["code"] == "too_many_reactions"
        assert too_many.json()["error"]["message"]
        after = (await south.view())["version"]
        assert after == before + REACTION_BURST
        # Another seat's own allowance is untouched.
        assert (await north.post("reactions", {"reaction": "laugh"})).status_code == 200

        # Only the preset names ever come through a stream.
        await south.seen(lambda v: v["version"] >= after + 1)
        for player in (south, north, watcher):
            for _, view in player.events:
                for reaction in view["reactions"]:
                    assert set(reaction) == {"seat", "reaction", "version"}
                    assert reaction["reaction"] in REACTIONS
    finally:
        for player in (south, north, watcher):
            await player.close()


async def test_a_reaction_leaves_the_turn_limit_running(new_client, clock):
    south = new_client()
    created = await south.post("/api/hearts/tables", json={"turn_seconds": 30})
    url = f"/api/hearts/tables/{created.json()['table_id']}"
    assert (await south.post(f"{url}/start")).json()["turn_deadline"] == 30
    clock.advance(10)  # less than the grace of a page that never opened its event stream
    reacted = await south.post(f"{url}/reactions", json={"reaction": "wow"})
    assert reacted.status_code == 200
    assert reacted.json()["turn_deadline"] == 20


async def test_the_view_is_a_game_state_plus_the_table(new_client):
    south = new_client()
    created = await south.post("/api/hearts/tables", json={"turn_seconds": None, "name": "An"})
    view = (await south.post(f"/api/hearts/tables/{created.json()['table_id']}/start")).json()
    assert set(HeartsState.model_fields) <= set(view)
    for seat in view["seats"]:
        assert set(SeatState.model_fields) | {"connected", "away", "autoplayed"} <= set(seat)
    table_fields = {"table_id", "my_seat", "creator_seat", "turn_deadline", "awaited", "started"}
    assert table_fields <= set(view)
    # The fields a game's state has mean the same here.
    assert view["game_id"] == view["table_id"] and view["undo_available"] is False
    assert view["phase"] == "passing" and len(view["hand"]) == 13 and view["deal"] is None
    assert view["seats"][0]["name"] == "An"
