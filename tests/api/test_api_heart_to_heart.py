"""The Heart to Heart JSON API against the real app and a real SQLite store: whole games, the
stalemate, the undo limit, options, ownership, versions and bad input; states compared with
the rules engine played alongside."""

from __future__ import annotations

import re

import httpx
from fastapi import FastAPI

from app.rules.heart_to_heart import (
    HEART_SIZE,
    UNDO_LIMIT,
    HeartToHeartGame,
    new_game,
    rank_name,
    target_text,
)
from app.rules.heart_to_heart_solver import solve
from app.web.api_models import HeartToHeartState
from app.web.heart_to_heart import service
from app.web.session import COOKIE_NAME, SessionMiddleware

API = "/api/heart-to-heart"
WINNABLE = "HH1-W-AAAAAAB"
# Its only free card is heart:24, and pairing it with the waste top leaves no move.
STALEMATE_IN_ONE = "HH1-N-AAAAEPO"


def expected_state(game: HeartToHeartGame, help_on: bool = True) -> dict:
    """What the API must say about ``game`` (all but ids, versions, time and the message)."""
    outlined, dimmed = game.placement_help() if help_on else ((), ())
    return {
        "deal": game.deal,
        "status": game.status,
        "score": game.score,
        "moves": game.moves,
        "heart": [
            {"pos": p, "rank": rank_name(game.rank_at(p)), "state": game.position_state(p)}
            for p in range(HEART_SIZE)
        ],
        "stock_count": game.stock_count,
        "waste_count": game.waste_count,
        "waste_top": None if game.waste_top is None else rank_name(game.waste_top),
        "selected": None if game.selected is None else target_text(game.selected),
        "undo_depth": game.undo_depth,
        "help": {
            "outlined": sorted(target_text(t) for t in outlined),
            "dimmed": sorted(target_text(t) for t in dimmed),
        },
    }


def seen(state: dict) -> dict:
    shown = {key: state[key] for key in expected_state(new_game(WINNABLE))}
    shown["help"] = {key: sorted(value) for key, value in state["help"].items()}
    return shown


async def create(client: httpx.AsyncClient, deal: str | None = None) -> dict:
    response = await client.post(f"{API}/games", json={} if deal is None else {"deal": deal})
    assert response.status_code == 201, response.text
    return response.json()


async def tap(client: httpx.AsyncClient, state: dict, target: str, **extra) -> httpx.Response:
    body = {"target": target, "version": state["version"], **extra}
    return await client.post(f"{API}/games/{state['game_id']}/tap", json=body)


async def test_a_w_deal_is_won_by_the_solvers_line(client: httpx.AsyncClient, app: FastAPI):
    state = await create(client, WINNABLE)
    game = new_game(WINNABLE)
    assert state["version"] == 1 and seen(state) == expected_state(game)
    line = solve(game)
    assert line
    for target in line:
        result = game.tap(target)
        response = await tap(client, state, target_text(target))
        assert response.status_code == 200, response.text
        after = response.json()
        # Every tap of the line changes something (selections included): one version each.
        assert result.changed and after["version"] == state["version"] + 1
        assert seen(after) == expected_state(game)
        assert after["message"] is None
        # The answer is serialized without the model: it must still be the model, field for
        # field and in its order.
        assert list(after) == list(HeartToHeartState.model_fields)
        assert HeartToHeartState.model_validate(after).model_dump(mode="json") == after
        state = after
    assert state["status"] == "won" and state["score"] == game.score > 0
    assert state["help"] == {"outlined": [], "dimmed": []}
    # A won game is final: taps change nothing, undo is refused.
    again = await tap(client, state, "stock")
    assert again.status_code == 200 and again.json() == state
    refused = await client.post(f"{API}/games/{state['game_id']}/undo")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "game_won"
    assert refused.json()["state"] == state
    # The win is counted once, in the statistics the home page shows.
    home = (await client.get("/")).text
    assert re.search(r"Games played</dt><dd>1<", home)


async def test_stalemate_and_one_undo_back_to_play(client: httpx.AsyncClient):
    state = await create(client, STALEMATE_IN_ONE)
    game = new_game(STALEMATE_IN_ONE)
    selected = (await tap(client, state, "heart:24")).json()
    assert selected["selected"] == "heart:24" and selected["version"] == 2
    stuck = (await tap(client, selected, "waste")).json()
    game.tap(24), game.tap("waste")
    assert stuck["status"] == "stalemate" == game.status
    assert seen(stuck) == expected_state(game)
    # In a stalemate draws still work, and undo takes them back, then leaves the stalemate.
    drawn = (await tap(client, stuck, "stock")).json()
    assert drawn["version"] == stuck["version"] + 1
    assert drawn["stock_count"] == stuck["stock_count"] - 1
    undone = (await client.post(f"{API}/games/{state['game_id']}/undo")).json()
    assert seen(undone) == seen(stuck) and undone["version"] == drawn["version"] + 1
    back = (await client.post(f"{API}/games/{state['game_id']}/undo", json={})).json()
    assert back["status"] == "playing"
    assert back["heart"][24]["state"] == "free" and back["undo_depth"] == 0


