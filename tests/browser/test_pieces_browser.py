"""static/js/pieces.js: every piece of an answer reaches the scripts registered for its id
(whatever their load order), a script that takes a piece keeps it from the page, and an answer
to a stale version (409 with the board as it is now) is swapped like any other, the taps going
on from the version it holds."""

from __future__ import annotations

import pytest
from browser_kit import press, press_and_wait, wait_idle
from playwright.sync_api import expect

from app.rules.heart_to_heart import HEART_SIZE, deal_ranks

pytestmark = pytest.mark.browser

STOCK = 'button[data-pile="stock"]'
# Its stock's first two cards differ in rank: the waste's piece (its top card's rank) changes
# with each of the first two draws (a random deal draws two alike about one time in sixteen).
DEAL = "HH1-N-AAAAAAM"

# Registered after every script of the page has loaded: the order must not matter.
LISTEN_JS = """() => {
  window.__after = [];
  window.__taken = null;
  Cardroom.pieces.on("*", { after: (el) => window.__after.push(el.id) });
  Cardroom.pieces.on("h2h-version", {
    before: (piece) => { window.__taken = piece.getAttribute("value"); return true; },
  });
}"""


def test_pieces_reach_who_registered_and_a_taken_piece_stays_out(new_page):
    first_draw, second_draw = deal_ranks(DEAL)[HEART_SIZE : HEART_SIZE + 2]
    assert first_draw != second_draw
    page = new_page("desktop", "en")
    page.goto(f"/heart-to-heart/deal/{DEAL}")
    press_and_wait(page, page.locator(STOCK), "desktop")
    held = page.locator("#h2h-version").get_attribute("value")
    page.evaluate(LISTEN_JS)
    press_and_wait(page, page.locator(STOCK), "desktop")
    arrived = page.evaluate("window.__after")
    assert {"h2h-stock", "h2h-waste"} <= set(arrived), arrived
    assert "h2h-version" not in arrived
    assert page.evaluate("window.__taken") == str(int(held) + 1)
    expect(page.locator("#h2h-version")).to_have_attribute("value", held)


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_heart_to_heart_recovers_from_a_stale_version(new_page, device):
    page = new_page(device, "en")
    page.goto("/heart-to-heart")
    press_and_wait(page, page.locator(STOCK), device)
    stale = page.locator("#h2h-version").get_attribute("value")
    press_and_wait(page, page.locator(STOCK), device)
    # The page holds an old version (another tab moved): two taps go out with it queued.
    page.evaluate("v => document.getElementById('h2h-version').setAttribute('value', v)", stale)
    press(page.locator(STOCK), device)
    press(page.locator(STOCK), device)
    wait_idle(page)
    # The answer's board and version are the server's: the next tap is applied from there.
    held = int(page.locator("#h2h-version").get_attribute("value"))
    assert held > int(stale)
    press_and_wait(page, page.locator(STOCK), device)
    wait_idle(page)
    expect(page.locator("#h2h-version")).to_have_attribute("value", str(held + 1))
    stock = page.locator("#h2h-stock").inner_text()
    page.reload()
    expect(page.locator("#h2h-version")).to_have_attribute("value", str(held + 1))
    expect(page.locator("#h2h-stock")).to_have_text(stock)


def test_hearts_recovers_from_a_stale_version(new_page):
    page = new_page("desktop", "en")
    page.goto("/hearts")
    hand = page.locator("#ht-hand button.card")
    expect(hand).to_have_count(13)
    held = page.locator("#ht-version").get_attribute("value")
    page.evaluate("v => document.getElementById('ht-version').setAttribute('value', v)",
                  str(int(held) + 5))
    for n in range(3):
        press(hand.nth(n), "desktop")
    press_and_wait(page, page.locator(".ht-pass-button"), "desktop")
    wait_idle(page)
    # Refused: the hand as it is (no card passed), the status line says why, the version is
    # the server's again, and the pass goes through with it.
    expect(hand).to_have_count(13)
    expect(page.locator("#status")).not_to_be_empty()
    expect(page.locator("#ht-version")).to_have_attribute("value", held)
    for n in range(3):
        press(hand.nth(n), "desktop")
    press_and_wait(page, page.locator(".ht-pass-button"), "desktop")
    wait_idle(page)
    expect(page.locator("#ht-hand")).to_have_attribute("data-phase", "playing")
