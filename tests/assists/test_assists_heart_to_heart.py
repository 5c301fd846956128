"""Heart to Heart hints: following them wins every W deal tried, a lost position says how many
undos reach a winnable one (the fewest), and the API and the page give the hint and mark the
game assisted."""

from __future__ import annotations

import random
import re

import httpx

from app.rules.deal_codes import DealCode
from app.rules.heart_to_heart import HeartToHeartGame, new_game, target_text
from app.rules.heart_to_heart_solver import is_winnable
from app.web.heart_to_heart.assists import can_finish, finish, hint_of, take_hint
from app.web.preferences import Options
from app.web.profile import Profile

API = "/api/heart-to-heart"
HX = {"hx-request": "true"}
W_CODES = [str(DealCode("HH1", "W", 7919 * n + 3)) for n in range(60)]


def follow_hints(game: HeartToHeartGame) -> int:
    """Tap what each hint marks until the game is won; the number of hints taken."""
    hints = 0
    while not game.is_won:
        hint = hint_of(game)
        assert hint.winnable and hint.targets and hint.undo_to_winnable is None, game
        assert 1 <= len(hint.targets) <= 2
        for target in hint.targets:
            assert game.tap(target).changed
        hints += 1
    return hints


def test_following_the_hint_from_the_start_wins_every_w_deal() -> None:
    assert len(W_CODES) >= 50
    for code in W_CODES:
        assert follow_hints(new_game(code)) > 0


def lost_positions(count: int) -> list[HeartToHeartGame]:
    """Positions the solver calls lost, reached by random play from W deals (with some history
    to undo through)."""
    rng = random.Random(13)
    found: list[HeartToHeartGame] = []
    number = 0
    while len(found) < count:
        number += 1
        game = new_game(str(DealCode("HH1", "W", number)))
        for _ in range(60):
            if game.status != "playing":
                break
            game.play(rng.choice(list(game.legal_moves())))
            if not is_winnable(game):
                found.append(game.copy())
                break
    return found


def test_a_lost_position_marks_nothing_and_names_the_fewest_undos_back() -> None:
    for game in lost_positions(30):
        hint = hint_of(game)
        assert not hint.winnable and hint.targets == ()
        n = hint.undo_to_winnable
        # Random play that just lost it: one undo back is winnable at most that far.
        assert n is not None
        back = game.copy()
        for step in range(1, n + 1):
            back.undo()
            assert is_winnable(back) == (step == n), (game, step)


def test_no_undo_reaches_a_winnable_position_when_none_was() -> None:
    # An N deal lost from its first look has no history to undo.
    game = next(
        g for n in range(200)
        if not is_winnable(g := new_game(str(DealCode("HH1", "N", n))))
    )
    hint = hint_of(game)
    assert (hint.winnable, hint.targets, hint.undo_to_winnable) == (False, (), None)


def test_taking_a_hint_clears_the_selection_and_marks_the_game_assisted() -> None:
    game = new_game(W_CODES[0])
    free = next(p for p in range(25) if game.position_state(p) == "free")
    game.tap(free)
    assert take_hint(game).changed
    assert game.assisted and game.selected is None
    assert not take_hint(game).changed  # already assisted, nothing selected: nothing to store


async def test_api_hint_follows_to_a_win_and_marks_the_game_assisted(client) -> None:
    state = (await client.post(f"{API}/games", json={"deal": W_CODES[1]})).json()
    game_id, version = state["game_id"], state["version"]
    answer = (await client.get(f"{API}/games/{game_id}/hint")).json()
    assert set(answer) == {"winnable", "targets", "undo_to_winnable", "version"}
    assert answer["winnable"] and answer["undo_to_winnable"] is None
    assert answer["version"] == version + 1  # the game became assisted
    assert (await client.get(f"{API}/games/{game_id}")).json()["version"] == version + 1
    game = new_game(W_CODES[1])
    while True:
        assert answer["targets"] == [target_text(t) for t in hint_of(game).targets]
        for target in answer["targets"]:
            state = (await client.post(
                f"{API}/games/{game_id}/tap", json={"target": target, "version": answer["version"]}
            )).json()
            answer["version"] = state["version"]
            game.tap(target if target in ("stock", "waste") else int(target[6:]))
        if state["status"] == "won":
            break
        answer = (await client.get(f"{API}/games/{game_id}/hint")).json()
        assert answer["version"] == state["version"]  # no more writes once assisted


async def played_through_api(client, game: HeartToHeartGame) -> dict:
    """A new API game of ``game``'s deal brought to ``game``'s position by replaying its moves
    (its history holds them all here); the API state then."""
    state = (await client.post(f"{API}/games", json={"deal": game.deal})).json()
    replayed = new_game(game.deal)
    for text in game.to_json()["history"]:
        move = next(m for m in replayed.legal_moves() if str(m) == text)
        for target in move.taps:
            state = (await client.post(
                f"{API}/games/{state['game_id']}/tap", json={"target": target_text(target)}
            )).json()
        replayed.play(move)
    return state


