"""Hearts hints: always legal, the same for the same view whatever the hidden cards are, and
given by the API and the page (marking the match assisted)."""

from __future__ import annotations

import random
import re

from app.bots import choose_pass, choose_play, decision_seed, hard
from app.bots.driver import pass_for_bots, play_bots
from app.rules.cards import card_text, cards_in, parse_card, suit_of
from app.rules.deal_codes import DealCode
from app.rules.hearts import HUMAN, HeartsMatch
from app.rules.hearts_position import parse_position
from app.web.hearts.assists import hint_cards
from app.web.hearts.autoplay import Helped, claim_is_certain, play_for_player
from app.web.hearts.review import Decision, decision_views, review
from app.web.hearts.service import play_card, state_of
from app.web.hearts.table import review_of
from app.web.i18n import translator
from app.web.preferences import PlayHelp
from app.web.profile import Profile
from app.web.session import COOKIE_NAME, SessionMiddleware

API = "/api/hearts"
HX = {"hx-request": "true"}


def player_decisions(number: int):
    """Each decision of the player in the first two hands of a match with Normal bots, the
    player following the hint: (match before the decision, hint)."""
    match = HeartsMatch.new(DealCode("HT1", "N", number))
    play_bots(match)
    while match.hand_number <= 2 and match.phase in ("passing", "playing", "hand_over"):
        if match.phase == "hand_over":
            match.next_hand()
            play_bots(match)
            continue
        hint = hint_cards(match.view(HUMAN))
        yield match, hint
        if match.phase == "passing":
            match.choose_pass(HUMAN, hint)
            pass_for_bots(match)
        else:
            match.play(hint.bit_length() - 1, seat=HUMAN)
        play_bots(match)


def test_a_hint_is_always_legal() -> None:
    decisions = 0
    for number in (11, 222, 3333):
        for match, hint in player_decisions(number):
            view = match.view(HUMAN)
            if view.phase == "passing":
                assert hint.bit_count() == 3 and hint & ~view.hand == 0
            else:
                assert hint.bit_count() == 1 and hint & view.legal == hint
            decisions += 1
    assert decisions > 40


def swapped_hidden(match: HeartsMatch, rng: random.Random) -> HeartsMatch | None:
    """The same match with cards of one suit swapped between two other hands (cards the
    player passed stay where the player knows they are): the player's view is unchanged."""
    state = match.state
    hands = list(state.hands)
    known = state.passed[HUMAN]
    for _ in range(50):
        a, b = rng.sample((1, 2, 3), 2)
        suit = rng.randrange(4)
        of_a = [c for c in cards_in(hands[a] & ~known) if suit_of(c) == suit]
        of_b = [c for c in cards_in(hands[b] & ~known) if suit_of(c) == suit]
        if of_a and of_b:
            x, y = rng.choice(of_a), rng.choice(of_b)
            hands[a] ^= 1 << x | 1 << y
            hands[b] ^= 1 << x | 1 << y
            return HeartsMatch(match.code, state._replace(hands=tuple(hands)), [])
    return None


def test_the_same_view_gives_the_same_hint_whatever_the_hidden_cards() -> None:
    rng = random.Random(5)
    checked = 0
    for match, hint in player_decisions(4444):
        if match.phase != "playing":
            continue
        other = swapped_hidden(match, rng)
        if other is None:
            continue
        assert other.state.hands != match.state.hands
        assert other.view(HUMAN) == match.view(HUMAN)
        assert hint_cards(other.view(HUMAN)) == hint
        checked += 1
    assert checked >= 8


def test_no_hint_when_the_player_has_nothing_to_choose() -> None:
    match = HeartsMatch.new(DealCode("HT1", "N", 77))
    view = match.view(HUMAN)
    assert view.phase == "passing"
    match.choose_pass(HUMAN, hint_cards(view))
    assert hint_cards(match.view(HUMAN)) == 0  # chosen, waiting for the exchange


