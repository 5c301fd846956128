"""Heart to Heart in Chromium, on a touch phone and a desktop, in Vietnamese and English.

The page is checked against the rules engine: every tap made on the page is made on an engine
copy of the same deal too, and the page must then show exactly the engine's board (cards
covered, selected, outlined and dimmed; the piles; the info bar). Deals are picked with the
engine and the solver, so every run plays the same games.
"""

from __future__ import annotations

import re
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
    wait_htmx,
)
from playwright.sync_api import Page, expect

from app.rules.deal_codes import DealCode
from app.rules.heart_to_heart import (
    HEART_SIZE,
    HeartToHeartGame,
    new_game,
    rank_name,
    target_text,
)
from app.rules.heart_to_heart_solver import solve

pytestmark = pytest.mark.browser

TIP = HEART_SIZE - 1
BOTH = [("phone", "vi"), ("phone", "en"), ("desktop", "vi"), ("desktop", "en")]
TEXT = {
    "undo": {"vi": "Đi lại", "en": "Undo"},
    "same_rank": {"vi": "Phải cùng hạng", "en": "Must be same rank"},
    "no_moves": {"vi": "Không còn nước đi nào", "en": "No more moves"},
    "stock": {"vi": "Chồng bài rút, {n} lá", "en": "Stock, {n} cards"},
}


def code(variant: str, number: int) -> str:
    return str(DealCode("HH1", variant, number))


def draws_to_partner(game: HeartToHeartGame) -> int | None:
    """How many draws bring the tip's rank to the waste top (None: never, or already)."""
    probe = game.copy()
    tip = probe.rank_at(TIP)
    for draws in range(1, probe.stock_count + 1):
        probe.tap("stock")
        if probe.waste_top == tip:
            return draws
    return None


@cache
def partner_deal() -> tuple[str, int]:
    """The first N deal whose tip's partner is not on the waste but a few draws away, and
    that does not stall once the tip is paired."""
    for number in range(10_000):
        game = new_game(code("N", number))
        draws = draws_to_partner(game)
        if draws is None or not 2 <= draws <= 6:
            continue
        for _ in range(draws):
            game.tap("stock")
        game.tap(TIP)
        game.tap("waste")
        if game.status == "playing":
            return code("N", number), draws
    raise AssertionError("no deal found")


@cache
def stalemate_deal() -> tuple[str, int]:
    """The first N deal that stalls right after the tip pairs with the waste (the two cards
    it frees have no partner left anywhere), and how many draws bring that partner up."""
    for number in range(10_000):
        game = new_game(code("N", number))
        draws = draws_to_partner(game)
        if draws is None:
            continue
        for _ in range(draws):
            game.tap("stock")
        game.tap(TIP)
        game.tap("waste")
        if game.status == "stalemate":
            return code("N", number), draws
    raise AssertionError("no deal found")


@cache
def short_won_line() -> tuple[str, list]:
    """Among the first W deals, the one whose winning line (as the solver gives it) is
    shortest, with that line of taps."""
    lines = []
    for number in range(120):
        deal = code("W", number)
        taps = solve(new_game(deal))
        assert taps, f"{deal} is a W deal, so the solver must win it"
        lines.append((len(taps), deal, taps))
    _, deal, taps = min(lines)
    return deal, taps


# --- the board as the page shows it, and as the engine says it must be -----------------------

BOARD_JS = """(wasteName) => {
  const heart = [];
  for (let pos = 0; pos < 25; pos++) {
    const card = document.querySelector(`#h2h-heart button[data-pos="${pos}"]`);
    heart.push(card && {
      covered: card.getAttribute("aria-disabled") === "true",
      pressed: card.getAttribute("aria-pressed") === "true",
      help: card.getAttribute("data-help"),
      name: card.getAttribute("aria-label"),
    });
  }
  const stock = document.querySelector('button[data-pile="stock"]');
  const waste = document.querySelector('button[data-pile="waste"]');
  const info = (key) => document.querySelector(`[data-info="${key}"]`).textContent.trim();
  return {
    heart,
    stock: stock.getAttribute("aria-label"),
    waste: waste && {
      pressed: waste.getAttribute("aria-pressed") === "true",
      help: waste.getAttribute("data-help"),
      named: waste.getAttribute("aria-label").includes(wasteName),
    },
    score: info("score"), moves: info("moves"), deal: info("deal"),
  };
}"""


