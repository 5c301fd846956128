"""A moon at a table under the shooter's-choice rule: the shooter answers on the page or through
the API, nobody else can, the others (players and watchers) are told who is choosing, and a
shooter whose seat a bot plays (away, or out of time) chooses by itself.

The table's match is set to a hand whose last card makes South shoot the moon
(``moon_position``): East, the last to play, plays the 2♣."""

from __future__ import annotations

import pytest
import redis
from clocked import pass_time, tick

from app.bots import choose_moon
from app.rules.hearts_rules import HeartsRules
from app.web.hearts.tables.board import told_since
from app.web.hearts.tables.service import Table
from app.web.i18n import translator
from tests.rules.test_hearts_house_rules import moon_position
from tests.tables.test_tables_pages import SAME_SITE

RULES = HeartsRules(moon="shooters_choice")
EN = {"accept-language": "en"}
HX = {**SAME_SITE, "hx-request": "true"}
WAITING = "An shot the moon and is choosing."
WAITING_VI = "An đã bắn trăng và đang chọn cách tính điểm."
ADDED, SUBTRACTED = [10, 46, 56, 66], [-16, 20, 30, 40]  # the totals after each choice


def totals(view: dict) -> list[int]:
    return [seat["total"] for seat in view["seats"]]


@pytest.fixture
def settings(settings, request):
    """The app's store: SQLite, or this run's Redis for a test that asks for it."""
    if getattr(request, "param", "sqlite") != "redis":
        return settings
    url = request.getfixturevalue("redis_server").url("tables")
    redis.Redis.from_url(url).flushdb()
    return settings.model_copy(update={"store_url": url})


async def moon_table(app, new_client, turn_seconds: int | None = None):
    """South (An) and East (Binh) at a table, North (Lan) too; the hand's last trick waits for
    East's 2♣, and South takes every point."""
    south, east = new_client(headers=EN), new_client(headers=EN)
    north = new_client(headers={"accept-language": "vi"})
    created = (await south.post(
        "/api/hearts/tables",
        json={"bot_level": "easy", "turn_seconds": turn_seconds, "name": "An"},
    )).json()
    table_id = created["table_id"]
    api = f"/api/hearts/tables/{table_id}"
    for client, seat, name in ((north, 2, "Lan"), (east, 3, "Binh")):
        assert (await client.post(f"{api}/seats", json={"seat": seat, "name": name})
                ).status_code == 200
    assert (await south.post(f"{api}/start")).status_code == 200
    store = app.state.store
    table = Table.load(await store.get_table(table_id))
    table.match = moon_position(RULES, shooter=0)
    assert await store.table_compare_and_set(table_id, table.version, table.to_json())
    return south, north, east, table_id, created["watch_code"]


async def shot(east, table_id: str) -> dict:
    played = await east.post(f"/api/hearts/tables/{table_id}/play", json={"card": "2C"})
    assert played.status_code == 200, played.text
    view = played.json()
    assert view["phase"] == "moon" and view["moon"] == 0
    return view


async def test_the_shooter_answers_on_the_page_and_nobody_else_can(app, new_client):
    south, north, east, table_id, code = await moon_table(app, new_client)
    page_url, api = f"/hearts/t/{table_id}", f"/api/hearts/tables/{table_id}"
    # East's last card: East's answer says who shot it, once the card has landed.
    before = (await east.get(api)).json()["version"]
    played = await east.post(f"{page_url}/play", data={"card": "2C", "version": before},
                             headers=HX)
    assert played.status_code == 200 and WAITING in played.text
    view = (await south.get(api)).json()
    assert view["phase"] == "moon" and view["awaited"] == []  # no turn limit at this table

    # The shooter's page asks the solo page's question; the others' say who is choosing.
    mine = (await south.get(page_url)).text
    assert f'action="{page_url}/moon"' in mine and 'data-action="moon-add_to_others"' in mine
    assert "Your moon: choose" in mine and WAITING not in mine
    for client, words in ((east, WAITING), (north, WAITING_VI)):
        theirs = (await client.get(page_url)).text
        assert words in theirs and "/moon" not in theirs and "Your moon" not in theirs
    watching = (await new_client(headers=EN).get(f"/hearts/w/{code}")).text
    assert WAITING in watching and "/moon" not in watching
    assert (await new_client().get(f"/api/hearts/watch/{code}")).json()["phase"] == "moon"

    # Refusals change nothing: another seat, a browser without one, a choice that is none.
    version = view["version"]
    other = await east.post(f"{page_url}/moon", data={"choice": "add_to_others",
                                                       "version": version}, headers=HX)
    assert other.status_code == 409 and "Only the player who shot the moon chooses." in other.text
    stranger = await new_client().post(f"{page_url}/moon", data={"choice": "add_to_others"},
                                       headers=HX)
    assert stranger.status_code == 403
    bad = await south.post(f"{page_url}/moon", data={"choice": "safe", "version": version},
                           headers=HX)
    assert bad.status_code in (400, 422)
    assert (await south.get(api)).json()["version"] == version

    chosen = await south.post(
        f"{page_url}/moon", data={"choice": "subtract_from_shooter", "version": version},
        headers=HX,
    )
    assert chosen.status_code == 200
    assert "Hand over." in chosen.text and "You shot the moon!" in chosen.text  # as solo
    view = (await south.get(api)).json()
    assert view["phase"] == "hand_over" and totals(view) == SUBTRACTED
    # The others' pages (their event streams' catch-up) are told the hand's end as solo.
    table = Table.load(await app.state.store.get_table(table_id))
    _, closing = told_since(table, 3, version, translator("en"))
    assert closing == "Hand over. You +0, An -26, Bot (West) +0, Lan +0. An shot the moon."
    # Once chosen, there is nothing left to choose.
    again = await south.post(f"{page_url}/moon", data={"choice": "add_to_others",
                                                        "version": version}, headers=HX)
    assert again.status_code == 409 and "There is no moon to choose for now." in again.text