async def test_api_hint_of_a_lost_game_says_how_far_back(client) -> None:
    game = lost_positions(1)[0]
    state = await played_through_api(client, game)
    answer = (await client.get(f"{API}/games/{state['game_id']}/hint")).json()
    assert answer["winnable"] is False and answer["targets"] == []
    assert answer["undo_to_winnable"] == hint_of(game).undo_to_winnable


async def test_api_hint_of_another_browsers_game_is_404(client, new_client) -> None:
    state = (await client.post(f"{API}/games", json={"deal": W_CODES[2]})).json()
    other = new_client(headers={"accept-language": "en"})
    response = await other.get(f"{API}/games/{state['game_id']}/hint")
    assert response.status_code == 404
    assert (await client.get(f"{API}/games/{state['game_id']}")).json()["version"] == 1


async def test_the_page_hint_answers_the_marks_and_the_new_version(client: httpx.AsyncClient):
    await client.post(f"{API}/games", json={"deal": W_CODES[3]})
    html = (await client.get("/heart-to-heart")).text
    assert 'data-action="hint"' in html
    game_id = re.search(r"/heart-to-heart/games/([\w-]+)/hint", html).group(1)
    response = await client.post(
        f"/heart-to-heart/games/{game_id}/hint", data={"version": "1"}, headers=HX
    )
    assert response.status_code == 200
    expected = " ".join(map(target_text, hint_of(new_game(W_CODES[3])).targets))
    assert f'id="h2h-hint" hidden data-targets="{expected}" hx-swap-oob="true"' in response.text
    assert re.search(r'id="h2h-version" name="version" value="2"', response.text)
    # A stale version changes nothing and redraws the board.
    stale = await client.post(
        f"/heart-to-heart/games/{game_id}/hint", data={"version": "1"}, headers=HX
    )
    assert "h2h-hint" not in stale.text and "another tab" in stale.text


async def test_a_lost_game_page_hint_says_how_many_undos(client: httpx.AsyncClient):
    game = lost_positions(1)[0]
    n = hint_of(game).undo_to_winnable
    state = await played_through_api(client, game)
    response = await client.post(
        f"/heart-to-heart/games/{state['game_id']}/hint",
        data={"version": str(state["version"])}, headers=HX,
    )
    word = "move" if n == 1 else "moves"
    assert f"No winning line from here — undo {n} {word} to get back to one." in response.text
    assert 'data-targets=""' in response.text


async def test_another_sites_link_to_a_hint_is_refused(client) -> None:
    state = (await client.post(f"{API}/games", json={"deal": W_CODES[4]})).json()
    url = f"{API}/games/{state['game_id']}/hint"
    response = await client.get(url, headers={"sec-fetch-site": "cross-site"})
    assert response.status_code == 403
    assert (await client.get(f"{API}/games/{state['game_id']}")).json()["version"] == 1
    assert (await client.get(url, headers={"sec-fetch-site": "none"})).status_code == 200


def test_finish_is_offered_once_every_card_left_is_free_and_wins() -> None:
    for code in W_CODES[:20]:
        game = new_game(code)
        offered = False
        while not game.is_won:
            if can_finish(game):
                offered = True
                # Any order wins from here: so does the first legal move each time.
                anyway = game.copy()
                while not anyway.is_won:
                    anyway.play(next(anyway.legal_moves()))
                assert finish(game).changed and game.is_won
                break
            assert not finish(game).changed
            for target in hint_of(game).targets:
                game.tap(target)
        assert offered  # at the latest with the last card or pair left


async def test_the_page_finishes_a_game_with_its_finish_button(client: httpx.AsyncClient):
    game = new_game(W_CODES[5])
    state = (await client.post(f"{API}/games", json={"deal": W_CODES[5]})).json()
    while not can_finish(game):
        html = (await client.get("/heart-to-heart")).text
        assert 'id="h2h-finish" hidden' in html
        for target in hint_of(game).targets:
            state = (await client.post(
                f"{API}/games/{state['game_id']}/tap", json={"target": target_text(target)}
            )).json()
            game.tap(target)
    html = (await client.get("/heart-to-heart")).text
    assert '<span id="h2h-finish"><button' in html
    response = await client.post(
        f"/heart-to-heart/games/{state['game_id']}/finish",
        data={"version": str(state["version"])}, headers=HX,
    )
    assert "You won! All 25 cards are gone." in response.text
    state = (await client.get(f"{API}/games/{state['game_id']}")).json()
    assert state["status"] == "won" and state["score"] == 250


def test_the_options_read_the_settings_with_their_defaults() -> None:
    # Read as the settings page reads them (app/web/preferences.py): a value that is not true
    # or false counts as unset.
    assert Options.of(Profile(1, {})) == Options(move_errors=False, placement_help=True)
    chosen = {"h2h_options": {"move_errors": True, "placement_help": False}}
    assert Options.of(Profile(1, chosen)) == Options(move_errors=True, placement_help=False)
    assert Options.of(Profile(1, {"h2h_options": {"move_errors": "yes"}})) == Options()
    assert Options.of(Profile(1, {"h2h_options": "broken"})) == Options()
