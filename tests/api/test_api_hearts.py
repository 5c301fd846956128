"""The Hearts JSON API against the real app and a real SQLite store: a whole match to its
winner with `legal` checked at every step against the rules written out here, illegal actions
refused with nothing changed, hidden cards never shown, the page and the API on one match."""

from __future__ import annotations

import random
import re

import httpx
from fastapi import FastAPI

from app.rules.cards import card_text, cards_in
from app.rules.hearts import HeartsMatch
from app.web.session import COOKIE_NAME, SessionMiddleware

API = "/api/hearts"
EASY = "HT1-E-AAAAAAB"  # Easy bots: a whole match plays in moments
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
DECK = [rank + suit for suit in "CDHS" for rank in RANKS]


def rules_legal(state: dict) -> set[str]:
    """The cards the player may play, from the rules (spec/hearts.md) and the visible state."""
    if state["phase"] != "playing" or state["turn"] != 0:
        return set()
    hand = set(state["hand"])

    def suit(c: str) -> str:
        return c[-1]

    first_trick = not state["tricks"]
    if state["trick"]:
        led = suit(state["trick"][0]["card"])
        following = {c for c in hand if suit(c) == led}
        if following:
            return following
        if first_trick:  # no points on the first trick unless there is nothing else
            return {c for c in hand if suit(c) != "H" and c != "QS"} or hand
        return hand
    if first_trick:
        return {"2C"}
    if not state["hearts_broken"]:
        return {c for c in hand if suit(c) != "H"} or hand
    return hand


def cards_shown(state: dict) -> set[str]:
    shown = set(state["hand"]) | set(state["legal"])
    shown |= set(state["passed"] or ()) | set(state["received"] or ())
    shown |= {p["card"] for p in state["trick"]}
    shown |= {p["card"] for t in state["tricks"] for p in t["cards"]}
    return shown


def session_of(client: httpx.AsyncClient, app: FastAPI) -> str:
    signer = SessionMiddleware(app, app.state.settings.secret_key, False)
    return signer.session_from(client.cookies[COOKIE_NAME])


async def check_nothing_hidden_shown(client, app, state: dict) -> None:
    """No card of a bot's hand appears, except those the player passed to it."""
    stored = await app.state.store.get(session_of(client, app), state["game_id"])
    match = HeartsMatch.from_json(stored.state)
    hidden = {card_text(c) for seat in (1, 2, 3) for c in cards_in(match.state.hands[seat])}
    hidden -= set(state["passed"] or ())
    assert not cards_shown(state) & hidden


async def post(client: httpx.AsyncClient, state: dict, action: str, **body) -> httpx.Response:
    body.setdefault("version", state["version"])
    return await client.post(f"{API}/games/{state['game_id']}/{action}", json=body)


async def current(client: httpx.AsyncClient, state: dict) -> dict:
    return (await client.get(f"{API}/games/{state['game_id']}")).json()


async def refused(client, state: dict, action: str, codes: set[str], **body) -> None:
    """The action is refused with 409, a reason and a message, and nothing changes."""
    response = await post(client, state, action, **body)
    assert response.status_code == 409, (action, body, response.text)
    error = response.json()["error"]
    assert error["code"] in codes and error["message"], error
    assert response.json()["state"] == state
    assert await current(client, state) == state


