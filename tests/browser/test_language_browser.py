"""The language: chosen from Accept-Language (Vietnamese when neither is asked for), switched
on any page with VI / EN, remembered for the session; ``<html lang>`` tells which."""

from __future__ import annotations

import re

import pytest
from browser_kit import card_name, press
from conftest import WAIT_MS
from playwright.sync_api import expect

from app.rules.heart_to_heart import new_game, rank_name

pytestmark = pytest.mark.browser

DEAL = "HH1-N-AAAAAAM"


@pytest.mark.parametrize(("device", "lang"), [("phone", "vi"), ("desktop", "en")])
def test_switch_is_remembered_everywhere(new_page, device, lang):
    other = "en" if lang == "vi" else "vi"
    page = new_page(device, lang)
    html = page.locator("html")
    page.goto("/hearts/rules")
    expect(html).to_have_attribute("lang", lang)
    expect(page.locator(f'form.lang button[value="{lang}"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    press(page.locator(f'form.lang button[value="{other}"]'), device)
    expect(html).to_have_attribute("lang", other)
    expect(page).to_have_url(re.compile(r"/hearts/rules$"))

    # Remembered on every page, card names included, although the browser still asks for
    # the first language.
    page.goto(f"/heart-to-heart/deal/{DEAL}")
    expect(html).to_have_attribute("lang", other)
    tip = rank_name(new_game(DEAL).rank_at(24)) + "H"
    expect(page.locator('#h2h-heart button[data-pos="24"]')).to_have_attribute(
        "aria-label", card_name(tip, other)
    )
    page.goto("/")
    expect(html).to_have_attribute("lang", other)


def test_vietnamese_when_neither_is_asked_for(new_page):
    page = new_page("desktop", "fr", accept_language="fr-FR,de;q=0.8")
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "vi")


# The language of the offline page the service worker keeps, once it is ``want`` (the worker
# refreshes it after the page has loaded), or what it is after ``ceiling`` ms.
OFFLINE_LANG_JS = """async ([want, ceiling]) => {
  const kept = async () => {
    for (const name of await caches.keys()) {
      const page = await (await caches.open(name)).match("/offline");
      if (page) return page.headers.get("Content-Language");
    }
    return null;
  };
  const end = Date.now() + ceiling;
  let lang = await kept();
  while (lang !== want && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    lang = await kept();
  }
  return lang;
}"""


def test_the_offline_page_follows_a_language_switch(new_page):
    """Issue 27: the service worker kept the offline page in the language it was installed in."""
    page = new_page("desktop", "vi")
    page.goto("/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    assert page.evaluate(OFFLINE_LANG_JS, ["vi", WAIT_MS]) == "vi"
    page.locator('.lang button[value="en"]').click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert page.evaluate(OFFLINE_LANG_JS, ["en", WAIT_MS]) == "en"
    page.context.set_offline(True)
    page.goto("/hearts")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("h1")).to_have_text("You are offline")
    page.context.set_offline(False)
