"""A table with friends in two browsers: a phone (English) and a desktop (Vietnamese) sit with
two bots and play a whole hand, each seeing the other's plays live through the event stream;
a reload mid-hand keeps the seat."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from browser_kit import (
    assert_fits_the_screen,
    assert_no_axe_violations,
    choose,
    open_table,
    press,
    press_and_wait,
    screenshot,
    sit,
)
from playwright.sync_api import Page, expect

from app.rules.hearts_rules import HeartsRules
from app.store import open_store
from app.web.hearts.tables.service import Table
from tests.rules.test_hearts_house_rules import moon_position

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
    invite = open_table(phone, "An")
    assert invite.startswith("http://") and "/hearts/t/" in invite  # made absolute
    table_id = invite.rsplit("/", 1)[1]

    desktop.goto(invite)
    expect(desktop.locator('[data-action="sit"]')).to_have_count(3)
    sit(desktop, invite, 2, "Lan")
    expect(desktop.locator('[data-seat-row="2"]')).to_contain_text("Lan")
    # The creator's page shows the new player live.
    expect(phone.locator('[data-seat-row="2"]')).to_contain_text("Lan")

    choose(phone, "seconds", "none")
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
    invite = open_table(phone, "An")
    sit(desktop, invite, 2, "Lan")
    expect(phone.locator('[data-seat-row="2"]')).to_contain_text("Lan")
    choose(phone, "seconds", seconds)
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


# Issue 27: the lobby and an away seat at the four screens every page must fit, both languages.
SIZES = [(360, 640), (390, 844), (844, 390), (1280, 800)]
README_SHOTS = {(390, 844): "phone", (844, 390): "landscape", (1280, 800): "desktop"}

# What sticks out sideways: the page, or an element that can be seen or used; a label that
# spills out of its button.
SIDEWAYS_JS = """() => {
  const out = [];
  const root = document.documentElement;
  if (root.scrollWidth > innerWidth) out.push(`the page is ${root.scrollWidth} px wide`);
  const wanted = "#main button, #main input, #main summary, #main .ht-seat, #main h1, #main h2,"
    + " #main p, #main legend, #main .tb-segments span";
  for (const el of document.querySelectorAll(wanted)) {
    if (!el.checkVisibility()) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const name = el.id || el.className || el.localName;
    if (r.left < -0.5 || r.right > innerWidth + 0.5) out.push(`${name} ${r.left}-${r.right}`);
    if (el.localName === "button" && el.scrollWidth > el.clientWidth + 1)
      out.push(`${name}: "${el.innerText}" spills out`);
  }
  return out;
}"""

# Where the lobby's felt is on the screen: its top and bottom, and the screen's height.
FELT_JS = """() => {
  const r = document.querySelector("#tb-room").getBoundingClientRect();
  return [r.top, r.bottom, innerHeight];
}"""

WAITING_FRIENDS = {"en": "Waiting for friends: 3 seats are free.",
                   "vi": "Đang chờ bạn bè: còn 3 ghế"}
WAITING_HOST = {"en": "Waiting for An to start the match.", "vi": "Đang chờ An bắt đầu trận."}
COPIED = {"en": "Link copied: send it to your friends.", "vi": "Đã sao chép liên kết"}


def fits_sideways(page: Page, where: str, shot: str) -> None:
    """At each size: nothing sideways off the screen (the page may scroll down), no spilled
    label, a screenshot to look at."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function("() => document.fonts.status === 'loaded'")
        outside = page.evaluate(SIDEWAYS_JS)
        assert not outside, f"{where} at {width}x{height}: {outside}"
        screenshot(page, f"tables/{shot}-{width}x{height}.png")


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_lobby_like_the_table_at_every_size(new_page, axe, lang):
    host, guest = new_page("phone", lang), new_page("desktop", lang)
    host.context.grant_permissions(["clipboard-read", "clipboard-write"])
    # The page that asks a first table's name reads light on the felt, as the lobby does (it
    # once kept a light card's dark ink on a dark panel, which axe cannot judge over the felt).
    host.goto("/hearts/tables/new")
    inks = host.evaluate(
        """() => [...document.querySelectorAll('.tb-first-panel :is(h1, p, label)')]
              .map((el) => getComputedStyle(el).color.match(/[0-9.]+/g).slice(0, 3).map(Number))
              .map(([r, g, b]) => 0.2126 * r + 0.7152 * g + 0.0722 * b)"""
    )
    assert len(inks) == 4 and min(inks) > 150, inks
    # The creator gives a name before the table opens, and sits under it.
    invite = open_table(host, "An")
    expect(host.locator("#tb-title")).to_be_visible()  # a heading, the invite first
    expect(host.locator('[data-seat-row="0"] .ht-seat-name')).to_have_text(re.compile(r"^An"))
    expect(host.locator("#tb-waiting")).to_contain_text(WAITING_FRIENDS[lang])
    expect(host.locator('[data-seat-row="2"] .tb-free')).to_be_visible()
    # Copy puts the whole link on the clipboard and says so.
    host.locator("#tb-link ~ [data-copy-link]").click()  # the invite's, not the watch link's
    expect(host.locator("#status")).to_contain_text(COPIED[lang])
    assert host.evaluate("navigator.clipboard.readText()") == invite
    # The room's settings by keyboard: a radio group, the arrow keys move the choice.
    host.locator('input[name="level"][value="normal"]').focus()
    host.keyboard.press("ArrowRight")
    expect(host.locator('input[name="level"][value="hard"]')).to_be_checked()

    # A friend without a name: one field for the page, each free seat's button sends it.
    guest.goto(invite)
    expect(guest.locator("#tb-name-input")).to_be_visible()
    assert_no_axe_violations(axe, guest, f"the lobby before sitting ({lang})")
    sit(guest, invite, 2, "Lan")
    expect(guest.locator("#tb-waiting")).to_have_text(WAITING_HOST[lang])
    expect(guest.locator('[data-seat-row="2"][data-seat="0"]')).to_contain_text("Lan")
    # The host's page shows the friend live, and keeps the level being chosen (no reload).
    expect(host.locator('[data-seat-row="2"]')).to_contain_text("Lan")
    expect(host.locator('input[name="level"][value="hard"]')).to_be_checked()

    for page, who in ((host, "host"), (guest, "guest")):
        fits_sideways(page, f"the {who}'s lobby ({lang})", f"lobby-{who}-{lang}")
        assert_no_axe_violations(axe, page, f"the {who}'s lobby ({lang})")
    if lang == "en":
        for size, device in README_SHOTS.items():
            host.set_viewport_size({"width": size[0], "height": size[1]})
            screenshot(host, f"table-lobby-{device}.png")
    # Where the felt sits beside the settings (a phone held sideways, a desktop), it is on the
    # first screen, not centred on the settings' height, and stays there as they scroll.
    for width, height in ((844, 390), (1280, 800)):
        host.set_viewport_size({"width": width, "height": height})
        for scrolled in ("0", "document.documentElement.scrollHeight"):
            host.evaluate(f"scrollTo(0, {scrolled})")
            top, bottom, screen = host.evaluate(FELT_JS)
            assert top >= 0 and bottom <= screen, f"the felt at {width}x{height}: {top}-{bottom}"

    choose(host, "seconds", "none")
    host.locator('[data-action="start"]').click()
    expect(host.locator(HAND)).to_have_count(13)
    table = host.request.get(f"/api/hearts/tables/{invite.rsplit('/', 1)[1]}").json()
    assert table["bot_level"] == "hard" and table["turn_seconds"] is None