@pytest.mark.parametrize("settings", ["sqlite", "redis"], indirect=True)
async def test_the_shooter_answers_through_the_api(app, new_client):
    south, _, east, table_id, _ = await moon_table(app, new_client)
    api = f"/api/hearts/tables/{table_id}"
    version = (await shot(east, table_id))["version"]

    other = await east.post(f"{api}/moon", json={"choice": "add_to_others"})
    assert other.status_code == 409 and other.json()["error"]["code"] == "not_shooter"
    assert other.json()["state"]["phase"] == "moon"
    bad = await south.post(f"{api}/moon", json={"choice": "safe"})
    assert bad.status_code == 422
    stale = await south.post(f"{api}/moon", json={"choice": "add_to_others",
                                                  "version": version - 1})
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_version"
    assert (await south.get(api)).json()["version"] == version

    chosen = await south.post(f"{api}/moon", json={"choice": "add_to_others",
                                                   "version": version})
    assert chosen.status_code == 200, chosen.text
    assert chosen.json()["phase"] == "hand_over" and totals(chosen.json()) == ADDED
    wrong = await south.post(f"{api}/moon", json={"choice": "add_to_others"})
    assert wrong.status_code == 409 and wrong.json()["error"]["code"] == "not_moon"
    schema = (await south.get("/openapi.json")).json()
    body = schema["paths"]["/api/hearts/tables/{table_id}/moon"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"]["$ref"].endswith("/HeartsMoon")


async def test_an_away_shooter_chooses_by_itself(app, new_client):
    _, _, east, table_id, _ = await moon_table(app, new_client)
    api = f"/api/hearts/tables/{table_id}"
    store = app.state.store
    table = Table.load(await store.get_table(table_id))
    table.seats[0].away = True
    assert await store.table_compare_and_set(table_id, table.version, table.to_json())
    expected = choose_moon(moon_after_the_2c().view(0))

    played = await east.post(f"{api}/play", json={"card": "2C"})
    assert played.status_code == 200
    view = played.json()
    assert view["phase"] == "hand_over"
    assert totals(view) == (ADDED if expected == "add_to_others" else SUBTRACTED)


async def test_a_shooter_out_of_time_chooses_by_itself(app, new_client, clock):
    limit = 15
    south, _, east, table_id, _ = await moon_table(app, new_client, turn_seconds=limit)
    api = f"/api/hearts/tables/{table_id}"
    view = await shot(east, table_id)
    assert view["awaited"] == [0] and view["turn_deadline"] == limit

    await pass_time(app, clock, table_id, limit + 1, pages=(0, 2, 3))
    await tick(app, clock, table_id)
    view = (await south.get(api)).json()
    assert view["phase"] == "hand_over" and view["seats"][0]["autoplayed"]
    assert not view["seats"][0]["away"]  # one miss only
    expected = choose_moon(moon_after_the_2c().view(0))
    assert totals(view) == (ADDED if expected == "add_to_others" else SUBTRACTED)


async def test_a_bot_shooter_chooses_at_once(app, new_client):
    """West's bot shoots the moon on South's last card."""
    south, _, _, table_id, _ = await moon_table(app, new_client)
    store = app.state.store
    table = Table.load(await store.get_table(table_id))
    table.match = moon_position(RULES, shooter=1)
    assert await store.table_compare_and_set(table_id, table.version, table.to_json())
    played = await south.post(f"/api/hearts/tables/{table_id}/play", json={"card": "2C"})
    assert played.status_code == 200
    view = played.json()
    assert view["phase"] == "hand_over" and view["hand_scores"][-1][1] in (0, -26)


def moon_after_the_2c():
    match = moon_position(RULES, shooter=0)
    match.play(0, seat=3)
    return match
