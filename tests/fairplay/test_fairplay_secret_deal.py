"""Issue 18, finding 1: a Hearts deal code is every hand in the open, so a match started without
a code keeps it secret (no page, answer or link holds it) until the match is over; then it is
shown, with a link to replay or share it. A match opened from a code may show it.
"""

from __future__ import annotations

import json
import re

from app.rules.cards import card_text, cards_in
from app.rules.hearts import deal_hands, parse_match_code
from app.web.session import COOKIE_NAME
from tests.fairplay.hearts_play import API, play_to_the_end, step

CODE = re.compile(r"HT1-[ENH]-[A-Z]{7}")


async def stored_code(app, client, game_id: str) -> str:
    session_id = client.cookies[COOKIE_NAME].rpartition(".")[0]
    return (await app.state.store.get(session_id, game_id)).state["deal"]


def game_id_of(page: str) -> str:
    return re.search(r'data-game="([^"]+)"', page).group(1)


async def test_a_random_match_keeps_its_code_secret_until_it_is_over(app, client):
    new = await client.post("/hearts/new", data={"level": "E"})
    page = (await client.get(new.headers["location"])).text
    game_id = game_id_of(page)
    code = await stored_code(app, client, game_id)
    # What the finding was about: the code alone deals every hand, the bots' too.
    state = (await client.get(f"{API}/{game_id}")).json()
    hand = [card_text(c) for c in cards_in(deal_hands(parse_match_code(code), 1)[0])]
    assert sorted(state["hand"]) == sorted(hand)

    def secret(state: dict) -> None:
        assert state["deal"] is None
        assert code not in json.dumps(state) and code[-7:] not in json.dumps(state)

    assert not CODE.search(page) and code[-7:] not in page
    secret(state)
    state = await step(client, state)
    secret(state)
    page = (await client.get("/hearts")).text
    assert not CODE.search(page) and code[-7:] not in page
    assert code[-7:] not in (await client.get("/")).text

    over = await play_to_the_end(client, state, secret)
    assert over["deal"] == code
    page = (await client.get("/hearts")).text
    assert f'<span data-info="deal">{code}</span>' in page
    assert f'href="/hearts/deal/{code}" data-info="deal-link"' in page


async def test_no_page_answer_holds_the_code_until_the_one_that_ends_the_match(app, client):
    await client.post("/hearts/new", data={"level": "E"})
    game_id = game_id_of((await client.get("/hearts")).text)
    code = await stored_code(app, client, game_id)
    url = f"/hearts/games/{game_id}"
    htmx = {"hx-request": "true"}
    while True:
        state = (await client.get(f"{API}/{game_id}")).json()
        form = {"version": str(state["version"])}
        if state["phase"] == "passing":
            answer = await client.post(f"{url}/pass", headers=htmx,
                                       data={**form, "cards": " ".join(state["hand"][:3])})
        elif state["phase"] == "playing":
            answer = await client.post(f"{url}/play", headers=htmx,
                                       data={**form, "card": state["legal"][0]})
        else:
            answer = await client.post(f"{url}/next-hand", headers=htmx, data=form)
        assert answer.status_code == 200
        if (await client.get(f"{API}/{game_id}")).json()["phase"] == "match_over":
            break
        assert not CODE.search(answer.text) and code[-7:] not in answer.text
    assert f'href="/hearts/deal/{code}" data-info="deal-link"' in answer.text


async def test_a_match_opened_from_a_code_shows_it(client):
    shared = "HT1-E-AAAAAAB"
    assert (await client.get(f"/hearts/deal/{shared}")).status_code == 303
    page = (await client.get("/hearts")).text
    assert f'<span data-info="deal">{shared}</span>' in page
    state = (await client.post(API, json={"deal": shared.lower()})).json()
    assert state["deal"] == shared
    assert (await client.post(API, json={})).json()["deal"] is None


async def test_a_secret_code_is_no_shortcut_on_a_deal_url(app, client):
    """A deal URL of the match being played would open it at once: with a secret code that
    would tell a guess right from wrong, so it asks as for any other deal."""
    state = (await client.post(API, json={})).json()
    code = await stored_code(app, client, state["game_id"])
    await step(client, state)  # unfinished now
    page = await client.get(f"/hearts/deal/{code}")
    assert page.status_code == 200 and 'id="ht-deal-dialog"' in page.text


LONG_CODE = re.compile(r"HT1-[ENH]-[A-Z]{28}")


async def play_recording_hands(client, state: dict) -> tuple[dict, dict[int, list[str]]]:
    """Play to the end; the player's cards as each hand dealt them (its first state)."""
    dealt: dict[int, list[str]] = {state["hand_number"]: state["hand"]}

    def record(state: dict) -> None:
        dealt.setdefault(state["hand_number"], state["hand"])

    return await play_to_the_end(client, state, record), dealt


def dealt_by(code: str, hand_number: int) -> list[str]:
    hand = deal_hands(parse_match_code(code), hand_number)[0]
    return sorted(card_text(c) for c in cards_in(hand))


async def test_a_secret_match_has_a_long_code_that_replays_every_hand(app, client):
    """Issue 28, F1: a seven-letter code (26**7 ≈ 2**33) could be searched from one seat's
    cards, and every later hand followed from it. A secret match's code is drawn from more than
    2**128 numbers and, shown once the match is over, deals every hand the match dealt."""
    state = (await client.post(API, json={})).json()
    code = await stored_code(app, client, state["game_id"])
    assert LONG_CODE.fullmatch(code) and 26 ** len(code.split("-")[2]) >= 2**128
    other = (await client.post(API, json={})).json()
    assert await stored_code(app, client, other["game_id"]) != code
    state = (await client.get(f"{API}/{state['game_id']}")).json()
    over, dealt = await play_recording_hands(client, state)
    assert over["deal"] == code and len(dealt) >= 2
    for hand_number, hand in dealt.items():
        assert sorted(hand) == dealt_by(code, hand_number)
    # Shared, the long code opens the same match: in the API and on a deal page.
    replayed = (await client.post(API, json={"deal": code.lower()})).json()
    assert replayed["deal"] == code and sorted(replayed["hand"]) == dealt_by(code, 1)
    assert (await client.get(f"/hearts/deal/{code}")).status_code == 303
    page = (await client.get("/hearts")).text
    assert f'<span data-info="deal">{code}</span>' in page


async def test_the_pages_next_match_has_a_long_secret_code_too(app, client):
    """The match a page shows before its first action is dealt from an HMAC under the server's
    key: its code is a long one as well."""
    game_id = game_id_of((await client.get("/hearts")).text)
    state = (await client.get(f"{API}/{game_id}")).json()
    state = await step(client, state)  # stored now
    code = await stored_code(app, client, game_id)
    assert LONG_CODE.fullmatch(code)
    over, dealt = await play_recording_hands(client, state)
    assert over["deal"] == code
    for hand_number, hand in dealt.items():
        if hand_number > 1:  # (the first state recorded here is after the pass)
            assert sorted(hand) == dealt_by(code, hand_number)
