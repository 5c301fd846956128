"""Play feel with the network slowed to a phone's (200 ms latency, through the Chrome DevTools
Protocol): taps answer in the same frame, queue in order, and none is lost; refusals are
explained; the end of a hand waits for its last trick.

"Before the answer" is checked inside one script run on the page (the tap and the look at the
page in the same task), so no test depends on how fast the machine is.
"""

from __future__ import annotations

from functools import cache
from urllib.parse import parse_qs

import pytest
from browser_kit import htmx_done, press, wait_htmx, wait_idle
from hearts_mirror import Mirror, pass_choice
from playwright.sync_api import Page, expect
from test_heart_to_heart_browser import assert_board, open_deal, short_won_line, target
from test_hearts_browser import card, mid_trick_deal, open_match, pass_by_pressing

from app.rules.cards import card_text, cards_in
from app.rules.deal_codes import DealCode
from app.rules.heart_to_heart import new_game
from app.rules.hearts import HUMAN, HeartsError
from app.web.hearts.texts import refusal_text
from app.web.i18n import translator
from app.web.pieces import answer, status

pytestmark = [pytest.mark.browser, pytest.mark.new_session]

LATENCY_MS = 200
BUSY = ("The bots are thinking for many players at once: the page tries again in a moment,"
        " by itself.")


def slow_network(page: Page) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": LATENCY_MS, "downloadThroughput": -1, "uploadThroughput": -1,
    })


def slow_won_deal(new_page, device: str, lang: str):
    """The short winnable deal open on a slowed page: the page, an engine copy, the taps."""
    deal, taps = short_won_line()
    page = new_page(device, lang)
    open_deal(page, deal)
    slow_network(page)
    return page, new_game(deal), taps


def slow_passed_match(new_page, device: str, lang: str):
    """A Hearts match after the pass, on a slowed page, and its mirror."""
    deal = mid_trick_deal()
    page = new_page(device, lang)
    open_match(page, deal)
    mirror = Mirror(deal)
    pass_by_pressing(page, device, lang, mirror)
    slow_network(page)
    return page, mirror


# --- Heart to Heart ------------------------------------------------------------------------


@pytest.mark.parametrize(("device", "lang"), [("phone", "vi"), ("desktop", "en")])
def test_three_stock_taps_150_ms_apart_make_three_draws(new_page, device, lang):
    page, game, _ = slow_won_deal(new_page, device, lang)
    stock = target(page, "stock")
    count = int(stock.locator(".count").inner_text())
    requests = []
    page.on("request", lambda r: requests.append(r) if r.url.endswith("/tap") else None)
    for i in range(3):
        if i:
            page.wait_for_timeout(150)
        press(stock, device)
        game.tap("stock")
    # The count went down with each tap, before any answer.
    expect(stock.locator(".count")).to_have_text(str(count - 3))
    wait_idle(page)
    assert len(requests) == 3, "one request per tap, none dropped, none doubled"
    assert_board(page, game, lang, "three draws")


@pytest.mark.parametrize(("device", "lang"), [("desktop", "en")])
def test_a_tap_the_busy_room_refused_goes_again_by_itself(new_page, device, lang):
    """A 503 (the bots' queue, issue 28) says so in the status line, and the page sends the
    same tap again after Retry-After, the player doing nothing more."""
    page, game, _ = slow_won_deal(new_page, device, lang)
    busy = answer(status(BUSY), status_code=503)
    sent = []

    def first_busy(route):
        fields = parse_qs(route.request.post_data or "")
        sent.append((fields["target"], fields["version"]))
        if len(sent) == 1:
            route.fulfill(status=503, headers={"retry-after": "1", "content-type": "text/html"},
                          body=bytes(busy.body))
        else:
            route.continue_()

    page.route("**/tap", first_busy)
    press(target(page, "stock"), device)
    game.tap("stock")
    expect(page.locator("#status")).to_have_text(BUSY)
    wait_idle(page)
    assert len(sent) == 2 and sent[0] == sent[1], "the same tap, sent again once"
    assert_board(page, game, lang, "the draw made after the busy answer")


@pytest.mark.parametrize(("device", "lang"), [("phone", "en"), ("desktop", "vi")])
def test_a_selection_shows_before_the_answer(new_page, device, lang):
    page, game, taps = slow_won_deal(new_page, device, lang)
    first = next(t for t in taps if t != "stock")
    before = htmx_done(page)
    pressed, answered = page.evaluate(
        """(id) => { const card = document.getElementById(id); card.click();
                     return [card.getAttribute("aria-pressed"), window.__htmxDone]; }""",
        "h2h-waste" if first == "waste" else f"p{first}",
    )
    assert (pressed, answered) == ("true", before), "the ring shows in the tap's own task"
    wait_htmx(page, before)
    game.tap(first)
    assert_board(page, game, lang, "the server agrees")


