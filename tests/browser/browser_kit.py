"""Helpers shared by the browser tests: pressing like the device does, waiting for htmx,
card names as the contract spells them, axe checks and screenshots."""

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

ROOT = Path(__file__).resolve().parents[2]
# Written into an ignored folder on every run; `make screenshots` copies them into docs/.
SCREENSHOTS = ROOT / "test-results" / "screenshots"
# The pictures are taken when asked (`make screenshots`): each costs the browser a capture and a
# PNG, which `make test` does not look at.
TAKE_SCREENSHOTS = os.environ.get("CARDROOM_SCREENSHOTS") == "1"

# Counts finished htmx requests (afterRequest fires once the answer's swaps are in the page).
HTMX_COUNTER = """
window.__htmxDone = 0;
document.addEventListener("htmx:afterRequest", () => { window.__htmxDone += 1; });
"""

# Card names from the contract: "Queen of spades" / "Q bích", "Ace of clubs" / "Át chuồn".
RANK_WORDS = {
    "en": {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"},
    "vi": {"A": "Át"},
}
SUIT_WORDS = {
    "en": {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"},
    "vi": {"C": "chuồn", "D": "rô", "H": "cơ", "S": "bích"},
}


def card_name(code: str, lang: str) -> str:
    """``"QS"`` → "Queen of spades" (en) or "Q bích" (vi)."""
    rank, suit = code[:-1], code[-1]
    word = RANK_WORDS[lang].get(rank, rank)
    if lang == "en":
        return f"{word} of {SUIT_WORDS['en'][suit]}"
    return f"{word} {SUIT_WORDS['vi'][suit]}"


def press(locator: Locator, device: str, **options) -> None:
    """The device's own way to press: a touch tap on the phone, a mouse click on the desktop."""
    if device == "phone":
        locator.tap(**options)
    else:
        locator.click(**options)


def htmx_done(page: Page) -> int:
    return page.evaluate("window.__htmxDone")


def wait_htmx(page: Page, done_before: int) -> None:
    """Wait until an htmx request started after ``done_before`` has been answered."""
    page.wait_for_function("n => window.__htmxDone > n", arg=done_before)


def wait_idle(page: Page) -> None:
    """Every queued tap sent and answered (static/js/taps.js)."""
    page.wait_for_function("() => window.Cardroom.taps.waiting() === 0")


def press_and_wait(page: Page, locator: Locator, device: str, **options) -> None:
    before = htmx_done(page)
    press(locator, device, **options)
    wait_htmx(page, before)


# JSON with object keys sorted, so that two equal values give the same text.
CANON = (
    "(v => JSON.stringify(v, (k, x) => x && typeof x === 'object' && !Array.isArray(x)"
    " ? Object.fromEntries(Object.entries(x).sort()) : x))"
)


def poll_equal(page: Page, script: str, expected, what: str, arg=None) -> None:
    """Wait until the page's ``script`` (a JS function of ``arg`` returning JSON data) gives
    ``expected``; if it never does, fail showing both values."""
    want = json.loads(json.dumps(expected))  # tuples → lists, as the page returns them
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(
            f"([arg, want]) => {CANON}(({script})(arg)) === {CANON}(want)", arg=[arg, want]
        )
    seen = page.evaluate(f"arg => ({script})(arg)", arg)
    if seen != want:
        keys = sorted(set(seen) | set(want)) if isinstance(want, dict) else [None]
        diff = [
            f"  {key}: page {pick(seen, key)!r}\n  {' ' * len(str(key))}  want {pick(want, key)!r}"
            for key in keys
            if pick(seen, key) != pick(want, key)
        ]
        raise AssertionError(f"{what}:\n" + "\n".join(diff))


def pick(value, key):
    return value if key is None else value.get(key)


def assert_fits_the_screen(page: Page) -> None:
    """UI.md: one screen, no scrolling during play (the phone's 390×844)."""
    sizes = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight,"
        " innerWidth, innerHeight]"
    )
    width, height, view_width, view_height = sizes
    assert width <= view_width and height <= view_height, f"page {width}×{height} scrolls"


def assert_no_axe_violations(axe: Axe, page: Page, where: str) -> None:
    results = axe.run(page)
    assert results.violations_count == 0, f"{where}:\n{results.generate_report()}"


def screenshot(page: Page, name: str) -> Path:
    """``name`` in the README's folder (``make screenshots`` copies it to docs/), or in a folder
    of its own under it (``"tables/x.png"``: looked at, not copied)."""
    path = SCREENSHOTS / name
    if not TAKE_SCREENSHOTS:
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    # No style injected for the shot (the page's CSP would refuse it and log an error).
    page.screenshot(path=path, caret="initial", animations="disabled")
    return path


def open_table(page: Page, name: str) -> str:
    """From the home page, "Play with friends" under ``name`` (asked once per browser): the
    lobby of a new table; returns its invite link."""
    page.goto("/")
    page.locator('form[action="/hearts/tables"] button').click()
    if page.url.endswith("/hearts/tables/new"):
        page.locator("#tb-name-input").fill(name)
        page.locator('[data-action="open-table"]').click()
    page.wait_for_url(re.compile(r"/hearts/t/[\w-]{22}$"))
    return page.locator("#tb-link").input_value()


def sit(page: Page, invite: str, seat: int, name: str) -> None:
    """Open the invite and sit at ``seat`` under ``name`` (asked when the browser has none)."""
    page.goto(invite)
    field = page.locator("#tb-name-input")
    if field.is_visible():
        field.fill(name)
    page.locator(f'[data-action="sit"][data-seat="{seat}"]').click()
    page.locator(f'[data-seat-row="{seat}"] .tb-you').wait_for()


def choose(page: Page, setting: str, value: str) -> None:
    """One of the lobby's settings (a radio group drawn as one row of buttons)."""
    page.locator(f'.tb-segments input[name="{setting}"][value="{value}"]').check()
