"""Replays on a phone (issue 33): a finished Hearts match scrubbed with the range, stepped with
the buttons and the keyboard, played and paused; a lost Heart to Heart game stepped to the move
that lost it; at 360×640, 390×844, 844×390 and 1280×800, in both languages; axe clean at every
size in English and on the phone in Vietnamese."""

from __future__ import annotations

import pytest
from browser_kit import assert_no_axe_violations, press, screenshot
from playwright.sync_api import Page, expect

from app.rules.heart_to_heart import target_text
from tests.assists.test_where_lost import stalemated

pytestmark = pytest.mark.browser

SIZES = [(360, 640), (390, 844), (844, 390), (1280, 800)]


def finished_match(page: Page) -> str:
    """A short match against Easy bots, played through the API by this page's browser."""
    answer = page.request.post("/api/hearts/games",
                               data={"deal": "HT1-E-AAAAAAB", "rules": {"target": 50}})
    assert answer.status == 201, answer.text()
    state = answer.json()
    url = f"/api/hearts/games/{state['game_id']}"
    while state["phase"] != "match_over":
        if state["phase"] == "passing":
            answer = page.request.post(f"{url}/pass", data={"cards": state["hand"][:3]})
        elif state["phase"] == "playing":
            answer = page.request.post(f"{url}/play", data={"card": state["legal"][0]})
        else:
            answer = page.request.post(f"{url}/next-hand", data={})
        assert answer.ok, answer.text()
        state = answer.json()
    return state["game_id"]


def cards_in(page: Page, seat: int) -> int:
    return page.locator(f'[data-rp-hand="{seat}"] .card').count()


def step_text(page: Page) -> str:
    return page.locator('[data-rp="pos"]').inner_text()


def test_a_hearts_replay_is_scrubbed_stepped_and_played_on_a_phone(new_page, axe):
    phone = new_page("phone", "en")
    phone.goto("/hearts")
    game_id = finished_match(phone)
    phone.goto("/hearts")
    link = phone.locator('dialog[open] a[data-action="replay"]')
    press(link, "phone")
    expect(phone).to_have_url(f"{phone.url.split('/hearts')[0]}/hearts/games/{game_id}/replay")
    # The deal: thirteen cards face up in every hand.
    for seat in range(4):
        assert cards_in(phone, seat) == 13
    expect(phone.locator('[data-rp="say"]')).to_contain_text("Hand 1")
    assert_no_axe_violations(axe, phone, "replay, phone, en")
    screenshot(phone, "replays/hearts-phone-en.png")
    # Step buttons.
    press(phone.locator('button[data-rp="next"]'), "phone")  # the pass
    press(phone.locator('button[data-rp="next"]'), "phone")  # the 2♣
    expect(phone.locator('[data-rp="trick"] .card')).to_have_count(1)
    expect(phone.locator('[data-rp="say"]')).to_contain_text("played 2 of clubs")
    # The range, as a thumb drags it: to the end of the first trick.
    phone.locator('[data-rp="range"]').fill("5")
    expect(phone.locator('[data-rp="trick"] .card')).to_have_count(4)
    expect(phone.locator('[data-rp="say"]')).to_contain_text("took the trick")
    assert sum(cards_in(phone, seat) for seat in range(4)) == 48
    # Jump to a hand, to a trick.
    phone.locator('select[data-rp="hand"]').select_option(label="2")
    expect(phone.locator('[data-rp="say"]')).to_contain_text("Hand 2")
    phone.locator('select[data-rp="trick-jump"]').select_option("13")
    expect(phone.locator('[data-rp="trick"] .card')).to_have_count(1)
    # The keyboard: End, Home, arrows, space plays and pauses.
    phone.locator("h1").click()
    phone.keyboard.press("End")
    total = int(phone.locator('[data-rp="range"]').get_attribute("max")) + 1
    expect(phone.locator('[data-rp="pos"]')).to_have_text(f"{total} / {total}")
    expect(phone.locator('[data-rp="say"]')).to_contain_text("wins the match")
    assert sum(cards_in(phone, seat) for seat in range(4)) == 0
    phone.keyboard.press("Home")
    expect(phone.locator('[data-rp="pos"]')).to_have_text(f"1 / {total}")
    phone.keyboard.press("ArrowRight")
    expect(phone.locator('[data-rp="pos"]')).to_have_text(f"2 / {total}")
    phone.locator('select[data-rp="speed"]').select_option("4")
    phone.locator("h1").click()
    phone.keyboard.press(" ")
    expect(phone.locator('button[data-rp="play"]')).to_have_attribute("aria-pressed", "true")
    expect(phone.locator('[data-rp="pos"]')).not_to_have_text(f"2 / {total}")
    phone.keyboard.press(" ")
    expect(phone.locator('button[data-rp="play"]')).to_have_attribute("aria-pressed", "false")
    # The review of the player's own plays is on their steps.
    phone.keyboard.press("Home")
    for _ in range(6):
        phone.keyboard.press("ArrowRight")
        if phone.locator('[data-rp="note"]').is_visible():
            break
    expect(phone.locator('[data-rp="note"]')).to_contain_text("Review:")

    # The same replay, through its share link, at every size, in both languages; axe at every
    # size in English, and in Vietnamese on the phone (the same page in other words).
    share = phone.locator("a[data-share]").get_attribute("href")
    for lang in ("en", "vi"):
        other = new_page("desktop", lang)
        for width, height in SIZES:
            other.set_viewport_size({"width": width, "height": height})
            other.goto(share)
            assert cards_in(other, 0) == 13
            if height > width:
                # The whole table, the bottom hand too, opens above the pinned timeline.
                hand = other.locator('[data-rp-hand="0"]').bounding_box()
                dock = other.locator("[data-timeline]").bounding_box()
                assert hand and dock and hand["y"] + hand["height"] <= dock["y"], (width, lang)
            other.locator('[data-rp="range"]').fill("20")
            expect(other.locator('[data-rp="trick"] .card')).not_to_have_count(0)
            if lang == "en" or (width, height) == (390, 844):
                assert_no_axe_violations(axe, other, f"shared replay {width}×{height} {lang}")
            screenshot(other, f"replays/hearts-{width}x{height}-{lang}.png")
            width_used = other.evaluate("document.documentElement.scrollWidth")
            assert width_used <= width, f"{width}×{height} {lang} scrolls sideways"


