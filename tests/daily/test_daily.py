"""Daily deals and results boards, through the app on a real SQLite store (tests/conftest.py):
secret deals until midnight UTC, one result per browser, honest sections, paged boards."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from itertools import pairwise

import pytest

from app.rules.heart_to_heart import new_game
from app.rules.heart_to_heart_solver import solve
from app.web.daily import share_text
from app.web.daily_codes import HEART_TO_HEART, HEARTS, daily_code, today
from app.web.results import DAILY, Standing

SLUG = {HEART_TO_HEART: "heart-to-heart", HEARTS: "hearts"}


@pytest.fixture
def secret(settings) -> str:
    return settings.secret_key


async def start_daily(client, game: str) -> dict:
    answer = await client.post(f"/api/{game}/daily")
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


async def board(client, game: str, day, section: str = "ranked", page: int = 1) -> dict:
    answer = await client.get(
        f"/api/{game}/daily/{day.isoformat()}/results", params={"section": section, "page": page}
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def target_of(move) -> str:
    return move if isinstance(move, str) else f"heart:{move}"


async def page_tap(client, game_id: str, target: str) -> None:
    """A tap as the page sends it (a form, with the version the page holds)."""
    state = (await client.get(f"/api/heart-to-heart/games/{game_id}")).json()
    answer = await client.post(
        f"/heart-to-heart/games/{game_id}/tap",
        data={"target": target, "version": state["version"]},
    )
    assert answer.status_code in (200, 303), answer.text


async def win_on_the_page(client, game_id: str, code: str, clock, pace: float) -> None:
    for move in solve(new_game(code)):
        clock.advance(pace)
        await page_tap(client, game_id, target_of(move))
    state = (await client.get(f"/api/heart-to-heart/games/{game_id}")).json()
    assert state["status"] == "won"


async def win_through_the_api(client, game_id: str, code: str, clock) -> None:
    for move in solve(new_game(code)):
        clock.advance(1)
        answer = await client.post(
            f"/api/heart-to-heart/games/{game_id}/tap", json={"target": target_of(move)}
        )
        assert answer.status_code == 200
    assert answer.json()["status"] == "won"


async def test_two_browsers_get_the_same_daily_without_seeing_its_code(new_client, clock, secret):
    one, two = new_client(headers={"accept-language": "en"}), new_client()
    day = today(clock())
    for kind, game in SLUG.items():
        code = daily_code(kind, day, secret)
        told = (await one.get(f"/api/{game}/daily")).json()
        assert told == {"date": day.isoformat(), "code": None,
                        "results": f"/api/{game}/daily/{day.isoformat()}/results"}
        first, second = await start_daily(one, game), await start_daily(two, game)
        assert first["deal"] is None and second["deal"] is None
        if kind == HEART_TO_HEART:
            assert first["heart"] == second["heart"]
            assert [c["rank"] for c in first["heart"]] == [
                c["rank"] for c in (await one.post(
                    "/api/heart-to-heart/games", json={"deal": code})).json()["heart"]
            ]
            await start_daily(one, game)  # back to the daily (a new game: nothing played)
        else:
            assert first["hand"] == second["hand"] and first["pass_direction"] == "left"
        again = await one.post(f"/api/{game}/daily")
        assert again.status_code == 200  # the same game, resumed
        pages = [
            await one.get(f"/{game}/daily"),
            await one.get(f"/{game}/daily/{day.isoformat()}/results"),
            await one.get(f"/api/{game}/daily/{day.isoformat()}/results"),
            await one.get("/"),
            again,
        ]
        for answer in pages:
            assert answer.status_code == 200
            assert code not in answer.text
        if kind == HEART_TO_HEART:
            assert 'data-info="deal">Daily deal<' in pages[0].text
        else:
            assert f'data-game="{first["game_id"]}"' in pages[0].text
    # After midnight UTC the code is on the day's board, an ordinary deal for anyone.
    clock.advance(timedelta(days=1).total_seconds())
    for kind, game in SLUG.items():
        code = daily_code(kind, day, secret)
        assert (await board(one, game, day))["code"] == code
        page = await one.get(f"/{game}/daily/{day.isoformat()}/results")
        assert code in page.text
        assert (await one.get(f"/api/{game}/daily")).json()["date"] != day.isoformat()
        assert daily_code(kind, day + timedelta(days=1), secret) != code
    # A server with another key deals other dailies: the code cannot be computed elsewhere.
    assert daily_code(HEARTS, day, "another-secret-key-long-enough-for-it") != daily_code(
        HEARTS, day, secret
    )


async def test_the_heart_to_heart_daily_cannot_be_found_from_its_cards(new_client, clock, secret):
    """A seven-letter code (26**7 ≈ 2**33) could be searched for the daily's 25 face-up cards,
    and the stock's order read from it. The daily's code is a long one, shuffled from SHA-256
    of its whole number: drawn from more than 2**128, and its seven-letter namesake (the same
    number's last letters) deals other cards. Once the day is over the long code is an
    ordinary, winnable deal that anyone opens."""
    client = new_client()
    day = today(clock())
    code = daily_code(HEART_TO_HEART, day, secret)
    prefix, variant, letters = code.split("-")
    assert (prefix, variant) == ("HH1", "W") and 26 ** len(letters) >= 2**128
    daily = await start_daily(client, "heart-to-heart")
    short = f"HH1-W-{letters[-7:]}"
    assert new_game(short).heart_ranks != new_game(code).heart_ranks
    clock.advance(timedelta(days=1).total_seconds())
    opened = (await client.post("/api/heart-to-heart/games", json={"deal": code.lower()})).json()
    assert opened["deal"] == code and opened["heart"] == daily["heart"]
    assert solve(new_game(code))  # W: winnable
    page = await client.get(f"/heart-to-heart/deal/{code}")
    assert page.status_code in (200, 303)


async def test_the_daily_page_starts_it_with_a_form(new_client, clock):
    browser = new_client(headers={"accept-language": "en"})
    landing = await browser.get("/heart-to-heart/daily")
    assert landing.status_code == 200
    assert 'method="post" action="/heart-to-heart/daily"' in landing.text
    assert "Your game in progress ends" not in landing.text
    game = (await browser.post("/api/heart-to-heart/games", json={})).json()
    await browser.post(f"/api/heart-to-heart/games/{game['game_id']}/tap", json={"target": "stock"})
    assert "Your game in progress ends" in (await browser.get("/heart-to-heart/daily")).text
    started = await browser.post("/heart-to-heart/daily")
    assert started.status_code == 303 and started.headers["location"] == "/heart-to-heart/daily"
    game = await browser.get("/heart-to-heart/daily")
    assert 'data-info="deal">Daily deal<' in game.text
    # Yesterday's board is a page too; a day to come is not.
    yesterday = (today(clock()) - timedelta(days=1)).isoformat()
    assert (await browser.get(f"/hearts/daily/{yesterday}/results")).status_code == 200
    tomorrow = (today(clock()) + timedelta(days=1)).isoformat()
    assert (await browser.get(f"/hearts/daily/{tomorrow}/results")).status_code == 404
    answer = await browser.get(f"/api/hearts/daily/{tomorrow}/results")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "no_daily"
    for bad in ("2026-13-01", "yesterday", "2026-1-1"):
        assert (await browser.get(f"/api/hearts/daily/{bad}/results")).status_code == 404
    answer = await browser.get(f"/api/hearts/daily/{yesterday}/results?page=0")
    assert answer.status_code == 422
    answer = await browser.get(f"/api/hearts/daily/{yesterday}/results?section=all")
    assert answer.status_code == 422


async def test_page_play_is_ranked_and_api_or_machine_speed_play_apart(new_client, clock, secret):
    day = today(clock())
    code = daily_code(HEART_TO_HEART, day, secret)
    person, script, fast = new_client(headers={"accept-language": "en"}), new_client(), new_client()
    for browser in (person, script, fast):
        await browser.post("/results/nickname", data={
            "nickname": {id(person): "Lan", id(script): "Scripted", id(fast): "Quick"}[id(browser)],
            "game": "heart-to-heart", "day": day.isoformat(),
        })
    await win_on_the_page(person, (await start_daily(person, "heart-to-heart"))["game_id"], code,
                          clock, pace=1.0)
    await win_through_the_api(script, (await start_daily(script, "heart-to-heart"))["game_id"],
                              code, clock)
    await win_on_the_page(fast, (await start_daily(fast, "heart-to-heart"))["game_id"], code,
                          clock, pace=0.1)
    ranked = await board(person, "heart-to-heart", day)
    assert [(r["nickname"], r["apart"], r["rank"], r["assisted"]) for r in ranked["rows"]] == [
        ("Lan", [], 1, False)
    ]
    assert ranked["rows"][0]["mine"] and ranked["mine"]["nickname"] == "Lan"
    assert ranked["open"] is False and ranked["code"] is None
    apart = await board(person, "heart-to-heart", day, "apart")
    assert sorted((r["nickname"], tuple(r["apart"])) for r in apart["rows"]) == [
        ("Quick", ("fast",)), ("Scripted", ("api",)),
    ]
    page = (await person.get(f"/heart-to-heart/daily/{day.isoformat()}/results")).text
    assert "Lan" in page and "Scripted" not in page and "0.35 s a move" in page
    page = (await person.get(
        f"/heart-to-heart/daily/{day.isoformat()}/results?section=apart")).text
    assert "Scripted" in page and "too fast" in page and "API" in page


async def test_one_result_per_browser_replays_are_practice(new_client, clock, secret):
    day = today(clock())
    code = daily_code(HEART_TO_HEART, day, secret)
    browser = new_client(headers={"accept-language": "en"})
    first = await start_daily(browser, "heart-to-heart")
    for _ in range(2):
        clock.advance(2)
        await page_tap(browser, first["game_id"], "stock")
    # Another game gives the daily up: that is its result.
    await browser.post("/api/heart-to-heart/games", json={})
    landing = (await browser.get("/heart-to-heart/daily")).text
    assert "practice" in landing
    second = await start_daily(browser, "heart-to-heart")
    assert second["game_id"] != first["game_id"]
    await win_on_the_page(browser, second["game_id"], code, clock, pace=1.0)
    ranked = await board(browser, "heart-to-heart", day)
    assert ranked["total"] == 1
    (row,) = ranked["rows"]
    assert not row["won"] and row["cards_left"] == 25 and row["moves"] == 2
    assert (await board(browser, "heart-to-heart", day, "apart"))["total"] == 0
    home = (await browser.get("/")).text
    assert re.search(r'data-daily="heart_to_heart">.*?data-played="true"', home, re.S)


async def test_a_flood_of_give_ups_does_not_stop_another_browsers_result(app, new_client, clock):
    """10,000 give-ups from one browser on one code (each a tap and a new game over it) take one
    row; another browser's result is then ranked as ever."""
    from app.web.heart_to_heart import service

    code = "HH1-W-AAAAAAM"
    store, flooder = app.state.store, "flooding-session"
    for _ in range(10_000):
        loaded = await service.replace_game(store, flooder, code)
        clock.advance(1)
        await service.apply_action(
            store, flooder, loaded.stored.game_id, loaded.stored.version,
            lambda game: game.tap("stock"), service.screen_time(None, clock()),
        )
    await service.replace_game(store, flooder, code)
    other = new_client()
    state = (await other.post("/api/heart-to-heart/games", json={"deal": code})).json()
    await win_on_the_page(other, state["game_id"], code, clock, pace=1.0)
    answer = await other.get(f"/api/heart-to-heart/deals/{code}/results")
    found = answer.json()
    assert found["total"] == 2 and found["open"] is True
    assert found["rows"][0]["mine"] and found["rows"][0]["won"] and found["rows"][0]["rank"] == 1
    assert found["rows"][1]["cards_left"] == 25


async def test_an_undo_ranks_a_game_apart_as_assisted(client, clock):
    code = "HH1-W-AAAAAAM"
    state = (await client.post("/api/heart-to-heart/games", json={"deal": code})).json()
    clock.advance(1)
    await page_tap(client, state["game_id"], "stock")
    now = (await client.get(f"/api/heart-to-heart/games/{state['game_id']}")).json()
    undone = await client.post(f"/heart-to-heart/games/{state['game_id']}/undo",
                               data={"version": now["version"]})
    assert undone.status_code in (200, 303)
    await win_on_the_page(client, state["game_id"], code, clock, pace=1.0)
    found = (await client.get(f"/api/heart-to-heart/deals/{code}/results?section=apart")).json()
    (row,) = found["rows"]
    assert row["apart"] == ["assisted"] and row["assisted"] is True and row["won"]
    page = (await client.get(f"/heart-to-heart/deal/{code}/results?section=apart")).text
    assert "undo or hint" in page


async def test_boards_are_paged(app, new_client):
    store = app.state.store
    board_key = "heart_to_heart:HH1-W-AAAAAAB"
    for n in range(120):
        row = {"won": True, "cards_left": 0, "seconds": n, "moves": 90, "apart": [],
               "finished_at": n}
        await store.add_result(board_key, f"s{n}", row, f"P{n}", section="ranked", order=n,
                               group="", keep_days=30)
    browser = new_client(headers={"accept-language": "en"})
    found = (await browser.get(
        "/api/heart-to-heart/deals/HH1-W-AAAAAAB/results", params={"page": 3})).json()
    assert (found["page"], found["pages"], found["total"]) == (3, 3, 120)
    assert [r["rank"] for r in found["rows"]] == list(range(101, 121))
    assert [r["seconds"] for r in found["rows"]] == list(range(100, 120))
    page = (await browser.get("/heart-to-heart/deal/HH1-W-AAAAAAB/results?page=2")).text
    assert "Page 2 of 3" in page and 'rel="prev"' in page and 'rel="next"' in page
    assert ">P50<" in page and ">P49<" not in page


HEARTS_STRATEGIES = {
    # (which three cards to pass, which legal card to play)
    "low": (slice(0, 3), 0),
    "same-low": (slice(0, 3), 0),
    "high": (slice(-3, None), -1),
    "mixed": (slice(0, 3), -1),
}


async def play_hearts_daily_on_the_page(client, strategy: str) -> dict:
    passing, pick = HEARTS_STRATEGIES[strategy]
    state = await start_daily(client, "hearts")
    game = state["game_id"]
    while state["phase"] != "match_over":
        url = f"/hearts/games/{game}"
        if state["phase"] == "passing":
            cards = " ".join(state["hand"][passing])
            answer = await client.post(f"{url}/pass",
                                       data={"cards": cards, "version": state["version"]})
        elif state["phase"] == "playing":
            card = state["legal"][pick]
            answer = await client.post(f"{url}/play",
                                       data={"card": card, "version": state["version"]})
        else:
            answer = await client.post(f"{url}/next-hand", data={"version": state["version"]})
        assert answer.status_code in (200, 303), answer.text
        state = (await client.get(f"/api/hearts/games/{game}")).json()
    return state


async def test_hearts_daily_matchpoints_equal_a_hand_computation(new_client, clock, secret):
    day = today(clock())
    players = {name: new_client() for name in HEARTS_STRATEGIES}
    for name, browser in players.items():
        await browser.post("/results/nickname", data={
            "nickname": name, "game": "hearts", "day": day.isoformat()})
    ends = {name: await play_hearts_daily_on_the_page(c, name) for name, c in players.items()}
    code = daily_code(HEARTS, day, secret)
    for name, end in ends.items():
        assert end["hand_number"] == 4 and end["deal"] is None, name
        assert len(end["hand_scores"]) == 4, name
    # Even over, a daily match keeps its code until the day is over.
    over = await players["low"].get("/hearts")
    assert "/hearts/daily/" in over.text and code not in over.text
    # The bots answer the same plays the same way: the same strategy, the same points.
    assert ends["low"]["hand_scores"] == ends["same-low"]["hand_scores"]
    found = await board(players["low"], "hearts", day)
    rows = found["rows"]
    assert found["total"] == 4 and len(rows) == 4
    for row in rows:
        assert row["points"] == [hand[0] for hand in ends[row["nickname"]]["hand_scores"]]
        # By hand: 1 for each other result that took more points on a hand, ½ for each tie.
        others = [r["points"] for r in rows if r is not row]
        expected = [
            sum(1 if o[h] > row["points"][h] else 0.5 if o[h] == row["points"][h] else 0
                for o in others)
            for h in range(4)
        ]
        assert row["matchpoints"] == expected
        assert row["percent"] == pytest.approx(100 * sum(expected) / (4 * 3))
    percents = [r["percent"] for r in rows]
    assert percents == sorted(percents, reverse=True)
    assert rows[0]["rank"] == 1
    for a, b in pairwise(rows):
        assert (a["rank"] == b["rank"]) == (a["percent"] == b["percent"])
    page = (await players["low"].get(f"/hearts/daily/{day.isoformat()}/results",
                                     headers={"accept-language": "en"})).text
    assert "matchpoint" in page and "%" in page


# A replay's share link as a board gives it: the game it opens is named in it.
REPLAY_LINK = re.compile(r"(?:https?://[^/\s\"']+)?/[a-z-]+/games/[\w-]+/replay\?share=[\w.-]+")


async def board_seen(client, game: str, path: str, section: str = "ranked") -> tuple[str, dict]:
    """A board's page and its API answer, ``path`` as "daily/2026-11-30" or "deal/{code}"."""
    page = await client.get(f"/{game}/{path}/results", params={"section": section})
    assert page.status_code == 200
    api_path = path.replace("deal/", "deals/")
    answer = await client.get(f"/api/{game}/{api_path}/results", params={"section": section})
    assert answer.status_code == 200
    return page.text, answer.json()


def page_links(html: str) -> list[str]:
    return re.findall(r'<a class="replay" href="([^"]+)"', html)


async def check_replay_links(
    new_client, clock, game: str, day, players: dict[str, tuple], code: str, keep_days: int
) -> None:
    """A daily's board, ``players`` by nickname: each browser and the game it finished (None:
    given up unfinished). No link while the day lasts; after it, a link on every finished
    game's row that opens its replay for anyone, and none on the code's board. A game's id is
    shown to no one, its player included, but in its replay's link; a stranger who reads it
    there cannot open the game itself. Once the store may have let a game expire (``keep_days``
    after it finished), its row links to nothing, while the board keeps the row."""
    ids = [game_id for _, game_id in players.values() if game_id]

    def check_no_id_shown(*texts: str) -> None:
        for text in texts:
            shown = REPLAY_LINK.sub("", text)
            assert "game_id" not in text and not any(game_id in shown for game_id in ids)

    viewer = new_client(headers={"accept-language": "en"})
    daily = f"daily/{day.isoformat()}"
    page, found = await board_seen(viewer, game, daily)
    assert {r["nickname"] for r in found["rows"]} == set(players)
    assert page_links(page) == [] and {r["replay"] for r in found["rows"]} == {None}
    assert not any(game_id in page + json.dumps(found) for game_id in ids)

    clock.advance(timedelta(days=1).total_seconds())
    page, found = await board_seen(viewer, game, daily)
    links = {r["nickname"]: r["replay"] for r in found["rows"]}
    assert {name for name, link in links.items() if link} == {
        name for name, (_, game_id) in players.items() if game_id
    }
    assert page_links(page) == [links[r["nickname"]] for r in found["rows"] if links[r["nickname"]]]
    check_no_id_shown(page, json.dumps(found))
    for name, (browser, game_id) in players.items():
        own_page, own = await board_seen(browser, game, daily)
        assert own["mine"]["replay"] == links[name]
        check_no_id_shown(own_page, json.dumps(own))
        if game_id is None:
            continue
        assert f"/games/{game_id}/replay?share=" in links[name]
        stranger = new_client(headers={"accept-language": "en"})
        assert (await stranger.get(links[name])).status_code == 200
        assert (await stranger.get(f"/api/{game}/games/{game_id}")).status_code == 404

    # The code is an ordinary deal now: its own board never links to a replay.
    player = new_client(headers={"accept-language": "en"})
    if game == "heart-to-heart":
        state = (await player.post("/api/heart-to-heart/games", json={"deal": code})).json()
        await win_on_the_page(player, state["game_id"], code, clock, pace=1.0)
        section = "ranked"
    else:
        state, section = await play_hearts_first_hand(player, code), "apart"  # through the API
    page, found = await board_seen(player, game, f"deal/{code}", section)
    assert found["total"] == 1 and found["rows"][0]["replay"] is None
    assert page_links(page) == [] and state["game_id"] not in page + json.dumps(found)

    clock.advance(timedelta(days=keep_days - 2).total_seconds())
    page, found = await board_seen(viewer, game, daily)
    assert {r["nickname"]: r["replay"] for r in found["rows"]} == links
    clock.advance(timedelta(days=2).total_seconds())
    page, found = await board_seen(viewer, game, daily)
    assert {r["nickname"] for r in found["rows"]} == set(players)
    assert page_links(page) == [] and {r["replay"] for r in found["rows"]} == {None}


async def play_hearts_first_hand(client, code: str) -> dict:
    state = (await client.post("/api/hearts/games", json={"deal": code})).json()
    game = state["game_id"]
    state = (await client.post(f"/api/hearts/games/{game}/pass",
                               json={"cards": state["hand"][:3]})).json()
    while state["phase"] == "playing":
        state = (await client.post(f"/api/hearts/games/{game}/play",
                                   json={"card": state["legal"][0]})).json()
    return state


async def test_a_past_heart_to_heart_daily_links_to_its_replays(
    new_client, clock, secret, settings
):
    day = today(clock())
    code = daily_code(HEART_TO_HEART, day, secret)
    winner, quitter = new_client(), new_client()
    for browser, name in ((winner, "Lan"), (quitter, "Minh")):
        await browser.post("/results/nickname", data={
            "nickname": name, "game": "heart-to-heart", "day": day.isoformat()})
    won = (await start_daily(winner, "heart-to-heart"))["game_id"]
    await win_on_the_page(winner, won, code, clock, pace=1.0)
    given_up = (await start_daily(quitter, "heart-to-heart"))["game_id"]
    clock.advance(2)
    await page_tap(quitter, given_up, "stock")
    await quitter.post("/api/heart-to-heart/games", json={})  # the daily given up, unfinished
    await check_replay_links(
        new_client, clock, "heart-to-heart", day, {"Lan": (winner, won), "Minh": (quitter, None)},
        code, settings.game_ttl_days,
    )


async def test_a_daily_given_up_at_its_stalemate_links_to_its_replay(app, new_client, clock):
    """A stalemated game has nothing left to play, so its replay opens: given up for another
    game, its row keeps the game (one given up with moves left keeps none, above). Set up
    through the service, the stalemate of a known deal standing for the day's."""
    from app.web.heart_to_heart import service
    from tests.assists.test_where_lost import stalemated

    store, session_id, day = app.state.store, "stalemated-session", today(clock())
    game, moves, _ = stalemated(40)
    loaded = await service.replace_game(store, session_id, game.deal, {DAILY: day.isoformat()})
    for move in moves:
        clock.advance(1)
        await service.apply_action(
            store, session_id, loaded.stored.game_id, None, lambda heart, m=move: heart.play(m),
            service.screen_time(None, clock()),
        )
    await service.replace_game(store, session_id, "HH1-W-AAAAAAM")
    clock.advance(timedelta(days=1).total_seconds())
    (row,) = (await board(new_client(), "heart-to-heart", day))["rows"]
    assert row["cards_left"] > 0 and row["replay"] is not None
    assert f"/games/{loaded.stored.game_id}/replay" in row["replay"]
    assert (await new_client().get(row["replay"])).status_code == 200


async def test_a_past_hearts_daily_links_to_its_replays(new_client, clock, secret, settings):
    day = today(clock())
    played = {}
    for name in ("low", "high"):
        browser = new_client()
        await browser.post("/results/nickname", data={
            "nickname": name, "game": "hearts", "day": day.isoformat()})
        played[name] = browser, (await play_hearts_daily_on_the_page(browser, name))["game_id"]
    await check_replay_links(
        new_client, clock, "hearts", day, played, daily_code(HEARTS, day, secret),
        settings.game_ttl_days,
    )


async def test_a_shared_hearts_code_keeps_its_open_board_by_the_first_hand(client):
    code = "HT1-E-ABCDEFG"
    state = await play_hearts_first_hand(client, code)
    found = (await client.get(f"/api/hearts/deals/{code}/results?section=apart")).json()
    (row,) = found["rows"]
    assert found["open"] is True and row["apart"] == ["api"]
    assert row["points"] == state["hand_scores"][0][0]
    page = (await client.get(f"/hearts/deal/{code}/results?section=apart")).text
    assert "An open board" in page


async def test_a_nickname_with_html_is_shown_as_text(app, client):
    code = "HH1-W-AAAAAAM"
    await app.state.store.add_result(
        f"heart_to_heart:{code}", "someone", {"won": False, "cards_left": 3, "seconds": 5,
                                              "moves": 9, "apart": [], "finished_at": 0},
        None, section="ranked", order=1, group="", keep_days=30,
    )
    name = "<b>Bé</b>&x"
    answer = await client.post(
        "/results/nickname", data={"nickname": f"  {name} ", "game": "heart-to-heart", "code": code}
    )
    assert answer.status_code == 303
    assert answer.headers["location"] == f"/heart-to-heart/deal/{code}/results"
    page = (await client.get(answer.headers["location"])).text
    assert 'value="&lt;b&gt;Bé&lt;/b&gt;&amp;x"' in page and "<b>Bé</b>" not in page


@pytest.mark.parametrize("bad", ["", "   ", "x" * 21, "a\nb", "a\u202eb"])
async def test_a_bad_nickname_is_refused_and_changes_nothing(client, bad):
    form = {"game": "heart-to-heart", "code": "HH1-W-AAAAAAM"}
    await client.post("/results/nickname", data={**form, "nickname": "Lan"})
    answer = await client.post("/results/nickname", data={**form, "nickname": bad})
    assert answer.status_code == 400
    assert "nickname" in answer.text
    page = (await client.get("/heart-to-heart/deal/HH1-W-AAAAAAM/results")).text
    assert 'value="Lan"' in page


async def test_the_pages_speak_vietnamese(new_client, clock):
    client = new_client(headers={"accept-language": "vi"})
    day = today(clock()).isoformat()
    page = (await client.get(f"/hearts/daily/{day}/results")).text
    assert "Kết quả" in page and "điểm so sánh" in page
    home = (await client.get("/")).text
    assert "thế bài hôm nay" in home and "trận hôm nay" in home


async def test_bad_codes_are_refused_clearly(client):
    answer = await client.get("/api/hearts/deals/HH1-W-AAAAAAM/results")
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "invalid_deal"
    answer = await client.get("/api/heart-to-heart/deals/nonsense/results")
    assert answer.status_code == 422
    page = await client.get("/hearts/deal/HT1-Q-AAAAAAA/results")
    assert page.status_code == 400 and "cannot be used" in page.text


async def test_the_daily_endpoints_are_documented(client):
    document = (await client.get("/openapi.json")).json()
    paths = document["paths"]
    for game in SLUG.values():
        assert {"get", "post"} <= set(paths[f"/api/{game}/daily"])
        assert "get" in paths[f"/api/{game}/daily/{{day}}/results"]
        assert "get" in paths[f"/api/{game}/deals/{{code}}/results"]
    # Every kind of row carries its replay's link (null where the board shows none).
    schemas = document["components"]["schemas"]
    for row in ("HeartToHeartResultRow", "HeartsResultRow", "HeartsDailyRow"):
        replay = schemas[row]["properties"]["replay"]
        assert {"type": "null"} in replay["anyOf"] and "replay" in schemas[row]["required"]
        assert "share link" in replay["description"]


async def test_no_one_can_post_a_result(client, clock):
    day = today(clock()).isoformat()
    for url in ("/api/hearts/deals/HT1-N-AAAAAAA/results", "/hearts/deal/HT1-N-AAAAAAA/results",
                f"/api/hearts/daily/{day}/results"):
        answer = await client.post(url, json={"points": 0, "moon": True})
        assert answer.status_code == 405
    found = (await client.get("/api/hearts/deals/HT1-N-AAAAAAA/results")).json()
    assert found["total"] == 0


async def test_the_home_page_counts_down_to_utc_midnight(client, clock):
    clock.now = 1_800_000_000.0  # 2027-01-15 08:00:00 UTC
    home = (await client.get("/")).text
    assert 'data-countdown="57600"' in home and ">16:00:00</time>" in home
    assert "Next deals in" in home
    assert "/hearts/daily/2027-01-15/results" in home


@pytest.mark.parametrize(
    ("lang", "won", "lost"),
    [
        ("en", "won in 1:05, 1 move", "1 card left after 1:05, 1 move"),
        ("vi", "thắng sau 1:05, 1 nước đi", "còn 1 lá sau 1:05, 1 nước đi"),
    ],
)
def test_a_shared_result_says_one_move_and_one_card(lang, won, lost):
    """Counts are said with the language's plural forms ("1 move", never "1 moves")."""
    row = {"won": True, "seconds": 65, "moves": 1, "cards_left": 0}
    mine = Standing(1, True, None, row)
    assert share_text(HEART_TO_HEART, "T", mine, lang) == f"T ♥ {won}"
    mine = Standing(1, True, None, {**row, "won": False, "cards_left": 1})
    assert share_text(HEART_TO_HEART, "T", mine, lang) == f"T ♥ {lost}"
