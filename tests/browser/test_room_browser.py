"""Settings, sound, celebrations, statistics, install and offline in a real Chromium (issue 14).

Games are set up through the JSON API in the page's own session (``page.request`` shares the
browser context's cookies), with the solver's line for a won Heart to Heart deal.
"""

from __future__ import annotations

import json
import re

import pytest
from browser_kit import assert_no_axe_violations, press, press_and_wait
from playwright.sync_api import Page, expect

from app.rules.heart_to_heart import new_game, target_text
from app.rules.heart_to_heart_solver import solve

pytestmark = [pytest.mark.browser, pytest.mark.new_session]

WON_DEAL = "HH1-W-AAAAAAM"
H2H_API = "/api/heart-to-heart/games"
HEARTS_API = "/api/hearts/games"

# Counts audio contexts made and notes started, whoever makes them.
AUDIO_HOOK = """
window.__audio = { contexts: 0, notes: 0, pitches: [] };
{
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    constructor(...args) { super(...args); window.__audio.contexts += 1; }
  };
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    window.__audio.notes += 1;
    window.__audio.pitches.push(this.frequency.value);
    return start.apply(this, args);
  };
}
"""


def css(page: Page, selector: str, prop: str) -> str:
    return page.eval_on_selector(
        selector, "(el, prop) => getComputedStyle(el).getPropertyValue(prop).trim()", prop
    )


def change_setting(page: Page, name: str, value: str | bool) -> None:
    """Set a setting's control on /settings as a player does, and wait for its PUT's answer."""
    if isinstance(value, bool):
        control = page.locator(f"input[name={name}]")
    else:
        control = page.locator(f"input[name={name}][value={value}]")
    with page.expect_response(lambda r: r.url.endswith("/api/settings")) as answer:
        control.set_checked(value is not False)
    assert answer.value.status == 200


def test_each_setting_changes_what_it_says_and_stays(new_page):
    page = new_page("desktop", "en")
    page.goto("/")
    page.get_by_role("link", name="Settings").click()
    expect(page).to_have_url(re.compile(r"/settings$"))
    body = page.locator("body")
    expect(body).to_have_attribute("data-sound", "off")  # the defaults
    expect(body).not_to_have_attribute("data-motion", re.compile("."))

    change_setting(page, "card_back", "blue")
    expect(body).to_have_attribute("data-card-back", "blue")
    change_setting(page, "table_colour", "burgundy")
    expect(body).to_have_attribute("data-table", "burgundy")
    assert css(page, "body", "--felt") == "#7a1f35"
    change_setting(page, "animation_speed", "slow")
    expect(body).to_have_attribute("data-motion", "slow")
    assert css(page, "body", "--motion") == "1.6"
    change_setting(page, "left_handed", True)
    expect(body).to_have_attribute("data-hand", "left")
    change_setting(page, "sound", True)
    expect(body).to_have_attribute("data-sound", "on")
    change_setting(page, "vibration", False)
    expect(body).to_have_attribute("data-vibration", "off")
    change_setting(page, "hearts_bot_level", "hard")
    change_setting(page, "h2h_move_errors", True)
    expect(page.locator("#status")).to_have_text("Saved")

    page.reload()
    for name, value in (("card_back", "blue"), ("table_colour", "burgundy"),
                        ("animation_speed", "slow"), ("hearts_bot_level", "hard")):
        expect(page.locator(f"input[name={name}][value={value}]")).to_be_checked()
    for name, checked in (("left_handed", True), ("sound", True), ("vibration", False),
                          ("h2h_move_errors", True), ("h2h_placement_help", True)):
        expect(page.locator(f"input[name={name}]")).to_be_checked(checked=checked)

    # A second tab of the same browser: the games drawn with these settings.
    other = page.context.new_page()
    other.goto("/heart-to-heart")
    assert "rgb(27, 63, 115)" in css(other, "#h2h-stock", "background-image")  # the blue back
    assert css(other, ".board", "flex-direction") == "row-reverse"  # desktop: piles at left
    assert css(other, ".bar", "flex-direction") == "row-reverse"
    other.get_by_text("Options").click()
    expect(other.locator("input[name=move_errors]")).to_be_checked()
    other.goto("/hearts")
    expect(other.locator("body")).to_have_attribute("data-table", "burgundy")
    assert css(other, ".ht-controls", "flex-direction") == "row-reverse"
    expect(other.locator("input[name=level][value=H]")).to_be_checked()


