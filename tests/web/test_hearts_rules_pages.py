"""House rules on the pages: the new-match dialog's presets and custom rules, a deal link that
carries rules, the rules on the table and in the hand's summary, statistics per rule set and a
results board per deal and rule set."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from app.rules.hearts import HeartsMatch
from app.rules.hearts_rules import PRESETS, HeartsRules
from app.web.results import SECTIONS, code_board
from tests.api.test_api_hearts import API
from tests.web.test_hearts_page import session_of


async def current_rules(client: httpx.AsyncClient, app: FastAPI) -> HeartsRules:
    stored = await app.state.store.current(session_of(client, app), "hearts")
    return HeartsMatch.from_json(stored.state).rules


async def test_a_preset_or_custom_rules_start_a_match(client: httpx.AsyncClient, app: FastAPI):
    page = (await client.get("/hearts")).text
    assert 'name="rules" value="omnibus"' in page and 'name="rules" value="custom"' in page
    assert "Rules: Classic" in page
    started = await client.post("/hearts/new", data={"level": "E", "rules": "omnibus"})
    assert started.status_code == 303
    assert await current_rules(client, app) == PRESETS["omnibus"]
    page = (await client.get("/hearts")).text
    assert "Rules: Omnibus" in page and "J♦: −10 points" in page
    custom = {
        "level": "N", "rules": "custom", "passing": "none", "queen_breaks_hearts": "on",
        "moon": "safe", "target": "75", "perfect_100": "on",
        # Fields of the custom choice are read only when it is chosen.
    }
    assert (await client.post("/hearts/new", data=custom)).status_code == 303
    assert await current_rules(client, app) == HeartsRules(
        passing="none", queen_breaks_hearts=True, moon="safe", target=75, perfect_100=True
    )
    page = (await client.get("/hearts")).text
    assert "Match to 75 points" in page and "Moon: safe" in page
    ignored = {**custom, "rules": "seed"}
    assert (await client.post("/hearts/new", data=ignored)).status_code == 303
    assert await current_rules(client, app) == PRESETS["seed"]


async def test_rules_the_dialog_does_not_offer_are_refused(client: httpx.AsyncClient, app):
    await client.post("/hearts/new", data={"rules": "omnibus"})
    for data in ({"rules": "house"}, {"rules": "custom", "target": "40"},
                 {"rules": "custom", "moon": "never"}, {"rules": "custom", "target": "1e3"}):
        response = await client.post("/hearts/new", data=data)
        assert 400 <= response.status_code < 500, data
    assert await current_rules(client, app) == PRESETS["omnibus"]


async def test_a_deal_link_carries_the_rules_in_vietnamese_too(new_client, app: FastAPI):
    client = new_client(headers={"accept-language": "vi"})
    await client.get("/")
    assert (await client.get("/hearts/deal/HT1-E-AAAAAAB-JB")).status_code == 303
    assert await current_rules(client, app) == HeartsRules(
        jack_of_diamonds=-10, no_tricks_bonus=-5
    )
    page = (await client.get("/hearts")).text
    assert "HT1-E-AAAAAAB-JB" in page and "J rô (J♦): −10 điểm" in page
    bad = await client.get("/hearts/deal/HT1-E-AAAAAAB-XYZ")
    assert bad.status_code == 400


async def play_api_match(client: httpx.AsyncClient, rules: dict, *, to_end: bool) -> dict:
    """A match of Easy bots on one deal under ``rules``, the player taking the first legal
    card: its first hand, or the whole match."""
    state = (await client.post(
        f"{API}/games", json={"deal": "HT1-E-AAAAAAB", "rules": rules}
    )).json()  # fmt: skip
    end = "match_over" if to_end else "hand_over"
    while state["phase"] not in (end, "match_over"):
        if state["phase"] == "passing":
            action, body = "pass", {"cards": state["hand"][:3]}
        elif state["phase"] == "hand_over":
            action, body = "next-hand", {}
        elif state["phase"] == "moon":
            action, body = "moon", {"choice": "add_to_others"}
        else:
            action, body = "play", {"card": state["legal"][0]}
        body["version"] = state["version"]
        state = (await client.post(f"{API}/games/{state['game_id']}/{action}", json=body)).json()
    return state


async def test_statistics_and_results_per_rule_set(client: httpx.AsyncClient, app: FastAPI):
    await client.put("/api/settings", json={"hearts_claim": False})
    await play_api_match(client, {}, to_end=False)
    await play_api_match(client, {"jack_of_diamonds": -10}, to_end=False)
    # A board per deal and rule set: the code carries the rules.
    store = app.state.store
    for code in ("HT1-E-AAAAAAB", "HT1-E-AAAAAAB-J"):
        board = code_board("hearts", code)
        assert sum([await store.results_count(board, section) for section in SECTIONS]) == 1
    board = await client.get("/hearts/deal/HT1-E-AAAAAAB-J/results")
    assert board.status_code == 200 and "HT1-E-AAAAAAB-J" in board.text
    assert "By house rules" not in (await client.get("/stats")).text  # no match finished yet
    await play_api_match(client, {"jack_of_diamonds": -10, "target": 50}, to_end=True)
    stats = (await client.get("/stats")).text
    assert "By house rules" in stats
    row = stats[stats.index('data-rules="J50"'):]
    assert "J♦: −10 points · Match to 50 points" in row[: row.index("</tr>")]
    assert '<td>1</td>' in row[: row.index("</tr>")]
