"""A table with friends in two browsers: a phone (English) and a desktop (Vietnamese) sit with
two bots and play a whole hand, each seeing the other's plays live through the event stream;
a reload mid-hand keeps the seat."""

from __future__ import annotations

import re

import pytest
from browser_kit import assert_no_axe_violations, press, press_and_wait
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

HAND = "#ht-hand button.card"


def table_version(page: Page, table_id: str) -> int:
    return page.request.get(f"/api/hearts/tables/{table_id}").json()["version"]


def caught_up(page: Page, table_id: str, other: Page) -> None:
    """The page shows the table's latest version (the other page's change came live)."""
    expect(page.locator("#ht-version")).to_have_value(str(table_version(other, table_id)))


def pass_three(page: Page, device: str) -> None:
    cards = page.locator(HAND)
    for n in range(3):
        press(cards.nth(n), device)
        expect(cards.nth(n)).to_have_attribute("aria-pressed", "true")
    press_and_wait(page, page.locator(".ht-pass-button"), device)


def my_turn(page: Page) -> bool:
    return page.locator(f'{HAND}:not([aria-disabled="true"])').count() > 0


def play_one(page: Page, device: str) -> None:
    card = page.locator(f'{HAND}:not([aria-disabled="true"])').first
    if device == "phone":
        press(card, device)
        expect(card).to_have_attribute("aria-pressed", "true")
    press_and_wait(page, card, device)


def test_phone_and_desktop_play_a_hand_live(new_page):
    phone, desktop = new_page("phone", "en"), new_page("desktop", "vi")
    # The pages draw the table from their event stream alone, the one that carries pieces.
    streams = []
    for page in (phone, desktop):
        page.on("request", lambda r: streams.append(r.url) if "/events" in r.url else None)
    phone.goto("/")
    phone.get_by_role("button", name="Play with friends").click()
    expect(phone).to_have_url(re.compile(r"/hearts/t/[\w-]{22}$"))
    invite = phone.locator("[data-invite]").evaluate("link => link.href")  # made absolute
    assert invite.startswith("http://") and "/hearts/t/" in invite
    table_id = invite.rsplit("/", 1)[1]

    desktop.goto(invite)
    expect(desktop.locator('[data-action="sit"]')).to_have_count(3)
    desktop.locator('[data-seat-row="2"] input[name="name"]').fill("Lan")
    desktop.locator('[data-action="sit"][data-seat="2"]').click()
    expect(desktop.locator('[data-seat-row="2"]')).to_contain_text("Lan")
    # The creator's page shows the new player live.
    expect(phone.locator('[data-seat-row="2"]')).to_contain_text("Lan")

    phone.locator('select[name="seconds"]').select_option("none")
    phone.locator('[data-action="start"]').click()
    expect(phone.locator(HAND)).to_have_count(13)
    # The desktop learns of the start live and draws the match.
    expect(desktop.locator(HAND)).to_have_count(13)
    # Each sees only their own hand; the other players are seats without cards.
    phone_cards = set(phone.locator(HAND).evaluate_all("b => b.map(c => c.dataset.card)"))
    desktop_cards = set(desktop.locator(HAND).evaluate_all("b => b.map(c => c.dataset.card)"))
    assert not phone_cards & desktop_cards

    pass_three(phone, "phone")
    pass_three(desktop, "desktop")
    caught_up(phone, table_id, desktop)
    caught_up(desktop, table_id, phone)

    reloaded = False
    players = ((phone, "phone", desktop), (desktop, "desktop", phone))
    while phone.request.get(f"/api/hearts/tables/{table_id}").json()["phase"] == "playing":
        moved = False
        for page, device, other in players:
            caught_up(page, table_id, other)
            if my_turn(page):
                play_one(page, device)
                caught_up(other, table_id, page)  # the play reached the other screen live
                moved = True
                break
        assert moved, "neither player could play"
        if not reloaded and len(desktop_cards) - desktop.locator(HAND).count() >= 4:
            desktop.reload()  # mid-hand: the seat and the hand stay
            expect(desktop.locator(HAND)).not_to_have_count(0)
            reloaded = True
    assert reloaded
    expect(phone.locator("#ht-end-dialog")).to_be_visible()
    expect(desktop.locator("#ht-end-dialog")).to_be_visible()
    api = phone.request.get(f"/api/hearts/tables/{table_id}").json()
    assert api["phase"] == "hand_over" and api["deal"] is None
    assert streams and all("pieces=1" in url for url in streams)