async def test_undo_goes_back_one_hundred_moves_and_no_further(client: httpx.AsyncClient):
    state = await create(client, "HH1-N-AAAAAAM")
    game = new_game("HH1-N-AAAAAAM")
    for _ in range(UNDO_LIMIT + 5):
        game.tap("stock")
        state = (await tap(client, state, "stock")).json()
    assert seen(state) == expected_state(game)
    assert state["undo_depth"] == UNDO_LIMIT and state["moves"] == UNDO_LIMIT + 5
    url = f"{API}/games/{state['game_id']}/undo"
    for depth in range(UNDO_LIMIT - 1, -1, -1):
        game.undo()
        response = await client.post(url, json={"version": state["version"]})
        assert response.status_code == 200, response.text
        state = response.json()
        assert state["undo_depth"] == depth and seen(state) == expected_state(game)
    refused = await client.post(url, json={"version": state["version"]})
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "nothing_to_undo"
    assert refused.json()["state"] == state
    assert (await client.get(f"{API}/games/{state['game_id']}")).json() == state


async def test_a_tap_that_does_nothing_keeps_the_version(client: httpx.AsyncClient):
    state = await create(client, "HH1-N-AAAAAAM")
    covered = next(card["pos"] for card in state["heart"] if card["state"] == "covered")
    response = await tap(client, state, f"heart:{covered}")
    assert response.status_code == 200 and response.json() == state


async def test_move_errors_and_placement_help_follow_the_options(
    client: httpx.AsyncClient, new_client
):
    assert (await client.get(f"{API}/options")).json() == {
        "move_errors": False,
        "placement_help": True,
    }
    state = await create(client, "HH1-N-AAAAAAM")  # heart:24 is a K, the waste top a 5
    selected = (await tap(client, state, "heart:24")).json()
    quiet = (await tap(client, selected, "waste")).json()
    assert quiet["selected"] == "waste" and quiet["message"] is None
    game = new_game("HH1-N-AAAAAAM")
    game.tap(24), game.tap("waste")
    assert seen(quiet) == expected_state(game) and quiet["help"]["dimmed"]

    put = await client.put(f"{API}/options", json={"move_errors": True, "placement_help": False})
    assert put.status_code == 200
    assert put.json() == {"move_errors": True, "placement_help": False}
    told = (await tap(client, quiet, "heart:24")).json()
    assert told["message"] == "Must be same rank" and told["selected"] == "heart:24"
    assert told["options"] == put.json()
    assert told["help"] == {"outlined": [], "dimmed": []}
    # The message is for the tap that caused it only.
    assert (await client.get(f"{API}/games/{state['game_id']}")).json()["message"] is None

    # In the language the player picked: the switch on the pages sets it for the API too.
    await client.post("/lang", data={"lang": "vi", "next": "/"})
    in_vietnamese = (await tap(client, told, "waste")).json()["message"]
    assert in_vietnamese and in_vietnamese != "Must be same rank"

    # Options belong to the session.
    other = new_client()
    assert (await other.get(f"{API}/options")).json()["move_errors"] is False


async def test_options_are_shared_with_the_page(client: httpx.AsyncClient):
    await client.post("/heart-to-heart/options", data={"move_errors": "true"})
    assert (await client.get(f"{API}/options")).json() == {
        "move_errors": True,
        "placement_help": False,
    }
    await client.put(f"{API}/options", json={"move_errors": False, "placement_help": True})
    page = (await client.get("/heart-to-heart")).text
    assert re.search(r'name="placement_help" value="true" checked', page)
    assert not re.search(r'name="move_errors" value="true" checked', page)


async def test_a_game_moves_between_the_api_and_the_page(client: httpx.AsyncClient):
    state = await create(client, WINNABLE)
    page = (await client.get("/heart-to-heart")).text  # the API's game is the current one
    assert f"/heart-to-heart/games/{state['game_id']}/tap" in page
    tapped = await client.post(
        f"/heart-to-heart/games/{state['game_id']}/tap",
        data={"target": "stock", "version": str(state["version"])},
    )
    assert tapped.status_code in (200, 303)
    after = (await client.get(f"{API}/games/{state['game_id']}")).json()
    assert after["version"] == 2 and after["stock_count"] == state["stock_count"] - 1

    # The other way: a game the page deals goes on in the API.
    await client.post("/heart-to-heart/deal/HH1-N-AAAAAAM")
    page = (await client.get("/heart-to-heart")).text
    page_game = re.search(r'action="/heart-to-heart/games/([\w-]+)/tap"', page).group(1)
    from_page = (await client.get(f"{API}/games/{page_game}")).json()
    assert from_page["deal"] == "HH1-N-AAAAAAM" and from_page["version"] == 1
    drawn = (await tap(client, from_page, "stock")).json()
    assert drawn["version"] == 2
    assert 'value="2"' in (await client.get("/heart-to-heart")).text


