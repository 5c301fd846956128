"""The language: chosen from Accept-Language (Vietnamese when neither is asked for), switched
on any page with VI / EN, remembered for the session; ``<html lang>`` tells which."""

from __future__ import annotations

import re

import pytest
from browser_kit import card_name, press
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
