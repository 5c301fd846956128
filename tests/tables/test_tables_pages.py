"""The table pages: opening a table, the invite link, seats, starting, a watcher's page, and
what each page holds (only its own player's cards)."""

from __future__ import annotations

import re

CARD = re.compile(r'data-card="(\w+)"')
SAME_SITE = {"origin": "http://testserver"}


async def open_table(client) -> str:
    answer = await client.post("/hearts/tables", data={"name": "An"}, headers=SAME_SITE)
    assert answer.status_code == 303
    url = answer.headers["location"]
    assert re.fullmatch(r"/hearts/t/[\w-]{22}", url)
    return url


async def test_open_sit_start_and_watch(new_client):
    creator, guest, watcher = new_client(), new_client(), new_client()
    url = await open_table(creator)
    page = (await creator.get(url)).text
    assert "data-invite" in page and f'value="{url}"' in page  # no CARDROOM_PUBLIC_URL: relative
    assert 'data-action="start"' in page
    seats = (await guest.get(url)).text
    assert sorted(re.findall(r'data-action="sit" data-seat="(\d)"', seats)) == ["1", "2", "3"]
    assert 'data-action="start"' not in seats

    bad = await guest.post(f"{url}/sit", data={"name": " ", "seat": "2"}, headers=SAME_SITE)
    assert bad.status_code == 400
    sat = await guest.post(f"{url}/sit", data={"name": "Lan", "seat": "2"}, headers=SAME_SITE)
    assert sat.status_code == 303
    assert (await guest.post(f"{url}/start", headers=SAME_SITE)).status_code == 403
    started = await creator.post(
        f"{url}/start", data={"level": "easy", "seconds": "none"}, headers=SAME_SITE
    )
    assert started.status_code == 303

    table_id = url.rsplit("/", 1)[1]
    mine = set((await creator.get(f"/api/hearts/tables/{table_id}")).json()["hand"])
    theirs = set((await guest.get(f"/api/hearts/tables/{table_id}")).json()["hand"])
    creator_page, guest_page = (await creator.get(url)).text, (await guest.get(url)).text
    assert set(CARD.findall(creator_page)) == mine  # nothing of the guest's hand
    assert set(CARD.findall(guest_page)) == theirs
    watching = (await watcher.get(url)).text
    assert 'id="ht-hand"' not in watching and not CARD.findall(watching)
    assert '"deal"' not in creator_page and "HT1-" not in creator_page

    # A seat's move from a browser without that seat is refused; nothing changes.
    version = (await creator.get(f"/api/hearts/tables/{table_id}")).json()["version"]
    card = sorted(mine)[0]
    refused = await watcher.post(
        f"{url}/play", data={"card": card}, headers={**SAME_SITE, "hx-request": "true"}
    )
    assert refused.status_code == 403
    assert (await creator.get(f"/api/hearts/tables/{table_id}")).json()["version"] == version


async def test_a_page_catches_up_with_the_cards_played_since(new_client):
    creator = new_client()
    url = await open_table(creator)
    await creator.post(f"{url}/start", data={"seconds": "none"}, headers=SAME_SITE)
    table_id = url.rsplit("/", 1)[1]
    view = (await creator.get(f"/api/hearts/tables/{table_id}")).json()
    answer = await creator.post(
        f"{url}/pass", data={"cards": " ".join(view["hand"][:3]), "version": view["version"]},
        headers={**SAME_SITE, "hx-request": "true"},
    )
    assert answer.status_code == 200
    after = (await creator.get(f"/api/hearts/tables/{table_id}")).json()
    pieces = answer.text
    played = sum(len(t["cards"]) for t in after["tricks"]) + len(after["trick"])
    steps = re.search(r'<template id="ht-trick"[^>]*>(.*?)</template>', pieces, re.S)
    if played:
        assert steps is not None and steps.group(1).count("<p ") == played
    assert f'value="{after["version"]}"' in pieces