def expected_board(game: HeartToHeartGame, lang: str, *, help_on: bool = True) -> dict:
    outlined, dimmed = game.placement_help() if help_on else ((), ())

    def help_of(target) -> str | None:
        # One attribute holds both: a card that cannot pair with the selection is dimmed.
        if target in dimmed:
            return "dimmed"
        return "outlined" if target in outlined else None

    heart = []
    for pos in range(HEART_SIZE):
        if game.position_state(pos) == "removed":
            heart.append(None)
            continue
        heart.append({
            "covered": game.position_state(pos) == "covered",
            "pressed": game.selected == pos,
            "help": help_of(pos),
            "name": card_name(rank_name(game.rank_at(pos)) + "H", lang),
        })
    count = game.stock_count
    stock = TEXT["stock"][lang].format(n=count)
    if lang == "en" and count == 1:
        stock = "Stock, 1 card"
    waste = None
    if game.waste_top is not None:
        waste = {"pressed": game.selected == "waste", "help": help_of("waste"), "named": True}
    return {
        "heart": heart, "stock": stock, "waste": waste,
        "score": str(game.score), "moves": str(game.moves), "deal": game.deal,
    }


def assert_board(page: Page, game: HeartToHeartGame, lang: str, what: str, **options) -> None:
    # The contract does not fix the waste's whole name, only that it names its card.
    top = game.waste_top
    waste_name = card_name(rank_name(top) + "H", lang) if top is not None else ""
    poll_equal(page, BOARD_JS, expected_board(game, lang, **options), what, arg=waste_name)


def target(page: Page, where):
    if where == "stock":
        return page.locator('button[data-pile="stock"]')
    if where == "waste":
        return page.locator('button[data-pile="waste"]')
    return page.locator(f'#h2h-heart button[data-pos="{where}"]')


def tap(page: Page, device: str, game: HeartToHeartGame, where) -> None:
    """Tap ``where`` on the page and in the engine copy, and wait for the page's answer."""
    press_and_wait(page, target(page, where), device)
    game.tap(where)


class ApiGame:
    """A game of this browser's session played through the JSON API (the page shows it once
    loaded): for the taps a test needs made but not made on the page."""

    def __init__(self, page: Page, game_id: str) -> None:
        self.page = page
        self.game_id = game_id

    @classmethod
    def new(cls, page: Page, deal: str) -> ApiGame:
        """A new game of ``deal``, the session's current one."""
        answer = page.request.post("/api/heart-to-heart/games", data={"deal": deal})
        assert answer.status == 201, answer.text()
        return cls(page, answer.json()["game_id"])

    @classmethod
    def on(cls, page: Page) -> ApiGame:
        """The game the page shows."""
        action = page.locator("#h2h-board").get_attribute("hx-post") or ""
        found = re.search(r"/heart-to-heart/games/([^/]+)/tap$", action)
        assert found, action
        return cls(page, found[1])

    def tap(self, game: HeartToHeartGame, where) -> None:
        """Tap ``where`` through the API and in the engine copy."""
        answer = self.page.request.post(
            f"/api/heart-to-heart/games/{self.game_id}/tap", data={"target": target_text(where)}
        )
        assert answer.ok, answer.text()
        game.tap(where)


def skip_the_cascade(page: Page) -> None:
    """A key skips a win's falling cards, which would hold the dialog's buttons for seconds
    (tests/browser/test_room_browser.py checks the cascade and a tap that skips it)."""
    page.keyboard.press("Shift")
    expect(page.locator("[data-cascade]")).to_have_count(0)


def open_deal(page: Page, deal: str) -> None:
    page.goto(f"/heart-to-heart/deal/{deal}")
    expect(page).to_have_url(re.compile(r"/heart-to-heart$"))
    expect(page.locator('[data-info="deal"]')).to_have_text(deal)


MARK_JS = """() => {
  for (const el of document.querySelectorAll('#h2h-heart > *, [data-pile], [data-info]'))
    el.__kept = true;
}"""
KEPT_JS = """() => Object.fromEntries(
  Array.from(document.querySelectorAll('#h2h-heart > *, [data-pile], [data-info]'),
             (el) => [el.id || el.dataset.info, el.__kept === true]))"""


def view_of(game: HeartToHeartGame, help_on: bool = True) -> list:
    """What each heart position looks like, to tell which ones a tap changed."""
    outlined, dimmed = game.placement_help() if help_on else ((), ())
    return [
        (game.position_state(pos), game.selected == pos, pos in outlined, pos in dimmed)
        for pos in range(HEART_SIZE)
    ]


def assert_only_changed_swapped(page: Page, before: list, after: list, others: dict) -> None:
    """Heart cards that look the same after a tap are still the very same elements, and so
    are the other pieces named in ``others`` (id → expected to survive)."""
    kept = page.evaluate(KEPT_JS)
    same = {f"p{pos}" for pos in range(HEART_SIZE) if before[pos] == after[pos]}
    swapped = sorted(name for name in same if not kept.get(name))
    assert not swapped, f"unchanged heart cards were redrawn: {swapped}"
    for name, survives in others.items():
        assert kept.get(name) is survives, f"{name}: kept={kept.get(name)}, expected {survives}"