async def test_api_hint_names_legal_cards_and_marks_the_match_assisted(client) -> None:
    state = (await client.post(f"{API}/games", json={"deal": "HT1-N-AAAAAHB"})).json()
    game_id, version = state["game_id"], state["version"]
    answer = (await client.get(f"{API}/games/{game_id}/hint")).json()
    assert set(answer) == {"cards", "version"}
    assert len(answer["cards"]) == 3 and set(answer["cards"]) <= set(state["hand"])
    assert answer["version"] == version + 1
    again = (await client.get(f"{API}/games/{game_id}/hint")).json()
    assert again == answer  # same view, same hint; already assisted: nothing stored
    state = (await client.post(
        f"{API}/games/{game_id}/pass", json={"cards": answer["cards"], "version": answer["version"]}
    )).json()
    assert state["phase"] == "playing"
    answer = (await client.get(f"{API}/games/{game_id}/hint")).json()
    if state["turn"] == HUMAN:
        assert len(answer["cards"]) == 1 and answer["cards"][0] in state["legal"]
    assert answer["version"] == state["version"]


async def test_page_hint_answers_the_marks_and_the_version(client) -> None:
    await client.post(f"{API}/games", json={"deal": "HT1-N-AAAAAHB"})
    html = (await client.get("/hearts")).text
    assert 'data-action="hint"' in html and 'id="ht-hint-marks"' in html
    url = re.search(r'action="(/hearts/games/[\w-]+/hint)"', html).group(1)
    version = re.search(r'id="ht-version" name="version" value="(\d+)"', html).group(1)
    response = await client.post(url, data={"version": version}, headers=HX)
    assert response.status_code == 200
    marks = re.search(r'id="ht-hint-marks" hidden data-targets="([^"]*)"', response.text).group(1)
    hand = re.findall(r'data-card="(\w+)"', html)
    assert len(marks.split()) == 3 and set(marks.split()) <= set(hand)
    assert f'value="{int(version) + 1}"' in response.text
    assert "Hint: the Hard bot would pass" in response.text
    stale = await client.post(url, data={"version": version}, headers=HX)
    assert stale.status_code == 409 and "ht-hint-marks" not in stale.text



# Seat 1 led the 2♣ and seat 0 took the first trick with the A♣; seat 0 now leads and holds the
# twelve spades from the 3 up, each above every spade still out (the 2♠, in seat 3's hand).
TOP_CARDS = (
    "HT1-N-AAAAAAM 4 playing "
    "...AKQJT9876543/KQJT98765.AKQ../.JT98765432.AK./..QJT98765432.2 - 0 - 1:2C3C4CAC"
)
# The same but seat 0's 3♠ and seat 3's 2♠ change places: the 2♠ may lose a trick.
NOT_YET = (
    "HT1-N-AAAAAAM 4 playing "
    "...AKQJT9876542/KQJT98765.AKQ../.JT98765432.AK./..QJT98765432.3 - 0 - 1:2C3C4CAC"
)


def test_a_claim_plays_out_a_hand_whose_tricks_are_all_the_players() -> None:
    match = parse_position(TOP_CARDS)
    assert claim_is_certain(match.view(HUMAN))
    plays, claimed = play_for_player(match, PlayHelp(), play_card)
    assert claimed and len(plays) == 48
    assert match.phase == "hand_over"
    assert all(t.winner == HUMAN for t in match.view(HUMAN).tricks)
    assert match.view(HUMAN).hand_scores[-1] == (0, 26, 26, 26)  # all of them: the moon


def test_no_claim_while_a_trick_may_still_be_lost() -> None:
    match = parse_position(NOT_YET)
    assert not claim_is_certain(match.view(HUMAN))
    before = match.view(HUMAN)
    plays, claimed = play_for_player(match, PlayHelp(), play_card)
    assert (plays, claimed) == ([], False) and match.view(HUMAN) == before


def test_the_claim_setting_turns_it_off() -> None:
    match = parse_position(TOP_CARDS)
    plays, claimed = play_for_player(match, PlayHelp(claim=False), play_card)
    assert (plays, claimed) == ([], False)


