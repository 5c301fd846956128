"""Hearts in Chromium, on a touch phone and a desktop, in Vietnamese and English.

A copy of the match runs beside the page with the same engine and bots (the bots decide from
the match state alone, so the copy plays exactly what the server plays): after each pass,
play or undo on the page, the page must show the copy's hand, table, turn and scores.
"""

from __future__ import annotations

from functools import cache

import pytest
from browser_kit import (
    assert_fits_the_screen,
    assert_no_axe_violations,
    card_name,
    htmx_done,
    poll_equal,
    press,
    press_and_wait,
    screenshot,
)
from hearts_mirror import Mirror, pass_choice
from playwright.sync_api import Page, expect

from app.bots.driver import play_bots
from app.rules.cards import card_text, cards_in
from app.rules.deal_codes import DealCode
from app.web.i18n import translator

pytestmark = pytest.mark.browser

TEXT = {
    "undo": {"vi": "Đi lại", "en": "Undo"},
    "pass_left": {"vi": "Chuyền sang trái", "en": "Pass left"},
    "pass_right": {"vi": "Chuyền sang phải", "en": "Pass right"},
}


def code(number: int) -> str:
    return str(DealCode("HT1", "N", number))


@cache
def mid_trick_deal() -> str:
    """The first deal where, after passing, the player's first turn comes mid-trick with at
    least two playable cards and at least one that cannot be played."""
    for number in range(1000):
        mirror = Mirror(code(number))
        mirror.pass_cards(pass_choice(mirror.match))
        if mirror.view.trick and len(mirror.legal()) >= 2 and mirror.dimmed():
            return code(number)
    raise AssertionError("no deal found")


TABLE_JS = r"""() => {
  const hand = Array.from(document.querySelectorAll("#ht-hand button[data-card]"), (b) => ({
    card: b.dataset.card,
    dimmed: b.getAttribute("aria-disabled") === "true",
    received: b.dataset.received === "true",
    name: b.getAttribute("aria-label"),
  })).sort((a, b) => (a.card < b.card ? -1 : 1));
  const table = Array.from(document.querySelectorAll("#ht-trick [data-card][data-seat]"),
    (c) => ({seat: Number(c.dataset.seat), card: c.dataset.card, won: c.dataset.won === "true"}));
  const turn = document.querySelector('.ht-seat[aria-current="true"]');
  // Each badge: points this hand, then the match total (the number ends each one's text).
  const number = (el) => Number(el.textContent.trim().match(/\d+$/)[0]);
  const points = [0, 1, 2, 3].map((s) => Array.from(
    document.querySelectorAll(`#ht-seat-${s} .ht-seat-score > span`), number));
  return {
    phase: document.getElementById("ht-hand").dataset.phase,
    hand, table, points,
    turn: turn ? Number(turn.dataset.seat) : null,
    broken: document.querySelector(".ht-broken").dataset.on === "true",
  };
}"""


def expected_table(view, lang: str) -> dict:
    received = view.received if view.received and not view.tricks else 0
    hand = [
        {
            "card": card_text(c),
            "dimmed": view.phase != "passing" and not view.legal >> c & 1,
            "received": bool(received >> c & 1),
            "name": card_name(card_text(c), lang),
        }
        for c in cards_in(view.hand)
    ]
    hand.sort(key=lambda card: card["card"])
    shown, winner = view.trick, None
    if not shown and view.tricks:  # a finished trick stays until the next card
        shown, winner = view.tricks[-1].cards, view.tricks[-1].winner
    table = [
        {"seat": p.seat, "card": card_text(p.card), "won": p.seat == winner}
        for p in sorted(shown, key=lambda p: p.seat)
    ]
    points = [[view.hand_points[s], view.totals[s]] for s in range(4)]
    return {
        "phase": view.phase, "hand": hand, "table": table, "points": points,
        "turn": view.turn, "broken": view.hearts_broken,
    }


def assert_table(page: Page, mirror: Mirror, lang: str, what: str) -> None:
    poll_equal(page, TABLE_JS, expected_table(mirror.view, lang), what)


def card(page: Page, code: str):
    return page.locator(f'#ht-hand button[data-card="{code}"]')


def open_match(page: Page, deal: str) -> None:
    page.goto(f"/hearts/deal/{deal}")
    expect(page.locator('[data-info="deal"]')).to_have_text(deal)


