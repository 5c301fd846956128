"""A table match to its end (two hands: two_hands.py) on real uvicorn with a watcher's event
stream open through the watch link, on SQLite and on two instances sharing Redis: every event
the watcher received is checked against the hands dealt at the version it shows (no card of a
hand or a pass), and with the one-trick delay, the stream never runs ahead of it, even after it
resumes with Last-Event-ID on the other instance."""

from __future__ import annotations

import pytest
from players import Player

SOUTH, NORTH = 0, 2


def played_of(view: dict) -> frozenset[str]:
    return frozenset(p["card"] for t in view["tricks"] for p in t["cards"]) | {
        p["card"] for p in view["trick"]}


def count_of(view: dict) -> int:
    return 52 * view["hand_number"] + len(played_of(view))


# Each store and each kind of delay once: the trick delay where a resume crosses instances.
@pytest.mark.parametrize(("kind", "delay"), [("sqlite", "none"), ("redis-2-instances", "trick")])
async def test_a_watcher_follows_a_whole_match_and_never_sees_a_hidden_card(
    servers, kind, delay
):
    urls = servers(kind, two_hands=True)
    south, north = Player.at(urls[0]), Player.at(urls[-1])
    watcher = Player.at(urls[-1])
    watcher.prefix = "/api/hearts/watch"
    try:
        created = (await south.client.post(
            "/api/hearts/tables", json={"bot_level": "easy", "turn_seconds": None, "name": "An"}
        )).json()
        south.table_id = north.table_id = created["table_id"]
        watcher.table_id = created["watch_code"]
        assert (await north.post("seats", {"seat": NORTH, "name": "Lan"})).status_code == 200
        for player in (south, north, watcher):
            player.listen()
        # The players see the watcher come.
        await south.seen(lambda e: e["watchers"] == 1)

        answer = await south.post("start", {"watch_delay": delay})
        assert answer.status_code == 200, answer.text
        # Every version the players made: its hand and the cards played in it then.
        history = {answer.json()["version"]: (answer.json()["hand_number"],
                                              played_of(answer.json()))}
        players = {SOUTH: south, NORTH: north}
        resumed = False
        while True:
            view = await south.view()
            if view["phase"] in ("match_over", "moon"):  # tables have no moon choice yet
                break
            if view["phase"] == "hand_over":
                answer = await south.post("next-hand")
            elif view["phase"] == "passing":
                mover = south if not view["pass_chosen"] else north
                mine = await mover.view()
                answer = await mover.post("pass", {"cards": mine["hand"][:3]})
            else:
                mover = players[view["turn"]]
                answer = await mover.post("play", {"card": (await mover.view())["legal"][0]})
                if answer.status_code == 409 and answer.json()["error"]["code"] == "not_your_turn":
                    # A busy machine held the player's stream long enough for the table to
                    # think the seat away: its bot played first. The match goes on from there.
                    assert any(s["played_away"] for s in answer.json()["state"]["seats"])
                    continue
            assert answer.status_code == 200, answer.text
            moved = answer.json()
            history[moved["version"]] = (moved["hand_number"], played_of(moved))
            if delay == "trick" and not resumed and moved["hand_number"] == 2:
                # The watcher's stream drops, and reopens on another instance: the delay holds.
                await watcher.reached(0)
                held = max(i for i in watcher.ids if i >= 0)
                await watcher.stop_listening()
                watcher.client.base_url = urls[0]
                seen = len(watcher.events)
                watcher.listen(last_event_id=held)
                first = await watcher.seen(lambda e: True, start=seen)
                assert first["version"] >= held
                assert count_of(first) <= count_of(moved) - 4
                resumed = True
        final = await south.view()
        await watcher.reached(final["version"])
        await south.reached(final["version"])
        # Changes the players' answers did not give (a seat the table thought away, its bot
        # playing on a busy machine) came to the players' streams: their public part is there.
        for _, seen_by_south in south.events:
            history.setdefault(seen_by_south["version"],
                               (seen_by_south["hand_number"], played_of(seen_by_south)))
        events = [event for _, event in watcher.events]
        for event in events:
            assert event["my_seat"] is None and event["table_id"] == watcher.table_id
            assert event["hand"] == [] and event["legal"] == [] and not event["pass_chosen"]
            assert event["passed"] is None and event["received"] is None
            assert south.table_id not in str({k: v for k, v in event.items()})
            if event["phase"] == "waiting":
                continue
            hand, played = history[event["version"]]
            assert event["hand_number"] == hand and played_of(event) == played
            for seat in event["seats"]:
                assert seat["played_away"] == []
            if delay == "trick" and event["phase"] != "match_over":
                assert count_of(event) <= count_of(final) - 4
        # The stream's ids only go forward, and it saw the match to its end.
        ids = [i for i in watcher.ids if i >= 0]
        assert ids == sorted(ids) and events[-1]["phase"] == final["phase"]
        assert len({e["version"] for e in events}) > 10
    finally:
        for player in (south, north, watcher):
            await player.close()
