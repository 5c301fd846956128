"""Replays (app/web/replays.py): a finished match replays card for card from its stored
actions through the rules, its review equals the hand review's, the share link opens one
finished game read-only, and nothing is shown of a game in play or of a daily before its day
is over; Heart to Heart's steps carry the solver's verdict and the move that lost it."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from app.bots.driver import pass_for_bots, play_bots
from app.rules.cards import card_text, parse_card
from app.rules.heart_to_heart import new_game, target_text
from app.rules.heart_to_heart_solver import is_winnable
from app.rules.hearts import HUMAN, HeartsMatch, HeartsRules
from app.web.hearts.replay import replay_match
from app.web.hearts.review import review
from app.web.hearts.service import state_of
from app.web.hearts.table import lost_points
from app.web.replays import share_token
from tests.assists.test_where_lost import play_through_api, played, stalemated
from tests.fairplay.hearts_play import play_to_the_end, step

API = "/api/hearts/games"
SHORT = {"target": 50}  # a short match: three to five hands
EASY = "HT1-E-AAAAAAB"  # Easy bots answer at once


async def finished_match(client, rules: dict | None = None) -> dict:
    answer = await client.post(API, json={"deal": EASY, "rules": rules or SHORT})
    assert answer.status_code == 201, answer.text
    return await play_to_the_end(client, answer.json(), lambda state: None)


async def stored_match(app, client, game_id: str) -> HeartsMatch:
    from tests.web.test_first_visit import session_of

    stored = await app.state.store.get(session_of(app, client), game_id)
    return HeartsMatch.from_json(stored.state)


def steps_of(html: str) -> dict:
    found = re.search(r'data-steps="([^"]*)"', html)
    assert found is not None
    return json.loads(unescape(found.group(1)))


async def test_a_match_replays_card_for_card_with_its_review(app, client):
    state = await finished_match(client, {"target": 50, "moon": "shooters_choice"})
    game_id = state["game_id"]
    replay = (await client.get(f"{API}/{game_id}/replay")).json()
    match = await stored_match(app, client, game_id)
    assert replay["deal"] == match.deal == state["deal"]
    assert replay["rules"] == state["rules"] and replay["rules"]["target"] == 50
    assert len(replay["hands"]) == match.hand_number == len(state["hand_scores"])
    # Again through the rules, from the stored actions: the same cards, passes and scores.
    again = HeartsMatch.new(match.code, last_hand=match.last_hand)
    for index, hand in enumerate(replay["hands"]):
        if index:
            again.next_hand()
        assert [[card_text(c) for c in _cards(m)] for m in again.state.hands] == hand["dealt"]
        if again.phase == "passing":
            assert len(hand["passes"]) == 4
            for p in hand["passes"]:
                again.choose_pass(p["seat"], sum(1 << parse_card(c) for c in p["cards"]))
        else:
            assert hand["passes"] == [] and hand["pass_direction"] == "none"
        for trick in hand["tricks"]:
            for play in trick["cards"]:
                again.play(parse_card(play["card"]), seat=play["seat"])
            done = again.state.tricks[-1]
            assert (done.winner, done.points) == (trick["winner"], trick["points"])
        if again.phase == "moon":
            again.choose_moon(again.state.moon, "add_to_others"
                              if hand["scores"][again.state.moon] == 0 else
                              "subtract_from_shooter")
        assert list(again.state.hand_scores[-1]) == hand["scores"] == state["hand_scores"][index]
        assert list(again.state.totals) == hand["totals"]
        # The review of South's decisions is the hand review's, figure for figure.
        judged = review(again.view(HUMAN))
        assert [d["expected_points_lost"] for d in hand["review"]] == [
            None if lost_points(d) is None else round(lost_points(d), 2) for d in judged
        ]
        assert [d["trick"] for d in hand["review"]] == [d.trick for d in judged]
    assert again.phase == "match_over" and replay["winner"] == state["winner"]
    assert [s["name"] for s in replay["seats"]] == ["You", "West", "North", "East"]
    assert replay["your_seat"] == 0 and replay["review_seat"] == 0


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


@pytest.mark.parametrize("lang", ["en", "vi"])
async def test_the_page_draws_every_step_in_the_language(new_client, lang):
    client = new_client(headers={"accept-language": lang})
    state = await finished_match(client)
    page = await client.get(f"/hearts/games/{state['game_id']}/replay")
    assert page.status_code == 200
    data = steps_of(page.text)
    plays = sum(len(h["plays"]) for h in data["hands"])
    assert plays == 52 * len(state["hand_scores"])
    assert sum(s[1] == 2 for s in data["steps"]) == plays
    assert 'type="range"' in page.text and "/js/replay.js" in page.text
    assert "<script>" not in page.text  # CSP: no inline script
    title = {"en": "Replay of a Hearts match", "vi": "Phát lại trận Hearts"}[lang]
    assert title in page.text
    played_words = {"en": "West played", "vi": "Tây đánh"}[lang]
    assert any(played_words in s[3] for s in data["steps"])


async def test_nothing_of_a_match_in_play_and_the_share_link_is_read_only(app, client, new_client):
    answer = await client.post(API, json={"rules": SHORT})
    state = await step(client, answer.json())  # one pass made: a match in play
    game_id = state["game_id"]
    for url in (f"{API}/{game_id}/replay", f"/hearts/games/{game_id}/replay"):
        refused = await client.get(url)
        assert refused.status_code == 403
        assert "still being played" in refused.text
        assert not re.search(r"\b(10|[2-9AJQK])[CDHS]\b", refused.text)
    token = share_token(app.state.settings.secret_key, "hearts", game_id)
    other = new_client(headers={"accept-language": "en"})
    assert (await other.get(f"{API}/{game_id}/replay", params={"share": token})).status_code == 403
    state = await play_to_the_end(client, state, lambda s: None)
    shared = await other.get(f"{API}/{game_id}/replay", params={"share": token})
    assert shared.status_code == 200
    assert shared.json()["your_seat"] is None
    assert [s["name"] for s in shared.json()["seats"]] == ["South", "West", "North", "East"]
    assert (await client.get(f"{API}/{game_id}/replay")).json()["share_url"].endswith(
        f"?share={token}")
    page = await other.get(f"/hearts/games/{game_id}/replay", params={"share": token})
    assert page.status_code == 200 and "your seat" not in page.text
    # Without the token, or with another game's, it is not this browser's game.
    assert (await other.get(f"{API}/{game_id}/replay")).status_code == 404
    bad = share_token(app.state.settings.secret_key, "hearts", "another")
    assert (await other.get(f"{API}/{game_id}/replay", params={"share": bad})).status_code == 403
    # Read-only: the link gives no right to act on the game.
    acted = await other.post(f"{API}/{game_id}/next-hand", params={"share": token}, json={})
    assert acted.status_code == 404


async def test_a_daily_replay_waits_for_the_end_of_its_day(client, clock):
    state = (await client.post("/api/hearts/daily")).json()
    state = await play_to_the_end(client, state, lambda s: None)
    game_id = state["game_id"]
    refused = await client.get(f"{API}/{game_id}/replay")
    assert refused.status_code == 403
    assert "00:00 UTC" in refused.json()["error"]["message"]
    assert "HT1-" not in refused.text
    page = await client.get(f"/hearts/games/{game_id}/replay")
    assert page.status_code == 403 and "data-steps" not in page.text
    clock.advance(24 * 3600)
    opened = await client.get(f"{API}/{game_id}/replay")
    assert opened.status_code == 200 and len(opened.json()["hands"]) == 4


async def test_a_match_saved_before_replays_has_none(app, client):
    state = await finished_match(client)
    match = await stored_match(app, client, state["game_id"])
    data = match.to_json()
    data.pop("past")
    old = HeartsMatch.from_json(data)
    with pytest.raises(Exception, match="not_kept"):
        replay_match(old)


async def test_a_record_that_does_not_replay_is_not_found(app, client):
    from tests.web.test_first_visit import session_of

    state = await finished_match(client)
    session = session_of(app, client)
    stored = await app.state.store.get(session, state["game_id"])
    damaged = json.loads(json.dumps(stored.state))
    first = damaged["past"][0]["tricks"][0]
    first[1], first[2] = first[2], first[1]  # two cards of the first trick swapped
    assert await app.state.store.compare_and_set(session, state["game_id"], stored.version,
                                                 damaged)
    answer = await client.get(f"{API}/{state['game_id']}/replay")
    assert answer.status_code == 404


# -- Heart to Heart --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "vi"])
async def test_a_lost_game_replays_with_the_solver_verdicts(app, new_client, lang):
    client = new_client(headers={"accept-language": lang})
    game, moves, lost_at = stalemated(777, draws_after=3)
    state = await play_through_api(client, game.deal, moves)
    game_id = state["game_id"]
    replay = (await client.get(f"/api/heart-to-heart/games/{game_id}/replay")).json()
    assert replay["verdict"] == "lost" and replay["lost_after"] == lost_at
    assert replay["losing_move"] == str(moves[lost_at])
    assert [s["move"] for s in replay["steps"]] == [None, *(str(m) for m in moves)]
    for number, step_seen in enumerate(replay["steps"]):
        position = played(game.deal, moves[:number])
        assert step_seen["removed"] == [p for p in range(25) if position.removed_mask >> p & 1]
        assert step_seen["stock"] == position.stock_count
        assert step_seen["winnable"] == is_winnable(position)
    page = await client.get(f"/heart-to-heart/games/{game_id}/replay")
    data = steps_of(page.text)
    assert data["lost"] == lost_at and len(data["steps"]) == len(moves) + 1
    lost_words = {"en": "This move lost the game", "vi": "Nước đi này làm thua ván"}[lang]
    assert lost_words in data["steps"][lost_at + 1][6]


async def test_a_heart_to_heart_game_in_play_shows_nothing(client):
    state = (await client.post("/api/heart-to-heart/games", json={"deal": "HH1-W-AAAAAAC"})).json()
    first = next(new_game("HH1-W-AAAAAAC").legal_moves())
    for target in first.taps:
        state = (await client.post(f"/api/heart-to-heart/games/{state['game_id']}/tap",
                                   json={"target": target_text(target)})).json()
    refused = await client.get(f"/api/heart-to-heart/games/{state['game_id']}/replay")
    assert refused.status_code == 403 and "heart" not in refused.json()


# -- a table's match ---------------------------------------------------------------------------


def bots_match(code: str, rules: HeartsRules | None = None) -> HeartsMatch:
    """A whole match, every seat played by the code's bots (who choose their moons)."""
    return played_out_by_bots(HeartsMatch.new(code, rules=rules))