def pass_by_pressing(page: Page, device: str, lang: str, mirror: Mirror) -> None:
    chosen = pass_choice(mirror.match)
    for code_ in chosen:
        press(card(page, code_), device)
        expect(card(page, code_)).to_have_attribute("aria-pressed", "true")
    button = page.get_by_role("button", name=TEXT["pass_left"][lang])
    expect(button).to_be_enabled()
    press_and_wait(page, button, device)
    mirror.pass_cards(chosen)
    assert_table(page, mirror, lang, "after the exchange")


def passed_hand(new_page, device: str, lang: str):
    """A page at a mid-trick deal's table after the player passed by pressing: (page, mirror)."""
    deal = mid_trick_deal()
    page = new_page(device, lang)
    open_match(page, deal)
    mirror = Mirror(deal)
    pass_by_pressing(page, device, lang, mirror)
    return page, mirror


def play(page: Page, device: str, mirror: Mirror, code_: str) -> list[tuple[int, str]]:
    """Play a card as the device does: a click, or on a phone a tap to lift and one to play."""
    if device == "phone":
        press(card(page, code_), device)
        expect(card(page, code_)).to_have_attribute("aria-pressed", "true")
    press_and_wait(page, card(page, code_), device)
    return mirror.play(code_)


# Records every card that lands on the table, in order, as [seat, card].
WATCH_TABLE_JS = """() => {
  window.__landed = [];
  new MutationObserver((records) => {
    for (const r of records) for (const node of r.addedNodes)
      if (node.dataset && node.dataset.card && node.dataset.seat)
        window.__landed.push([Number(node.dataset.seat), node.dataset.card]);
  }).observe(document.querySelector(".ht-table"), {childList: true, subtree: true});
}"""


