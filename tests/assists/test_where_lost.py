"""Where a Heart to Heart game was lost: on constructed lost games, the position offered is the
last one the solver can win from, the marked move loses, and going back gets there (by undo
within the undo history, by replaying the deal beyond it); a deal that never could be won says
so; the page, the end dialog, the questions before a game is replaced and the API, in both
languages."""

from __future__ import annotations

import json
import random
import re

import httpx
import pytest

from app.rules.deal_codes import DealCode
from app.rules.heart_to_heart import (
    DRAW,
    REDEAL,
    UNDO_LIMIT,
    HeartToHeartGame,
    Move,
    StateError,
    new_game,
    target_text,
)
from app.rules.heart_to_heart_solver import is_winnable, solve_moves
from app.web.heart_to_heart.assists import go_back, position_before, where_lost

API = "/api/heart-to-heart"
HX = {"hx-request": "true"}


def stock_tap(game: HeartToHeartGame) -> Move:
    return DRAW if game.stock_count else REDEAL


def losing_game(number: int, *, draws_after: int) -> tuple[HeartToHeartGame, list[Move], int]:
    """A W deal played along the solver's line for a while, then a pair that loses it, then
    ``draws_after`` stock taps. The game, its moves, and the moves made before the losing
    pair."""
    rng = random.Random(number)
    for offset in range(50):
        game = new_game(str(DealCode("HH1", "W", number + offset)))
        moves: list[Move] = []
        wanted = rng.randrange(2, 12)
        while not game.is_won:
            losing = [
                m for m in game.legal_moves()
                if m.kind == "pair" and not is_winnable(after(game, m))
            ]
            if losing and len(moves) >= wanted:
                lost_at = len(moves)
                moves.append(losing[0])
                game.play(losing[0])
                for _ in range(draws_after):
                    moves.append(stock_tap(game))
                    game.play(moves[-1])
                return game, moves, lost_at
            line = solve_moves(game)
            assert line is not None
            moves.append(line[0])
            game.play(line[0])
    raise AssertionError("no deal near this number could be lost on the way")


def after(game: HeartToHeartGame, move: Move) -> HeartToHeartGame:
    board = game.copy()
    board.play(move)
    return board


def played(deal: str, moves: list[Move]) -> HeartToHeartGame:
    game = new_game(deal)
    for move in moves:
        game.play(move)
    return game


def check_offer(game: HeartToHeartGame, moves: list[Move], lost_at: int) -> None:
    """The offer is the position before the losing pair: winnable, and not after that pair."""
    lost = where_lost(game)
    assert lost.verdict == "lost" and lost.moves == lost_at and lost.move == moves[lost_at]
    back = position_before(game, lost)
    expected = played(game.deal, moves[:lost_at])
    assert (back.removed_mask, back.stock_ranks, back.waste_ranks, back.moves) == (
        expected.removed_mask, expected.stock_ranks, expected.waste_ranks, expected.moves
    )
    assert is_winnable(back)
    assert not is_winnable(after(back, lost.move))


@pytest.mark.parametrize("number", [3, 40, 777, 5000, 31337])
def test_within_the_undo_history_going_back_undoes_to_the_last_winnable_position(number):
    game, moves, lost_at = losing_game(number, draws_after=5)
    check_offer(game, moves, lost_at)
    lost = where_lost(game)
    assert lost.undos == len(moves) - lost_at == 6
    undone = game.copy()
    for _ in range(lost.undos):
        undone.undo()
    clock = game.play_time
    assert go_back(game).changed
    assert game == undone  # exactly what Undo would have done, as many times
    assert game.assisted and game.play_time == clock and is_winnable(game)