@pytest.mark.parametrize(("device", "lang"), [("phone", "vi"), ("desktop", "en")])
def test_ten_quick_taps_end_as_slow_taps(new_page, device, lang):
    page, game, taps = slow_won_deal(new_page, device, lang)
    for where in taps[:10]:
        press(target(page, where), device)
        game.tap(where)
    wait_idle(page)
    # The engine copy took the same taps one by one: what slow taps on the page give.
    assert_board(page, game, lang, "ten quick taps")
    page.reload()
    assert_board(page, game, lang, "ten quick taps, as the server stored them")


# --- Hearts --------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_hearts_lift_and_play_shows_the_card_on_the_table_before_the_answer(new_page, lang):
    page, mirror = slow_passed_match(new_page, "phone", lang)
    chosen = mirror.legal()[0]
    card(page, chosen).tap()
    expect(card(page, chosen)).to_have_attribute("aria-pressed", "true")
    before = htmx_done(page)
    on_table, in_hand, answered = page.evaluate(
        """(code) => { document.querySelector(`#ht-hand [data-card="${code}"]`).click();
             const slot = document.querySelector('#ht-trick [data-slot="0"] .card');
             const held = document.querySelector(`#ht-hand [data-card="${code}"]`);
             return [slot && slot.dataset.card, held.checkVisibility(), window.__htmxDone]; }""",
        chosen,
    )
    assert (on_table, in_hand, answered) == (chosen, False, before)
    wait_idle(page)
    mirror.play(chosen)
    expect(card(page, chosen)).to_have_count(0)
    expect(page.locator('#ht-trick [data-slot="0"] .card')).to_have_attribute("data-card", chosen)


def code(number: int) -> str:
    return str(DealCode("HT1", "N", number))


def reason_now(mirror: Mirror) -> str | None:
    """The rules' reason for the player's dimmed cards at this point (None: none dimmed)."""
    view = mirror.view
    dimmed = view.hand & ~view.legal
    if view.phase != "playing" or view.turn != HUMAN or not dimmed:
        return None
    try:
        mirror.match.play((dimmed & -dimmed).bit_length() - 1, seat=HUMAN)
    except HeartsError as error:
        return error.reason
    raise AssertionError("a dimmed card was playable")


@cache
def refusal_case(reason: str) -> tuple[str, tuple[str, ...]]:
    """A deal and the cards the player plays (the lowest legal one each time, after passing
    pass_choice) until a dimmed card of the hand is refused for ``reason``."""
    for number in range(300):
        mirror = Mirror(code(number))
        mirror.pass_cards(pass_choice(mirror.match))
        played: list[str] = []
        while mirror.view.phase == "playing" and len(played) < 6:
            if reason_now(mirror) == reason:
                return code(number), tuple(played)
            choice = card_text(min(cards_in(mirror.view.legal)))
            mirror.play(choice)
            played.append(choice)
    raise AssertionError(f"no deal found for {reason}")


@pytest.mark.parametrize("reason", ["follow_suit", "first_trick", "two_of_clubs",
                                    "hearts_not_broken"])
@pytest.mark.parametrize("lang", ["vi", "en"])
def test_each_refusal_is_explained_and_the_card_shakes(new_page, reason, lang):
    deal, plays = refusal_case(reason)
    page = new_page("desktop", lang)
    open_match(page, deal)
    mirror = Mirror(deal)
    pass_by_pressing(page, "desktop", lang, mirror)
    for choice in plays:
        before = htmx_done(page)
        press(card(page, choice), "desktop")
        wait_htmx(page, before)
        mirror.play(choice)
    expect(page.locator("#ht-hand")).not_to_have_attribute("aria-busy", "true")
    dimmed = card_text(min(cards_in(mirror.view.hand & ~mirror.view.legal)))
    expect(card(page, dimmed)).to_have_attribute("aria-disabled", "true")
    requests = []
    page.on("request", lambda r: requests.append(r) if r.url.endswith("/play") else None)
    shaking = page.evaluate(
        """(code) => { const card = document.querySelector(`#ht-hand [data-card="${code}"]`);
             card.click(); return card.getAnimations().length > 0; }""",
        dimmed,
    )
    assert shaking, "the refused card shakes"
    message = refusal_text(HeartsError(reason, ""), translator(lang))
    expect(page.locator("#status")).to_have_text(message)
    expect(card(page, dimmed)).to_have_count(1)
    assert not requests, "a refused card is not sent"


