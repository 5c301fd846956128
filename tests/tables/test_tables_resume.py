"""A table's event stream that drops and resumes (app/web/hearts/tables/streams.py): every
change is an event whose id is the table's version; reopened with ``Last-Event-ID``, on
another worker or instance, the stream brings the cards played meanwhile, none twice and none
left out, and no event the client had."""

from __future__ import annotations

import json

import pytest
from players import Player

SOUTH, NORTH = 0, 2


def hand_plays(view: dict) -> list[tuple[int, str]]:
    """Every card played in the view's hand so far, in order."""
    return [(p["seat"], p["card"]) for trick in view["tricks"] for p in trick["cards"]] + [
        (p["seat"], p["card"]) for p in view["trick"]
    ]


async def move(player: Player, view: dict) -> dict:
    if view["phase"] == "passing":
        answer = await player.post("pass", {"cards": view["hand"][:3]})
    else:
        answer = await player.post("play", {"card": view["legal"][0]})
    assert answer.status_code == 200, answer.text
    return answer.json()


@pytest.mark.parametrize("kind", ["redis-2-instances", "sqlite-2-workers"])
async def test_a_stream_dropped_mid_trick_resumes_with_nothing_missed_or_repeated(servers, kind):
    urls = servers(kind)
    south, north = Player.at(urls[0]), Player.at(urls[-1])
    try:
        created = await south.client.post("/api/hearts/tables", json={"turn_seconds": None})
        south.table_id = north.table_id = created.json()["table_id"]
        assert (await north.post("seats", {"seat": NORTH, "name": "Lan"})).status_code == 200
        south.listen()
        north.listen()
        assert (await south.post("start")).status_code == 200
        # Both pass; then each plays when it is their turn, until a trick is under way with
        # North to play: there South's stream drops.
        for player in (south, north):
            await move(player, await player.view())
        while True:
            view = await north.view()
            if view["phase"] == "playing" and view["turn"] == NORTH and view["trick"]:
                break
            turn = south if view["turn"] == SOUTH else north
            await move(turn, await turn.view())
        await south.reached(view["version"])
        await south.stop_listening()
        held_ids = [i for i in south.ids if i >= 0]
        held = held_ids[-1]
        before = next(e for _, e in reversed(south.events) if e["version"] == held)
        assert held == view["version"] and hand_plays(before) == hand_plays(view)

        # Meanwhile North plays (the bots answer: the trick ends, the next may start), and
        # sends a reaction: two changes missed.
        played_version = (await move(north, view))["version"]
        reacted = await north.post("reactions", {"reaction": "clap"})
        meanwhile = reacted.json()["version"]
        assert meanwhile == played_version + 1 == held + 2

        # South's stream reopens where it was, on the other worker or instance.
        south.client.base_url = urls[-1]
        seen = len(south.events)
        south.listen(last_event_id=held)
        await south.reached(meanwhile)
        resumed = [event for _, event in south.events[seen:]]
        resumed_ids = [i for i in south.ids[seen:] if i >= 0]
        first = resumed[0]
        # No event South had comes again: the first one is the change it missed.
        assert resumed_ids and resumed_ids[0] == first["version"] == meanwhile > held
        assert held_ids + resumed_ids == sorted(set(held_ids + resumed_ids))
        # What it missed, in order, nothing twice: the hand as South last saw it, and then
        # the cards played since, are the hand as it is now.
        played = [(p["seat"], p["card"]) for p in first["played"]]
        assert played and all(p["version"] == played_version for p in first["played"])
        assert [r["reaction"] for r in first["reactions"] if r["version"] > held] == ["clap"]
        assert hand_plays(before) + played == hand_plays(first)
        assert hand_plays(first) == hand_plays(await north.view())
    finally:
        await south.close()
        await north.close()


async def test_a_last_event_id_that_is_no_version_counts_as_none(servers):
    (url,) = servers("sqlite")
    south = Player.at(url)
    try:
        created = await south.client.post("/api/hearts/tables", json={"turn_seconds": None})
        south.table_id = created.json()["table_id"]
        version = (await south.post("start")).json()["version"]
        for sent in ("abc", "12.5", "99999999999999999999", str(version + 5)):
            async with south.client.stream(
                "GET", south.url("events"), headers={"last-event-id": sent}
            ) as stream:
                assert stream.status_code == 200, sent
                lines = []
                async for line in stream.aiter_lines():
                    lines.append(line)
                    if not line and any(x.startswith("data:") for x in lines):
                        break
            fields = dict(line.split(":", 1) for line in lines if line and ":" in line)
            # The whole view, as on a first connection: its version for id, nothing replayed.
            assert int(fields["id"]) == version, sent
            assert json.loads(fields["data"])["played"] is None, sent
    finally:
        await south.close()