async def test_a_match_to_its_winner_with_legal_checked_at_every_step(
    client: httpx.AsyncClient, app: FastAPI
):
    rng = random.Random(6)
    # Every card played by the client: no claim plays the rest of a hand for it.
    await client.put("/api/settings", json={"hearts_claim": False})
    created = await client.post(f"{API}/games", json={"deal": EASY})
    assert created.status_code == 201
    state = created.json()
    assert state["bot_level"] == "easy" and state["deal"] == EASY
    hands = plays = rule_refusals = 0
    undone_in_hand = set()
    while state["phase"] != "match_over":
        assert state["legal"] == sorted(state["legal"], key=DECK.index)
        assert set(state["legal"]) == rules_legal(state), state
        assert sum(seat["cards_left"] for seat in state["seats"]) + sum(
            len(t["cards"]) for t in state["tricks"]
        ) + len(state["trick"]) == 52
        await check_nothing_hidden_shown(client, app, state)
        hand = state["hand"]
        not_in_hand = rng.choice([c for c in DECK if c not in hand])
        if state["phase"] == "passing":
            await refused(client, state, "play", {"not_playing"}, card=hand[0])
            await refused(client, state, "pass", {"count"}, cards=hand[:2])
            await refused(client, state, "pass", {"count"}, cards=[hand[0]] * 3)
            await refused(client, state, "pass", {"not_in_hand"}, cards=[*hand[:2], not_in_hand])
            chosen = rng.sample(hand, 3)
            response = await post(client, state, "pass", cards=chosen)
            assert response.status_code == 200, response.text
            after = response.json()
            assert sorted(after["passed"]) == sorted(chosen)
            assert not set(chosen) & set(after["hand"])
            assert len(after["received"]) == 3
            assert set(after["received"]) <= set(after["hand"]) | cards_shown(after)
        elif state["phase"] == "hand_over":
            await refused(client, state, "play", {"not_playing"}, card=hand[0] if hand else "2C")
            response = await post(client, state, "next-hand")
            assert response.status_code == 200, response.text
            after = response.json()
            assert after["hand_number"] == state["hand_number"] + 1
            assert len(after["hand_scores"]) == hands + 1 == state["hand_number"]
            assert after["passed"] is None and len(after["tricks"]) == 0
            hands += 1
        else:
            assert state["turn"] == 0  # the bots have played up to the player
            await refused(client, state, "next-hand", {"not_hand_over"})
            await refused(client, state, "pass", {"no_pass", "not_passing"}, cards=hand[:3])
            await refused(client, state, "play", {"not_in_hand"}, card=not_in_hand)
            illegal = [c for c in hand if c not in state["legal"]]
            if illegal:
                reasons = {"follow_suit", "first_trick", "two_of_clubs", "hearts_not_broken"}
                await refused(client, state, "play", reasons, card=rng.choice(illegal))
                rule_refusals += 1
            card = rng.choice(state["legal"])
            response = await post(client, state, "play", card=card)
            assert response.status_code == 200, response.text
            after = response.json()
            assert card not in after["hand"] and after["version"] == state["version"] + 1
            assert after["turn"] in (0, None)
            if after["phase"] == "playing" and state["hand_number"] not in undone_in_hand:
                # Once a hand: undo puts back the state before the play, then play on.
                undone_in_hand.add(state["hand_number"])
                assert after["undo_available"]
                back = (await post(client, after, "undo")).json()
                assert {**back, "version": 0} == {**state, "version": 0}
                after = (await post(client, back, "play", card=card)).json()
            plays += 1
        state = after
    totals = [seat["total"] for seat in state["seats"]]
    assert max(totals) >= 100 and state["winner"] == totals.index(min(totals))
    assert totals.count(min(totals)) == 1
    assert plays == 13 * len(state["hand_scores"])
    assert rule_refusals > plays // 4  # the rules' own refusals were tried often
    assert [sum(column) for column in zip(*state["hand_scores"], strict=True)] == totals
    await refused(client, state, "next-hand", {"not_hand_over"})
    await refused(client, state, "undo", {"nothing_to_undo"})
    _, profile = await app.state.store.get_profile(session_of(client, app))
    # Undo was used, so the match counts apart, as assisted.
    assisted = profile["stats"]["hearts"]["assisted"]
    assert (assisted["played"], assisted["won"]) == (1, int(state["winner"] == 0))
    assert profile["stats"]["hearts"]["played"] == 0


