"""What a request costs the server (issue 17): compressed answers, cacheable static files, no
game stored for a visit that does nothing, and API actions without a version applied to the
game as it is."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import httpx
from fastapi import FastAPI

from app.rules.heart_to_heart import HeartToHeartGame
from app.rules.hearts import HeartsMatch
from app.store import SECONDS_PER_DAY
from app.web.compression import COMPRESS_MIN
from app.web.results import without_marks
from app.web.session import COOKIE_NAME, SessionMiddleware
from tests.reliability.cardroom_pages import H2H_STALE, HX, h2h_board

STYLESHEET = re.compile(r'<link rel="stylesheet" href="(/static/[^"]+)"')


def wire_size(response: httpx.Response) -> int:
    return response.num_bytes_downloaded


async def test_pages_and_states_are_compressed_as_the_browser_accepts(client):
    for encoding, expected in (("br", "br"), ("gzip, deflate", "gzip"),
                               ("gzip;q=0, br", "br"), ("br;q=0, gzip", "gzip")):
        page = await client.get("/hearts", headers={"accept-encoding": encoding})
        assert page.status_code == 200
        assert page.headers["content-encoding"] == expected, encoding
        assert wire_size(page) < len(page.content) / 2
        assert page.text.startswith("<!doctype html>")
        assert page.headers["cache-control"] == "no-store"
        assert "content-security-policy" in page.headers
    state = await client.post("/api/heart-to-heart/games", json={},
                              headers={"accept-encoding": "gzip"})
    assert state.status_code == 201
    assert state.headers["content-encoding"] == "gzip"
    assert len(state.json()["heart"]) == 25


async def test_small_or_unasked_answers_go_as_they_are(client):
    health = await client.get("/healthz", headers={"accept-encoding": "br"})
    assert len(health.content) < COMPRESS_MIN
    assert "content-encoding" not in health.headers
    page = await client.get("/hearts", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in page.headers
    assert wire_size(page) == len(page.content) == int(page.headers["content-length"])


async def test_static_files_have_fingerprinted_urls_cached_for_a_year(client):
    page = await client.get("/heart-to-heart")
    url = STYLESHEET.search(page.text).group(1)
    assert re.fullmatch(r"/static/[0-9a-f]{10}/css/app\.css", url)
    css = await client.get(url, headers={"accept-encoding": "br"})
    assert css.status_code == 200
    assert css.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert css.headers["content-encoding"] == "br"
    assert css.headers["content-type"].startswith("text/css")
    assert wire_size(css) < len(css.content)
    plain = await client.get("/static/css/app.css", headers={"accept-encoding": "identity"})
    assert plain.content == css.content
    assert plain.headers["cache-control"] == "no-cache"
    assert "content-encoding" not in plain.headers
    again = await client.get(url, headers={"if-none-match": css.headers["etag"]})
    assert again.status_code == 304
    assert again.content == b""
    assert (await client.get("/static/0123456789/css/app.css")).status_code == 404
    assert (await client.get("/static/../app/main.py")).status_code == 404
    assert (await client.post(url)).status_code == 405


def games_in(app: FastAPI) -> int:
    path = app.state.settings.store_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        return db.execute("SELECT COUNT(*) FROM games").fetchone()[0]


async def test_a_visit_stores_no_game_until_its_first_action(client, new_client, app):
    for path in ("/", "/heart-to-heart", "/heart-to-heart/rules"):
        assert (await new_client().get(path)).status_code == 200
    first = await client.get("/heart-to-heart")
    game_id, version = h2h_board(first.text)
    assert games_in(app) == 0
    # A reload shows the same game, still not stored.
    assert h2h_board((await client.get("/heart-to-heart")).text) == (game_id, version)
    assert games_in(app) == 0
    tap = await client.post(f"/heart-to-heart/games/{game_id}/tap",
                            data={"target": "stock", "version": str(version)}, headers=HX)
    assert tap.status_code == 200
    assert games_in(app) == 1
    session = SessionMiddleware(app, app.state.settings.secret_key, False).session_from(
        client.cookies[COOKIE_NAME])
    stored = await app.state.store.get(session, game_id)
    assert stored is not None
    assert stored.version == version + 1
    assert h2h_board((await client.get("/heart-to-heart")).text) == (game_id, version + 1)
    # Another browser cannot act on a page's game, stored or not.
    other = new_client()
    page = await other.get("/hearts")
    match_id = re.search(r'data-game="([\w-]+)"', page.text).group(1)
    for browser, path in ((other, f"/heart-to-heart/games/{game_id}/tap"),
                          (client, f"/hearts/games/{match_id}/pass")):
        answer = await browser.post(path, data={"target": "stock", "version": "1"}, headers=HX)
        assert answer.status_code == 404, path
    assert games_in(app) == 1  # this game (the other browser's Hearts match is not stored)


@contextmanager
def another_request_first(store, change: Callable[[dict], dict]) -> Iterator[list]:
    """While inside, the next compare-and-set of the store (either call) is preceded by another
    request's (another tab's) write of ``change(state)`` over the same version: it lands
    between that request's read and its write. The list holds what the other request stored
    (once)."""
    compare_and_set = store.compare_and_set
    raced: list = []

    async def race(session_id, game_id, version):
        if not raced:
            stored = await store.get(session_id, game_id)
            other = change(stored.state)
            raced.append(await compare_and_set(session_id, game_id, version, other))

    def raced_first(write):
        async def with_a_race(session_id, game_id, version, new_state):
            await race(session_id, game_id, version)
            return await write(session_id, game_id, version, new_state)
        return with_a_race

    store.compare_and_set = raced_first(store.compare_and_set)
    try:
        yield raced
    finally:
        del store.compare_and_set


def drawn(state: dict) -> dict:
    game = HeartToHeartGame.from_json(without_marks(state))  # an API game carries its mark
    game.tap("stock")
    return game.to_json()


def undone(state: dict) -> dict:
    game = HeartToHeartGame.from_json(without_marks(state))
    game.undo()
    return game.to_json()


def taken_back(state: dict) -> dict:
    match = HeartsMatch.from_json(state)
    match.undo()
    return match.to_json()


async def test_an_api_action_without_a_version_applies_to_the_game_as_it_is(client, app):
    state = (await client.post("/api/heart-to-heart/games", json={"deal": "HH1-W-AAAAAAB"})).json()
    with another_request_first(app.state.store, drawn) as raced:
        answer = await client.post(f"/api/heart-to-heart/games/{state['game_id']}/tap",
                                   json={"target": "stock"})
    assert raced[0] is not None
    assert answer.status_code == 200, answer.text
    after = answer.json()
    assert after["version"] == state["version"] + 2
    assert after["moves"] == 2  # both draws: the other tab's, then this one
    # With a version, the same race is a stale version (409) and changes nothing.
    with another_request_first(app.state.store, drawn):
        answer = await client.post(f"/api/heart-to-heart/games/{state['game_id']}/tap",
                                   json={"target": "stock", "version": after["version"]})
    assert answer.status_code == 409
    assert answer.json()["state"]["moves"] == 3

async def test_a_tap_on_the_version_this_process_stored_still_checks_the_store(
    client, new_client, app
):
    """A player's next tap, at the version this process stored, must still meet another
    browser's request and another instance's move: the store is the authority."""
    game_id, version = h2h_board((await client.get("/heart-to-heart")).text)
    tap = f"/heart-to-heart/games/{game_id}/tap"
    assert (await client.post(tap, data={"target": "stock", "version": str(version)},
                              headers=HX)).status_code == 200
    version += 1  # what this process stored, and the page now holds
    session = SessionMiddleware(app, app.state.settings.secret_key, False).session_from(
        client.cookies[COOKIE_NAME])
    # Another browser, at that very version: the game is not its own.
    stranger = await new_client().post(tap, data={"target": "stock", "version": str(version)},
                                       headers=HX)
    assert stranger.status_code == 404
    assert (await app.state.store.get(session, game_id)).version == version
    # Another instance draws meanwhile (straight into the store).
    stored = await app.state.store.get(session, game_id)
    moved = await app.state.store.compare_and_set(session, game_id, version, drawn(stored.state))
    assert moved is not None
    page = await client.post(tap, data={"target": "stock", "version": str(version)}, headers=HX)
    assert page.status_code == 409
    assert H2H_STALE in page.text
    api = await client.post(f"/api/heart-to-heart/games/{game_id}/tap",
                            json={"target": "stock", "version": version})
    assert api.status_code == 409
    assert api.json()["error"]["code"] == "stale_version"
    after = await app.state.store.get(session, game_id)
    assert after.version == version + 1
    assert HeartToHeartGame.from_json(after.state).moves == 2  # this tap's draw and the other's
    # The stale answer gave the page the other instance's version: play goes on from there.
    page = await client.post(f"/heart-to-heart/games/{game_id}/undo",
                             data={"version": str(version + 1)}, headers=HX)
    assert page.status_code == 200
    assert (await app.state.store.get(session, game_id)).version == version + 2


async def test_a_tap_answers_with_the_profile_as_it_is_after_a_change_elsewhere(client, app):
    """A tap's profile (language, options) is read with its write, not before it and not kept:
    a change made meanwhile by another instance shows in the very next answer."""
    game_id, version = h2h_board((await client.get("/heart-to-heart")).text)
    tap = f"/heart-to-heart/games/{game_id}/tap"
    first = await client.post(tap, data={"target": "stock", "version": str(version)},
                              headers={**HX, "accept-language": "en"})
    assert "Turned over" in first.text
    session = SessionMiddleware(app, app.state.settings.secret_key, False).session_from(
        client.cookies[COOKIE_NAME])
    store = app.state.store
    profile_version, data = await store.get_profile(session)
    changed = {**data, "lang": "vi", "h2h_options": {"move_errors": True, "placement_help": False}}
    assert await store.put_profile(session, profile_version, changed)
    second = await client.post(tap, data={"target": "stock", "version": str(version + 1)},
                               headers={**HX, "accept-language": "en"})
    assert second.status_code == 200
    assert "Đã lật" in second.text and "Turned over" not in second.text
    api = await client.post(f"/api/heart-to-heart/games/{game_id}/tap",
                            json={"target": "stock", "version": version + 2})
    assert api.status_code == 200
    assert api.json()["options"] == {"move_errors": True, "placement_help": False}
    assert api.json()["help"] == {"outlined": [], "dimmed": []}


async def test_a_game_dealt_again_under_its_id_is_read_not_taken_from_memory(client, app, clock):
    """A page's game keeps its id when it expires and is dealt again (the id comes from the
    session and the deal). If other instances then bring the new game to the version this
    process stored for the old one, a tap at that version must act on the new game."""
    game_id, version = h2h_board((await client.get("/heart-to-heart")).text)
    tap = f"/heart-to-heart/games/{game_id}/tap"
    for _ in range(2):  # two draws, remembered here at version + 2
        answer = await client.post(tap, data={"target": "stock", "version": str(version)},
                                   headers=HX)
        assert answer.status_code == 200
        version += 1
    session = SessionMiddleware(app, app.state.settings.secret_key, False).session_from(
        client.cookies[COOKIE_NAME])
    old = HeartToHeartGame.from_json((await app.state.store.get(session, game_id)).state)
    clock.advance(app.state.settings.game_ttl_days * SECONDS_PER_DAY + 1)  # it expires
    # Other instances deal it again and play it to the same version another way: a draw, then
    # its undo (so the stock is full again, where the old game had two cards turned).
    fresh = old.copy()
    while fresh.moves:
        fresh.undo()
    store = app.state.store
    stored = await store.create_named(session, "heart_to_heart", fresh.to_json(), game_id)
    assert stored is not None and stored.version == 1
    stored = await store.compare_and_set(session, game_id, 1, drawn(stored.state))
    stored = await store.compare_and_set(session, game_id, 2, undone(stored.state))
    assert stored.version == version
    now = HeartToHeartGame.from_json(stored.state)
    assert now.stock_ranks != old.stock_ranks
    answer = await client.post(tap, data={"target": "stock", "version": str(version)}, headers=HX)
    assert answer.status_code == 200
    after = HeartToHeartGame.from_json((await store.get(session, game_id)).state)
    expected = now.copy()
    expected.tap("stock")
    assert after.stock_ranks == expected.stock_ranks
    assert after.waste_ranks == expected.waste_ranks


HEARTS_API = "/api/hearts/games"
PLAYS = 5


async def hearts_after_plays(client: httpx.AsyncClient, plays: int) -> dict:
    """A match after its pass and ``plays`` of the player's cards (each with the bots' answer):
    as many plays to take back."""
    state = (await client.post(HEARTS_API, json={"deal": "HT1-E-AAAAAAB"})).json()
    url = f"{HEARTS_API}/{state['game_id']}"
    state = (await client.post(f"{url}/pass", json={"cards": state["hand"][:3]})).json()
    for _ in range(plays):
        state = (await client.post(f"{url}/play", json={"card": state["legal"][0]})).json()
    assert state["phase"] == "playing" and len(state["hand"]) == 13 - plays
    return state


async def test_a_hearts_action_without_a_version_applies_to_the_match_as_it_is(client, app):
    state = await hearts_after_plays(client, 2)
    url = f"{HEARTS_API}/{state['game_id']}"
    with another_request_first(app.state.store, taken_back) as raced:
        answer = await client.post(f"{url}/undo")
    assert raced[0] is not None
    assert answer.status_code == 200, answer.text
    after = answer.json()
    assert after["version"] == state["version"] + 2
    assert len(after["hand"]) == 13 and not after["undo_available"]  # both plays taken back
    # With a version, the same race is a stale version (409) and changes nothing more.
    state = (await client.post(f"{url}/play", json={"card": after["legal"][0]})).json()
    with another_request_first(app.state.store, taken_back):
        answer = await client.post(f"{url}/play", json={"card": state["legal"][0],
                                                        "version": state["version"]})
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "stale_version"
    assert answer.json()["state"]["version"] == state["version"] + 1
    assert len(answer.json()["state"]["hand"]) == 13  # the other tab's undo, not this play


async def test_concurrent_hearts_actions_without_a_version_all_apply(client, new_client):
    state = await hearts_after_plays(client, PLAYS)
    url = f"{HEARTS_API}/{state['game_id']}"
    tabs = [new_client(cookies=client.cookies) for _ in range(PLAYS)]
    answers = await asyncio.gather(*(tab.post(f"{url}/undo") for tab in tabs))
    assert [a.status_code for a in answers] == [200] * PLAYS
    after = (await client.get(url)).json()
    assert after["version"] == state["version"] + PLAYS
    assert len(after["hand"]) == 13 and not after["undo_available"]
    # Holding one version, only the first of them applies; the others are stale.
    state = await hearts_after_plays(client, PLAYS)
    url = f"{HEARTS_API}/{state['game_id']}"
    answers = await asyncio.gather(*(
        tab.post(f"{url}/undo", json={"version": state["version"]}) for tab in tabs))
    assert sorted(a.status_code for a in answers) == [200] + [409] * (PLAYS - 1)
    assert {a.json()["error"]["code"] for a in answers if a.status_code == 409} == {
        "stale_version"}
    assert (await client.get(url)).json()["version"] == state["version"] + 1
