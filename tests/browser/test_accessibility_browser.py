"""axe-core (the copy inside axe-playwright-python) finds no violation on any page, on the
phone and the desktop, in both languages, nor in the dialogs not opened by the game tests
(those check theirs: no more moves, won, hand over, the shared-deal question)."""

from __future__ import annotations

import pytest
from browser_kit import (
    assert_no_axe_violations,
    htmx_done,
    press,
    press_and_wait,
    screenshot,
    wait_htmx,
)
from conftest import LOCALES, WAIT_MS
from hearts_mirror import Mirror, pass_choice
from playwright.sync_api import Browser, Page, StorageState, expect

from app.bots.driver import play_bots

pytestmark = pytest.mark.browser

PAGES = (
    "/",
    "/heart-to-heart",
    "/heart-to-heart/rules",
    "/heart-to-heart/examples",
    "/hearts",
    "/hearts/rules",
    "/settings",
    "/stats",
    "/offline",
    "/hearts/tables/new",  # a browser's first table: the name it goes by
)
# Each device and each language once: the pages differ by language in their words and by device
# in their layout, and axe's rules read each apart.
PAIRS = [("phone", "vi"), ("desktop", "en")]


@pytest.mark.parametrize(("device", "lang"), PAIRS)
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


def fast_forward_to_match_end(page: Page, mirror: Mirror, until: str = "match_over") -> None:
    """Play the rest of the match through the page's own routes (plain form posts, as
    without JavaScript), the copy in step, until the match is over (or the phase ``until``)."""
    game_id = page.locator(".ht").get_attribute("data-game")

    def post(action: str, **form: str) -> None:
        answer = page.request.post(f"/hearts/games/{game_id}/{action}", form=form, max_redirects=0)
        assert answer.status == 303, f"{action} {form}: {answer.status}"

    while (view := mirror.view).phase != until:
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


# Issue 27: every dialog opens with its heading in view and a control that closes it on the
# screen, not covered, without scrolling; a tap on the backdrop and Escape close it.
IN_VIEW_JS = """(dialog) => {
  const seen = (el) => {
    const r = el.getBoundingClientRect();
    const box = dialog.getBoundingClientRect();
    if (r.top < Math.max(0, box.top) - 0.5 || r.bottom > Math.min(innerHeight, box.bottom) + 0.5
        || r.left < -0.5 || r.right > innerWidth + 0.5) return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return el === hit || el.contains(hit);
  };
  const heading = dialog.querySelector("h2");
  const closers = dialog.querySelectorAll('[data-close], form[method="dialog"] button');
  return {heading: seen(heading), close: Array.from(closers).some(seen),
          top: dialog.scrollTop};
}"""
SIZES = [(360, 640), (390, 844), (844, 390), (1280, 800)]


def sized_page(
    browser: Browser, base_url: str, lang: str, width: int, height: int,
    session: StorageState | None = None,
) -> Page:
    """A page of a new context at that size (a phone's below 500 px), with ``session``'s
    cookies when given: the same browser session seen on another screen."""
    phone = min(width, height) < 500
    context = browser.new_context(
        base_url=base_url, locale=LOCALES[lang], extra_http_headers={"Accept-Language": lang},
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone,
        storage_state=session,
    )
    context.set_default_timeout(WAIT_MS)
    return context.new_page()


def assert_opens_in_view(page: Page, dialog_id: str, where: str) -> None:
    dialog = page.locator(f"#{dialog_id}:modal")
    expect(dialog).to_be_visible()
    seen = dialog.evaluate(IN_VIEW_JS)
    assert seen == {"heading": True, "close": True, "top": 0}, f"{where}: {seen}"


def tap_the_backdrop(page: Page) -> None:
    """A tap (or click) in the corner of the screen, outside every dialog's box."""
    if page.evaluate("matchMedia('(pointer: coarse)').matches"):
        page.touchscreen.tap(3, 3)
    else:
        page.mouse.click(3, 3)


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_dialogs_open_at_their_heading_with_a_close_in_view(browser, base_url, axe, lang):
    # One match, seen at every size: a page of each size shares the browser session that plays
    # it. A match the tests' play ends in 5 hands (most take 7 to 10): its end is soon reached.
    deal = "HT1-N-AAAAAAX"
    player = sized_page(browser, base_url, lang, *SIZES[0])
    pages = [player]
    try:
        player.goto(f"/hearts/deal/{deal}")
        mirror = Mirror(deal)
        fast_forward_to_match_end(player, mirror, until="hand_over")
        session = player.context.storage_state()
        pages += [sized_page(browser, base_url, lang, w, h, session) for w, h in SIZES[1:]]
        for page, (width, height) in zip(pages, SIZES, strict=True):
            page.goto(player.url)
            where = f"{width}x{height} ({lang})"
            assert_opens_in_view(page, "ht-end-dialog", f"hand over, {where}")
            tap_the_backdrop(page)
            expect(page.locator("dialog:modal")).to_have_count(0)

            # The review: a short table of the player's decisions, its Close on the screen.
            page.locator('[data-open="ht-end-dialog"]').click()
            page.locator('#ht-end-dialog [data-open="ht-review-dialog"]').click()
            review = page.locator("#ht-review-dialog:modal")
            expect(review.locator("table.ht-review, .ht-all-best")).to_have_count(1)
            if review.locator("table.ht-review").count():
                expect(review.locator("tbody tr")).to_have_count(14)  # the pass and 13 plays
                assert review.locator("tbody tr").first.evaluate("r => r.offsetHeight") < 48
            assert_opens_in_view(page, "ht-review-dialog", f"review, {where}")
            assert_no_axe_violations(axe, page, f"review dialog, {where}")
            if (width, height, lang) == (390, 844, "en"):
                screenshot(page, "hearts-review-phone.png")
            tap_the_backdrop(page)
            expect(page.locator("dialog:modal")).to_have_count(0)

        fast_forward_to_match_end(player, mirror)
        for page, (width, height) in zip(pages, SIZES, strict=True):
            page.reload()
            where = f"{width}x{height} ({lang})"
            assert_opens_in_view(page, "ht-end-dialog", f"match over, {where}")
            assert_no_axe_violations(axe, page, f"match-over dialog, {where}")
            if (width, height, lang) == (360, 640, "en"):
                screenshot(page, "hearts-match-over-phone.png")
            page.keyboard.press("Escape")
            expect(page.locator("dialog:modal")).to_have_count(0)
            page.locator('[data-open="ht-end-dialog"]').click()
            assert_opens_in_view(page, "ht-end-dialog", f"match over again, {where}")
            tap_the_backdrop(page)
            expect(page.locator("dialog:modal")).to_have_count(0)
    finally:
        for page in pages:
            page.context.close()