def test_sound_is_off_by_default_and_never_before_a_tap(new_page):
    page = new_page("desktop", "en")
    page.context.add_init_script(AUDIO_HOOK)
    page.goto("/heart-to-heart")
    press_and_wait(page, page.locator("#h2h-stock"), "desktop")
    press_and_wait(page, page.locator("#h2h-stock"), "desktop")
    assert page.evaluate("window.__audio.contexts + window.__audio.notes") == 0

    assert page.request.put("/api/settings", data={"sound": True}).ok
    page.reload()
    page.wait_for_load_state("load")
    assert page.evaluate("window.__audio.contexts + window.__audio.notes") == 0
    press_and_wait(page, page.locator("#h2h-stock"), "desktop")  # the stock turns: a sound
    page.wait_for_function("() => window.__audio.notes > 0")
    assert page.evaluate("window.__audio.contexts") == 1


TRICK_PITCH = 262  # the first note of sound.js's "trick" and of no other sound


def test_hearts_sounds_follow_the_table(new_page):
    page = new_page("desktop", "en")
    page.context.add_init_script(AUDIO_HOOK)
    page.goto("/hearts")
    assert page.request.put("/api/settings", data={"sound": True}).ok
    page.reload()
    hand = page.locator("#ht-hand button[data-card]")
    for i in range(3):  # the cards to pass rise, each with a sound
        hand.nth(i).click()
    page.wait_for_function("() => window.__audio.notes >= 1")
    press_and_wait(page, page.locator(".ht-pass-button"), "desktop")
    # The first trick ends with the player's first card (the bots after it play in turn);
    # its sound comes when the table shows who took it.
    page.wait_for_function("() => document.querySelector('#ht-hand').dataset.phase === 'playing'")
    playable = page.locator("#ht-hand button[data-card]:not([aria-disabled=true])")
    press_and_wait(page, playable.first, "desktop")
    page.wait_for_function("p => window.__audio.pitches.includes(p)", arg=TRICK_PITCH)
    assert page.evaluate("window.__audio.contexts") == 1


def test_a_game_keeps_the_screen_awake(new_page):
    page = new_page("phone", "en")
    # A phone's browser lets a visible page hold the lock; the headless shell asks to be told.
    page.context.grant_permissions(["screen-wake-lock"])
    page.goto("/heart-to-heart")
    expect(page.locator("body")).to_have_attribute("data-awake", "true")
    page.goto("/stats")  # not a game: the screen may sleep
    page.wait_for_load_state("load")
    assert page.locator("body").get_attribute("data-awake") is None


# Records the vibrations asked for.
VIBRATE_HOOK = """
window.__buzz = [];
navigator.vibrate = (pattern) => { window.__buzz.push(pattern); return true; };
"""


@pytest.mark.parametrize("vibration", [True, False])
def test_a_refused_move_vibrates_when_vibration_is_on(new_page, vibration):
    page = new_page("phone", "en")
    page.context.add_init_script(VIBRATE_HOOK)
    page.goto("/heart-to-heart")
    assert page.request.put("/api/settings", data={"vibration": vibration}).ok
    page.reload()
    covered = page.locator("#h2h-heart button[aria-disabled=true]").first
    press(covered, "phone", force=True)  # a player may tap it all the same
    expect(page.locator("#status")).not_to_be_empty()  # it says why
    assert page.evaluate("window.__buzz") == ([60] if vibration else [])


# Records the duration of every animation the page starts.
ANIMATE_HOOK = """
window.__durations = [];
{
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    window.__durations.push(typeof options === "number" ? options : options.duration);
    return animate.call(this, frames, options);
  };
}
"""


def test_the_animation_speed_times_the_games_motion(new_page):
    page = new_page("desktop", "en")
    page.context.add_init_script(ANIMATE_HOOK)
    page.goto("/heart-to-heart")
    # The waste's card turning over from the stock: 200 ms at the normal speed.
    for speed, duration in (("slow", 320), ("fast", 100), ("normal", 200), ("off", None)):
        assert page.request.put("/api/settings", data={"animation_speed": speed}).ok
        page.reload()
        press_and_wait(page, page.locator("#h2h-stock"), "desktop")
        assert page.evaluate("window.__durations") == ([duration] if duration else []), speed


def play_all_but_the_last_tap(page: Page) -> tuple[str, str]:
    """Start the W deal in the page's session and play its winning line through the API but
    for the last tap: the game's id and that last target."""
    state = page.request.post(H2H_API, data={"deal": WON_DEAL}).json()
    taps = [target_text(t) for t in solve(new_game(WON_DEAL))]
    for target in taps[:-1]:
        answer = page.request.post(
            f"{H2H_API}/{state['game_id']}/tap", data={"target": target}
        )
        assert answer.ok, answer.text()
    return state["game_id"], taps[-1]


