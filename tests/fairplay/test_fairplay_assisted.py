"""Issue 18, finding 2: undo peeks (play a card, see the bots answer, take it back, play
knowing their cards), so a game or match in which the player took a move back is assisted: its
statistics are kept apart, and it touches no streak, best time or average. Undo itself stays as
the rules say.
"""

from __future__ import annotations

import re

from app.rules.heart_to_heart import new_game
from app.rules.heart_to_heart_solver import solve
from tests.fairplay.heart_to_heart_play import WINNABLE, Game, target_text
from tests.fairplay.hearts_play import API, play_to_the_end, step


async def figures(client) -> dict[str, str]:
    home = (await client.get("/")).text
    return dict(re.findall(r"<dt>([^<]*)</dt><dd>([^<]*)</dd>", home))


async def win(game: Game, *, undo_at: int | None = None) -> None:
    for number, target in enumerate(solve(new_game(WINNABLE))):
        await game.tap(target_text(target))
        if number == undo_at:  # take it back and make it again
            answer = await game.client.post(f"/api/heart-to-heart/games/{game.game_id}/undo",
                                            json={"version": game.version})
            assert answer.status_code == 200
            game.version = answer.json()["version"]
            await game.tap(target_text(target))
    assert (await game.state())["status"] == "won"


async def test_a_heart_to_heart_win_with_an_undo_counts_apart(client):
    game = Game(client)
    await game.open()
    await win(game)
    await game.open()  # the same deal again: a won game is replaced without a question
    await win(game, undo_at=3)
    shown = await figures(client)
    assert shown["Games played"] == "1" and shown["Games won"] == "1"
    assert shown["Current streak"] == "1"
    assert shown["Games with undo"] == "1 (1 won)"


async def test_a_heart_to_heart_game_left_after_an_undo_counts_apart(client):
    game = Game(client)
    await game.open()
    await game.tap("stock")
    await game.tap("stock")
    await client.post(f"/api/heart-to-heart/games/{game.game_id}/undo", json={})
    await client.post("/heart-to-heart/new", data={"kind": "N", "confirm": "true"})  # gives up
    shown = await figures(client)
    assert shown["Games played"] == "0"
    assert shown["Games with undo"] == "1 (0 won)"


async def test_a_hearts_match_with_an_undo_counts_apart(client):
    state = (await client.post(API, json={"deal": "HT1-E-AAAAAAB"})).json()
    while state["phase"] != "playing":
        state = await step(client, state)
    played = await step(client, state)
    undone = await client.post(f"{API}/{state['game_id']}/undo",
                               json={"version": played["version"]})
    assert undone.status_code == 200  # undo works as the rules say
    assert undone.json()["hand"] == state["hand"]
    await play_to_the_end(client, undone.json(), lambda state: None)
    shown = await figures(client)
    assert shown["Matches played"] == "0" and shown["Average points per hand"] == "–"
    assert re.fullmatch(r"1 \([01] won\)", shown["Matches with undo"])


async def test_a_hearts_match_without_undo_counts_as_usual(client):
    state = (await client.post(API, json={"deal": "HT1-E-AAAAAAB"})).json()
    await play_to_the_end(client, state, lambda state: None)
    shown = await figures(client)
    assert shown["Matches played"] == "1"
    assert shown["Matches with undo"] == "0 (0 won)"