@pytest.mark.parametrize("number", [3, 40, 777, 5000])
def test_beyond_the_undo_history_going_back_replays_the_deal(number):
    game, moves, lost_at = losing_game(number, draws_after=UNDO_LIMIT + 37)
    check_offer(game, moves, lost_at)
    lost = where_lost(game)
    assert lost.undos is None and game.undo_depth == UNDO_LIMIT
    game.add_play_time(12.5)
    clock, before_pairs = game.play_time, game.pair_log
    assert go_back(game).changed
    expected = played(game.deal, moves[:lost_at])
    assert game.to_json() == {
        **expected.to_json(), "clock": clock, "assisted": True,
    }
    assert game.pair_log == before_pairs[:-1]  # the losing pair is gone from the log
    assert is_winnable(game) and game.status == "playing"
    # It plays on as a game that had made those moves: the solver's line wins it.
    for move in solve_moves(game):
        game.play(move)
    assert game.is_won


def test_a_long_game_replays_its_stock_rounds_exactly():
    """Hundreds of stock taps between pairs: whole rounds are skipped, but the position, the
    undo history and the move count come out as playing every tap gives them."""
    game = new_game("HH1-W-AAAAAAK")
    moves: list[Move] = []
    for taps in (1234, 0, 3, 250, 0, 101):
        for _ in range(taps):
            moves.append(stock_tap(game))
            game.play(moves[-1])
        for move in solve_moves(game):  # up to its next pair
            moves.append(move)
            game.play(move)
            if move.kind == "pair":
                break
    assert len(game.pair_log) == 6
    for count in (0, 1, 700, 1234, 1235, 1400, len(moves) - 102, len(moves) - 1):
        back = game.copy()
        back.rewind(count)
        expected = played(game.deal, moves[:count]).to_json()
        got = back.to_json()
        # Undo leaves only what the history still held; a replay fills it as play did.
        kept = expected["history"][len(expected["history"]) - len(got["history"]):]
        assert got == {**expected, "clock": got["clock"], "assisted": True, "history": kept}
        assert len(kept) == (UNDO_LIMIT - (len(moves) - count) if count >= len(moves) - 100
                             else min(count, UNDO_LIMIT))


def test_a_deal_that_never_could_be_won_says_so():
    code = next(
        c for n in range(300)
        if not is_winnable(new_game(c := str(DealCode("HH1", "N", n))))
        and new_game(c).status == "playing"
    )
    game = new_game(code)
    for _ in range(40):
        game.play(next(game.legal_moves()))
    lost = where_lost(game)
    assert (lost.verdict, lost.moves, lost.move, lost.undos) == ("never", None, None, None)
    assert not go_back(game).changed


def test_a_game_that_can_still_be_won_is_not_lost():
    game = new_game("HH1-W-AAAAAAC")
    game.play(solve_moves(game)[0])
    assert where_lost(game).verdict == "winnable"
    assert not go_back(game).changed


def test_a_game_saved_before_the_log_was_kept_uses_its_undo_history():
    game, moves, lost_at = losing_game(40, draws_after=3)
    data = game.to_json()
    del data["pairs"]
    old = HeartToHeartGame.from_json(data)
    assert old.pair_log is None
    lost = where_lost(old)
    assert (lost.verdict, lost.moves, lost.move, lost.undos) == ("lost", lost_at,
                                                                 moves[lost_at], 4)
    # Beyond its history it cannot tell, and going back does nothing.
    for _ in range(UNDO_LIMIT):
        old.play(stock_tap(old))
    assert where_lost(old).verdict == "unknown" and not go_back(old).changed


def test_the_log_of_pairs_is_checked_against_the_deal():
    game, _, _ = losing_game(777, draws_after=2)
    data = json.loads(json.dumps(game.to_json()))
    assert HeartToHeartGame.from_json(data) == game
    assert len(json.dumps(data["pairs"])) < 300  # at most 25 short entries
    for broken in (
        data["pairs"][:-1],  # a pair missing
        [*data["pairs"][:-1], "0:" + data["pairs"][-1].split(":")[1]],  # out of order
        ["x"] * 3,
        "3:1+2",
    ):
        with pytest.raises(StateError):
            HeartToHeartGame.from_json({**data, "pairs": broken})


# --- the web: page, dialogs, API ------------------------------------------------------------


async def play_through_api(client: httpx.AsyncClient, deal: str, moves: list[Move]) -> dict:
    state = (await client.post(f"{API}/games", json={"deal": deal})).json()
    for move in moves:
        for target in move.taps:
            state = (await client.post(
                f"{API}/games/{state['game_id']}/tap", json={"target": target_text(target)}
            )).json()
    return state


