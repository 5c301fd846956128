"""Watching a table on a phone (issue 33): the creator's lobby gives the watch link and the
delay; a phone at 360 × 640 opens the link and follows the match live, with no hand and no
form, opens the last trick, and the seated player sees one watcher; the watcher's page at
844 × 390 and 1280 × 800 too, in both languages, axe clean. And the last trick on a phone right
after an undo (solo)."""

from __future__ import annotations

import re

import pytest
from browser_kit import (
    assert_no_axe_violations,
    choose,
    open_table,
    press,
    press_and_wait,
    screenshot,
)
from playwright.sync_api import Page, expect

from app.web.i18n import translator

pytestmark = pytest.mark.browser

HAND = "#ht-hand button.card"
SIZES = [(360, 640), (844, 390), (1280, 800)]
LAST = {"en": "Last trick", "vi": "Nước vừa rồi"}
WATCHING = {"en": "you are watching", "vi": "bạn đang xem"}
LIVE = {"en": "Live", "vi": "Trực tiếp"}


def api_view(page: Page, table_id: str) -> dict:
    return page.request.get(f"/api/hearts/tables/{table_id}").json()


def play_until_a_trick_is_over(host: Page, table_id: str) -> dict:
    """The host plays (the bots answer) until the hand has a finished trick."""
    for _ in range(20):
        view = api_view(host, table_id)
        if view["tricks"]:
            return view
        if view["phase"] == "passing" and not view["pass_chosen"]:
            cards = host.locator(HAND)
            for n in range(3):
                cards.nth(n).click()
            press_and_wait(host, host.locator(".ht-pass-button"), "desktop")
            continue
        card = host.locator(f'{HAND}:not([aria-disabled="true"])').first
        expect(card).to_be_visible()
        press_and_wait(host, card, "desktop")
    raise AssertionError("no trick was finished")


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_a_phone_watches_a_live_table_and_opens_the_last_trick(new_page, axe, lang):
    host, watcher = new_page("desktop", lang), new_page("phone", lang)
    watcher.set_viewport_size({"width": 360, "height": 640})
    invite = open_table(host, "An")
    table_id = invite.rsplit("/", 1)[1]
    # The lobby gives the watch link beside the invite, and the delay as one more choice.
    watch_link = host.locator("#tb-watch-link").input_value()
    assert "/hearts/w/" in watch_link and table_id not in watch_link
    expect(host.locator('input[name="watch_delay"][value="none"]')).to_be_checked()
    expect(host.locator('.tb-segments input[name="watch_delay"] + span').first).to_have_text(
        LIVE[lang])
    assert_no_axe_violations(axe, host, f"the lobby with the watch link ({lang})")

    # Before the start, the watcher sees the seats and waits.
    watcher.goto(watch_link)
    expect(watcher.locator("#tb-room")).to_be_visible()
    expect(watcher.locator('[data-action="sit"]')).to_have_count(0)
    choose(host, "seconds", "none")
    host.locator('[data-action="start"]').click()
    expect(host.locator(HAND)).to_have_count(13)
    # The start reaches the watcher live: the table, no hand, no bar, no form to send.
    expect(watcher.locator("#ht-trick")).to_be_visible()
    expect(watcher.locator(".tb-watch .tb-note")).to_contain_text(
        re.compile(WATCHING[lang], re.I))
    expect(watcher.locator("#ht-hand")).to_have_count(0)
    # (Only the language and "open a new table", the watcher's own, post anywhere.)
    others = 'form[method=post]:not([action="/hearts/tables"]):not([action="/lang"])'
    assert watcher.locator(others).count() == 0
    assert table_id not in watcher.content()
    # The host sees one watcher: an eye and a number.
    expect(host.locator("#tb-watchers")).to_be_visible()
    expect(host.locator("#tb-watchers")).to_contain_text("1")

    view = play_until_a_trick_is_over(host, table_id)
    # The watcher's table catches up live, and the last trick opens with a tap.
    expect(watcher.locator("#ht-version")).to_have_value(str(view["version"]))
    button = watcher.get_by_role("button", name=LAST[lang])
    box = button.bounding_box()
    assert box and box["height"] >= 40 and box["y"] + box["height"] <= 640  # on the screen
    press(button, "phone")
    dialog = watcher.locator("#ht-last-dialog")
    expect(dialog).to_be_visible()
    last = {p["card"] for p in view["tricks"][-1]["cards"]}
    expect(dialog.locator("[data-card]")).to_have_count(4)
    shown = set(dialog.locator("[data-card]").evaluate_all("c => c.map(x => x.dataset.card)"))
    assert shown == last
    assert_no_axe_violations(axe, watcher, f"the watcher's last trick ({lang}, 360x640)")
    screenshot(watcher, f"tables/watch-last-trick-{lang}-360x640.png")
    dialog.get_by_role("button").last.click()
    expect(dialog).to_be_hidden()

    # The watcher asks about the table too: whose turn is a seat's by name.
    tr = translator(lang)
    watcher.get_by_role("banner").get_by_role("button", name=tr.gettext("Ask")).tap()
    questions = watcher.get_by_role("dialog", name=tr.gettext("Ask about the game"))
    expect(questions.locator("[data-ask]")).to_have_count(5)
    expect(questions.get_by_role("button", name=tr.gettext("My hand"))).to_have_count(0)
    assert_no_axe_violations(axe, watcher, f"the watcher's questions ({lang}, 360x640)")
    questions.get_by_role("button", name=tr.gettext("Whose turn, and the passing")).tap()
    expect(questions).to_be_hidden()
    turn = view["seats"][view["turn"]]["name"]
    expect(watcher.locator("#status")).to_contain_text(
        tr.gettext("%(seat)s to play.") % {"seat": turn})

    for width, height in SIZES:
        watcher.set_viewport_size({"width": width, "height": height})
        sideways = watcher.evaluate("() => document.documentElement.scrollWidth - innerWidth")
        assert sideways <= 0, f"the watcher's page is {sideways} px too wide at {width}x{height}"
        expect(button).to_be_visible()
        screenshot(watcher, f"tables/watch-{lang}-{width}x{height}.png")
    assert_no_axe_violations(axe, watcher, f"the watcher's table ({lang})")
    assert_no_axe_violations(axe, host, f"the host's table with a watcher ({lang})")
    # The eye and its number fit a phone's row with the invite and the reactions.
    host.set_viewport_size({"width": 360, "height": 640})
    expect(host.locator("#tb-watchers")).to_be_in_viewport()
    assert host.evaluate("() => document.documentElement.scrollWidth - innerWidth") <= 0
    screenshot(host, f"tables/watched-host-{lang}-360x640.png")