def api_state(page: Page, table_id: str) -> dict:
    return page.request.get(f"/api/hearts/tables/{table_id}").json()


def play_until_north_s_bot_played(phone: Page, table_id: str) -> None:
    """The phone passes and plays until the bot of North, who is away, has played a card.

    A round that waits for the table fails at once if the table never moves; the bound only
    stops a loop that acts without effect, and is wide, as a busy machine takes more rounds
    (a round can read the table just before the change it waits for)."""
    for _ in range(150):
        state = api_state(phone, table_id)
        if state["seats"][2]["played_away"]:
            return
        if state["phase"] == "passing" and not state["pass_chosen"]:
            pass_three(phone, "phone")
        elif state["phase"] == "playing" and state["turn"] == 0:
            caught_up(phone, table_id, phone)
            play_one(phone, "phone")
        else:  # the bots' turn: the table moves on by itself
            phone.wait_for_function(
                """async ([url, version]) =>
                     (await (await fetch(url)).json()).version > version""",
                arg=[f"/api/hearts/tables/{table_id}", state["version"]],
                polling=250,
            )
    north = state["seats"][2]
    pytest.fail(f"North's bot never played (the table last seen at version {state['version']}: "
                f"phase {state['phase']}, turn {state['turn']}, North away {north['away']})")