def played_out_by_bots(match: HeartsMatch) -> HeartsMatch:
    """``match`` played to its end, every seat by the code's bots."""
    every = range(4)
    while match.phase != "match_over":
        if match.phase == "hand_over":
            match.next_hand()
        elif match.phase == "passing":
            pass_for_bots(match, every)
        else:
            play_bots(match, every)
    return match


def test_moons_replay_as_their_shooters_chose():
    # Under the shooter's choice: hand 8's shooter took 26 off, hand 12's gave 26 to the others.
    match = HeartsMatch.from_json(
        bots_match("HT1-E-AAAAAAA", HeartsRules(moon="shooters_choice")).to_json()
    )
    replay = replay_match(match)
    moons = {h.number: (h.moon, h.scores) for h in replay.hands if h.moon is not None}
    assert moons == {8: (2, (0, 0, -26, 0)), 12: (1, (26, 0, 26, 26))}
    assert replay.hands[-1].totals == match.state.totals
    assert replay.rules.moon == "shooters_choice"


@pytest.mark.parametrize("lang", ["en", "vi"])
async def test_the_score_table_marks_each_moon_with_its_shooter(app, new_client, lang):
    """The moon's mark is the boards' ☾ (a font without emoji draws it), named for a screen
    reader with who shot it."""
    from tests.web.test_first_visit import session_of

    client = new_client(headers={"accept-language": lang})
    await client.get("/")
    match = bots_match("HT1-E-AAAAAAA", HeartsRules(moon="shooters_choice"))
    stored = await app.state.store.create(session_of(app, client), "hearts",
                                          state_of(match, True))
    page = (await client.get(f"/hearts/games/{stored.game_id}/replay")).text
    rows = dict(re.findall(r'<tr><th scope="row">(\d+)(.*?)</th>', page))
    assert len(rows) == match.hand_number
    shot = {"en": "shot the moon", "vi": "bắn trăng"}[lang]
    names = {"en": ["You", "West", "North", "East"], "vi": ["Bạn", "Tây", "Bắc", "Đông"]}[lang]
    # Hand 8's moon was North's (seat 2), hand 12's West's (test_moons_replay_as_...).
    assert {int(n): mark for n, mark in rows.items() if mark} == {
        8: f' <span role="img" aria-label="{names[2]}: {shot}">☾</span>',
        12: f' <span role="img" aria-label="{names[1]}: {shot}">☾</span>',
    }


