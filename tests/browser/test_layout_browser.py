"""Every common screen plays without scrolling: at each size, in both games and both languages,
every card in play and every button lies inside the viewport, and the page does not scroll. A
table with friends too, whose invite and reactions take a line more."""

from __future__ import annotations

import pytest
from browser_kit import HTMX_COUNTER, choose, open_table, screenshot
from conftest import LOCALES, WAIT_MS
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

# Phones (portrait and landscape), a tablet, laptops and a desktop.
SIZES = [(360, 640), (390, 844), (412, 915), (844, 390), (740, 360), (1024, 768), (1280, 800),
         (1920, 1080)]
PAGES = {
    "heart-to-heart": ("/heart-to-heart/deal/HH1-N-AAAAAAM", "#h2h-heart button.card"),
    "hearts": ("/hearts/deal/HT1-N-AAAAAAM", "#ht-hand button.card"),
}

# What a player must reach: the cards in play, the piles, the trick, and every button or link
# that acts (those inside closed menus and dialogs are not shown, so not counted), each with its
# label inside it.
OUTSIDE_JS = """() => {
  const wanted = "#main .card, #main button, #main a.btn, #main summary, #main a.deal, .top button";
  const out = [];
  for (const el of document.querySelectorAll(wanted)) {
    if (!el.checkVisibility()) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)
      out.push(`${el.id || el.className || el.localName} ${Math.round(r.left)},${Math.round(r.top)}`
               + `-${Math.round(r.right)},${Math.round(r.bottom)}`);
    // A label that spills out of its button runs into the next one.
    if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
      out.push(`${el.id || el.className || el.localName}: "${el.innerText}" spills out`);
  }
  const root = document.documentElement;
  if (root.scrollHeight > innerHeight || root.scrollWidth > innerWidth)
    out.push(`page scrolls: ${root.scrollWidth}x${root.scrollHeight}`);
  return out;
}"""


def phone_or_desktop(browser, base_url: str, lang: str, width: int, height: int):
    phone = min(width, height) < 500
    context = browser.new_context(
        base_url=base_url, locale=LOCALES[lang], extra_http_headers={"Accept-Language": lang},
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone,
    )
    context.set_default_timeout(WAIT_MS)
    context.add_init_script(HTMX_COUNTER)
    return context


@pytest.mark.parametrize("lang", ["vi", "en"])
@pytest.mark.parametrize("game", sorted(PAGES))
@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_everything_in_play_is_on_the_screen(browser, base_url, game, lang, width, height):
    context = phone_or_desktop(browser, base_url, lang, width, height)
    try:
        page = context.new_page()
        path, cards = PAGES[game]
        page.goto(path)
        expect(page.locator(cards).first).to_be_visible()
        page.wait_for_function("() => document.fonts.status === 'loaded'")
        outside = page.evaluate(OUTSIDE_JS)
        assert not outside, f"{game} at {width}x{height} ({lang}): off the screen: {outside}"
        if (width, height, lang) == (844, 390, "en"):
            screenshot(page, f"{game}-landscape.png")
    finally:
        context.close()


# The phones a table is most often opened on (the common 360 × 740 among them), and a desktop.
TABLE_SIZES = [(360, 640), (360, 740), (390, 844), (844, 390), (740, 360), (1280, 800)]


@pytest.mark.parametrize("lang", ["vi", "en"])
@pytest.mark.parametrize(("width", "height"), TABLE_SIZES, ids=[f"{w}x{h}" for w, h in TABLE_SIZES])
def test_a_table_with_friends_passes_without_scrolling(browser, base_url, lang, width, height):
    context = phone_or_desktop(browser, base_url, lang, width, height)
    try:
        page = context.new_page()
        open_table(page, "An")
        choose(page, "seconds", "none")
        page.locator('[data-action="start"]').click()
        expect(page.locator("#ht-hand button.card")).to_have_count(13)
        page.wait_for_function("() => document.fonts.status === 'loaded'")
        outside = page.evaluate(OUTSIDE_JS)
        assert not outside, f"a table at {width}x{height} ({lang}): off the screen: {outside}"
    finally:
        context.close()


MENU_SIZES = [(360, 640), (390, 844), (844, 390), (1280, 800)]


@pytest.mark.parametrize("lang", ["vi", "en"])
@pytest.mark.parametrize(("width", "height"), MENU_SIZES, ids=[f"{w}x{h}" for w, h in MENU_SIZES])
def test_the_new_game_menu_is_on_the_screen(browser, base_url, lang, width, height):
    """Issue 27: "Any deal (may not be winnable)" is long; the open menu stays on the screen and
    each label inside its button."""
    context = phone_or_desktop(browser, base_url, lang, width, height)
    try:
        page = context.new_page()
        page.goto("/heart-to-heart")
        page.locator("details.menu summary").first.click()
        expect(page.locator('details.menu[open] button[value="N"]')).to_be_visible()
        page.wait_for_function("() => document.fonts.status === 'loaded'")
        outside = page.evaluate(OUTSIDE_JS)
        assert not outside, f"the menu at {width}x{height} ({lang}): off the screen: {outside}"
        # A phone's browser widens its layout viewport to hold what spills out: not so here.
        assert page.evaluate("innerWidth") == width
    finally:
        context.close()


