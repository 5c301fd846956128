"""The "cards played" panel (the setting hearts_cards_played, off by default): drawn by suit
from the hand's finished tricks on the solo and table pages, and a match played with it ranked
apart on the boards with its reason, as a hint would be."""

from __future__ import annotations

import re

from app.web.daily_codes import today

PANEL = re.compile(r'<section id="ht-played".*?</section>', re.S)
HTMX = {"hx-request": "true"}


def panel_rows(html: str) -> dict[str, str]:
    """By suit letter, what the panel shows (``♣ 2 9 K``)."""
    found = PANEL.search(html)
    assert found, "no panel"
    return {suit: shown for suit, shown in re.findall(
        r'<p data-suit="(\w)"><span aria-hidden="true"><b>.</b> ([^<]*)</span>', found.group(0))}


def by_suit(cards: list[str]) -> dict[str, str]:
    order = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    rows = {}
    for suit in "CDSH":
        ranks = sorted((c[:-1] for c in cards if c[-1] == suit), key=order.index)
        rows[suit] = " ".join(ranks) or "–"
    return rows


async def test_the_setting_is_off_by_default_and_shows_the_panel_when_on(client):
    assert (await client.get("/api/settings")).json()["hearts_cards_played"] is False
    assert 'data-cards-played="off"' in (await client.get("/hearts")).text
    saved = await client.put("/api/settings", json={"hearts_cards_played": True})
    assert saved.status_code == 200 and saved.json()["hearts_cards_played"] is True
    page = (await client.get("/hearts")).text
    assert 'data-cards-played="on"' in page
    assert panel_rows(page) == {"C": "–", "D": "–", "S": "–", "H": "–"}
    settings = (await client.get("/settings")).text
    assert 'name="hearts_cards_played"' in settings


async def test_the_panel_is_redrawn_with_each_trick_by_suit(client):
    await client.put("/api/settings", json={"hearts_cards_played": True})
    state = (await client.post("/api/hearts/games", json={"deal": "HT1-E-ABCDEFG"})).json()
    game = state["game_id"]
    url = f"/hearts/games/{game}"
    answer = await client.post(f"{url}/pass", headers=HTMX,
                               data={"cards": " ".join(state["hand"][:3]),
                                     "version": state["version"]})
    assert answer.status_code == 200
    redrawn = 0
    for _ in range(3):  # three of the player's cards: at least two tricks are over
        state = (await client.get(f"/api/hearts/games/{game}")).json()
        answer = await client.post(f"{url}/play", headers=HTMX,
                                   data={"card": state["legal"][0], "version": state["version"]})
        assert answer.status_code == 200
        state = (await client.get(f"/api/hearts/games/{game}")).json()
        finished = [p["card"] for t in state["tricks"] for p in t["cards"]]
        # The answer redraws the panel when a trick ended; the page always has it as it is.
        if PANEL.search(answer.text):
            assert panel_rows(answer.text) == by_suit(finished)
            redrawn += 1
        page = (await client.get("/hearts")).text  # the match in play
        assert panel_rows(page) == by_suit(finished)
    assert len(state["tricks"]) >= 2 and redrawn >= 2
    # The trick in progress is not in it: only finished tricks.
    assert not {p["card"] for p in state["trick"]} & set(finished)


async def play_daily_on_the_page(client) -> dict:
    state = (await client.post("/api/hearts/daily")).json()
    game = state["game_id"]
    while state["phase"] != "match_over":
        url = f"/hearts/games/{game}"
        if state["phase"] == "passing":
            answer = await client.post(f"{url}/pass", data={
                "cards": " ".join(state["hand"][:3]), "version": state["version"]})
        elif state["phase"] == "playing":
            answer = await client.post(f"{url}/play", data={
                "card": state["legal"][0], "version": state["version"]})
        else:
            answer = await client.post(f"{url}/next-hand", data={"version": state["version"]})
        assert answer.status_code in (200, 303), answer.text
        state = (await client.get(f"/api/hearts/games/{game}")).json()
    return state


async def test_a_daily_played_with_the_panel_is_ranked_apart_with_its_reason(
    new_client, clock
):
    helped, plain = new_client(), new_client()
    await helped.put("/api/settings", json={"hearts_cards_played": True})
    for browser in (helped, plain):
        await play_daily_on_the_page(browser)
    day = today(clock()).isoformat()
    apart = (await helped.get(f"/api/hearts/daily/{day}/results?section=apart")).json()
    (row,) = apart["rows"]
    assert row["mine"] and row["apart"] == ["cards_played"] and row["assisted"] is True
    ranked = (await plain.get(f"/api/hearts/daily/{day}/results?section=ranked")).json()
    (row,) = ranked["rows"]
    assert row["mine"] and row["apart"] == [] and row["assisted"] is False
    page = (await helped.get(f"/hearts/daily/{day}/results?section=apart",
                             headers={"accept-language": "en"})).text
    assert "cards played panel" in page


async def test_a_table_page_has_the_panel_too(client):
    await client.put("/api/settings", json={"hearts_cards_played": True})
    created = (await client.post("/api/hearts/tables", json={"turn_seconds": None,
                                                             "name": "An"})).json()
    await client.post(f"/api/hearts/tables/{created['table_id']}/start")
    page = (await client.get(f"/hearts/t/{created['table_id']}")).text
    assert 'data-cards-played="on"' in page and panel_rows(page)["H"] == "–"
