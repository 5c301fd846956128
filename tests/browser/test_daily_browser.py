"""The daily Heart to Heart: a phone wins it by the solver's line, shares the result, a second
browser opens the shared link and plays it, and both see both rows on the deal's results."""

from __future__ import annotations

import re
import time

import pytest
from browser_kit import press
from playwright.sync_api import Page, expect
from test_heart_to_heart_browser import ApiGame, skip_the_cascade, tap

from app.rules.heart_to_heart import new_game
from app.rules.heart_to_heart_solver import solve
from app.web.daily_codes import daily_code, today

pytestmark = pytest.mark.browser


# The taps of each win made on the page: the ones before go through the API, on the game the
# page opened (tests/browser/test_heart_to_heart_browser.py taps a whole line on the page).
LAST_TAPS = 5


def win(page: Page, device: str, deal: str) -> None:
    """Play the deal by the solver's line, its last taps on the page (the ones before through
    the API, on the page's game, then the page reloaded), then open its results from the
    dialog."""
    expect(page.locator('[data-info="deal"]')).to_have_text(deal)
    game = new_game(deal)
    line = solve(game.copy())
    api = ApiGame.on(page)
    for where in line[:-LAST_TAPS]:
        api.tap(game, where)
    page.reload()
    expect(page.locator('[data-info="deal"]')).to_have_text(deal)
    expect(page.locator('[data-info="moves"]')).to_have_text(str(game.moves))
    for where in line[-LAST_TAPS:]:
        tap(page, device, game, where)
    assert game.status == "won"
    skip_the_cascade(page)
    press(page.locator("dialog[open] a[data-results]"), device)
    expect(page).to_have_url(re.compile(rf"/heart-to-heart/deal/{deal}/results$"))


def test_daily_win_share_and_compare(new_page, base_url):
    phone = new_page("phone", "en")
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"])
    phone.goto("/")
    tile = phone.locator('[data-daily="heart_to_heart"]')
    expect(tile.locator("[data-played]")).to_have_attribute("data-played", "false")
    press(tile.get_by_role("link", name="Play"), "phone")
    expect(phone).to_have_url(re.compile(r"/heart-to-heart/daily$"))
    deal = daily_code("heart_to_heart", today(time.time()))
    win(phone, "phone", deal)

    mine = phone.locator("tr[data-mine]")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("Won")
    # A nickname is kept and shown as text.
    phone.get_by_label("Your nickname").fill("Phone <i>1</i>")
    press(phone.get_by_role("button", name="Save"), "phone")
    expect(mine.get_by_role("rowheader")).to_contain_text("Phone <i>1</i>")

    link = f"{base_url}/heart-to-heart/deal/{deal}"
    said = rf"^{re.escape(deal)} ♥ won in \d+:\d\d, \d+ moves"
    expect(phone.locator(".share-preview output")).to_have_text(re.compile(said + "$"))
    press(phone.get_by_role("link", name="Share result"), "phone")
    if phone.evaluate("() => 'share' in navigator"):
        pytest.fail("this Chromium has a share sheet: the clipboard path is what is checked")
    expect(phone.locator("#status")).to_have_text("Result copied")
    shared = phone.evaluate("() => navigator.clipboard.readText()")
    assert re.fullmatch(said + " " + re.escape(link), shared), shared

    # A friend opens the link from the shared text, plays the same deal and compares.
    friend = new_page("desktop", "en")
    friend.goto(shared.rsplit(" ", 1)[1])
    win(friend, "desktop", deal)
    rows = friend.locator("table:not([data-practice]) tbody tr")
    expect(rows).to_have_count(2)
    expect(friend.locator("tr[data-mine]")).to_have_count(1)
    expect(rows.filter(has_text="Phone <i>1</i>")).to_have_count(1)

    phone.reload()
    expect(phone.locator("table:not([data-practice]) tbody tr")).to_have_count(2)
    expect(phone.locator("tr[data-mine]")).to_contain_text("Phone <i>1</i>")
    phone.goto("/")
    expect(tile.locator("[data-played]")).to_have_attribute("data-played", "true")