# Seat 3 took the first trick and led the 2♠; seat 0's only spade is the A♠, and after it seat
# 0 holds the diamonds from the 4 up (the 3♦ and 2♦ are out): a claim from then on.
SINGLE = (
    "HT1-N-AAAAAAM 4 playing .AKQJT987654..A/KQJT98765.32.A./..KQJT98765432./...KQJT9876543 "
    "3:2S 0 - 1:2C3CAC4C"
)


def test_a_single_legal_card_plays_itself_only_when_asked() -> None:
    assert play_for_player(parse_position(SINGLE), PlayHelp(claim=False), play_card) == ([], False)
    match = parse_position(SINGLE)
    plays, claimed = play_for_player(match, PlayHelp(claim=False, autoplay_single=True), play_card)
    assert [p.seat for p in plays] == [0, 1, 2] and plays[0].card == parse_card("AS")
    assert not claimed and match.turn == HUMAN  # the player leads now, from many cards
    match = parse_position(SINGLE)
    plays, claimed = play_for_player(match, PlayHelp(claim=True, autoplay_single=True), play_card)
    assert claimed and match.phase == "hand_over" and len(plays) == 3 + 4 * 11


def test_play_help_reads_the_settings_with_their_defaults() -> None:
    assert PlayHelp.of(Profile(1, {})) == PlayHelp(claim=True, autoplay_single=False)
    chosen = {"settings": {"hearts_claim": False, "hearts_autoplay_single": True}}
    assert PlayHelp.of(Profile(1, chosen)) == PlayHelp(claim=False, autoplay_single=True)
    assert PlayHelp.of(Profile(1, {"settings": {"hearts_claim": "no"}})) == PlayHelp()


def recorded_hand(number: int) -> tuple[list[tuple[object, int]], object]:
    """The player's real views at each decision of a first hand (Normal bots, the player on
    Normal's choices too) with the choice made, and the hand-over view."""
    match = HeartsMatch.new(DealCode("HT1", "N", number))
    play_bots(match)
    seen = []
    while match.phase in ("passing", "playing"):
        view = match.view(HUMAN)
        if view.phase == "passing":
            chosen = choose_pass("normal", view, decision_seed(view, "pass"))
            match.choose_pass(HUMAN, chosen)
            pass_for_bots(match)
        else:
            chosen = 1 << choose_play("normal", view, decision_seed(view))
            match.play(chosen.bit_length() - 1, seat=HUMAN)
        seen.append((view, chosen))
        play_bots(match)
    return seen, match.view(HUMAN)


def comparable(view) -> tuple:
    """What a decision reads of a view (the deal's code aside, the same fields)."""
    return (view.phase, view.hand, view.legal, view.trick, view.tricks, view.hearts_broken,
            view.hand_points, view.totals, view.cards_left, view.passed, view.received,
            view.turn, view.hand_scores)  # fmt: skip


def test_the_review_rebuilds_each_view_of_the_hand_exactly() -> None:
    for number in (5, 6, 7):
        seen, end = recorded_hand(number)
        rebuilt = decision_views(end)
        assert [chosen for _, chosen in rebuilt] == [chosen for _, chosen in seen]
        for (mine, _), (real, _) in zip(rebuilt, seen, strict=True):
            if real.phase == "playing":
                assert comparable(mine) == comparable(real)
            else:
                assert (mine.hand, mine.legal, mine.phase) == (real.hand, real.legal, real.phase)


def test_the_reviews_best_card_is_legal_and_its_figures_are_from_that_view() -> None:
    seen, end = recorded_hand(8)
    judged = review(end)
    assert len(judged) == len(seen)
    for decision, (view, chosen) in zip(judged, seen, strict=True):
        assert decision.chosen == chosen
        if view.phase == "passing":
            assert decision.best.bit_count() == 3 and decision.best & ~view.hand == 0
            continue
        assert decision.best & view.legal == decision.best and decision.best.bit_count() == 1
        advice = hard.play_advice(view, decision_seed(view))
        assert decision.best_points == advice.points[decision.best.bit_length() - 1]
        assert decision.chosen_points == advice.points[chosen.bit_length() - 1]
        assert decision.costly == (decision.chosen_points - decision.best_points >= 0.5)


