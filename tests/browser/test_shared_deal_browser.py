"""A shared deal URL opened while a game is unfinished: the page asks first (an open, modal
<dialog> with a heading), replaces nothing until the player answers, and does what they pick."""

from __future__ import annotations

import re

import pytest
from browser_kit import assert_no_axe_violations, press, press_and_wait
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

BOTH = [("phone", "vi"), ("desktop", "en")]
H2H_MINE, H2H_SHARED = "HH1-N-AAAAAAM", "HH1-W-AAAAAAC"
CONTINUE = {"vi": "Chơi tiếp", "en": "Continue"}
HEARTS_MINE, HEARTS_SHARED = "HT1-N-AAAAAAB", "HT1-E-AAAAAAD"


def ask_and_answer(page: Page, axe, device: str, lang: str, url: str, mine: str, shared: str,
                   progress) -> None:
    """Open ``url`` (the shared deal) while ``mine`` is unfinished: check the question, keep
    the game, then open it again and take the shared deal."""
    deal = page.locator('[data-info="deal"]')
    page.goto(url)
    question = page.locator("dialog[open]")
    expect(question).to_have_count(1)
    expect(page.locator("dialog:modal")).to_have_count(1)
    expect(question.get_by_role("heading")).to_be_visible()
    expect(question).to_contain_text(shared)
    # Nothing replaced yet: the game behind the question is still the player's own.
    expect(deal).to_have_text(mine)
    progress()
    # The question must be answered: Escape does not dismiss it.
    page.keyboard.press("Escape")
    expect(page.locator("dialog:modal")).to_have_count(1)
    assert_no_axe_violations(axe, page, f"shared-deal question ({lang}, {device})")

    # Keeping the game: the dialog's other link asks whether the game can still be won.
    press(question.locator("a.btn"), device)
    expect(page.locator("dialog[open]")).to_have_count(0)
    expect(deal).to_have_text(mine)
    progress()

    page.goto(url)
    press(page.locator("dialog[open] form button"), device)
    expect(deal).to_have_text(shared)
    expect(page.locator("dialog[open]")).to_have_count(0)


@pytest.mark.parametrize(("device", "lang"), BOTH)
def test_heart_to_heart_asks_before_replacing(new_page, axe, device, lang):
    page = new_page(device, lang)
    page.goto(f"/heart-to-heart/deal/{H2H_MINE}")
    moves = page.locator('[data-info="moves"]')
    # Before any move the game is not "unfinished": a shared deal simply replaces it.
    page.goto(f"/heart-to-heart/deal/{H2H_SHARED}")
    expect(page).to_have_url(re.compile(r"/heart-to-heart$"))
    expect(page.locator('[data-info="deal"]')).to_have_text(H2H_SHARED)
    expect(page.locator("dialog[open]")).to_have_count(0)

    page.goto(f"/heart-to-heart/deal/{H2H_MINE}")
    press_and_wait(page, page.locator('button[data-pile="stock"]'), device)
    expect(moves).to_have_text("1")
    # Home offers to continue the unfinished game.
    page.goto("/")
    expect(page.get_by_role("link", name=CONTINUE[lang])).to_have_attribute(
        "href", "/heart-to-heart"
    )
    page.goto("/heart-to-heart")
    ask_and_answer(
        page, axe, device, lang, f"/heart-to-heart/deal/{H2H_SHARED}", H2H_MINE, H2H_SHARED,
        lambda: expect(moves).to_have_text("1"),
    )
    expect(moves).to_have_text("0")


@pytest.mark.parametrize(("device", "lang"), BOTH)
def test_hearts_asks_before_replacing(new_page, axe, device, lang):
    page = new_page(device, lang)
    # Nothing passed or played yet: a shared deal simply replaces the match.
    page.goto(f"/hearts/deal/{HEARTS_SHARED}")
    page.goto(f"/hearts/deal/{HEARTS_MINE}")
    expect(page.locator('[data-info="deal"]')).to_have_text(HEARTS_MINE)
    expect(page.locator("dialog[open]")).to_have_count(0)
    hand = page.locator("#ht-hand")
    for code in page.locator("#ht-hand button[data-card]").evaluate_all(
        "cards => cards.slice(0, 3).map((c) => c.dataset.card)"
    ):
        press(page.locator(f'#ht-hand [data-card="{code}"]'), device)
    press_and_wait(page, page.locator(".ht-pass-button"), device)
    expect(hand).to_have_attribute("data-phase", "playing")
    ask_and_answer(
        page, axe, device, lang, f"/hearts/deal/{HEARTS_SHARED}", HEARTS_MINE, HEARTS_SHARED,
        lambda: expect(hand).to_have_attribute("data-phase", "playing"),
    )
    expect(hand).to_have_attribute("data-phase", "passing")