# --- tests -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("device", "lang"), [("phone", "vi"), ("desktop", "en")])
def test_pass_three_cards_by_pressing(new_page, device, lang):
    deal = mid_trick_deal()
    page = new_page(device, lang)
    open_match(page, deal)
    mirror = Mirror(deal)
    assert_table(page, mirror, lang, "the dealt hand, nothing dimmed while passing")
    chosen = pass_choice(mirror.match)
    count = page.locator(".ht-count")
    pass_button = page.get_by_role("button", name=TEXT["pass_left"][lang])
    expect(pass_button).to_be_disabled()

    for code_ in chosen:
        press(card(page, code_), device)
    expect(count).to_have_text("3/3")
    expect(pass_button).to_be_enabled()
    # A fourth card is refused until one of the three is put back.
    extra = next(c for c in mirror.legal() if c not in chosen)
    press(card(page, extra), device)
    expect(card(page, extra)).to_have_attribute("aria-pressed", "false")
    full = translator(lang).gettext("Three cards are chosen: put one back first.")
    expect(page.locator("#status")).to_have_text(full)
    press(card(page, chosen[0]), device)
    expect(card(page, chosen[0])).to_have_attribute("aria-pressed", "false")
    expect(count).to_have_text("2/3")
    expect(pass_button).to_be_disabled()
    press(card(page, chosen[0]), device)
    expect(page.locator('#ht-hand [aria-pressed="true"]')).to_have_count(3)

    press_and_wait(page, pass_button, device)
    mirror.pass_cards(chosen)
    assert_table(page, mirror, lang, "the exchange made, bots played up to the player")
    for code_ in chosen:
        expect(card(page, code_)).to_have_count(0)
    expect(page.locator('#ht-hand [data-received="true"]')).to_have_count(3)


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_phone_first_tap_lifts_second_plays(new_page, lang):
    page, mirror = passed_hand(new_page, "phone", lang)
    plays = []
    page.on("request", lambda r: plays.append(r) if r.url.endswith("/play") else None)
    first, second = mirror.legal()[:2]
    dimmed = mirror.dimmed()[0]

    # A dimmed card does nothing, even when tapped.
    card(page, dimmed).tap(force=True)
    card(page, first).tap()
    expect(card(page, first)).to_have_attribute("aria-pressed", "true")
    expect(card(page, dimmed)).not_to_have_attribute("aria-pressed", "true")
    # Tapping another card lifts that one instead.
    card(page, second).tap()
    expect(card(page, second)).to_have_attribute("aria-pressed", "true")
    expect(card(page, first)).not_to_have_attribute("aria-pressed", "true")
    assert not plays, "a first tap must only lift the card"
    expect(card(page, dimmed)).to_have_count(1)
    # A tap on the table lowers it; the next tap lifts again.
    page.locator(".ht-table").tap(position={"x": 20, "y": 20})
    expect(card(page, second)).not_to_have_attribute("aria-pressed", "true")
    card(page, second).tap()
    expect(card(page, second)).to_have_attribute("aria-pressed", "true")

    page.evaluate(WATCH_TABLE_JS)
    press_and_wait(page, card(page, second), "phone")
    landing = mirror.play(second)
    assert len(plays) == 1
    assert_table(page, mirror, lang, "the card played, then the bots' cards")
    # The bots' cards came one at a time, in the order they were played.
    landed = [tuple(x) for x in page.evaluate("window.__landed")]
    assert landed[: len(landing)] == landing
    assert_fits_the_screen(page)
    if lang == "en":
        screenshot(page, "hearts-phone.png")


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_desktop_arrows_and_enter(new_page, lang):
    deal = mid_trick_deal()
    page = new_page("desktop", lang)
    open_match(page, deal)
    mirror = Mirror(deal)
    order = page.locator("#ht-hand button[data-card]")
    focused = "() => document.activeElement.dataset.card"

    # Passing by keyboard: arrows along the hand, Space or Enter toggles a card.
    chosen = pass_choice(mirror.match)
    codes = order.evaluate_all("cards => cards.map((c) => c.dataset.card)")
    order.first.focus()
    for i, code_ in enumerate(codes):
        assert page.evaluate(focused) == code_
        if code_ in chosen:
            page.keyboard.press("Space" if i % 2 else "Enter")
            expect(card(page, code_)).to_have_attribute("aria-pressed", "true")
        page.keyboard.press("ArrowRight")
    press_and_wait(page, page.get_by_role("button", name=TEXT["pass_left"][lang]), "desktop")
    mirror.pass_cards(chosen)
    assert_table(page, mirror, lang, "passed by keyboard")

    # Playing: the arrows reach every card, dimmed ones too; Enter plays the one reached.
    codes = order.evaluate_all("cards => cards.map((c) => c.dataset.card)")
    target = mirror.legal()[-1]
    order.first.focus()
    for code_ in codes[1 : codes.index(target) + 1]:
        page.keyboard.press("ArrowRight")
        assert page.evaluate(focused) == code_
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == target
    before = htmx_done(page)
    page.keyboard.press("Enter")
    page.wait_for_function("n => window.__htmxDone > n", arg=before)
    mirror.play(target)
    assert_table(page, mirror, lang, "the card reached by the arrows was played")
    expect(card(page, target)).to_have_count(0)
    if lang == "en":
        screenshot(page, "hearts-desktop.png")


DUPLICATE_IDS_JS = """() => {
  const ids = Array.from(document.querySelectorAll("[id]"), (el) => el.id);
  return [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
}"""


@pytest.mark.parametrize(("device", "lang"), [("phone", "en"), ("desktop", "vi")])
def test_redrawn_pieces_keep_ids_unique(new_page, device, lang):
    """The pieces an action redraws replace the old ones: no id twice in the page, and the
    announcements (the log screen readers read, static/js/room.js) hold the narration itself."""
    page, mirror = passed_hand(new_page, device, lang)
    played = mirror.legal()[0]
    play(page, device, mirror, played)
    assert_table(page, mirror, lang, "played")
    assert page.evaluate(DUPLICATE_IDS_JS) == []
    said = page.get_by_role("log")
    expect(said).to_contain_text(card_name(played, lang))
    expect(said.locator("[id]")).to_have_count(0)
    expect(page.locator("#status [id]")).to_have_count(0)


@pytest.mark.parametrize(("device", "lang"), [("phone", "vi"), ("desktop", "en")])
def test_undo_takes_back_the_last_card(new_page, device, lang):
    page, mirror = passed_hand(new_page, device, lang)
    tables = [expected_table(mirror.view, lang)]
    played = []
    for _ in range(2):
        played.append(mirror.legal()[0])
        play(page, device, mirror, played[-1])
        assert_table(page, mirror, lang, f"{len(played)} played")
        tables.append(expected_table(mirror.view, lang))

    # Each undo takes back the player's last card and the bots' cards that followed it.
    undo = page.get_by_role("button", name=TEXT["undo"][lang])
    for back in (1, 2):
        press_and_wait(page, undo, device)
        mirror.match.undo()
        assert expected_table(mirror.view, lang) == tables[-1 - back]
        assert_table(page, mirror, lang, f"undo number {back}")
        expect(card(page, played[-back])).to_have_count(1)
    expect(undo).to_be_disabled()