async def test_the_review_page_lists_each_decision_of_the_hand(client) -> None:
    state = (await client.post(f"{API}/games", json={"deal": "HT1-N-AAAAAHB"})).json()
    game_id = state["game_id"]
    early = await client.get(f"/hearts/games/{game_id}/review")
    assert "The review opens once a hand is over." in early.text
    state = (await client.post(
        f"{API}/games/{game_id}/pass", json={"cards": state["hand"][:3]}
    )).json()
    while state["phase"] == "playing":
        state = (await client.post(
            f"{API}/games/{game_id}/play", json={"card": state["legal"][0]}
        )).json()
    html = (await client.get("/hearts")).text
    assert f'hx-get="/hearts/games/{game_id}/review"' in html
    answer = (await client.get(f"/hearts/games/{game_id}/review")).text
    rows = re.findall(r"<tr(?: data-costly=\"true\")?><th scope=\"row\">([^<]*)</th>", answer)
    if rows:  # the pass and thirteen plays, one short row each
        assert rows == ["Pass", *map(str, range(1, 14))]
    else:  # or, when every choice was the search's best, one line that says so
        assert "was the best the Hard bot&#39;s search found" in answer


def test_the_review_shows_each_loss_and_says_once_when_every_choice_was_the_best() -> None:
    queen, two, ace = parse_card("QS"), parse_card("2C"), parse_card("AH")
    passed = 1 << queen | 1 << ace | 1 << parse_card("KS")
    followed = [
        Decision(None, passed, passed, 3.0, 3.0),
        Decision(1, 1 << two, 1 << two, 1.25, 1.25),
        # Another card the search values alike: a loss that rounds to 0.0 is no loss.
        Decision(2, 1 << ace, 1 << queen, 4.02, 4.0),
    ]
    same = review_of(followed, translator("en"))
    assert same.all_best and all(row.best == () for row in same.rows)

    strayed = [
        Decision(None, passed, 1 << two | 1 << ace | 1 << queen, None, 2.5),
        Decision(1, 1 << queen, 1 << two, 13.8, 0.5),
        Decision(2, 1 << two, 1 << two, 0.25, 0.25),
    ]
    for lang, pass_word, lost in (("en", "Pass", "13.3"), ("vi", "Chuyền", "13,3")):
        shown = review_of(strayed, translator(lang))
        assert not shown.all_best
        assert [row.what for row in shown.rows] == [pass_word, "1", "2"]
        assert [row.lost for row in shown.rows] == ["—", lost, "0"]
        assert [row.costly for row in shown.rows] == [False, True, False]
        assert [c.code for c in shown.rows[1].played] == ["QS"]
        assert [c.code for c in shown.rows[1].best] == ["2C"]
        assert shown.rows[2].best == ()


async def test_a_hint_keeps_a_secret_deal_secret(client) -> None:
    state = (await client.post(f"{API}/games", json={})).json()  # no code: a secret one
    assert state["deal"] is None
    answer = (await client.get(f"{API}/games/{state['game_id']}/hint")).json()
    assert answer["version"] == state["version"] + 1
    assert (await client.get(f"{API}/games/{state['game_id']}")).json()["deal"] is None


# --- the claim through the JSON API (the same service path as the pages) -------------------


def session_of(client, app) -> str:
    signer = SessionMiddleware(app, app.state.settings.secret_key, False)
    return signer.session_from(client.cookies[COOKIE_NAME])


async def api_match_at(client, app, position: str) -> dict:
    """This client's current match, set at a constructed position; its API state."""
    await client.get("/api/settings")  # the session cookie
    session = session_of(client, app)
    match = parse_position(position)
    stored = await app.state.store.create(session, "hearts", state_of(match, False))
    return (await client.get(f"{API}/games/{stored.game_id}")).json()