# Issue 27: the pages a player reaches from the menus and the header, at the four sizes.
EVERY_PAGE = ("/", "/heart-to-heart", "/heart-to-heart/rules", "/heart-to-heart/examples",
              "/hearts", "/hearts/rules", "/settings", "/stats", "/offline")

# Nothing scrolls sideways, and no label is wider than its button, link or menu (a menu that
# scrolls inside itself, as the header's did, hides its last entry).
SPILLS_JS = """() => {
  const out = [];
  for (const el of document.querySelectorAll("a, button, summary, .btn, nav")) {
    if (!el.checkVisibility() || el.getBoundingClientRect().width === 0) continue;
    if (el.scrollWidth > el.clientWidth + 1)
      out.push(`${el.localName}.${el.className} "${el.innerText}"`
               + ` ${el.scrollWidth}>${el.clientWidth}`);
  }
  const root = document.documentElement;
  if (root.scrollWidth > innerWidth) out.push(`the page scrolls sideways: ${root.scrollWidth}`);
  return out;
}"""


@pytest.mark.parametrize("lang", ["vi", "en"])
@pytest.mark.parametrize(("width", "height"), MENU_SIZES, ids=[f"{w}x{h}" for w, h in MENU_SIZES])
def test_no_page_scrolls_sideways_and_every_label_fits(browser, base_url, lang, width, height):
    context = phone_or_desktop(browser, base_url, lang, width, height)
    try:
        page = context.new_page()
        for path in EVERY_PAGE:
            page.goto(path)
            page.wait_for_function("() => document.fonts.status === 'loaded'")
            spills = page.evaluate(SPILLS_JS)
            assert not spills, f"{path} at {width}x{height} ({lang}): {spills}"
            assert page.evaluate("innerWidth") == width
            # Every entry of the header's menu is whole on the screen.
            for entry in page.locator(".top nav a").all():
                box = entry.bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, path
    finally:
        context.close()


def near_the_finish(page, deal: str = "HH1-W-AAAAAAC") -> None:
    """This session's game of ``deal``, played by the solver's line through the API until
    Finish shows (every heart card left is free)."""
    from app.rules.heart_to_heart import new_game, target_text
    from app.rules.heart_to_heart_solver import solve
    from app.web.heart_to_heart.assists import can_finish

    game = new_game(deal)
    answer = page.request.post("/api/heart-to-heart/games", data={"deal": deal})
    url = f"/api/heart-to-heart/games/{answer.json()['game_id']}/tap"
    for where in solve(game.copy()):
        if can_finish(game):
            return
        assert page.request.post(url, data={"target": target_text(where)}).ok
        game.tap(where)
    raise AssertionError(f"{deal}: Finish never shows on the solver's line")


@pytest.mark.parametrize("lang", ["vi", "en"])
@pytest.mark.parametrize(("width", "height"), MENU_SIZES, ids=[f"{w}x{h}" for w, h in MENU_SIZES])
def test_undo_and_options_keep_their_labels_when_finish_shows(
    browser, base_url, lang, width, height
):
    context = phone_or_desktop(browser, base_url, lang, width, height)
    try:
        page = context.new_page()
        near_the_finish(page)
        page.goto("/heart-to-heart")
        expect(page.locator('[data-action="finish"]')).to_be_visible()
        page.wait_for_function("() => document.fonts.status === 'loaded'")
        outside = page.evaluate(OUTSIDE_JS)
        assert not outside, f"Finish at {width}x{height} ({lang}): {outside}"
    finally:
        context.close()


# The middle of a received card's mark (its ::after) and what the screen shows there.
MARKS_JS = """() => Array.from(document.querySelectorAll('#ht-hand [data-received]'), (card) => {
  const r = card.getBoundingClientRect();
  const mark = getComputedStyle(card, "::after");
  const x = r.left + parseFloat(mark.left) + parseFloat(mark.width) / 2;
  const y = r.bottom - parseFloat(mark.bottom) - parseFloat(mark.height) / 2;
  const hit = document.elementFromPoint(x, y);
  return [card.dataset.card, hit === card || card.contains(hit)];
})"""


@pytest.mark.parametrize(("width", "height"), MENU_SIZES, ids=[f"{w}x{h}" for w, h in MENU_SIZES])
def test_every_received_card_shows_its_mark(browser, base_url, width, height):
    """Issue 27: in the desktop's fanned hand the next card hid a received card's mark."""
    from hearts_mirror import Mirror, pass_choice

    deal = "HT1-N-AAAAAAE"
    context = phone_or_desktop(browser, base_url, "en", width, height)
    try:
        page = context.new_page()
        page.goto(f"/hearts/deal/{deal}")
        for code in pass_choice(Mirror(deal).match):
            page.locator(f'#ht-hand [data-card="{code}"]').click()
        page.locator(".ht-pass-button").click()
        expect(page.locator('#ht-hand [data-received="true"]')).to_have_count(3)
        marks = page.evaluate(MARKS_JS)
        assert all(shown for _, shown in marks), f"at {width}x{height}: {marks}"
    finally:
        context.close()