def ends_the_hand(mirror: Mirror, choice: str) -> bool:
    """Whether playing ``choice`` now (and the bots' answer, and a claim) ends the hand."""
    ahead = mirror.copy()
    ahead.play(choice)
    return ahead.view.phase != "playing"


@pytest.mark.parametrize("lang", ["en"])
def test_hand_over_dialog_waits_for_the_last_trick(new_page, lang):
    deal = mid_trick_deal()
    page = new_page("desktop", lang)
    open_match(page, deal)
    mirror = Mirror(deal)
    pass_by_pressing(page, "desktop", lang, mirror)
    # Each time the page changes while the dialog is open: the trick gathered to its winner,
    # or how many of its cards show (four still on the table when the player's card ends it).
    page.evaluate("""() => {
      window.__dialogSeen = [];
      new MutationObserver(() => {
        if (!document.querySelector("#ht-end-dialog[open]")) return;
        const trick = document.getElementById("ht-trick");
        window.__dialogSeen.push(trick.dataset.gathered === "true" ? "gathered" :
          trick.querySelectorAll(".card").length);
      }).observe(document.body, {subtree: true, childList: true, attributes: true});
    }""")
    # The tricks before the last tap: each tap on the hand cuts the bots' replay short (as a
    # player who does not watch it does); the dialog must not have opened before the last tap.
    while not ends_the_hand(mirror, choice := mirror.legal()[0]):
        before = htmx_done(page)
        press(card(page, choice), "desktop")
        wait_htmx(page, before)
        mirror.play(choice)
    expect(page.locator("#ht-end-dialog[open]")).to_have_count(0)
    # The last tap on a phone's network, its replay watched to the end, as a watching player
    # does: the dialog waits until the last trick's cards have gone to its winner.
    expect(page.locator("#ht-hand")).not_to_have_attribute("aria-busy", "true")
    slow_network(page)
    before = htmx_done(page)
    press(card(page, choice), "desktop")
    wait_htmx(page, before)
    mirror.play(choice)
    assert mirror.view.phase != "playing"
    expect(page.locator("#ht-end-dialog:modal")).to_be_visible()
    seen = page.evaluate("window.__dialogSeen")
    assert seen and set(seen) == {"gathered"}, (
        f"last trick's cards shown while the dialog was open: {seen}"
    )
    expect(page.locator("#ht-trick")).to_have_attribute("data-gathered", "true")
    expect(page.get_by_role("button", name="Next hand").first).to_be_visible()


@pytest.mark.parametrize(("device", "lang"), [("phone", "en"), ("desktop", "vi")])
def test_menus_close_on_a_tap_elsewhere_and_on_escape(new_page, device, lang):
    page = new_page(device, lang)
    page.goto("/heart-to-heart")
    for menu in page.locator("details.menu").all():
        summary = menu.locator("summary")
        press(summary, device)
        expect(menu).to_have_attribute("open", "")
        press(page.locator(".info .stat").first, device)
        expect(menu).not_to_have_attribute("open", "")
        summary.focus()
        page.keyboard.press("Enter")
        expect(menu).to_have_attribute("open", "")
        page.keyboard.press("Escape")
        expect(menu).not_to_have_attribute("open", "")
        expect(summary).to_be_focused()


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_hearts_without_javascript_says_it_needs_it(browser, base_url, lang):
    context = browser.new_context(base_url=base_url, java_script_enabled=False,
                                  extra_http_headers={"Accept-Language": lang})
    try:
        page = context.new_page()
        page.goto("/hearts")
        words = {"vi": "cần JavaScript", "en": "needs JavaScript"}[lang]
        expect(page.locator("main .panel")).to_contain_text(words)
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en"])
def test_a_double_tap_on_pass_is_one_pass(new_page, lang):
    deal = mid_trick_deal()
    page = new_page("phone", lang)
    open_match(page, deal)
    slow_network(page)
    chosen = pass_choice(Mirror(deal).match)
    for code_ in chosen:
        card(page, code_).tap()
    passes = []
    page.on("request", lambda r: passes.append(r) if r.url.endswith("/pass") else None)
    button = page.locator(".ht-pass-button")
    button.dblclick()
    wait_idle(page)
    expect(page.locator("#ht-hand")).to_have_attribute("data-phase", "playing")
    assert len(passes) == 1, "a double tap passes once"
    expect(page.locator("#status")).not_to_contain_text("already")