@pytest.mark.parametrize(("device", "lang"), [("phone", "en"), ("desktop", "vi")])
def test_reopen_mid_trick_shows_the_same_table(new_page, device, lang):
    page, mirror = passed_hand(new_page, device, lang)
    # Play on until a trick is under way at the player's turn, with one trick already taken.
    while not (mirror.view.tricks and mirror.view.trick):
        play(page, device, mirror, mirror.legal()[0])
    assert_table(page, mirror, lang, "mid-trick")
    seen = page.evaluate(TABLE_JS)
    seats = page.locator(".ht-seat").all_inner_texts()

    context = page.context
    page.close()
    page = context.new_page()
    page.goto("/hearts")
    assert_table(page, mirror, lang, "the same table after reopening")
    assert page.evaluate(TABLE_JS) == seen
    assert page.locator(".ht-seat").all_inner_texts() == seats


@pytest.mark.parametrize(("device", "lang"), [("desktop", "vi"), ("phone", "en")])
def test_play_a_hand_to_the_score_table(new_page, axe, device, lang):
    page, mirror = passed_hand(new_page, device, lang)
    while mirror.view.phase == "playing":
        play(page, device, mirror, mirror.legal()[0])
    assert mirror.view.phase == "hand_over"

    dialog = page.locator("#ht-end-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#ht-end-dialog:modal")).to_be_visible()
    expect(dialog.get_by_role("heading")).to_contain_text("1")
    rows = dialog.locator("tbody tr")
    expect(rows).to_have_count(1)
    scores = mirror.view.hand_scores[0]
    expect(rows.first.locator("td")).to_have_text([str(s) for s in scores])
    expect(dialog.locator("tfoot td")).to_have_text([str(s) for s in mirror.view.totals])
    assert sum(scores) in (26, 78), "26 points a hand, or 3 × 26 after a moon"
    assert_no_axe_violations(axe, page, f"hand-over dialog ({lang}, {device})")

    # The next hand: dealt afresh, passing to the right.
    press_and_wait(page, dialog.locator("form button"), device)
    mirror.match.next_hand()
    expect(page.locator("dialog:modal")).to_have_count(0)
    assert_table(page, mirror, lang, "hand 2 dealt")
    expect(page.get_by_role("button", name=TEXT["pass_right"][lang])).to_be_visible()


@cache
def hold_hand_deal() -> str:
    """The first deal where, playing as the tests do, hand 4 (no passing) opens with the three
    bots' cards before the player's turn."""
    for number in range(100):
        mirror = hold_hand_mirror(code(number))
        if len(mirror.view.trick) == 3:
            return code(number)
    raise AssertionError("no deal found")


def play_hands(mirror: Mirror, hands: int, act=lambda path, body: None) -> None:
    """Play ``hands`` hands as the tests do, each action also given to ``act``."""
    for hand in range(hands):
        chosen = pass_choice(mirror.match)
        act("pass", {"cards": chosen})
        mirror.pass_cards(chosen)
        while mirror.view.phase == "playing":
            card_ = mirror.legal()[0]
            act("play", {"card": card_})
            mirror.play(card_)
        if hand < hands - 1:
            act("next-hand", {})
            mirror.match.next_hand()


def hold_hand_mirror(deal: str) -> Mirror:
    """The match after hand 3 and Next hand: hand 4's bots' cards on the table."""
    mirror = Mirror(deal)
    play_hands(mirror, 3)
    mirror.match.next_hand()
    play_bots(mirror.match)
    return mirror


# Every dialog that opens from now on, by its heading.
WATCH_DIALOGS_JS = """() => {
  window.__opened = [];
  new MutationObserver((records) => {
    for (const r of records) {
      const dialogs = r.type === "attributes" ? [r.target]
        : Array.from(r.addedNodes).flatMap((n) => n.querySelectorAll
          ? [...(n.matches("dialog") ? [n] : []), ...n.querySelectorAll("dialog")] : []);
      for (const d of dialogs) if (d.open) window.__opened.push(d.querySelector("h2").textContent);
    }
  }).observe(document.body, {subtree: true, childList: true, attributes: true,
                             attributeFilter: ["open"]});
}"""

