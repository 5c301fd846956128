"""House rules through the JSON API: a match created with rules carries them in every answer and
in its code; bad rules get 422; a whole match under each preset scores every hand and ends as the
rules, written out here, say; the player who shoots the moon under the shooter's choice is asked
(POST …/moon) and the page asks too."""

from __future__ import annotations

import random

import httpx
import pytest
from fastapi import FastAPI

from app.rules.hearts import HeartsMatch
from app.rules.hearts_rules import PRESETS, SEED_RULES, HeartsRules
from tests.api.test_api_hearts import API, post, session_of
from tests.rules.test_hearts_house_rules import moon_position

SEED_JSON = SEED_RULES.to_json()


def points_of_cards(cards: list[str]) -> int:
    return sum(1 for c in cards if c.endswith("H")) + (13 if "QS" in cards else 0)


def expected_scores(state: dict, totals_before: list[int], rules: dict) -> list[int]:
    """A finished hand's scores from its tricks, by the rules as written in the issue."""
    points = [0, 0, 0, 0]
    won = [0, 0, 0, 0]
    jack = None
    for trick in state["tricks"]:
        cards = [p["card"] for p in trick["cards"]]
        points[trick["winner"]] += points_of_cards(cards)
        won[trick["winner"]] += 1
        if "JD" in cards:
            jack = trick["winner"]
    jd = [rules["jack_of_diamonds"] if s == jack else 0 for s in range(4)]
    if 26 not in points:
        return [points[s] + jd[s] + (rules["no_tricks_bonus"] if not won[s] else 0)
                for s in range(4)]  # fmt: skip
    shooter = points.index(26)
    added = [(0 if s == shooter else 26) + jd[s] for s in range(4)]
    subtracted = [(-26 if s == shooter else 0) + jd[s] for s in range(4)]
    after = settled(totals_before, added, rules)
    ends_lost = max(after) >= rules["target"] and min(after) != after[shooter]
    if rules["moon"] == "subtract_from_shooter" or (rules["moon"] == "safe" and ends_lost):
        return subtracted
    if rules["moon"] == "shooters_choice":
        # Every seat but the player is a bot: it adds only when then alone lowest.
        alone = all(after[shooter] < after[s] for s in range(4) if s != shooter)
        return added if alone else subtracted
    return added


