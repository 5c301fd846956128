"""Browser fixtures: the real app served by uvicorn, driven by Debian's Chromium headless shell.

One server (temporary SQLite store, fixed key) and one browser serve the whole session; every
test gets fresh browser contexts, so a new session cookie and nothing left from other tests.
Contexts come in two devices (a 390×844 touch phone, a 1280×800 desktop) and two languages.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# Plain asserts in the helpers show both sides when they fail, as in the tests.
pytest.register_assert_rewrite("browser_kit")

from axe_playwright_python.sync_playwright import Axe  # noqa: E402
from browser_kit import HTMX_COUNTER  # noqa: E402
from live_server import LiveServer  # noqa: E402
from playwright.sync_api import (  # noqa: E402
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    expect,
    sync_playwright,
)

# Chromium's headless shell: the same Blink and V8 as the browser, without the browser's
# profile and window services, so a new context and page take half the CPU; the suite opens
# hundreds of them on a 2-core machine. (It denies the screen wake lock unless granted.)
CHROMIUM = "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# The longest a test waits for the page (a busy 2-core machine): a ceiling for failing only,
# a passing test never waits it out.
WAIT_MS = 20_000

# The phone draws at a device pixel ratio of 1: a quarter of the pixels of a ratio of 2 for
# the same layout in CSS pixels (the lobby's sideways scroll of 1 Dec showed only at 1).
DEVICE_OPTIONS = {
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 1,
        "is_mobile": True,
        "has_touch": True,
    },
    "desktop": {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1},
}
LOCALES = {"vi": "vi-VN", "en": "en-US"}
# Answers swapped like any other: a refusal, and a busy room (which the page sends again).
SWAPPED = ("the server responded with a status of 409", "the server responded with a status of 503")


SECRET_KEY = "browser-test-secret-key-long-enough-for-the-check"


@pytest.fixture(scope="session")
def server_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("browser-server")


@pytest.fixture(scope="session")
def store_url(server_dir: Path) -> str:
    """The server's store, for a test that sets a game up in it."""
    return f"sqlite:///{server_dir / 'cardroom.sqlite3'}"


@pytest.fixture(scope="session")
def base_url(store_url: str, server_dir: Path) -> Iterator[str]:
    """The app, started once per session (once per pytest-xdist worker)."""
    server = LiveServer(
        store_url, server_dir, secret_key=SECRET_KEY, secure_cookies="false",
        # Every test's browser comes from one address, faster than people: no rate limits.
        rate_limit_scale="0",
    )
    try:
        yield server.start().base_url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    expect.set_options(timeout=WAIT_MS)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


NewPage = Callable[..., Page]


@pytest.fixture
def new_page(
    browser: Browser, base_url: str, request: pytest.FixtureRequest
) -> Iterator[NewPage]:
    """``new_page(device, lang)``: a page in a fresh context, so a new browser session, that
    asks for ``lang`` (or for ``accept_language`` when given).

    Its session's animation speed is "fast", as a player may choose: the page shows the bots'
    cards at twice their pace (hearts-table.js), the same steps and words in half the time the
    tests wait for them. Tests of a new session (marked ``new_session``: the normal motion, the
    settings' defaults, a page that starts no session) keep it new.

    Any script error or console error on any of its pages fails the test that made it.
    """
    fast = request.node.get_closest_marker("new_session") is None
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def console(page: Page, message: ConsoleMessage) -> None:
        # A page's own error status (a bad deal code's 400) is checked by its test; so is a
        # refusal (409), which answers with the board as it is now and is swapped as such, and
        # a busy room (503), which says so and is sent again.
        if message.type != "error" or message.location.get("url") == page.url:
            return
        if not any(status in message.text for status in SWAPPED):
            errors.append(f"{page.url}: {message.text}")

    def watch(page: Page) -> None:
        page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
        page.on("console", lambda message: console(page, message))

    def make(device: str, lang: str, accept_language: str | None = None) -> Page:
        context = browser.new_context(
            base_url=base_url,
            locale=LOCALES.get(lang, lang),
            extra_http_headers={"Accept-Language": accept_language or lang},
            **DEVICE_OPTIONS[device],
        )
        context.set_default_timeout(WAIT_MS)
        context.add_init_script(HTMX_COUNTER)
        context.on("page", watch)
        contexts.append(context)
        if fast:
            assert context.request.put("/api/settings", data={"animation_speed": "fast"}).ok
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
    assert not errors, "errors in the browser:\n" + "\n".join(errors)


@pytest.fixture(scope="session")
def axe() -> Axe:
    return Axe()