def stalemated(number: int, draws_after: int = 0) -> tuple[HeartToHeartGame, list[Move], int]:
    """A lost game played on to its stalemate: pairs when there are, else the stock."""
    game, moves, lost_at = losing_game(number, draws_after=draws_after)
    while game.status == "playing":
        move = next(game.legal_moves())
        moves.append(move)
        game.play(move)
    return game, moves, lost_at


def marked_cards(html: str) -> set[str]:
    return set(re.findall(r'id="(p\d+|h2h-waste)"[^>]*data-hint="true"', html))


@pytest.mark.parametrize("lang", ["en", "vi"])
async def test_the_end_dialog_shows_where_it_was_lost_and_goes_back(new_client, lang):
    client = new_client(headers={"accept-language": lang})
    game, moves, lost_at = stalemated(40)
    state = await play_through_api(client, game.deal, moves)
    assert state["status"] == "stalemate"
    game_id = state["game_id"]
    page = (await client.get("/heart-to-heart")).text
    link = f'href="/heart-to-heart/games/{game_id}/lost" data-action="show-lost"'
    assert link in page
    assert ("Show where it was lost" if lang == "en" else "Xem ván thua từ nước nào") in page

    shown = await client.get(f"/heart-to-heart/games/{game_id}/lost")
    assert shown.status_code == 200
    html = shown.text
    lost = moves[lost_at]
    before = played(game.deal, moves[:lost_at])
    assert marked_cards(html) == {f"p{t}" if isinstance(t, int) else "h2h-waste"
                                  for t in lost.taps}
    assert f'data-info="moves">{lost_at}<' in html
    if lang == "en":
        assert f"After {lost_at} moves this game could still be won" in html
        assert f"Move {lost_at + 1} lost it:" in html
    else:
        assert f"Sau {lost_at} nước đi, ván này vẫn còn thắng được" in html
        assert f"Nước đi {lost_at + 1} làm thua ván:" in html
    # The version did not move: a stalemate is over, asking is no help.
    assert (await client.get(f"{API}/games/{game_id}")).json()["version"] == state["version"]

    gone = await client.post(
        f"/heart-to-heart/games/{game_id}/back", data={"version": str(state["version"])}
    )
    assert gone.status_code == 303 and gone.headers["location"] == "/heart-to-heart"
    now = (await client.get(f"{API}/games/{game_id}")).json()
    assert now["version"] == state["version"] + 1 and now["status"] == "playing"
    assert now["moves"] == lost_at and now["stock_count"] == before.stock_count
    removed = [c["pos"] for c in now["heart"] if c["state"] == "removed"]
    assert removed == [p for p in range(25) if before.removed_mask >> p & 1]
    hint = (await client.get(f"{API}/games/{game_id}/hint")).json()
    assert hint["winnable"] is True


async def test_going_back_beyond_undo_replays_and_a_stale_page_asks_again(client):
    game, moves, lost_at = stalemated(777, draws_after=UNDO_LIMIT + 10)
    state = await play_through_api(client, game.deal, moves)
    game_id = state["game_id"]
    html = (await client.get(f"/heart-to-heart/games/{game_id}/lost")).text
    assert "further back than undo reaches" in html
    review = (await client.get(f"{API}/games/{game_id}/review")).json()
    assert review == {
        "verdict": "lost",
        "last_winnable_moves": lost_at,
        "losing_move": [target_text(t) for t in moves[lost_at].taps],
        "undos": None,
        "version": state["version"],
    }
    stale = await client.post(
        f"/heart-to-heart/games/{game_id}/back", data={"version": str(state["version"] - 1)}
    )
    assert stale.status_code == 303
    assert stale.headers["location"] == f"/heart-to-heart/games/{game_id}/lost"
    back = (await client.post(f"{API}/games/{game_id}/back",
                              json={"version": state["version"]})).json()
    assert back["moves"] == lost_at and back["status"] == "playing"
    assert back["undo_depth"] == min(lost_at, UNDO_LIMIT)
    again = (await client.get(f"{API}/games/{game_id}/review")).json()
    # Going back made the game assisted already: asking now stores nothing more.
    assert again["verdict"] == "winnable" and again["version"] == back["version"]