async def test_another_session_gets_404_and_changes_nothing(
    client: httpx.AsyncClient, new_client
):
    state = await create(client)
    other = new_client()
    base = f"{API}/games/{state['game_id']}"
    for response in (
        await other.get(base),
        await other.post(f"{base}/tap", json={"target": "stock"}),
        await other.post(f"{base}/undo"),
        await client.get(f"{API}/games/no-such-game"),
        await client.get(f"/api/hearts/games/{state['game_id']}"),  # not a Hearts match
    ):
        assert response.status_code == 404
        assert set(response.json()["error"]) == {"code", "message"}
    assert (await client.get(base)).json() == state


async def test_a_stale_version_gets_409_with_the_current_state(client: httpx.AsyncClient):
    state = await create(client)
    drawn = (await tap(client, state, "stock")).json()
    for response in (
        await tap(client, state, "stock"),
        await client.post(f"{API}/games/{state['game_id']}/undo", json={"version": 1}),
    ):
        assert response.status_code == 409
        body = response.json()
        assert body["error"]["code"] == "stale_version" and body["error"]["message"]
        assert body["state"] == drawn
    assert (await client.get(f"{API}/games/{state['game_id']}")).json() == drawn


async def test_malformed_input_gets_422_in_the_error_shape(client: httpx.AsyncClient):
    state = await create(client)
    url = f"{API}/games/{state['game_id']}/tap"
    cases = {
        "invalid_target": [{"target": "heart:25"}, {"target": "heart:07"}, {"target": "Stock"}],
        "invalid_request": [
            {"target": 5},
            {},
            {"target": "stock", "version": "2"},
            {"target": "stock", "extra": 1},
            [],
        ],
    }
    for code, bodies in cases.items():
        for body in bodies:
            response = await client.post(url, json=body)
            assert response.status_code == 422, body
            error = response.json()["error"]
            assert error["code"] == code and error["message"]
    plain = {"content-type": "text/plain"}
    not_json = await client.post(url, content=b"target=stock", headers=plain)
    assert not_json.status_code == 422
    json_type = {"content-type": "application/json"}
    for raw in (b'{"target": "stock"', b"\xff="):  # broken JSON, bytes that are not UTF-8
        broken = await client.post(url, content=raw, headers=json_type)
        assert broken.status_code == 422
        assert broken.json()["error"]["code"] == "invalid_request"
    bad_deal = await client.post(f"{API}/games", json={"deal": "HH1-X-AAAAAAA"})
    assert bad_deal.status_code == 422
    assert bad_deal.json()["error"]["code"] == "invalid_deal"
    assert "N" in bad_deal.json()["error"]["message"]
    options = await client.put(f"{API}/options", json={"move_errors": "yes", "placement_help": 1})
    assert options.status_code == 422
    assert (await client.get(f"{API}/games/{state['game_id']}")).json() == state


async def test_a_body_over_16_kb_is_refused_in_the_error_shape(client: httpx.AsyncClient):
    state = await create(client)
    body = b'{"target": "stock", "pad": "' + b"x" * 17_000 + b'"}'
    for headers in ({"content-type": "application/json"}, {"transfer-encoding": "chunked"}):
        response = await client.post(
            f"{API}/games/{state['game_id']}/tap", content=body, headers=headers
        )
        assert response.status_code == 413
        assert response.json()["error"]["code"] == "body_too_large"
    assert (await client.get(f"{API}/games/{state['game_id']}")).json() == state


def session_of(client: httpx.AsyncClient, app: FastAPI) -> str:
    signer = SessionMiddleware(app, app.state.settings.secret_key, False)
    return signer.session_from(client.cookies[COOKIE_NAME])


async def test_time_between_changes_counts_once_the_game_is_under_way(
    client: httpx.AsyncClient, app: FastAPI, clock
):
    state = await create(client)
    assert (await tap(client, state, "heart:24")).json()["elapsed_seconds"] == 0
    first = (await client.get(f"{API}/games/{state['game_id']}")).json()
    first = (await tap(client, first, "stock")).json()  # the first move starts the clock
    # Ninety seconds of play already counted, as the page would have reported them.
    store, session = app.state.store, session_of(client, app)
    stored = await store.get(session, state["game_id"])
    game = service.load(stored)  # the rules' state, without the API's mark beside it
    game.add_play_time(90)
    await store.compare_and_set(session, state["game_id"], stored.version, game.to_json())
    now = (await client.get(f"{API}/games/{state['game_id']}")).json()
    assert now["elapsed_seconds"] == 90
    # The next change adds the wall-clock time since the last one.
    clock.advance(42)
    later = (await tap(client, now, "stock")).json()
    assert later["elapsed_seconds"] == 90 + 42
