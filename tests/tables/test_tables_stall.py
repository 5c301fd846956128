"""No seated player can stall a table (issue 28, F4): "I'm back" and sitting again never move
the turn limit, "back" acts only for a seat that is away, and a seat whose page never opened
its event stream is away after the same grace as one whose page went, turn limit or not.

The app's clock is moved by the test; an open page is the store told of its stream, as a page's
process tells it every heartbeat; the table clock is made to look at the table at once
(``tick``) instead of waiting for its own round."""

from __future__ import annotations

from clocked import pass_time, tick

from app.settings import Settings

LIMIT = 15
SAME_SITE = {"origin": "http://testserver"}

GRACE = Settings.model_fields["table_away_grace_seconds"].default  # the tests' app keeps it


async def table_of_two(new_client, turn_seconds: int | None):
    south, north = new_client(), new_client()
    created = await south.post(
        "/api/hearts/tables", json={"bot_level": "easy", "turn_seconds": turn_seconds}
    )
    table_id = created.json()["table_id"]
    url = f"/api/hearts/tables/{table_id}"
    assert (await north.post(f"{url}/seats", json={"seat": 2, "name": "Lan"})).status_code == 200
    assert (await south.post(f"{url}/start")).status_code == 200
    return south, north, table_id, url


async def test_back_and_sitting_again_leave_the_turn_limit_running(app, new_client, clock):
    south, north, table_id, url = await table_of_two(new_client, LIMIT)
    await pass_time(app, clock, table_id, 10)
    back = await north.post(f"{url}/back")
    assert back.status_code == 409  # not away: nothing to take back
    assert back.json()["state"]["turn_deadline"] == LIMIT - 10
    sat = await north.post(f"{url}/seats", json={"seat": 2, "name": "Lan"})
    assert sat.status_code == 200 and sat.json()["turn_deadline"] == LIMIT - 10

    await pass_time(app, clock, table_id, 6)
    await tick(app, clock, table_id)
    view = (await south.get(url)).json()  # the limit ran out: the bot passed for both
    assert view["phase"] == "playing" and view["seats"][2]["autoplayed"]


async def test_the_page_routes_leave_the_turn_limit_running(app, new_client, clock):
    _south, north, table_id, url = await table_of_two(new_client, LIMIT)
    page = f"/hearts/t/{table_id}"
    await pass_time(app, clock, table_id, 10)
    back = await north.post(f"{page}/back", headers=SAME_SITE)
    assert back.status_code == 303  # nothing to take back: the page as it is
    sat = await north.post(f"{page}/sit", data={"name": "Lan", "seat": "2"}, headers=SAME_SITE)
    assert sat.status_code == 303
    view = (await north.get(url)).json()
    assert view["turn_deadline"] == LIMIT - 10 and view["seats"][2]["name"] == "Lan"


async def test_a_page_never_opened_is_away_after_the_grace_even_without_a_limit(
    app, new_client, clock
):
    south, north, table_id, url = await table_of_two(new_client, None)
    await pass_time(app, clock, table_id, GRACE - 1, pages=(0,))
    await tick(app, clock, table_id)
    assert not (await south.get(url)).json()["seats"][2]["away"]
    # "I'm back" from a seat that is not away neither acts nor counts as being seen.
    assert (await north.post(f"{url}/back")).status_code == 409

    await pass_time(app, clock, table_id, 2, pages=(0,))
    await tick(app, clock, table_id)
    view = (await south.get(url)).json()
    # North never opened the page: away, and the Normal bot plays for them.
    assert view["seats"][2]["away"] and not view["seats"][0]["away"]


async def test_coming_back_does_not_move_the_turn_limit(app, new_client, clock):
    south, north, table_id, url = await table_of_two(new_client, LIMIT)
    await pass_time(app, clock, table_id, GRACE + 1, pages=(0,))
    await tick(app, clock, table_id)  # North never opened the page: away
    away = (await south.get(url)).json()
    assert away["seats"][2]["away"] and away["awaited"] == [0]
    assert away["turn_deadline"] == LIMIT  # South's wait starts again as North goes

    await pass_time(app, clock, table_id, 5, pages=(0,))
    back = await north.post(f"{url}/back")
    assert back.status_code == 200 and not back.json()["seats"][2]["away"]
    assert back.json()["turn_deadline"] == LIMIT - 5