async def test_refusals_speak_the_players_language(client: httpx.AsyncClient):
    state = (await client.post(f"{API}/games", json={"deal": EASY})).json()
    english = (await post(client, state, "pass", cards=state["hand"][:2])).json()
    assert english["error"]["message"] == "Pick exactly three cards to pass."
    await client.post("/lang", data={"lang": "vi", "next": "/"})
    vietnamese = (await post(client, state, "pass", cards=state["hand"][:2])).json()
    assert vietnamese["error"]["code"] == "count"
    assert vietnamese["error"]["message"] not in ("", english["error"]["message"])
    assert vietnamese["state"]["seats"][0]["name"] != english["state"]["seats"][0]["name"]


async def test_malformed_cards_and_bodies_get_422(client: httpx.AsyncClient):
    state = (await client.post(f"{API}/games", json={})).json()
    assert state["bot_level"] == "normal"
    for action, body in [
        ("play", {"card": "1H"}),
        ("play", {"card": "qs"}),
        ("play", {"card": "10h"}),
        ("pass", {"cards": ["QS", "AS", "XX"]}),
        ("play", {"card": 12}),
        ("play", {}),
        ("pass", {"cards": "QS AS KH"}),
        ("pass", {"cards": ["2C"] * 14}),
        ("undo", {"version": "1"}),
        ("next-hand", {"version": -1}),
    ]:
        response = await client.post(f"{API}/games/{state['game_id']}/{action}", json=body)
        assert response.status_code == 422, (action, body)
        assert response.json()["error"]["code"] in ("invalid_card", "invalid_request")
    bad = await client.post(f"{API}/games", json={"deal": "HT1-Q-AAAAAAA"})
    assert bad.status_code == 422 and "E (easy)" in bad.json()["error"]["message"]
    assert await current(client, state) == state


async def test_other_sessions_get_404_and_stale_versions_409(
    client: httpx.AsyncClient, new_client
):
    state = (await client.post(f"{API}/games", json={"deal": EASY})).json()
    other = new_client()
    base = f"{API}/games/{state['game_id']}"
    for response in (
        await other.get(base),
        await other.post(f"{base}/pass", json={"cards": state["hand"][:3]}),
        await other.post(f"{base}/undo"),
        await client.get(f"/api/heart-to-heart/games/{state['game_id']}"),
    ):
        assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    passed = (await post(client, state, "pass", cards=state["hand"][:3])).json()
    stale = await post(client, state, "play", card=passed["legal"][0] if passed["legal"] else "2C")
    assert stale.status_code == 409
    assert stale.json()["error"]["code"] == "stale_version" and stale.json()["state"] == passed
    assert await current(client, state) == passed


async def test_a_match_moves_between_the_api_and_the_page(client: httpx.AsyncClient):
    state = (await client.post(f"{API}/games", json={"deal": EASY})).json()
    page = (await client.get("/hearts")).text
    assert f"/hearts/games/{state['game_id']}/pass" in page
    response = await client.post(
        f"/hearts/games/{state['game_id']}/pass",
        data={"cards": " ".join(state["hand"][:3]), "version": str(state["version"])},
    )
    assert response.status_code in (200, 303)
    after = await current(client, state)
    assert after["version"] == 2 and sorted(after["passed"]) == sorted(state["hand"][:3])

    await client.post("/hearts/new", data={"level": "E"})
    page = (await client.get("/hearts")).text
    page_game = re.search(r"/hearts/games/([\w-]+)/pass", page).group(1)
    assert page_game != state["game_id"]
    from_page = (await client.get(f"{API}/games/{page_game}")).json()
    assert from_page["version"] == 1 and from_page["phase"] == "passing"
    passed = (await post(client, from_page, "pass", cards=from_page["hand"][-3:])).json()
    assert passed["version"] == 2
    page = (await client.get("/hearts")).text
    assert all(f'data-card="{c}"' not in page for c in from_page["hand"][-3:])
