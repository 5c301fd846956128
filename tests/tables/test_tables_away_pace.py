"""Issue 27, item 3: the seat of a player who is away is played by its bot at the bots' pace, one
card per change of the table clock, never the rest of the hand at once; "I'm back" gives the
next decision back between any two cards; the page says which cards the bot played.

The app's clock is moved by the test and the table clock made to look at the table at once
(``tick``); South opens no page, so South is away once the grace period after the start is
over."""

from __future__ import annotations

from clocked import pass_time, tick

from app.settings import Settings
from app.web.hearts.pace import CARD_SECONDS
from app.web.hearts.tables.service import Table

GRACE = Settings.model_fields["table_away_grace_seconds"].default
SAME_SITE = {"origin": "http://testserver"}


async def bot_due(app, table_id: str) -> float:
    due = Table.load(await app.state.store.get_table(table_id)).bot_due()
    assert due is not None
    return due


async def until_the_bots_turn(app, clock, table_id: str) -> None:
    """The clock moves, in one step, to the away player's turn (the table clock's own round
    acts at that moment or the test's tick does: once either way)."""
    due = await bot_due(app, table_id)
    assert due > clock()  # not yet: the pages show the cards before it
    clock.advance(due - clock())
    await tick(app, clock, table_id)


async def lone_player_away(new_client, app, clock):
    """South alone with three Easy bots, no turn limit, passed, then away for having no page."""
    south = new_client(headers={"accept-language": "en"})
    created = await south.post(
        "/api/hearts/tables", json={"bot_level": "easy", "turn_seconds": None, "name": "An"}
    )
    table_id = created.json()["table_id"]
    url = f"/api/hearts/tables/{table_id}"
    view = (await south.post(f"{url}/start")).json()
    view = (await south.post(f"{url}/pass", json={"cards": view["hand"][:3]})).json()
    assert view["phase"] == "playing"
    await pass_time(app, clock, table_id, GRACE, pages=())  # gone exactly now
    await tick(app, clock, table_id)
    view = (await south.get(url)).json()
    assert view["seats"][0]["away"]
    return south, table_id, url, view


def cards_of_south(view: dict) -> int:
    return view["seats"][0]["cards_left"]


async def test_the_bot_plays_an_away_seat_one_card_at_a_time(app, new_client, clock):
    south, table_id, url, view = await lone_player_away(new_client, app, clock)
    # Going away played none of South's cards: the table stops at South's turn.
    assert view["phase"] == "playing" and cards_of_south(view) == 13
    assert view["turn"] == 0 and view["seats"][0]["played_away"] == []

    played: list[str] = []
    for _ in range(3):
        before = (await south.get(url)).json()
        await tick(app, clock, table_id)  # not yet: the page shows the cards before
        assert (await south.get(url)).json()["version"] == before["version"]
        # The bot's beat: a card's time after the change, or more when it played cards.
        assert await bot_due(app, table_id) >= clock() + CARD_SECONDS - 1e-6
        await until_the_bots_turn(app, clock, table_id)
        view = (await south.get(url)).json()
        # One card of South's per turn, then the bots up to South's next turn.
        assert cards_of_south(view) == cards_of_south(before) - 1
        assert view["turn"] == 0 and view["phase"] == "playing"
        mine = [c["card"] for t in view["tricks"] for c in t["cards"] if c["seat"] == 0]
        mine += [c["card"] for c in view["trick"] if c["seat"] == 0]
        played.append(mine[-1])
        assert view["seats"][0]["played_away"] == played

    # "I'm back" takes the seat back at once: the next card is South's to choose, however long.
    back = await south.post(f"{url}/back")
    assert back.status_code == 200 and not back.json()["seats"][0]["away"]
    assert back.json()["awaited"] == [] and back.json()["turn"] == 0
    await pass_time(app, clock, table_id, GRACE - 1, pages=(0,))
    await tick(app, clock, table_id)
    view = (await south.get(url)).json()
    assert cards_of_south(view) == 10 and view["seats"][0]["played_away"] == played

    # The page says what happened while away, until the player's own next move.
    page = await south.get(f"/hearts/t/{table_id}")
    said = page.text
    assert "While you were away, your bot played 3 cards:" in said
    assert all(f'data-card="{card}"' in said.split("While you were away")[1] for card in played)
    played_now = await south.post(f"{url}/play", json={"card": view["legal"][0]})
    assert played_now.json()["seats"][0]["played_away"] == []
    assert "While you were away" not in (await south.get(f"/hearts/t/{table_id}")).text


async def test_the_away_page_counts_the_cards_so_far_in_both_languages(app, new_client, clock):
    south, table_id, url, _view = await lone_player_away(new_client, app, clock)
    await until_the_bots_turn(app, clock, table_id)
    card = (await south.get(url)).json()["seats"][0]["played_away"]
    assert len(card) == 1
    page = (await south.get(f"/hearts/t/{table_id}")).text
    assert "Your bot has played 1 card for you so far:" in page
    vi = (await south.get(f"/hearts/t/{table_id}", headers={"accept-language": "vi"})).text
    assert "Đến giờ người máy đã đánh thay bạn 1 lá:" in vi
    # Coming back through the page (a plain form post) works mid-hand too.
    back = await south.post(f"/hearts/t/{table_id}/back", headers=SAME_SITE)
    assert back.status_code == 303
    assert not (await south.get(url)).json()["seats"][0]["away"]