async def test_asking_about_a_game_in_play_counts_as_a_hint(client):
    game, moves, _ = losing_game(5000, draws_after=1)
    state = await play_through_api(client, game.deal, moves)
    assert state["status"] == "playing"
    review = (await client.get(f"{API}/games/{state['game_id']}/review")).json()
    assert review["verdict"] == "lost" and review["undos"] == 2
    assert review["version"] == state["version"] + 1  # marked assisted


@pytest.mark.parametrize("lang", ["en", "vi"])
async def test_a_never_winnable_deal_says_so_on_the_page(new_client, lang):
    client = new_client(headers={"accept-language": lang})
    code = next(
        c for n in range(300)
        if not is_winnable(g := new_game(c := str(DealCode("HH1", "N", n))))
        and g.status == "playing"
    )
    game = new_game(code)
    moves = []
    while game.status == "playing":
        moves.append(next(game.legal_moves()))
        game.play(moves[-1])
    state = await play_through_api(client, code, moves)
    html = (await client.get(f"/heart-to-heart/games/{state['game_id']}/lost")).text
    expected = {
        "en": "This deal could not be won from the start: no move lost it.",
        "vi": "Thế bài này không thể thắng ngay từ đầu: không nước đi nào làm thua ván.",
    }[lang]
    assert expected in html
    assert 'data-action="go-back"' not in html and not marked_cards(html)


@pytest.mark.parametrize("lang", ["en", "vi"])
async def test_the_new_game_question_offers_to_look_before_giving_up(new_client, lang):
    client = new_client(headers={"accept-language": lang})
    game, moves, _ = losing_game(3, draws_after=0)
    state = await play_through_api(client, game.deal, moves)
    asked = (await client.post("/heart-to-heart/new", data={"kind": "N"})).text
    link = f'href="/heart-to-heart/games/{state["game_id"]}/lost" data-action="show-lost"'
    assert link in asked
    assert ("Could it still be won?" if lang == "en" else "Còn thắng được không?") in asked
    shared = (await client.get("/heart-to-heart/deal/HH1-N-AAAAAAB")).text
    assert link in shared
    # Asking first changes nothing but the help mark: the game is still this browser's.
    await client.get(f"/heart-to-heart/games/{state['game_id']}/lost")
    current = (await client.get("/heart-to-heart")).text
    assert state["game_id"] in current


async def test_another_browser_cannot_see_or_rewind_a_game(client, new_client):
    game, moves, _ = stalemated(40)
    state = await play_through_api(client, game.deal, moves)
    other = new_client(headers={"accept-language": "en"})
    game_id = state["game_id"]
    assert (await other.get(f"/heart-to-heart/games/{game_id}/lost")).status_code == 404
    assert (await other.get(f"{API}/games/{game_id}/review")).status_code == 404
    back = await other.post(f"/heart-to-heart/games/{game_id}/back", data={"version": "9"})
    assert back.status_code == 404
    bad = await client.post(f"/heart-to-heart/games/{game_id}/back", data={"version": "x"})
    assert bad.status_code == 400
    assert (await client.get(f"{API}/games/{game_id}")).json()["version"] == state["version"]


async def test_a_won_game_has_nothing_to_show(client):
    game = new_game("HH1-W-AAAAAAC")
    state = await play_through_api(client, game.deal, solve_moves(game))
    assert state["status"] == "won"
    shown = await client.get(f"/heart-to-heart/games/{state['game_id']}/lost")
    assert shown.status_code == 303 and shown.headers["location"] == "/heart-to-heart"
    review = (await client.get(f"{API}/games/{state['game_id']}/review")).json()
    assert review["verdict"] == "winnable" and review["version"] == state["version"]
    back = await client.post(f"{API}/games/{state['game_id']}/back", json={})
    assert back.status_code == 200 and back.json() == state