def settled(totals: list[int], scores: list[int], rules: dict) -> list[int]:
    new = [t + s for t, s in zip(totals, scores, strict=True)]
    if rules["perfect_100"]:
        new = [rules["target"] // 2 if t == rules["target"] else t for t in new]
    return new


async def test_rules_are_carried_by_every_answer_and_the_code(client: httpx.AsyncClient):
    seed = (await client.post(f"{API}/games", json={"deal": "HT1-E-AAAAAAB"})).json()
    assert seed["rules"] == SEED_JSON and seed["deal"] == "HT1-E-AAAAAAB"
    body = {"deal": "HT1-E-AAAAAAB", "rules": {"jack_of_diamonds": -10, "target": 50}}
    state = (await client.post(f"{API}/games", json=body)).json()
    assert state["rules"] == {**SEED_JSON, "jack_of_diamonds": -10, "target": 50}
    assert state["deal"] == "HT1-E-AAAAAAB-J50"
    again = (await client.get(f"{API}/games/{state['game_id']}")).json()
    assert again["rules"] == state["rules"]
    # A code with rules plays them; a random match with rules hides its code.
    coded = (await client.post(f"{API}/games", json={"deal": "ht1-n-aaaaaab-nb"})).json()
    assert coded["rules"]["passing"] == "none" and coded["rules"]["no_tricks_bonus"] == -5
    assert coded["phase"] == "playing" and coded["pass_direction"] == "none"
    hidden = (await client.post(f"{API}/games", json={"rules": {"moon": "safe"}})).json()
    assert hidden["deal"] is None and hidden["rules"]["moon"] == "safe"


@pytest.mark.parametrize(
    "rules",
    [
        {"target": 49},
        {"target": 501},
        {"target": 100.5},
        {"jack_of_diamonds": -5},
        {"no_tricks_bonus": 5},
        {"passing": "left"},
        {"moon": "never"},
        {"queen_breaks_hearts": "yes"},
        {"queen_breaks_hearts": 1},
        {"colour": "red"},
        "J",
    ],
)
async def test_bad_rules_get_422_and_create_nothing(client: httpx.AsyncClient, rules):
    response = await client.post(f"{API}/games", json={"rules": rules})
    assert response.status_code == 422, response.text
    assert response.json()["error"]["message"]


async def test_bad_rules_in_a_code_get_422(client: httpx.AsyncClient):
    response = await client.post(f"{API}/games", json={"deal": "HT1-N-AAAAAAB-BJ"})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_deal"


@pytest.mark.parametrize("preset", list(PRESETS))
async def test_a_match_under_each_preset_scores_and_ends_as_the_rules_say(
    client: httpx.AsyncClient, preset: str
):
    rng = random.Random(preset)
    rules = PRESETS[preset].to_json()
    await client.put("/api/settings", json={"hearts_claim": False})
    state = (await client.post(
        f"{API}/games", json={"deal": "HT1-E-RULESAA", "rules": rules}
    )).json()  # fmt: skip
    assert state["rules"] == rules
    totals = before = [0, 0, 0, 0]
    while state["phase"] != "match_over":
        if state["phase"] == "passing":
            state = (await post(client, state, "pass", cards=rng.sample(state["hand"], 3))).json()
        elif state["phase"] == "moon":
            choice = rng.choice(["add_to_others", "subtract_from_shooter"])
            state = (await post(client, state, "moon", choice=choice)).json()
            assert state["hand_scores"][-1][0] == (0 if choice == "add_to_others" else -26) + (
                rules["jack_of_diamonds"]
            )
            totals = [seat["total"] for seat in state["seats"]]
            continue
        elif state["phase"] == "hand_over":
            state = (await post(client, state, "next-hand")).json()
        else:
            state = (await post(client, state, "play", card=rng.choice(state["legal"]))).json()
        if state["phase"] in ("hand_over", "match_over"):
            if state["moon"] != 0 or rules["moon"] != "shooters_choice":
                assert state["hand_scores"][-1] == expected_scores(state, totals, rules)
            before = totals
            totals = settled(totals, state["hand_scores"][-1], rules)
            assert [seat["total"] for seat in state["seats"]] == totals
    assert max(totals) >= rules["target"]
    assert state["winner"] == totals.index(min(totals)) and totals.count(min(totals)) == 1
    # It ended at the first hand that took a total to the target with one seat lowest.
    assert max(before) < rules["target"] or before.count(min(before)) > 1


async def test_the_moon_question_through_the_api_and_the_page(
    client: httpx.AsyncClient, app: FastAPI
):
    rules = HeartsRules(moon="shooters_choice", jack_of_diamonds=-10)
    await client.get("/hearts")
    match = moon_position(rules)
    match.play(0)  # the last card: seat 0 shot the moon and must choose
    assert match.phase == "moon"
    stored = await app.state.store.create(session_of(client, app), "hearts", match.to_json())
    state = (await client.get(f"{API}/games/{stored.game_id}")).json()
    assert state["phase"] == "moon" and state["moon"] == 0 and state["turn"] is None
    page = (await client.get("/hearts")).text
    assert 'data-end="moon-2"' in page and 'name="choice" value="subtract_from_shooter"' in page
    refused = await post(client, state, "next-hand")
    assert refused.status_code == 409
    bad = await post(client, state, "moon", choice="safe")
    assert bad.status_code == 422
    answer = await post(client, state, "moon", choice="subtract_from_shooter")
    assert answer.status_code == 200, answer.text
    after = answer.json()
    assert after["phase"] == "hand_over" and after["hand_scores"][-1] == [-36, 0, 0, 0]
    assert [seat["total"] for seat in after["seats"]] == [-26, 20, 30, 40]
    again = await post(client, after, "moon", choice="add_to_others")
    assert again.status_code == 409 and again.json()["error"]["code"] == "not_moon"
    assert HeartsMatch.from_json(
        (await app.state.store.get(session_of(client, app), stored.game_id)).state
    ).rules == rules


async def test_a_table_starts_under_the_rules_its_creator_chose(client: httpx.AsyncClient):
    created = await client.post(
        "/api/hearts/tables", json={"turn_seconds": None, "name": "Lan"}
    )
    table = created.json()
    assert table["rules"] == SEED_JSON
    started = await client.post(
        f"/api/hearts/tables/{table['table_id']}/start", json={"rules": {"passing": "none"}}
    )
    assert started.status_code == 200, started.text
    assert started.json()["rules"] == {**SEED_JSON, "passing": "none"}
    assert started.json()["pass_direction"] == "none"
    page = (await client.get(f"/hearts/t/{table['table_id']}")).text
    assert 'name="rules"' not in page  # the choice is made before the start only
    other = (await client.post("/api/hearts/tables", json={"name": "Lan"})).json()
    refused = await client.post(
        f"/api/hearts/tables/{other['table_id']}/start", json={"rules": {"target": 10}}
    )
    assert refused.status_code == 422


async def test_a_table_page_offers_the_presets_before_the_start(client: httpx.AsyncClient):
    created = await client.post("/hearts/tables", data={"name": "Lan"})
    url = created.headers["location"]
    page = (await client.get(url)).text
    # The lobby offers the presets as one of the room's controls (tables/lobby.py).
    assert 'type="radio" name="rules" value="omnibus"' in page
    headers = {"sec-fetch-site": "same-origin"}
    bad = await client.post(f"{url}/start", data={"rules": "house"}, headers=headers)
    assert bad.status_code == 400
    start = await client.post(
        f"{url}/start", data={"level": "easy", "seconds": "none", "rules": "omnibus"},
        headers=headers,
    )
    assert start.status_code in (200, 303)
    table_id = url.rsplit("/", 1)[1]
    state = (await client.get(f"/api/hearts/tables/{table_id}")).json()
    assert state["rules"]["jack_of_diamonds"] == -10