async def test_the_api_claims_a_hand_whose_tricks_are_all_the_players(client, app) -> None:
    state = await api_match_at(client, app, SINGLE)
    assert state["claimed"] is False and state["legal"] == ["AS"]
    answer = (await client.post(
        f"{API}/games/{state['game_id']}/play", json={"card": "AS", "version": state["version"]}
    )).json()
    assert answer["claimed"] is True and answer["phase"] == "hand_over"
    assert answer["hand"] == [] and answer["legal"] == [] and len(answer["tricks"]) == 13
    assert all(t["winner"] == HUMAN for t in answer["tricks"][2:])
    # The claim is what the engine's own play-out gives, card for card.
    match = parse_position(SINGLE)
    play_card(match, parse_card("AS"))
    play_for_player(match, PlayHelp(), play_card)
    expected = [[card_text(p.card) for p in t.cards] for t in match.view(HUMAN).tricks]
    assert [[p["card"] for p in t["cards"]] for t in answer["tricks"]] == expected
    # Reading the state again says the same until the next action.
    again = (await client.get(f"{API}/games/{state['game_id']}")).json()
    assert again == answer
    answer = (await client.post(f"{API}/games/{state['game_id']}/next-hand", json={})).json()
    assert answer["hand_number"] == 5 and answer["claimed"] is False


async def test_the_api_makes_no_claim_while_a_trick_may_still_be_lost(client, app) -> None:
    state = await api_match_at(client, app, NOT_YET)
    # The 2♠ loses to the 3♠ that is still out: seat 3 wins the trick and leads.
    answer = (await client.post(
        f"{API}/games/{state['game_id']}/play", json={"card": "2S"}
    )).json()
    assert answer["claimed"] is False and answer["phase"] == "playing"
    assert answer["turn"] == HUMAN and len(answer["hand"]) == 11
    assert answer["tricks"][-1]["winner"] == 3


async def test_the_api_makes_no_claim_when_the_setting_is_off(client, app) -> None:
    state = await api_match_at(client, app, SINGLE)
    assert (await client.put("/api/settings", json={"hearts_claim": False})).status_code == 200
    answer = (await client.post(
        f"{API}/games/{state['game_id']}/play", json={"card": "AS"}
    )).json()
    assert answer["claimed"] is False and answer["phase"] == "playing"
    assert answer["turn"] == HUMAN and len(answer["hand"]) == 11


def before_a_single_legal_card() -> tuple[HeartsMatch, int]:
    """A match at the player's play after which (the bots having played) the player holds one
    legal card and no claim is certain; and that play (the lowest legal card)."""
    for number in range(100):
        match = HeartsMatch.new(DealCode("HT1", "N", number))
        play_bots(match)
        match.choose_pass(HUMAN, choose_pass("normal", match.view(HUMAN), 1))
        pass_for_bots(match)
        play_bots(match)
        while match.phase == "playing":
            legal = match.view(HUMAN).legal
            card = (legal & -legal).bit_length() - 1
            after = match.copy()
            play_card(after, card)
            view = after.view(HUMAN)
            if view.turn == HUMAN and view.legal.bit_count() == 1 and not claim_is_certain(view):
                return match, card
            play_card(match, card)
    raise AssertionError("no such moment in a hundred matches")


async def test_the_api_plays_a_single_legal_card_when_the_setting_says_so(client, app) -> None:
    match, card = before_a_single_legal_card()
    await client.get("/api/settings")
    stored = await app.state.store.create(session_of(client, app), "hearts", state_of(match, False))
    url = f"{API}/games/{stored.game_id}/play"
    plain = (await client.post(url, json={"card": card_text(card)})).json()
    assert len(plain["legal"]) == 1  # off by default: the player plays it
    await client.put("/api/settings", json={"hearts_autoplay_single": True})
    stored = await app.state.store.create(session_of(client, app), "hearts", state_of(match, False))
    url = f"{API}/games/{stored.game_id}/play"
    helped = (await client.post(url, json={"card": card_text(card)})).json()
    expected = match.copy()
    help = PlayHelp(autoplay_single=True)
    plays = Helped(lambda m: play_card(m, card), help, play_card)(expected)
    assert len(plays) >= 5 and len(helped["hand"]) == len(plain["hand"]) - 1
    assert helped["hand"] == [card_text(c) for c in cards_in(expected.view(HUMAN).hand)]
