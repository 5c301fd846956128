"""Daily deals and results per deal, through the app on a real SQLite store (tests/conftest.py)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from app.rules.heart_to_heart import new_game
from app.rules.heart_to_heart_solver import solve
from app.web.daily import share_text
from app.web.daily_codes import HEART_TO_HEART, daily_code, daily_date, today


async def daily_of(client, game: str) -> dict:
    answer = await client.get(f"/api/{game}/daily")
    assert answer.status_code == 200
    return answer.json()


async def start(client, game: str, deal: str) -> dict:
    answer = await client.post(f"/api/{game}/games", json={"deal": deal})
    assert answer.status_code == 201, answer.text
    return answer.json()


async def win_heart_to_heart(client, deal: str, clock) -> dict:
    """Play ``deal`` to a win by the solver's line, a second per tap."""
    state = await start(client, "heart-to-heart", deal)
    for target in solve(new_game(deal)):
        clock.advance(1)
        where = target if isinstance(target, str) else f"heart:{target}"
        answer = await client.post(
            f"/api/heart-to-heart/games/{state['game_id']}/tap", json={"target": where}
        )
        state = answer.json()
    assert state["status"] == "won"
    return state


async def play_first_hand(client, state: dict) -> dict:
    """Pass the first three cards, then play the first legal card until the hand is over."""
    game = state["game_id"]
    if state["phase"] == "passing":
        body = {"cards": state["hand"][:3]}
        state = (await client.post(f"/api/hearts/games/{game}/pass", json=body)).json()
    while state["phase"] == "playing":
        body = {"card": state["legal"][0]}
        state = (await client.post(f"/api/hearts/games/{game}/play", json=body)).json()
    return state


async def results(client, game: str, code: str) -> list[dict]:
    answer = await client.get(f"/api/{game}/deals/{code}/results")
    assert answer.status_code == 200, answer.text
    assert answer.json()["code"] == code
    return answer.json()["rows"]


async def test_two_sessions_get_the_same_daily_codes(new_client, clock):
    one, two = new_client(), new_client()
    for game, pattern in (("heart-to-heart", r"HH1-W-[A-Z]{7}"), ("hearts", r"HT1-N-[A-Z]{7}")):
        first, second = await daily_of(one, game), await daily_of(two, game)
        assert first == second
        assert re.fullmatch(pattern, first["code"])
        assert first["date"] == today(clock()).isoformat()
    # The page opens it as the current game, and stays its address.
    answer = await one.get("/heart-to-heart/daily")
    assert answer.status_code == 200
    code = (await daily_of(one, "heart-to-heart"))["code"]
    assert f'data-info="deal">{code}<' in answer.text
    assert f'data-info="deal">{code}<' in (await one.get("/heart-to-heart")).text


async def test_the_daily_changes_at_utc_midnight(client, clock):
    before = await daily_of(client, "heart-to-heart")
    clock.advance(24 * 3600)
    after = await daily_of(client, "heart-to-heart")
    assert after["code"] != before["code"]
    assert after["date"] != before["date"]


def test_a_daily_code_is_known_as_one_for_ninety_days():
    now = 1_800_000_000.0
    day = today(now)
    code = daily_code("hearts", day)
    assert daily_date("hearts", code, now) == day
    assert daily_date("hearts", code, now + 89 * 86_400) == day
    assert daily_date("hearts", code, now + 92 * 86_400) is None
    assert daily_date("heart_to_heart", code, now) is None
    assert daily_code("hearts", day + timedelta(days=1)) != code
    # A daily Heart to Heart deal is a winnable one.
    assert new_game(daily_code("heart_to_heart", day)).status == "playing"
    assert solve(new_game(daily_code("heart_to_heart", day))) is not None


async def test_same_choices_on_the_same_code_give_the_same_bot_plays(new_client):
    code = "HT1-N-QWERTYU"
    ends = []
    for client in (new_client(), new_client()):
        ends.append(await play_first_hand(client, await start(client, "hearts", code)))
    assert ends[0]["tricks"] == ends[1]["tricks"]
    assert ends[0]["hand_scores"] == ends[1]["hand_scores"]
    # Other choices lead elsewhere: the bots answer the player, not a script.
    other = new_client()
    state = await start(other, "hearts", code)
    state = (
        await other.post(
            f"/api/hearts/games/{state['game_id']}/pass", json={"cards": state["hand"][-3:]}
        )
    ).json()
    assert (await play_first_hand(other, state))["tricks"] != ends[0]["tricks"]