def selector_of(target: str) -> str:
    """The page's element for an API target."""
    return f"#p{target.split(':')[1]}" if target.startswith("heart:") else f"[data-pile={target}]"


def win_through_the_api(page: Page) -> dict:
    game_id, last = play_all_but_the_last_tap(page)
    won = page.request.post(f"{H2H_API}/{game_id}/tap", data={"target": last}).json()
    assert won["status"] == "won"
    return won


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_win_shows_the_cascade_and_the_new_best_line(new_page, device):
    page = new_page(device, "en")
    page.goto("/")
    _, last = play_all_but_the_last_tap(page)
    page.goto("/heart-to-heart")
    press(page.locator(selector_of(last)), device)
    dialog = page.locator("dialog[data-outcome=won]")
    expect(dialog).to_be_visible()
    cascade = dialog.locator("[data-cascade]")
    expect(cascade).to_be_visible()
    assert cascade.locator(".card").count() == 25
    news = dialog.locator("[data-news]")
    expect(news).to_contain_text("New best!")
    expect(news).to_contain_text("best time")
    expect(news).to_contain_text("fewest moves")
    expect(news).to_contain_text("longest streak: 1")
    press(cascade, device)  # a tap skips it
    expect(cascade).to_have_count(0)
    expect(dialog).to_be_visible()


def test_no_cascade_with_reduced_motion(new_page):
    page = new_page("desktop", "vi")
    page.emulate_media(reduced_motion="reduce")
    page.goto("/")
    _, last = play_all_but_the_last_tap(page)
    page.goto("/heart-to-heart")
    page.locator(selector_of(last)).click()
    dialog = page.locator("dialog[data-outcome=won]")
    expect(dialog.locator("[data-news]")).to_contain_text("Kỷ lục mới!")
    assert dialog.locator("[data-cascade]").count() == 0


def play_a_hearts_match(page: Page) -> dict:
    """An Easy match through the API, playing the first legal card; the figures it makes."""
    state = page.request.post(HEARTS_API, data={"deal": "HT1-E-AAAAAAB"}).json()
    url = f"{HEARTS_API}/{state['game_id']}"
    queens = 0
    while state["phase"] != "match_over":
        if state["phase"] == "passing":
            answer = page.request.post(f"{url}/pass", data={"cards": state["hand"][:3]})
        elif state["phase"] == "hand_over":
            answer = page.request.post(f"{url}/next-hand", data={})
        else:
            answer = page.request.post(f"{url}/play", data={"card": state["legal"][0]})
        assert answer.ok, answer.text()
        before, state = state, answer.json()
        if before["phase"] == "playing" and state["phase"] in ("hand_over", "match_over"):
            queens += any(t["winner"] == 0 and "QS" in [p["card"] for p in t["cards"]]
                          for t in state["tricks"])
    mine = [scores[0] for scores in state["hand_scores"]]
    moons = [s.index(0) for s in state["hand_scores"] if sorted(s) == [0, 26, 26, 26]]
    return {
        "played": "1",
        "won": "1" if state["winner"] == 0 else "0",
        "average": f"{sum(mine) / len(mine):.1f}",
        "moons": str(moons.count(0)),
        "moons_suffered": str(len(moons) - moons.count(0)),
        "queens": str(queens),
    }


