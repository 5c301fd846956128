"""The daily Heart to Heart on a phone: started from the home page without its code ever shown,
won, its result on the day's board (ranked apart: most of its taps went through the API), a
nickname and the shared text; and the boards of both dailies, today's and yesterday's (whose
rows link to their replays), fit 360×640, 390×844, 844×390 and 1280×800 in both languages,
axe clean, and a phone follows a row's replay link (issue 27 item 5, issue 29)."""

from __future__ import annotations

import asyncio
import re
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from browser_kit import assert_no_axe_violations, press, screenshot
from playwright.sync_api import Page, expect
from test_heart_to_heart_browser import ApiGame, skip_the_cascade, tap

from app.rules.heart_to_heart import new_game
from app.rules.heart_to_heart_solver import solve
from app.rules.hearts import HeartsMatch
from app.store import open_store
from app.web.daily_codes import HEARTS_DAILY_HANDS, daily_code, today
from app.web.hearts.service import state_of
from app.web.results import DAILY, heart_to_heart_result, hearts_daily_result, record
from app.web.session import SessionMiddleware
from tests.replays.test_replays import played_out_by_bots

pytestmark = pytest.mark.browser

SECRET = "browser-test-secret-key-long-enough-for-the-check"  # tests/browser/conftest.py
# The taps of the win made on the page: the ones before go through the API.
LAST_TAPS = 5
SIZES = [(360, 640), (390, 844), (844, 390), (1280, 800)]
NICKNAMES = {"en": "Maximilian Worthing", "vi": "Nguyễn Thị Minh Khai"}  # long ones


def test_the_daily_is_won_without_its_code_and_shared(new_page, base_url):
    phone = new_page("phone", "en")
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"])
    phone.goto("/")
    tile = phone.locator('[data-daily="heart_to_heart"]')
    expect(tile.locator("[data-played]")).to_have_attribute("data-played", "false")
    press(tile.get_by_role("link", name="Play"), "phone")
    expect(phone).to_have_url(re.compile(r"/heart-to-heart/daily$"))
    press(phone.get_by_role("button", name="Play"), "phone")
    expect(phone.locator('[data-info="deal"]')).to_have_text("Daily deal")
    day = today(time.time())
    deal = daily_code("heart_to_heart", day, SECRET)
    assert deal not in phone.content()

    game = new_game(deal)
    line = solve(game.copy())
    api = ApiGame.on(phone)
    for where in line[:-LAST_TAPS]:
        api.tap(game, where)
    phone.reload()
    expect(phone.locator('[data-info="moves"]')).to_have_text(str(game.moves))
    for where in line[-LAST_TAPS:]:
        tap(phone, "phone", game, where)
    assert game.status == "won"
    skip_the_cascade(phone)
    press(phone.locator("dialog[open] a[data-results]"), "phone")
    board = f"/heart-to-heart/daily/{day.isoformat()}/results"
    expect(phone).to_have_url(re.compile(rf"{re.escape(board)}$"))
    assert deal not in phone.content()

    # Played through the API: ranked apart, and this browser's row says so.
    mine = phone.locator("tr[data-mine]")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("Won")
    expect(mine).to_contain_text("API")
    phone.get_by_label("Your nickname").fill("Phone <i>1</i>")
    press(phone.get_by_role("button", name="Save"), "phone")
    expect(mine.get_by_role("rowheader")).to_contain_text("Phone <i>1</i>")

    said = rf"^Daily deal of {day.isoformat()} ♥ won in \d+:\d\d, \d+ moves"
    expect(phone.locator(".share-preview output")).to_have_text(re.compile(said + "$"))
    press(phone.get_by_role("link", name="Share result"), "phone")
    expect(phone.locator("#status")).to_have_text("Result copied")
    shared = phone.evaluate("() => navigator.clipboard.readText()")
    assert re.fullmatch(said + " " + re.escape(base_url + board), shared), shared

    phone.goto("/")
    expect(tile.locator("[data-played]")).to_have_attribute("data-played", "true")


def give_up_a_daily(page: Page, game: str, lang: str) -> None:
    """A browser starts a daily through the API, plays a little and starts another game: its
    result is on the day's board, ranked apart (the API)."""
    page.goto("/")
    for nickname_game in ("heart-to-heart", "hearts"):
        page.request.post("/results/nickname", form={
            "nickname": NICKNAMES[lang], "game": nickname_game,
            "day": today(time.time()).isoformat()})
    state = page.request.post(f"/api/{game}/daily").json()
    if game == "heart-to-heart":
        page.request.post(f"/api/heart-to-heart/games/{state['game_id']}/tap",
                          data={"target": "stock"})
    else:
        page.request.post(f"/api/hearts/games/{state['game_id']}/pass",
                          data={"cards": state["hand"][:3]})
    assert page.request.post(f"/api/{game}/games", data={}).status == 201