def test_the_remembered_hands_survive_saving_and_bad_ones_are_refused():
    from app.rules.hearts import HeartsStateError

    match = bots_match("HT1-E-AAAAAAC")
    data = json.loads(json.dumps(match.to_json()))
    assert len(data["past"]) == match.hand_number - 1
    again = HeartsMatch.from_json(data)
    assert again == match and again.played_hands() == match.played_hands()
    with pytest.raises(HeartsStateError):
        HeartsMatch.from_json({**data, "past": "hands"})
    short = json.loads(json.dumps(data))
    short["past"][0]["tricks"].pop()
    with pytest.raises(HeartsStateError):
        HeartsMatch.from_json(short).played_hands()


async def test_a_table_replay_opens_to_anyone_once_the_match_is_over(app, new_client):
    creator = new_client(headers={"accept-language": "en"})
    made = await creator.post("/api/hearts/tables", json={"bot_level": "easy",
                                                          "turn_seconds": None, "name": "Ana"})
    assert made.status_code == 201, made.text
    table_id = made.json()["table_id"]
    assert (await creator.post(f"/api/hearts/tables/{table_id}/start", json={})).status_code == 200
    watcher = new_client(headers={"accept-language": "vi"})
    for who in (creator, watcher):
        refused = await who.get(f"/api/hearts/tables/{table_id}/replay")
        assert refused.status_code == 403 and "hands" not in refused.json()
        assert (await who.get(f"/hearts/t/{table_id}/replay")).status_code == 403
    # The match, played to its end (by bots for the test), stored as the table's.
    store = app.state.store
    stored = await store.get_table(table_id)
    finished = bots_match("HT1-E-AAAAAAD")
    saved = await store.table_compare_and_set(
        table_id, stored.version, {**stored.state, "match": finished.to_json()})
    assert saved is not None
    mine = (await creator.get(f"/api/hearts/tables/{table_id}/replay")).json()
    assert mine["kind"] == "hearts_table" and mine["your_seat"] == 0 and mine["review_seat"] == 0
    assert mine["seats"][0]["name"].startswith("Ana") and mine["seats"][0]["human"]
    assert len(mine["hands"]) == finished.hand_number
    assert all(hand["review"] is not None for hand in mine["hands"])
    assert [h["totals"] for h in mine["hands"]][-1] == list(finished.state.totals)
    theirs = (await watcher.get(f"/api/hearts/tables/{table_id}/replay")).json()
    assert theirs["your_seat"] is None and theirs["review_seat"] is None
    assert all(hand["review"] is None for hand in theirs["hands"])
    assert theirs["hands"][0]["tricks"] == mine["hands"][0]["tricks"]
    page = await watcher.get(f"/hearts/t/{table_id}/replay")
    assert page.status_code == 200 and "Phát lại trận Hearts" in page.text
    assert "chỗ của bạn" not in page.text


async def test_the_match_over_dialog_links_to_the_replay(client):
    state = await finished_match(client)
    page = (await client.get("/hearts")).text
    assert f'href="/hearts/games/{state["game_id"]}/replay" data-action="replay"' in page


async def test_the_heart_to_heart_dialogs_link_to_the_replay(new_client):
    client = new_client(headers={"accept-language": "en"})
    game, moves, _ = stalemated(40)
    state = await play_through_api(client, game.deal, moves)
    page = (await client.get("/heart-to-heart")).text
    assert f'href="/heart-to-heart/games/{state["game_id"]}/replay" data-action="replay"' in page