SO_FAR = {"en": "Your bot has played", "vi": "Đến giờ người máy đã đánh thay bạn"}
WHILE_AWAY = {"en": "While you were away, your bot played",
              "vi": "Trong lúc bạn vắng mặt, người máy đã đánh thay bạn"}


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_an_away_player_comes_back_and_reads_what_their_bot_played(new_page, axe, lang):
    phone, desktop = new_page("phone", "en"), new_page("desktop", lang)
    invite = open_table_of_two(phone, desktop, "none")
    table_id = invite.rsplit("/", 1)[1]
    context = desktop.context
    desktop.close()
    expect(phone.locator('#ht-seat-2[data-away="true"]')).to_have_count(1, timeout=LONG_WAIT_MS)
    play_until_north_s_bot_played(phone, table_id)

    back = context.new_page()
    back.goto(invite)
    form = back.locator("#tb-back form")
    expect(form).to_contain_text(SO_FAR[lang])
    fits_sideways(back, f"the away player's table ({lang})", f"away-{lang}")
    for width, height in SIZES:  # "I'm back" is on the screen, where the thumb is
        back.set_viewport_size({"width": width, "height": height})
        expect(back.locator('[data-action="back"]'), f"at {width}x{height}").to_be_in_viewport(
            ratio=1)
    assert_no_axe_violations(axe, back, f"a table while away ({lang})")

    back.locator('[data-action="back"]').click()
    note = back.locator("[data-played-away]")
    expect(note).to_contain_text(WHILE_AWAY[lang])
    played = api_state(back, table_id)["seats"][2]["played_away"]
    assert played and note.locator("[data-card]").evaluate_all(
        "cards => cards.map(c => c.dataset.card)") == played
    assert_no_axe_violations(axe, back, f"the table back from away ({lang})")
    screenshot(back, f"tables/back-{lang}.png")
    back.locator('[data-action="seen-away"]').click()
    expect(note).to_have_count(0)
    expect(back.locator(HAND)).not_to_have_count(0)
    expect(phone.locator('#ht-seat-2[data-away="false"]')).to_have_count(1)


def test_the_shooter_answers_the_moon_question_at_a_table(new_page, store_url):
    """South alone with three bots shot the moon under the shooter's choice (the table's
    match set in the store): the solo page's question, answered by a tap."""
    phone = new_page("phone", "en")
    table_id = open_table(phone, "An").rsplit("/", 1)[1]
    choose(phone, "seconds", "none")
    phone.locator('[data-action="start"]').click()
    expect(phone.locator(HAND)).to_have_count(13)
    match = moon_position(HeartsRules(moon="shooters_choice"), shooter=0)
    match.play(0, seat=3)  # East's 2♣: South took every point
    store = open_store(store_url, 30)

    async def set_match() -> None:
        table = Table.load(await store.get_table(table_id))
        table.match = match
        assert await store.table_compare_and_set(table_id, table.version, table.to_json())

    # Playwright's own event loop runs in this thread: the store's calls run in another.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, set_match()).result()
    phone.reload()
    dialog = phone.locator("#ht-end-dialog")
    expect(dialog).to_contain_text("You shot the moon!")
    assert_fits_the_screen(phone)
    screenshot(phone, "tables/moon-question-phone-en.png")
    press(dialog.get_by_role("button", name="26 off my total"), "phone")
    expect(dialog).to_have_attribute("data-end", "hand_over-2")
    expect(phone.locator("#ht-tot-0")).to_have_text("-16")
    screenshot(phone, "tables/moon-chosen-phone-en.png")
