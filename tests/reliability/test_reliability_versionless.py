"""Issue 17 against real servers: two uvicorn instances on one Redis.

- Hearts API actions sent without a version, racing each other over both instances (where no
  in-process lock orders them), all apply: a lost compare-and-set is tried again on the match
  as it is. Holding one version, only one of them applies; the others get 409. (Whether two of
  them overlap here is up to the machine; tests/web/test_server_cost.py forces a lost
  compare-and-set in between a read and a write.)
- A Hearts page's match not stored yet, shown by one instance, is stored by its first action on
  the other with the very cards the page showed: its secret deal depends only on the shared key.
"""

from __future__ import annotations

import asyncio

import httpx
from cardroom_pages import HX, HeartsHand

from app.rules.cards import card_text, cards_in
from app.rules.hearts import deal_hands, parse_match_code
from app.store import open_store

API = "/api/hearts/games"
PLAYS = 8


async def after_plays(client: httpx.AsyncClient, base: str, plays: int) -> dict:
    state = (await client.post(f"{base}{API}", json={"deal": "HT1-E-AAAAAAB"})).json()
    url = f"{base}{API}/{state['game_id']}"
    state = (await client.post(f"{url}/pass", json={"cards": state["hand"][:3]})).json()
    for _ in range(plays):
        state = (await client.post(f"{url}/play", json={"card": state["legal"][0]})).json()
    assert len(state["hand"]) == 13 - plays and state["undo_available"]
    return state


async def test_hearts_actions_without_a_version_race_and_all_apply(deployments) -> None:
    bases = [server.base_url for server in deployments["redis"]]
    async with httpx.AsyncClient(timeout=60) as client:
        state = await after_plays(client, bases[0], PLAYS)
        path = f"{API}/{state['game_id']}"
        answers = await asyncio.gather(*(
            client.post(f"{bases[i % 2]}{path}/undo") for i in range(PLAYS)))
        assert [a.status_code for a in answers] == [200] * PLAYS, [a.text for a in answers]
        after = (await client.get(f"{bases[1]}{path}")).json()
        assert after["version"] == state["version"] + PLAYS
        assert len(after["hand"]) == 13 and not after["undo_available"]

        state = await after_plays(client, bases[1], PLAYS)
        path = f"{API}/{state['game_id']}"
        answers = await asyncio.gather(*(
            client.post(f"{bases[i % 2]}{path}/undo", json={"version": state["version"]})
            for i in range(PLAYS)))
        assert sorted(a.status_code for a in answers) == [200] + [409] * (PLAYS - 1)
        after = (await client.get(f"{bases[0]}{path}")).json()
        assert after["version"] == state["version"] + 1
        assert len(after["hand"]) == 13 - PLAYS + 1


async def test_a_first_visit_shown_by_one_instance_is_stored_by_the_other(deployments) -> None:
    first, second = deployments["redis"]
    async with httpx.AsyncClient(timeout=60) as client:
        hand = HeartsHand.from_page((await client.get(first.url("/hearts"))).text)
        cards = ",".join(sorted(hand.cards)[:3])
        passed = await client.post(second.url(f"/hearts/games/{hand.game_id}/pass"), headers=HX,
                                   data={"cards": cards, "version": str(hand.version)})
        assert passed.status_code == 200
        session_id = next(iter(client.cookies.values())).rpartition(".")[0]
    store = open_store(first.store_url, 30)
    try:
        code = (await store.get(session_id, hand.game_id)).state["deal"]
    finally:
        await store.close()
    dealt = cards_in(deal_hands(parse_match_code(code), 1)[0])
    assert sorted(card_text(c) for c in dealt) == sorted(hand.cards)
