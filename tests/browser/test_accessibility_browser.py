"""axe-core (the copy inside axe-playwright-python) finds no violation on any page, on the
phone and the desktop, in both languages, nor in the dialogs not opened by the game tests
(those check theirs: no more moves, won, hand over, the shared-deal question)."""

from __future__ import annotations

import pytest
from browser_kit import assert_no_axe_violations, htmx_done, press, press_and_wait, wait_htmx
from hearts_mirror import Mirror, pass_choice
from playwright.sync_api import Page, expect

from app.bots.driver import play_bots

pytestmark = pytest.mark.browser

PAGES = (
    "/",
    "/heart-to-heart",
    "/heart-to-heart/rules",
    "/heart-to-heart/examples",
    "/hearts",
    "/hearts/rules",
)
ALL = [("phone", "vi"), ("phone", "en"), ("desktop", "vi"), ("desktop", "en")]


@pytest.mark.parametrize(("device", "lang"), ALL)
def test_every_page_has_no_violations(new_page, axe, device, lang):
    page = new_page(device, lang)
    for path in PAGES:
        page.goto(path)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        assert_no_axe_violations(axe, page, f"{path} ({lang}, {device})")
    # The Heart to Heart menus open, and the examples page part way through its line.
    page.goto("/heart-to-heart")
    for menu in page.locator("details.menu summary").all():
        press(menu, device)
    assert_no_axe_violations(axe, page, f"Heart to Heart menus ({lang}, {device})")
    page.goto("/heart-to-heart/examples?step=9")
    assert_no_axe_violations(axe, page, f"examples, step 9 ({lang}, {device})")
    # A bad deal code: a page that says what is wrong.
    for path in ("/heart-to-heart/deal/HH1-X-AAAAAAA", "/hearts/deal/not-a-code"):
        answer = page.goto(path)
        assert answer.status in (400, 404)
        expect(page.locator("h1")).to_be_visible()
        assert_no_axe_violations(axe, page, f"{path} ({lang}, {device})")


def fast_forward_to_match_end(page: Page, mirror: Mirror) -> None:
    """Play the rest of the match through the page's own routes (plain form posts, as
    without JavaScript), the copy in step, until the match is over."""
    game_id = page.locator(".ht").get_attribute("data-game")

    def post(action: str, **form: str) -> None:
        answer = page.request.post(f"/hearts/games/{game_id}/{action}", form=form, max_redirects=0)
        assert answer.status == 303, f"{action} {form}: {answer.status}"

    while (view := mirror.view).phase != "match_over":
        if view.phase == "passing":
            chosen = pass_choice(mirror.match)
            post("pass", cards=",".join(chosen))
            mirror.pass_cards(chosen)
        elif view.phase == "playing":
            played = mirror.legal()[0]
            post("play", card=played)
            mirror.play(played)
        else:
            post("next-hand")
            mirror.match.next_hand()
            play_bots(mirror.match)


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_hearts_dialogs_have_no_violations(new_page, axe, lang):
    deal = "HT1-N-AAAAAAE"
    page = new_page("desktop", lang)
    page.goto(f"/hearts/deal/{deal}")
    mirror = Mirror(deal)
    chosen = pass_choice(mirror.match)
    for code in chosen:
        page.locator(f'#ht-hand [data-card="{code}"]').click()
    press_and_wait(page, page.locator(".ht-pass-button"), "desktop")
    mirror.pass_cards(chosen)
    while not mirror.view.tricks:
        played = mirror.legal()[0]
        press_and_wait(page, page.locator(f'#ht-hand [data-card="{played}"]'), "desktop")
        mirror.play(played)

    expect(page.locator('#ht-trick [data-won="true"]')).to_have_count(1)
    assert_no_axe_violations(axe, page, f"Hearts table after a trick ({lang})")

    # The last trick, fetched when its dialog opens.
    before = htmx_done(page)
    page.locator('[data-open="ht-last-dialog"]').click()
    wait_htmx(page, before)
    last = page.locator("#ht-last-dialog:modal")
    expect(last.locator("[data-card]")).to_have_count(4)
    assert_no_axe_violations(axe, page, f"last-trick dialog ({lang})")
    page.keyboard.press("Escape")
    expect(last).to_have_count(0)

    page.locator('.ht-controls [data-open="ht-new-dialog"]').click()
    expect(page.locator("#ht-new-dialog:modal")).to_be_visible()
    assert_no_axe_violations(axe, page, f"new-match dialog ({lang})")
    page.locator("#ht-new-dialog [data-close]").click()
    expect(page.locator("dialog:modal")).to_have_count(0)

    fast_forward_to_match_end(page, mirror)
    page.reload()
    end = page.locator("#ht-end-dialog:modal")
    expect(end).to_be_visible()
    expect(end.locator("tbody tr")).to_have_count(len(mirror.view.hand_scores))
    assert_no_axe_violations(axe, page, f"match-over dialog ({lang})")