async def test_a_won_game_appears_once_with_its_figures_and_a_replay_is_practice(
    new_client, clock
):
    one, two = new_client(), new_client()
    code = (await daily_of(one, "heart-to-heart"))["code"]
    won = await win_heart_to_heart(one, code, clock)
    rows = await results(one, "heart-to-heart", code)
    assert len(rows) == 1
    row = rows[0]
    assert row["rank"] == 1 and row["mine"] and row["won"] and row["cards_left"] == 0
    assert row["moves"] == won["moves"] and row["seconds"] == won["elapsed_seconds"]
    assert row["assisted"] is False
    # The other browser sees the row, not as its own.
    assert [r["mine"] for r in await results(two, "heart-to-heart", code)] == [False]
    # Played again: practice, ranked nowhere; the first game still counts.
    await win_heart_to_heart(one, code, clock)
    rows = await results(one, "heart-to-heart", code)
    assert [(r["rank"], r["mine"]) for r in rows] == [(1, True), (None, True)]
    # The home page says the daily is played in this browser only.
    assert 'data-daily="heart_to_heart"' in (home := (await one.get("/")).text)
    assert re.search(r'data-daily="heart_to_heart">.*?data-played="true"', home, re.S)
    assert re.search(r'data-daily="heart_to_heart">.*?data-played="false"',
                     (await two.get("/")).text, re.S)


async def test_an_unfinished_game_is_not_on_the_board_until_given_up(client, clock):
    code = "HH1-N-AAAAAAM"
    state = await start(client, "heart-to-heart", code)
    line = solve(new_game("HH1-W-AAAAAAM"))  # any taps will do: a few moves
    for _ in range(3):
        clock.advance(2)
        state = (
            await client.post(
                f"/api/heart-to-heart/games/{state['game_id']}/tap", json={"target": "stock"}
            )
        ).json()
    assert line and state["moves"] == 3
    assert await results(client, "heart-to-heart", code) == []
    # A new game over it gives it up: it counts with the cards it left.
    await start(client, "heart-to-heart", "HH1-N-AAAAAAB")
    rows = await results(client, "heart-to-heart", code)
    assert len(rows) == 1 and not rows[0]["won"] and rows[0]["cards_left"] == 25
    assert rows[0]["moves"] == 3


async def test_an_undo_marks_the_result_as_assisted(client, clock):
    code = "HH1-W-AAAAAAM"
    state = await start(client, "heart-to-heart", code)
    game = state["game_id"]
    await client.post(f"/api/heart-to-heart/games/{game}/tap", json={"target": "stock"})
    await client.post(f"/api/heart-to-heart/games/{game}/undo", json={})
    for target in solve(new_game(code)):
        where = target if isinstance(target, str) else f"heart:{target}"
        await client.post(f"/api/heart-to-heart/games/{game}/tap", json={"target": where})
    (row,) = await results(client, "heart-to-heart", code)
    assert row["won"] and row["assisted"] is True
    page = await client.get(f"/heart-to-heart/deal/{code}/results")
    assert "Hints or undo" in page.text and "<td>Yes</td>" in page.text


async def test_the_hearts_daily_is_one_hand_and_its_points_are_the_result(new_client):
    client = new_client(headers={"accept-language": "en"})
    code = (await daily_of(client, "hearts"))["code"]
    page = await client.get("/hearts/daily")
    assert page.status_code == 200
    game_id = re.search(r'data-game="([^"]+)"', page.text).group(1)
    state = (await client.get(f"/api/hearts/games/{game_id}")).json()
    assert state["deal"] == code and state["pass_direction"] == "left"
    end = await play_first_hand(client, state)
    assert end["phase"] == "match_over" and end["hand_number"] == 1
    (row,) = await results(client, "hearts", code)
    assert row["points"] == end["hand_scores"][0][0]
    assert row["moon"] == (end["moon"] == 0)
    assert (await client.post(f"/api/hearts/games/{game_id}/next-hand", json={})).status_code == 409
    # The end dialog links to the results.
    assert f"/hearts/deal/{code}/results" in (await client.get("/hearts")).text


async def test_a_full_match_counts_its_first_hand_only(client):
    code = "HT1-E-ABCDEFG"
    state = await play_first_hand(client, await start(client, "hearts", code))
    assert state["phase"] == "hand_over"
    (row,) = await results(client, "hearts", code)
    assert row["points"] == state["hand_scores"][0][0]
    state = (
        await client.post(f"/api/hearts/games/{state['game_id']}/next-hand", json={})
    ).json()
    await play_first_hand(client, state)
    assert len(await results(client, "hearts", code)) == 1


