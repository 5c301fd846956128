"""A table page's event stream (``…/events?pieces=1``, app/web/hearts/tables/board.py's
PageFeed): the page's pieces from its own seat's view only, and no table when only a reaction
or a player's presence changed."""

from __future__ import annotations

from players import Player


def shows_card(html: str, code: str) -> bool:
    return f'id="ht-c-{code}"' in html or f'data-card="{code}"' in html


async def test_a_page_stream_sends_its_own_seat_and_no_table_for_a_reaction(servers):
    (url,) = servers("sqlite")
    south, north = Player.at(url), Player.at(url)
    try:
        created = await south.client.post("/api/hearts/tables", json={"turn_seconds": None})
        south.table_id = north.table_id = created.json()["table_id"]
        (await north.post("seats", {"seat": 2, "name": "Lan"})).raise_for_status()
        started = (await south.post("start")).json()["version"]
        mine, theirs = (await south.view())["hand"], (await north.view())["hand"]

        # A page drawn before the start catches up: every piece, its hand and nobody else's.
        south.listen("?pieces=1&after=1")
        first = await south.seen(lambda e: e["version"] >= started)
        assert first["started"] and first["after"] == 1
        page = first["board"] + first["live"]
        assert 'id="ht-version"' in page and 'id="tb-live"' in page
        assert all(shows_card(page, code) for code in mine)
        assert not any(shows_card(page, code) for code in theirs)
        # North's badge is at the top of South's page (seat 2), a human there.
        assert '<i data-seat="2" data-human="true"' in first["live"]

        # A reaction alone: the marks, no table, and the table is still owed from `started`.
        reacted = (await north.post("reactions", {"reaction": "clap"})).json()["version"]
        event = await south.seen(lambda e: e["version"] >= reacted, start=1)
        assert event["board"] == "" and 'data-reaction="clap"' in event["live"]

        # South passes: the table comes, from the version the page has.
        (await south.post("pass", {"cards": mine[:3], "version": reacted})).raise_for_status()
        moved = await south.seen(lambda e: e["board"] != "", start=2)
        assert moved["after"] == started and moved["version"] > reacted
        assert 'id="ht-hand"' in moved["board"]
        assert not any(shows_card(moved["board"], code) for code in theirs)
    finally:
        await south.close()
        await north.close()