# --- tests -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("device", "lang"), BOTH)
def test_pair_tip_with_drawn_partner_then_undo(new_page, device, lang):
    deal, draws = partner_deal()
    page = new_page(device, lang)
    open_deal(page, deal)
    game = new_game(deal)
    assert_board(page, game, lang, "the deal as it comes")

    tap(page, device, game, TIP)
    assert_board(page, game, lang, "tip selected: the cards that cannot pair are dimmed")
    expect(target(page, TIP)).to_have_attribute("aria-pressed", "true")
    expect(page.locator('#h2h-heart [data-help="dimmed"]')).to_have_count(HEART_SIZE - 1)

    for _ in range(draws):
        page.evaluate(MARK_JS)
        before = view_of(game)
        tap(page, device, game, "stock")
        assert_board(page, game, lang, "a draw keeps the tip selected")
        # A draw changes the piles and the info bar; the deal code stays as it was.
        assert_only_changed_swapped(
            page, before, view_of(game), {"h2h-stock": False, "deal": True}
        )
    assert game.waste_top == game.rank_at(TIP)
    expect(target(page, "waste")).to_have_attribute("data-help", "outlined")

    page.evaluate(MARK_JS)
    before = view_of(game)
    tap(page, device, game, "waste")
    assert game.moves == draws + 1 and game.score == 10
    assert_board(page, game, lang, "the tip paired with the waste")
    expect(target(page, TIP)).to_have_count(0)
    expect(page.locator('[data-info="score"]')).to_have_text("10")
    expect(page.locator('[data-info="moves"]')).to_have_text(str(draws + 1))
    expect(page.locator('[data-info="time"]')).to_have_text(re.compile(r"^\d+:[0-5]\d$"))
    # A pair leaves the stock alone.
    assert_only_changed_swapped(
        page, before, view_of(game), {"h2h-stock": True, "h2h-waste": False, "deal": True}
    )

    undo = page.get_by_role("button", name=TEXT["undo"][lang], exact=True)
    press_and_wait(page, undo, device)
    game.undo()
    assert_board(page, game, lang, "undo puts the tip and its partner back")
    expect(target(page, TIP)).to_have_count(1)


@pytest.mark.parametrize(("device", "lang"), [("phone", "vi"), ("desktop", "en")])
def test_covered_card_does_nothing(new_page, device, lang):
    deal, _ = partner_deal()
    page = new_page(device, lang)
    open_deal(page, deal)
    game = new_game(deal)
    version = page.locator("#h2h-version").get_attribute("value")
    covered = target(page, 0)
    expect(covered).to_have_attribute("aria-disabled", "true")
    box = covered.bounding_box()
    # The top of a top-row card shows above the cards that cover it: tap there.
    for selected_first in (False, True):
        if selected_first:
            tap(page, device, game, TIP)
            version = page.locator("#h2h-version").get_attribute("value")
        with page.expect_request(lambda r: r.url.endswith("/tap")) as sent:
            press_and_wait(page, covered, device, position={"x": box["width"] / 2, "y": 6},
                           force=True)
        assert "heart%3A0" in (sent.value.post_data or ""), "the tap did not reach the card"
        game.tap(0)
        assert_board(page, game, lang, "a covered card does nothing")
        expect(page.locator("#h2h-version")).to_have_attribute("value", version)


@pytest.mark.parametrize(("device", "lang"), [("phone", "en"), ("desktop", "vi")])
def test_mismatch_moves_selection_and_options(new_page, device, lang):
    deal, _ = partner_deal()
    page = new_page(device, lang)
    open_deal(page, deal)
    game = new_game(deal)
    status = page.locator("#status")
    assert game.waste_top != game.rank_at(TIP)

    tap(page, device, game, TIP)
    tap(page, device, game, "waste")
    assert game.selected == "waste"
    assert_board(page, game, lang, "a second card of another rank becomes the selection")
    expect(target(page, TIP)).not_to_have_attribute("aria-pressed", "true")
    expect(status).not_to_contain_text(TEXT["same_rank"][lang])

    # Move errors on: the same mistake is now explained.
    press(page.locator("details.menu summary").nth(1), device)
    before = htmx_done(page)
    press(page.locator('input[name="move_errors"]'), device)
    wait_htmx(page, before)
    tap(page, device, game, TIP)
    assert game.selected == TIP
    expect(status).to_have_text(TEXT["same_rank"][lang])
    assert_board(page, game, lang, "the selection moved back to the tip")

    # Placement help off: nothing is outlined or dimmed; on again: it all comes back. (The tap
    # on the card closed the menu.)
    expect(page.locator("details.menu").nth(1)).not_to_have_attribute("open", "")
    press(page.locator("details.menu summary").nth(1), device)
    help_box = page.locator('input[name="placement_help"]')
    before = htmx_done(page)
    press(help_box, device)
    wait_htmx(page, before)
    assert_board(page, game, lang, "placement help off", help_on=False)
    expect(page.locator("[data-help]")).to_have_count(0)
    before = htmx_done(page)
    press(help_box, device)
    wait_htmx(page, before)
    assert_board(page, game, lang, "placement help on again")

    # The options are remembered by this browser: a reload keeps them.
    page.reload()
    press(page.locator("details.menu summary").nth(1), device)
    expect(page.locator('input[name="move_errors"]')).to_be_checked()
    expect(help_box).to_be_checked()