def test_the_last_trick_opens_on_a_phone_right_after_an_undo(new_page):
    page = new_page("phone", "en")
    page.set_viewport_size({"width": 360, "height": 640})
    page.goto("/hearts/deal/HT1-E-ABCDEFG")
    cards = page.locator(HAND)
    for n in range(3):
        press(cards.nth(n), "phone")
    press_and_wait(page, page.locator(".ht-pass-button"), "phone")
    game = page.locator(".ht[data-game]").get_attribute("data-game")
    for _ in range(3):
        card = page.locator(f'{HAND}:not([aria-disabled="true"])').first
        press(card, "phone")
        press_and_wait(page, card, "phone")
    press_and_wait(page, page.get_by_role("button", name="Undo"), "phone")
    state = page.request.get(f"/api/hearts/games/{game}").json()
    assert state["tricks"]
    last = page.locator("#ht-last")
    expect(last).to_be_enabled()
    box = last.bounding_box()
    assert box and box["height"] >= 40 and box["y"] + box["height"] <= 640  # a thumb reaches it
    press(last, "phone")
    dialog = page.locator("#ht-last-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("[data-card]")).to_have_count(4)
    shown = set(dialog.locator("[data-card]").evaluate_all("c => c.map(x => x.dataset.card)"))
    assert shown == {p["card"] for p in state["tricks"][-1]["cards"]}
    screenshot(page, "tables/solo-last-trick-after-undo-360x640.png")