def test_statistics_match_the_games_played_and_the_reset_asks(new_page, axe):
    page = new_page("desktop", "en")
    page.goto("/")
    # Heart to Heart: one win, then a game left after one move (counted when replaced).
    won = win_through_the_api(page)
    left = page.request.post(H2H_API, data={"deal": WON_DEAL}).json()
    page.request.post(f"{H2H_API}/{left['game_id']}/tap", data={"target": "stock"})
    page.request.post(H2H_API, data={})
    hearts = play_a_hearts_match(page)

    page.goto("/stats")
    h2h = page.locator("[data-game=heart_to_heart]")
    minutes, seconds = divmod(won["elapsed_seconds"], 60)
    for name, value in (("played", "2"), ("won", "1"), ("win_rate", "50%"), ("streak", "0"),
                        ("best_streak", "1"), ("fewest_moves", str(won["moves"])),
                        ("best_time", f"{minutes}:{seconds:02d}")):
        expect(h2h.locator(f"[data-stat={name}]")).to_have_text(value)
    expect(h2h.locator("svg.chart rect")).to_have_count(2)
    expect(h2h.locator("svg.chart")).to_have_attribute(
        "aria-label", "Last 2 results: 1 won, 1 not won"
    )
    for level in ("all", "easy"):
        for name, value in hearts.items():
            cell = page.locator(f"[data-game=hearts] [data-level={level}][data-stat={name}]")
            expect(cell).to_have_text(value)
    expect(page.locator("[data-level=normal][data-stat=played]")).to_have_text("0")
    expect(page.locator("[data-game=assisted] [data-stat=played]").first).to_have_text("0")

    page.get_by_role("link", name="Reset statistics").click()
    expect(page.get_by_role("heading", name="Reset statistics?")).to_be_visible()
    page.get_by_role("link", name="Keep my statistics").click()
    expect(h2h.locator("[data-stat=played]")).to_have_text("2")  # asked, nothing reset
    page.get_by_role("link", name="Reset statistics").click()
    page.get_by_role("button", name="Reset", exact=True).click()
    expect(page.locator("#status")).to_have_text("Statistics reset")
    expect(h2h.locator("[data-stat=played]")).to_have_text("0")


@pytest.mark.parametrize(("device", "lang"), [("phone", "vi"), ("desktop", "en")])
def test_the_hearts_figures_by_level_read_as_a_table(new_page, device, lang):
    """On a phone each figure's name takes a line above its five levels, laid out as a grid;
    to a screen reader it is still a table of rows and columns, as on a desktop."""
    page = new_page(device, lang)
    page.goto("/stats")
    table = page.locator("table.by-level")
    played = {"vi": "Số trận đã chơi", "en": "Matches played"}[lang]
    expert = {"vi": "Chuyên gia", "en": "Expert"}[lang]
    expect(table.get_by_role("columnheader", name=expert)).to_be_visible()
    row = table.get_by_role("row", name=played)
    expect(row.get_by_role("rowheader", name=played)).to_be_visible()
    expect(row.get_by_role("cell")).to_have_count(5)
    name = row.get_by_role("rowheader").bounding_box()
    figures = [cell.bounding_box() for cell in row.get_by_role("cell").all()]
    assert name and all(figures)
    if device == "phone":
        assert all(f["y"] >= name["y"] + name["height"] - 1 for f in figures)
    else:
        assert all(f["x"] >= name["x"] + name["width"] - 1 for f in figures)
    assert len({round(f["y"]) for f in figures}) == 1  # the five levels side by side
    header = [table.get_by_role("columnheader").nth(n).bounding_box() for n in range(5)]
    # Each level's figure sits under its name.
    assert all(abs((h["x"] + h["width"] / 2) - (f["x"] + f["width"] / 2)) < 2
               for h, f in zip(header, figures, strict=True))


@pytest.mark.parametrize("lang", ["vi", "en"])
@pytest.mark.parametrize("path", ["/settings", "/stats", "/stats/reset", "/offline"])
def test_the_new_pages_are_axe_clean(new_page, axe, lang, path):
    page = new_page("phone", lang)
    page.goto("/")
    if path == "/stats":  # with figures and charts
        win_through_the_api(page)
    page.goto(path)
    assert_no_axe_violations(axe, page, f"{path} ({lang})")


def test_the_manifest_passes_chromiums_check_and_its_icons_load(new_page, base_url):
    page = new_page("phone", "en")
    page.goto("/")
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest")
    assert manifest["errors"] == []
    body = json.loads(manifest["data"])
    assert body["display"] == "standalone"
    for icon in body["icons"]:
        answer = page.request.get(icon["src"])
        assert answer.ok and answer.headers["content-type"] == "image/png", icon
        size = int(icon["sizes"].split("x")[0])
        loaded = page.evaluate(
            """src => new Promise(done => { const img = new Image();
                 img.onload = () => done([img.naturalWidth, img.naturalHeight]);
                 img.onerror = () => done(null); img.src = src; })""",
            icon["src"],
        )
        assert loaded == [size, size], icon


def test_the_offline_page_shows_when_the_network_is_gone(new_page):
    page = new_page("phone", "en")
    page.goto("/hearts")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now under the worker's control
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    page.context.set_offline(True)
    try:
        page.goto("/heart-to-heart")
        expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
        expect(page.get_by_text("Your game is safe on the server")).to_be_visible()
        # The page's own styles come from the worker's cache.
        assert css(page, "body", "display") == "flex"
    finally:
        page.context.set_offline(False)
    page.goto("/hearts")
    expect(page.locator("body.hearts")).to_be_visible()
