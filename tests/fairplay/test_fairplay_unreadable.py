"""Issue 18, finding 4 (the game-loading half): a stored game this version cannot read (written
by a newer version, bad JSON, the wrong shape) counts as absent, in both stores: the pages deal a
new game and say so in a short notice, the API answers 404 for it, and nothing answers 500.

The damage is written straight into the store behind the running app, as a crash, a hand edit
or a newer version of the app would leave it.
"""

from __future__ import annotations

import json
import re
import sqlite3

import pytest
import redis

from app.settings import Settings
from app.store import DEFAULT_REDIS_PREFIX

DAMAGE = {
    "bad JSON": lambda state: json.dumps(state)[:-7],
    "not an object": lambda state: json.dumps([state]),
    "a newer version": lambda state: json.dumps({**state, "v": 2}),
    "the wrong shape": lambda state: json.dumps({**state, "deal": 12}),
    "a missing field": lambda state: json.dumps({k: v for k, v in state.items() if k != "v"}),
}
GAMES = {
    # kind: (API prefix, page, a deal URL of that game, the notice)
    "heart_to_heart": ("/api/heart-to-heart/games", "/heart-to-heart",
                       "/heart-to-heart/deal/HH1-N-AAAAAAM",
                       "Your saved game could not be read: here is a new one."),
    "hearts": ("/api/hearts/games", "/hearts", "/hearts/deal/HT1-N-AAAAAAA",
               "Your saved match could not be read: here is a new one."),
}


@pytest.fixture(params=["sqlite", "redis"])
def settings(request, tmp_path, redis_server) -> Settings:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'cardroom.sqlite3'}"
    else:
        url = redis_server.url("fairplay")
        client = redis.Redis.from_url(url)
        client.flushdb()
        request.addfinalizer(client.flushdb)
        request.addfinalizer(client.close)
    return Settings(store_url=url, secret_key="test-secret-key-long-enough-for-the-check",
                    secure_cookies=False, game_ttl_days=30)


def damage(settings: Settings, game_id: str, how: str) -> None:
    """Rewrite the stored state of ``game_id`` as ``how`` says."""
    url = settings.store_url
    if url.startswith("sqlite:///"):
        with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
            (text,) = conn.execute("SELECT state FROM games WHERE game_id = ?",
                                   (game_id,)).fetchone()
            conn.execute("UPDATE games SET state = ? WHERE game_id = ?",
                         (DAMAGE[how](json.loads(text)), game_id))
    else:
        client = redis.Redis.from_url(url, decode_responses=True)
        key = f"{DEFAULT_REDIS_PREFIX}game:{game_id}"
        client.hset(key, "state", DAMAGE[how](json.loads(client.hget(key, "state"))))
        client.close()


def game_id_of(page: str) -> str:
    """The id of the game a page shows (Hearts names it on the table, Heart to Heart in the
    address its taps go to)."""
    found = re.search(r'data-game="([^"]+)"|/games/([^/"]+)/tap', page)
    return found.group(1) or found.group(2)


@pytest.mark.parametrize("how", DAMAGE)
@pytest.mark.parametrize("kind", GAMES)
async def test_an_unreadable_game_is_replaced_with_a_notice(client, settings, kind, how):
    api, page, _deal_url, notice = GAMES[kind]
    damaged = (await client.post(api, json={})).json()["game_id"]
    damage(settings, damaged, how)

    assert (await client.get("/")).status_code == 200
    assert (await client.get(f"{api}/{damaged}")).status_code == 404
    shown = await client.get(page)
    assert shown.status_code == 200
    assert notice in shown.text
    fresh = game_id_of(shown.text)
    assert fresh != damaged
    again = await client.get(page)  # the new game is the current one now: no notice
    assert game_id_of(again.text) == fresh and notice not in again.text


@pytest.mark.parametrize("how", DAMAGE)
@pytest.mark.parametrize("kind", GAMES)
async def test_every_route_that_reads_the_current_game_works_past_the_damage(
    client, settings, kind, how
):
    api, page, deal_url, notice = GAMES[kind]
    damaged = (await client.post(api, json={})).json()["game_id"]
    damage(settings, damaged, how)

    assert (await client.get(deal_url)).status_code == 303  # nothing unfinished to ask about
    dealt = await client.get(page)
    assert notice not in dealt.text and game_id_of(dealt.text) != damaged
    damage(settings, game_id_of(dealt.text), how)
    new = await client.post(f"{page}/new", data={})
    assert new.status_code == 303
    damage(settings, game_id_of((await client.get(new.headers["location"])).text), how)
    created = await client.post(api, json={})
    assert created.status_code == 201
    assert (await client.get(f"{api}/{created.json()['game_id']}")).status_code == 200
