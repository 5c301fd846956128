"""Hints in the browser: Hint marks the cards to tap in the same task as its answer is swapped
in (a MutationObserver's first look already sees them), and following Heart to Heart's marks
wins the game; Hearts marks the three cards Hard would pass. A lost game shows where it was
lost, and goes back there."""

from __future__ import annotations

import re

import pytest
from assists.test_where_lost import played, stalemated
from browser_kit import (
    assert_fits_the_screen,
    assert_no_axe_violations,
    press,
    press_and_wait,
    screenshot,
)
from playwright.sync_api import Page, expect
from test_heart_to_heart_browser import ApiGame, assert_board, open_deal, short_won_line, tap
from test_hearts_browser import card, open_match

from app.bots.driver import play_bots
from app.rules.cards import card_text, cards_in
from app.rules.heart_to_heart import new_game, target_text
from app.rules.hearts import HUMAN, HeartsMatch
from app.web.heart_to_heart.assists import hint_of
from app.web.hearts.assists import hint_cards

pytestmark = pytest.mark.browser

# Records, at the first look after the marks piece arrives, which elements carry data-hint.
WATCH_JS = """(id) => {
  window.__marksSeen = null;
  new MutationObserver((records, observer) => {
    if (!records.some((r) => [...r.addedNodes].some((n) => n.id === id))) return;
    window.__marksSeen = [...document.querySelectorAll("[data-hint]")].map(
      (el) => el.dataset.pos ? `heart:${el.dataset.pos}` : el.dataset.pile || el.dataset.card);
    observer.disconnect();
  }).observe(document.body, { childList: true, subtree: true });
}"""


def marks_at_swap(page: Page, device: str, marks_id: str) -> list[str]:
    page.evaluate(WATCH_JS, marks_id)
    press_and_wait(page, page.locator('button[data-action="hint"]'), device)
    page.wait_for_function("() => window.__marksSeen !== null")
    return page.evaluate("window.__marksSeen")


# The line split in two, every hint of it followed on the page once: the phone follows the
# hints from the deal to half way; the desktop, its first half of the moves made through the
# API, follows them from half way to the win.
@pytest.mark.parametrize(("device", "lang"), [("phone", "vi"), ("desktop", "en")])
def test_following_heart_to_heart_hints_wins(new_page, device, lang):
    deal, line = short_won_line()
    page = new_page(device, lang)
    game = new_game(deal)
    half = len(line) // 2
    if device == "phone":
        open_deal(page, deal)
    else:
        api = ApiGame.new(page, deal)
        while game.moves < half:
            for where in hint_of(game).targets:
                api.tap(game, where)
        page.goto("/heart-to-heart")
    assert_fits_the_screen(page)
    while not game.is_won and (device == "desktop" or game.moves < half):
        expected = [target_text(t) for t in hint_of(game).targets]
        assert sorted(marks_at_swap(page, device, "h2h-hint")) == sorted(expected)
        for where in hint_of(game).targets:
            tap(page, device, game, where)
    if device == "desktop":
        assert game.is_won
        expect(page.locator("dialog[open]").get_by_role("heading")).to_be_visible()
    else:
        # Half way by the hints, the page shows the board the engine has.
        assert game.moves >= half and game.status == "playing"
        assert_board(page, game, lang, "the board half way by the hints")


@pytest.mark.parametrize(("device", "lang"), [("phone", "en"), ("desktop", "vi")])
def test_hearts_hint_marks_the_cards_hard_would_pass(new_page, device, lang):
    deal = "HT1-N-AAAAAHB"
    page = new_page(device, lang)
    open_match(page, deal)
    assert_fits_the_screen(page)
    match = HeartsMatch.new(deal)
    play_bots(match)
    expected = [card_text(c) for c in cards_in(hint_cards(match.view(HUMAN)))]
    assert sorted(marks_at_swap(page, device, "ht-hint-marks")) == sorted(expected)
    # Pressing a marked card lifts it for the pass and takes its mark away.
    press(card(page, expected[0]), device)
    expect(card(page, expected[0])).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#ht-hand [data-hint]")).to_have_count(2)


LOST_TEXT = {
    "show": {"en": "Show where it was lost", "vi": "Xem ván thua từ nước nào"},
    "back": {"en": "Go back there", "vi": "Quay lại chỗ đó"},
}


@pytest.mark.parametrize(("device", "lang"), [("phone", "en"), ("phone", "vi")])
def test_a_lost_game_shows_where_it_was_lost_and_goes_back(new_page, axe, device, lang):
    game, moves, lost_at = stalemated(40)
    page = new_page(device, lang)
    # Most of the game through the API, in this browser's session; its last move on the page.
    state = page.request.post("/api/heart-to-heart/games", data={"deal": game.deal}).json()
    for move in moves[:-1]:
        for where in move.taps:
            page.request.post(
                f"/api/heart-to-heart/games/{state['game_id']}/tap",
                data={"target": target_text(where)},
            )
    page.goto("/heart-to-heart")
    board = played(game.deal, moves[:-1])
    for where in moves[-1].taps:
        tap(page, device, board, where)
    assert board.status == "stalemate"
    dialog = page.locator("dialog[open]")
    screenshot(page, f"where-lost-dialog-{device}-{lang}.png")
    press(dialog.get_by_role("link", name=LOST_TEXT["show"][lang]), device)

    expect(page).to_have_url(re.compile(rf"/games/{state['game_id']}/lost$"))
    marked = [f"p{t}" if isinstance(t, int) else "h2h-waste" for t in moves[lost_at].taps]
    expect(page.locator("[data-hint]")).to_have_count(len(marked))
    for element_id in marked:
        expect(page.locator(f"#{element_id}")).to_have_attribute("data-hint", "true")
    expect(page.locator('[data-info="moves"]')).to_have_text(str(lost_at))
    assert_no_axe_violations(axe, page, f"where it was lost ({lang})")
    screenshot(page, f"where-lost-{device}-{lang}.png")
    # A narrow phone and a phone on its side: nothing wider than the screen.
    for width, height in ((360, 740), (740, 360)):
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(page, f"where-lost-{width}x{height}-{lang}.png")
    page.set_viewport_size({"width": 390, "height": 844})

    press(page.get_by_role("button", name=LOST_TEXT["back"][lang]), device)
    expect(page).to_have_url(re.compile(r"/heart-to-heart$"))
    expect(page.locator("dialog[open]")).to_have_count(0)
    expect(page.locator('[data-info="moves"]')).to_have_text(str(lost_at))
    back = played(game.deal, moves[:lost_at])
    for pos in range(25):
        expect(page.locator(f"#p{pos}")).to_have_class(
            "gap" if back.removed_mask >> pos & 1 else re.compile(r"\bcard\b")
        )
    assert_fits_the_screen(page)
    screenshot(page, f"where-lost-back-{device}-{lang}.png")