def test_a_heart_to_heart_replay_goes_to_the_move_that_lost_it(new_page, axe):
    game, moves, lost_at = stalemated(40)
    for lang in ("en", "vi"):
        phone = new_page("phone", lang)
        phone.goto("/heart-to-heart")
        answer = phone.request.post("/api/heart-to-heart/games", data={"deal": game.deal})
        game_id = answer.json()["game_id"]
        for move in moves:
            for target in move.taps:
                tapped = phone.request.post(f"/api/heart-to-heart/games/{game_id}/tap",
                                            data={"target": target_text(target)})
                assert tapped.ok
        phone.goto(f"/heart-to-heart/games/{game_id}/replay")
        # The deal: only the tip (position 24) is free.
        expect(phone.locator("#p0")).to_have_attribute("data-covered", "true")
        expect(phone.locator("#p24")).not_to_have_attribute("data-covered", "true")
        press(phone.locator('button[data-rp="to-lost"]'), "phone")
        expect(phone.locator('[data-rp="pos"]')).to_have_text(
            f"{lost_at + 1} / {len(moves) + 1}")
        expect(phone.locator("[data-hint=true]")).not_to_have_count(0)
        phone.locator("h1").click()
        phone.keyboard.press("ArrowRight")
        lost_words = {"en": "This move lost the game", "vi": "Nước đi này làm thua ván"}[lang]
        expect(phone.locator('[data-rp="note"]')).to_contain_text(lost_words)
        assert_no_axe_violations(axe, phone, f"heart to heart replay {lang}")
        screenshot(phone, f"replays/heart-to-heart-phone-{lang}.png")
        # The other sizes: axe in English (Vietnamese had it on the phone above), the
        # pictures in both.
        for width, height in SIZES[1:]:
            phone.set_viewport_size({"width": width, "height": height})
            if lang == "en":
                assert_no_axe_violations(axe, phone,
                                         f"heart to heart replay {width}×{height} {lang}")
            screenshot(phone, f"replays/heart-to-heart-{width}x{height}-{lang}.png")