# When the first of the bots' cards of the new hand is on the table: whether a dialog is still
# open and which "Next hand" buttons could still be pressed.
FIRST_BOT_CARD_JS = """([seat, card]) => {
  if (!document.querySelector(`#ht-trick [data-seat="${seat}"][data-card="${card}"]`)) return null;
  const live = Array.from(document.querySelectorAll("[data-action=next-hand]"))
    .filter((b) => !b.disabled && b.checkVisibility());
  return {open: document.querySelectorAll("dialog[open]").length, live: live.length};
}"""


@pytest.mark.parametrize(("device", "lang"), [("phone", "en"), ("desktop", "vi")])
def test_next_hand_into_a_hand_without_passing(new_page, device, lang):
    """Issue 27: "Next hand" into hand 4 (no passing, the bots lead) closes the end-of-hand
    dialog at once, while the bots' first cards come; a second tap does nothing (no refusal)
    and the dialog of that hand never opens again."""
    deal = hold_hand_deal()
    page = new_page(device, lang)
    page.goto("/hearts")
    created = page.request.post("/api/hearts/games", data={"deal": deal})
    assert created.ok, created.text()
    game = created.json()["game_id"]

    def act(path: str, body: dict) -> None:
        answer = page.request.post(f"/api/hearts/games/{game}/{path}", data=body)
        assert answer.ok, answer.text()

    mirror = Mirror(deal)
    play_hands(mirror, 3, act)
    page.goto("/hearts")
    dialog = page.locator("#ht-end-dialog")
    expect(page.locator("#ht-end-dialog:modal")).to_be_visible()
    page.evaluate(WATCH_DIALOGS_JS)
    refusals = []
    page.on("response", lambda r: refusals.append(r.url) if r.status == 409 else None)

    mirror.match.next_hand()
    first = play_bots(mirror.match.copy())[0]
    button = dialog.get_by_role("button", name=translator(lang).gettext("Next hand"))
    box = button.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    press(button, device)
    state = page.wait_for_function(FIRST_BOT_CARD_JS, arg=[first.seat, card_text(first.card)])
    assert state.json_value() == {"open": 0, "live": 0}, "the dialog closed, nothing to tap twice"
    # A second tap where the button was.
    if device == "phone":
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)
    # Whatever the second tap sent has been answered (htmx marks a form while its request is
    # on its way, from the click on).
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    play_bots(mirror.match)
    assert_table(page, mirror, lang, "hand 4, the bots' cards")
    for said in (page.get_by_role("log"), page.get_by_role("alert")):
        expect(said).not_to_contain_text(translator(lang).gettext("That cannot be done now."))
    assert refusals == []
    assert page.evaluate("window.__opened") == []
    expect(page.locator("dialog[open]")).to_have_count(0)


FOCUS_JS = """() => {
  const el = document.activeElement;
  const cards = Array.from(document.querySelectorAll("#ht-hand button.card"));
  return {card: el.closest("#ht-hand") ? el.dataset.card : null,
          stops: cards.filter((c) => c.tabIndex >= 0).length};
}"""