async def test_a_nickname_with_html_is_shown_as_text(client, clock):
    code = "HH1-W-AAAAAAM"
    await win_heart_to_heart(client, code, clock)
    name = "<b>Bé</b>&x"
    answer = await client.post(
        "/results/nickname", data={"nickname": f"  {name} ", "game": "heart-to-heart", "code": code}
    )
    assert answer.status_code == 303
    assert answer.headers["location"] == f"/heart-to-heart/deal/{code}/results"
    page = (await client.get(answer.headers["location"])).text
    assert "&lt;b&gt;Bé&lt;/b&gt;&amp;x" in page and "<b>Bé</b>" not in page
    (row,) = await results(client, "heart-to-heart", code)
    assert row["nickname"] == name


@pytest.mark.parametrize("bad", ["", "   ", "x" * 21, "a\nb", "a\u202eb"])
async def test_a_bad_nickname_is_refused_and_changes_nothing(client, clock, bad):
    code = "HH1-W-AAAAAAM"
    await win_heart_to_heart(client, code, clock)
    form = {"game": "heart-to-heart", "code": code}
    await client.post("/results/nickname", data={**form, "nickname": "Lan"})
    answer = await client.post("/results/nickname", data={**form, "nickname": bad})
    assert answer.status_code == 400
    assert "nickname" in answer.text
    (row,) = await results(client, "heart-to-heart", code)
    assert row["nickname"] == "Lan"
    page = (await client.get(f"/heart-to-heart/deal/{code}/results")).text
    assert 'value="Lan"' in page


async def test_the_pages_speak_vietnamese(new_client, clock):
    client = new_client(headers={"accept-language": "vi"})
    code = "HH1-W-AAAAAAM"
    await win_heart_to_heart(client, code, clock)
    page = (await client.get(f"/heart-to-heart/deal/{code}/results")).text
    assert "Kết quả" in page and "Chia sẻ kết quả" in page and "thắng sau" in page
    home = (await client.get("/")).text
    assert "thế bài hôm nay" in home and "trận hôm nay" in home


async def test_bad_codes_are_refused_clearly(client):
    answer = await client.get("/api/hearts/deals/HH1-W-AAAAAAM/results")
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "invalid_deal"
    answer = await client.get("/api/heart-to-heart/deals/nonsense/results")
    assert answer.status_code == 422
    page = await client.get("/hearts/deal/HT1-Q-AAAAAAA/results")
    assert page.status_code == 400 and "cannot be used" in page.text


async def test_the_results_endpoints_are_documented(client):
    paths = (await client.get("/openapi.json")).json()["paths"]
    for path in (
        "/api/heart-to-heart/daily",
        "/api/hearts/daily",
        "/api/heart-to-heart/deals/{code}/results",
        "/api/hearts/deals/{code}/results",
    ):
        assert "get" in paths[path]


async def test_a_hearts_undo_marks_the_first_hand_as_assisted(client):
    state = await start(client, "hearts", "HT1-N-ABCDEFG")
    game = state["game_id"]
    body = {"cards": state["hand"][:3]}
    state = (await client.post(f"/api/hearts/games/{game}/pass", json=body)).json()
    assert state["turn"] == 0  # the bots played up to the player's turn
    await client.post(f"/api/hearts/games/{game}/play", json={"card": state["legal"][0]})
    state = (await client.post(f"/api/hearts/games/{game}/undo", json={})).json()
    assert state["undo_available"] is False
    await play_first_hand(client, state)
    (row,) = await results(client, "hearts", "HT1-N-ABCDEFG")
    assert row["assisted"] is True


async def test_no_one_can_post_a_result(client):
    for url in ("/api/hearts/deals/HT1-N-AAAAAAA/results", "/hearts/deal/HT1-N-AAAAAAA/results"):
        answer = await client.post(url, json={"points": 0, "moon": True})
        assert answer.status_code == 405
    assert await results(client, "hearts", "HT1-N-AAAAAAA") == []


async def test_the_home_page_counts_down_to_utc_midnight(client, clock):
    clock.now = 1_800_000_000.0  # 2027-01-15 08:00:00 UTC
    home = (await client.get("/")).text
    assert 'data-countdown="57600"' in home and ">16:00:00</time>" in home
    assert "Next deals in" in home


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
    assert share_text(HEART_TO_HEART, "HH1-W-AAAAAAB", row, lang) == f"HH1-W-AAAAAAB ♥ {won}"
    row = {**row, "won": False, "cards_left": 1}
    assert share_text(HEART_TO_HEART, "HH1-W-AAAAAAB", row, lang) == f"HH1-W-AAAAAAB ♥ {lost}"