def play_yesterdays_dailies(page: Page, store_url: str) -> None:
    """This browser's results of yesterday's dailies, recorded as the services do when a game
    ends (the server's clock is today's): a Heart to Heart win and a whole Hearts daily, each
    stored with its game, so that yesterday's boards link to their replays."""
    cookie = next(c for c in page.context.cookies() if "session" in c["name"])
    session_id = SessionMiddleware(None, SECRET, False).session_from(cookie["value"])
    day = today(time.time()) - timedelta(days=1)
    marks = {DAILY: day.isoformat()}
    heart = new_game(daily_code("heart_to_heart", day, SECRET))
    for target in solve(heart.copy()):
        heart.tap(target)
    match = played_out_by_bots(
        HeartsMatch.new(daily_code("hearts", day, SECRET), last_hand=HEARTS_DAILY_HANDS)
    )
    store = open_store(store_url, 30)

    async def keep() -> None:
        for kind, state, result, deal in (
            ("heart_to_heart", heart.to_json() | marks, heart_to_heart_result(heart), heart.deal),
            ("hearts", state_of(match, True, marks=marks), hearts_daily_result(match), match.deal),
        ):
            stored = await store.create(session_id, kind, state)
            await record(store, session_id, kind, deal, stored.state, result, time.time(),
                         game_id=stored.game_id)

    # Playwright's own event loop runs in this thread: the store's calls run in another.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, keep()).result()


def fits_the_width(page: Page) -> None:
    """Nothing scrolls sideways, and no cell of a board or the heading is cut at its right."""
    overflow = page.evaluate(
        """() => {
          const width = document.documentElement.clientWidth;
          const cut = [...document.querySelectorAll('h1, .results-table th, .results-table td')]
            .filter((cell) => cell.getBoundingClientRect().right > width + 0.5
                              || cell.scrollWidth > cell.clientWidth + 1)
            .map((cell) => cell.textContent.trim());
          return {page: document.documentElement.scrollWidth - width, cut};
        }"""
    )
    assert overflow["page"] <= 0 and not overflow["cut"], overflow


REPLAY = {"en": "Replay", "vi": "Phát lại"}


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_boards_fit_every_screen(new_page, axe, store_url, lang):
    for game in ("heart-to-heart", "hearts"):
        give_up_a_daily(new_page("desktop", lang), game, lang)
    page = new_page("phone", lang)
    give_up_a_daily(page, "hearts", lang)
    play_yesterdays_dailies(page, store_url)
    day = today(time.time())
    yesterday = (day - timedelta(days=1)).isoformat()
    for game in ("heart-to-heart", "hearts"):
        for shown, section in [(day.isoformat(), "apart"), (day.isoformat(), "ranked"),
                               (yesterday, "apart"), (yesterday, "ranked")]:
            page.goto(f"/{game}/daily/{shown}/results?section={section}")
            if section == "apart":  # every game of this test was played through the API
                expect(page.locator(".results-table").first).to_be_visible()
            if shown == yesterday:  # this browser's row, with the link to its replay
                expect(page.locator("tr[data-mine] a.replay")).to_have_count(1)
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                fits_the_width(page)
                if shown == yesterday:  # looked at, not copied to the README's pictures
                    screenshot(page, f"daily/past-{game}-{section}-{lang}-{width}x{height}.png")
                elif section == "apart":
                    screenshot(page, f"board-{game}-{lang}-{width}x{height}.png")
            page.set_viewport_size({"width": 390, "height": 844})
            assert_no_axe_violations(axe, page, f"{game} board ({shown}, {section}, {lang})")
    # On the narrowest phone, the row's link opens the replay of the game it names.
    page.set_viewport_size({"width": 360, "height": 640})
    page.goto(f"/heart-to-heart/daily/{yesterday}/results")
    press(page.locator("tr[data-mine]").get_by_role("link", name=REPLAY[lang]), "phone")
    expect(page).to_have_url(re.compile(r"/heart-to-heart/games/[^/?]+/replay\?share=[\w-]+$"))
    expect(page.locator("[data-deal]")).to_have_text(
        daily_code("heart_to_heart", day - timedelta(days=1), SECRET))
    page.goto(f"/hearts/daily/{day}/results?section=apart")
    page.locator(".board-note summary").click()
    assert_no_axe_violations(axe, page, f"the board's notes ({lang})")
    page.goto("/hearts/daily")
    fits_the_width(page)
    assert_no_axe_violations(axe, page, f"the daily's start ({lang})")


def test_a_past_dailys_long_code_fits_the_phones_info_bar(new_page):
    """Once its day is over the daily's long code opens as an ordinary deal: in the bar above
    the heart it is cut short (the link it copies is whole), and time, score and moves keep
    their room side by side."""
    code = daily_code("heart_to_heart", today(time.time()), SECRET)
    page = new_page("phone", "vi")
    page.set_viewport_size({"width": 360, "height": 640})
    page.goto(f"/heart-to-heart/deal/{code}")
    expect(page.locator('[data-info="deal"]')).to_have_text(code)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    squeezed = page.evaluate(
        """() => [...document.querySelectorAll('.info .stat:not(.deal)')]
              .filter((stat) => stat.scrollWidth > stat.clientWidth + 1
                                || stat.getBoundingClientRect().width < 40)
              .map((stat) => stat.textContent.trim())"""
    )
    assert not squeezed
    deal = page.locator("a.deal").bounding_box()
    assert deal["x"] + deal["width"] <= 360
    assert page.locator("a.deal").get_attribute("href").endswith(code)
    screenshot(page, "daily-long-code-360x640-vi.png")