@pytest.mark.parametrize(("device", "lang"), [("phone", "vi"), ("desktop", "en")])
def test_stalemate_dialog_then_undo_out_of_it(new_page, axe, device, lang):
    deal, draws = stalemate_deal()
    page = new_page(device, lang)
    open_deal(page, deal)
    game = new_game(deal)
    tap(page, device, game, TIP)
    for _ in range(draws):
        tap(page, device, game, "stock")
    tap(page, device, game, "waste")
    assert game.status == "stalemate"

    dialog = page.locator("dialog[open]")
    expect(dialog).to_have_count(1)
    expect(dialog.get_by_role("heading")).to_have_text(TEXT["no_moves"][lang])
    expect(page.locator("dialog:modal")).to_have_count(1)
    assert_no_axe_violations(axe, page, f"no-more-moves dialog ({lang})")

    press_and_wait(page, dialog.get_by_role("button", name=TEXT["undo"][lang]), device)
    game.undo()
    expect(page.locator("dialog[open]")).to_have_count(0)
    assert_board(page, game, lang, "undo returns to play")


# How many of the solver's last taps the variants that start through the API make on the page.
LAST_TAPS = 5


# English on both devices for the README's pictures; Vietnamese once for its won dialog. The
# phone in English plays the whole line on the page; the other two make their taps through
# the API, but for the last ones (that win, and open the dialog) and the board and the
# picture half way, which they show after loading the page there.
@pytest.mark.parametrize(("device", "lang"), [("phone", "en"), ("desktop", "en"), ("phone", "vi")])
def test_win_a_w_deal_by_the_solvers_line(new_page, axe, device, lang):
    deal, taps = short_won_line()
    page = new_page(device, lang)
    game = new_game(deal)
    half = len(taps) // 2

    def half_way() -> None:
        assert_board(page, game, lang, "half way through the solver's line")
        assert_fits_the_screen(page)
        if lang == "en":
            screenshot(page, f"heart-to-heart-{device}.png")

    if (device, lang) == ("phone", "en"):
        open_deal(page, deal)
        for step, where in enumerate(taps):
            tap(page, device, game, where)
            if step == half:
                half_way()
    else:
        api = ApiGame.new(page, deal)
        for where in taps[: half + 1]:
            api.tap(game, where)
        page.goto("/heart-to-heart")
        half_way()
        for where in taps[half + 1 : -LAST_TAPS]:
            api.tap(game, where)
        page.reload()
        assert_board(page, game, lang, f"{LAST_TAPS} taps from the win")
        for where in taps[-LAST_TAPS:]:
            tap(page, device, game, where)
    assert game.status == "won"
    dialog = page.locator("dialog[open]")
    expect(dialog.get_by_role("heading")).to_be_visible()
    expect(page.locator('[data-info="score"]')).to_have_text("250")
    expect(page.locator('[data-info="moves"]')).to_have_text(str(game.moves))
    expect(page.locator("#h2h-heart button[data-pos]")).to_have_count(0)
    assert_no_axe_violations(axe, page, f"won dialog ({lang})")
    skip_the_cascade(page)

    # A won game is final: once the dialog is closed, taps change nothing and undo is off.
    press(dialog.locator('form[method="dialog"] button'), device)
    expect(page.locator("dialog[open]")).to_have_count(0)
    version = page.locator("#h2h-version").get_attribute("value")
    if game.stock_count:
        press_and_wait(page, target(page, "stock"), device)
    expect(page.locator("#h2h-version")).to_have_attribute("value", version)
    expect(page.locator('[data-info="moves"]')).to_have_text(str(game.moves))
    expect(page.get_by_role("button", name=TEXT["undo"][lang])).to_have_attribute(
        "aria-disabled", "true"
    )