def open_table_of_two(phone: Page, desktop: Page, seconds: str) -> str:
    """The phone opens a table, the desktop sits North, the phone starts with ``seconds``."""
    phone.goto("/")
    phone.get_by_role("button", name="Play with friends").click()
    expect(phone).to_have_url(re.compile(r"/hearts/t/[\w-]{22}$"))
    invite = phone.locator("[data-invite]").evaluate("link => link.href")  # made absolute
    desktop.goto(invite)
    desktop.locator('[data-seat-row="2"] input[name="name"]').fill("Lan")
    desktop.locator('[data-action="sit"][data-seat="2"]').click()
    expect(phone.locator('[data-seat-row="2"]')).to_contain_text("Lan")
    phone.locator('select[name="seconds"]').select_option(seconds)
    phone.locator('[data-action="start"]').click()
    expect(phone.locator(HAND)).to_have_count(13)
    expect(desktop.locator(HAND)).to_have_count(13)
    return invite


# The turn limit (15 s) or the grace period after a page goes, and a busy machine.
LONG_WAIT_MS = 60_000


def test_reactions_countdown_and_the_bots_mark(new_page, axe):
    phone, desktop = new_page("phone", "en"), new_page("desktop", "vi")
    open_table_of_two(phone, desktop, "15")
    # Both players are awaited (passing): each page counts down at both seats (its own at the
    # bottom, the other's at the top).
    for page in (phone, desktop):
        for seat in (0, 2):
            expect(page.locator(f"#ht-seat-{seat} .tb-clock")).to_have_text(re.compile(r"^0:\d\d$"))
    expect(phone.locator("#ht-seat-1 .tb-clock")).to_have_count(0)  # a bot's seat

    # A reaction from the desktop shows at its seat on both screens, and is said in words.
    desktop.get_by_role("button", name="Đánh hay").click()
    expect(desktop.locator('#ht-seat-0 .tb-bubble[data-reaction="clap"]')).to_be_visible()
    expect(phone.locator('#ht-seat-2 .tb-bubble[data-reaction="clap"]')).to_be_visible()
    expect(phone.locator("#tb-said")).to_have_text("Lan: Well played")
    expect(phone.get_by_role("button", name="Well played")).to_be_visible()
    assert_no_axe_violations(axe, phone, "a table with a reaction shown (en, phone)")
    assert_no_axe_violations(axe, desktop, "a table with a reaction shown (vi, desktop)")

    # Nobody passes: when the time runs out the bot passes for both, and marks their seats.
    for page in (phone, desktop):
        expect(page.locator("#ht-seat-0[data-auto]")).to_have_count(1, timeout=LONG_WAIT_MS)
        expect(page.locator("#ht-seat-2[data-auto]")).to_have_count(1)


def test_a_player_who_leaves_comes_back_with_one_tap(new_page):
    phone, desktop = new_page("phone", "en"), new_page("desktop", "vi")
    invite = open_table_of_two(phone, desktop, "none")
    expect(phone.locator('#ht-seat-2[data-away="false"][data-connected="true"]')).to_have_count(1)
    context = desktop.context
    desktop.close()
    # First the phone shows the desktop's page gone (a hollow dot), its player still seated.
    expect(phone.locator('#ht-seat-2[data-connected="false"]')).to_have_count(1)
    # Past the grace period the desktop's player is away: a bot plays for them.
    expect(phone.locator('#ht-seat-2[data-away="true"]')).to_have_count(1, timeout=LONG_WAIT_MS)
    expect(phone.locator("#ht-seat-2 .ht-seat-name")).to_contain_text("(bot)")
    expect(phone.locator('[data-action="back"]')).to_be_hidden()

    back = context.new_page()
    back.goto(invite)
    expect(back.locator('[data-action="back"]')).to_be_visible()
    back.locator('[data-action="back"]').click()
    expect(back.locator('[data-action="back"]')).to_be_hidden()
    expect(back.locator(HAND)).not_to_have_count(0)
    expect(phone.locator('#ht-seat-2[data-away="false"]')).to_have_count(1)
    expect(phone.locator("#ht-seat-2 .ht-seat-name")).not_to_contain_text("(bot)")