def tab_to(page: Page, where: str, limit: int = 40) -> None:
    """Press Tab until ``where`` (a JS function of the focused element) holds."""
    for _ in range(limit):
        if page.evaluate(f"() => ({where})(document.activeElement)"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {where}")


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_keyboard_only_the_hand_is_one_tab_stop_and_keeps_the_focus(new_page, lang):
    """Issue 27: the hand is one Tab stop (arrows, Home and End inside); after Pass and after
    Undo the focus is back in the hand; an undo is said in the live region."""
    deal = mid_trick_deal()
    page = new_page("desktop", lang)
    open_match(page, deal)
    mirror = Mirror(deal)
    codes = page.locator("#ht-hand button[data-card]").evaluate_all(
        "cards => cards.map((c) => c.dataset.card)"
    )
    tab_to(page, "el => el.closest('#ht-hand')")
    focus = page.evaluate(FOCUS_JS)
    assert (focus["card"], focus["stops"]) == (codes[0], 1)
    page.keyboard.press("End")
    assert page.evaluate(FOCUS_JS)["card"] == codes[-1]
    page.keyboard.press("Home")
    assert page.evaluate(FOCUS_JS)["card"] == codes[0]
    page.keyboard.press("Tab")  # out of the hand at once: one stop for 13 cards
    assert page.evaluate(FOCUS_JS)["card"] is None
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUS_JS)["card"] == codes[0]

    # Passing with the keyboard alone; the focus comes back to the hand.
    chosen = pass_choice(mirror.match)
    for code_ in codes:
        if code_ in chosen:
            page.keyboard.press("Space")
        page.keyboard.press("ArrowRight")
    pass_label = TEXT["pass_left"][lang]
    tab_to(page, f"el => el.textContent.includes({pass_label!r})")
    before = htmx_done(page)
    page.keyboard.press("Enter")
    page.wait_for_function("n => window.__htmxDone > n", arg=before)
    mirror.pass_cards(chosen)
    assert_table(page, mirror, lang, "passed by keyboard")
    focus = page.evaluate(FOCUS_JS)
    assert focus["card"] in mirror.legal() and focus["stops"] == 1, focus

    # Play with the keyboard, then Undo with it: the focus is back in the hand.
    target = mirror.legal()[0]
    codes = page.locator("#ht-hand button[data-card]").evaluate_all(
        "cards => cards.map((c) => c.dataset.card)"
    )
    page.keyboard.press("Home")
    for _ in range(codes.index(target)):
        page.keyboard.press("ArrowRight")
    before = htmx_done(page)
    page.keyboard.press("Enter")
    page.wait_for_function("n => window.__htmxDone > n", arg=before)
    mirror.play(target)
    assert_table(page, mirror, lang, "played by keyboard")
    tab_to(page, f"el => el.textContent.trim() === {TEXT['undo'][lang]!r}")
    before = htmx_done(page)
    page.keyboard.press("Enter")
    page.wait_for_function("n => window.__htmxDone > n", arg=before)
    mirror.match.undo()
    assert_table(page, mirror, lang, "undone by keyboard")
    focus = page.evaluate(FOCUS_JS)
    assert focus["card"] is not None and focus["stops"] == 1, focus
    undone = translator(lang).gettext("Undone: %(cards)s back in your hand.")
    expect(page.locator("#status")).to_have_text(undone % {"cards": card_name(target, lang)})


def contrast(a: str, b: str) -> float:
    """WCAG contrast of two computed colours ("rgb(r, g, b)")."""

    def luminance(colour: str) -> float:
        channels = [int(x) / 255 for x in colour[colour.index("(") + 1 : -1].split(",")[:3]]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize(("device", "lang"), [("phone", "vi"), ("desktop", "en")])
def test_dimmed_cards_keep_their_text_contrast(new_page, axe, device, lang):
    """Issue 27: the rank on a dimmed card, red or black, keeps 4.5:1 on its grey."""
    page, _ = passed_hand(new_page, device, lang)
    inks = page.locator('#ht-hand .card[aria-disabled="true"]').evaluate_all(
        """cards => cards.map((c) => [c.dataset.card, getComputedStyle(c).color,
                                     getComputedStyle(c).backgroundColor])"""
    )
    assert {code_[-1] in "HD" for code_, _, _ in inks} == {True, False}, "red and black dimmed"
    results = axe.run(page, context="#ht-hand", options={"runOnly": ["color-contrast"]})
    assert results.violations_count == 0, results.generate_report()
    for code_, ink, paper in inks:  # every card, those axe cannot judge included
        assert contrast(ink, paper) >= 4.5, (code_, ink, paper)


@pytest.mark.parametrize(
    ("device", "lang", "word"), [("phone", "en", "Tap"), ("desktop", "en", "Click"),
                                 ("phone", "vi", "Chạm"), ("desktop", "vi", "Bấm")]
)
def test_the_skip_hint_speaks_to_the_device(new_page, device, lang, word):
    """Issue 27: the first replay's hint says "Click the table…" with a mouse, "Tap…" on a
    touch screen."""
    deal = mid_trick_deal()
    page = new_page(device, lang)
    open_match(page, deal)
    pass_by_pressing(page, device, lang, Mirror(deal))
    said = page.get_by_role("log").get_by_role("paragraph").all_text_contents()
    hints = [text for text in said if "bots’" in text or "người máy" in text]
    assert [text.split()[0] for text in hints] == [word], hints
