"""House rules in Chromium: the rules on the table (the full set on tap), and the question to
a player who shot the moon under the shooter's choice, answered by a tap."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from browser_kit import assert_fits_the_screen, press, screenshot
from conftest import SECRET_KEY
from playwright.sync_api import expect

from app.rules.hearts_rules import HeartsRules
from app.store import open_store
from app.web.session import SessionMiddleware
from tests.rules.test_hearts_house_rules import moon_position

pytestmark = pytest.mark.browser

TEXT = {
    "subtract": {"en": "26 off my total", "vi": "Trừ 26 điểm của tôi"},
    "moon": {"en": "You shot the moon!", "vi": "Bạn đã bắn trăng!"},
    "rules": {"en": "Rules: J♦: −10 points · Moon: the shooter's choice",
              "vi": "Luật chơi: J rô (J♦): −10 điểm · Bắn trăng: người bắn trăng chọn"},
}


def store_moon_match(page, store_url: str) -> None:
    """The browser's current match: its last trick played, the player shot the moon."""
    cookie = next(c for c in page.context.cookies() if "session" in c["name"])
    session_id = SessionMiddleware(None, SECRET_KEY, False).session_from(cookie["value"])
    match = moon_position(HeartsRules(moon="shooters_choice", jack_of_diamonds=-10))
    match.play(0)
    store = open_store(store_url, 30)
    # Playwright's own event loop runs in this thread: the store's call runs in another.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, store.create(session_id, "hearts", match.to_json())).result()


@pytest.mark.parametrize("lang", ["en", "vi"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_shooter_chooses_what_the_moon_does(new_page, store_url, device, lang):
    page = new_page(device, lang)
    page.goto("/")
    store_moon_match(page, store_url)
    page.goto("/hearts")
    dialog = page.locator("#ht-end-dialog")
    expect(dialog).to_contain_text(TEXT["moon"][lang])
    summary = page.locator(".ht-rules summary")
    expect(summary).to_have_text(TEXT["rules"][lang])
    assert_fits_the_screen(page)
    screenshot(page, f"hearts-moon-question-{device}-{lang}.png")
    press(dialog.get_by_role("button", name=TEXT["subtract"][lang]), device)
    expect(dialog).to_have_attribute("data-end", "hand_over-2")
    expect(page.locator("#ht-tot-0")).to_have_text("-26")
    expect(dialog.locator("tbody td").first).to_contain_text("-36")


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_full_rule_set_opens_on_tap(new_page, lang):
    page = new_page("phone", lang)
    page.goto("/hearts/deal/HT1-E-AAAAAAB-JB")
    page.goto("/hearts")
    rules = page.locator(".ht-rules")
    expect(rules.locator("li").first).to_be_hidden()
    press(rules.locator("summary"), "phone")
    expect(rules.locator("li")).to_have_count(9)
    assert_fits_the_screen(page)
    screenshot(page, f"hearts-rules-open-phone-{lang}.png")
