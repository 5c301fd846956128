"""Jinja2 templates with Babel's gettext, and the helpers that turn them into responses.

One Environment for the whole app. The i18n callables read the language from a context
variable that :func:`render` sets around each render, so one Environment serves both languages.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from app.web.hearts.pace import page_attributes as bot_pace_attributes
from app.web.i18n import (
    LANGUAGES,
    SUIT_SYMBOLS,
    current_language,
    jinja_gettext,
    jinja_ngettext,
    jinja_number,
    jinja_pgettext,
    translator,
)
from app.web.preferences import html_attributes, request_settings
from app.web.static_files import static_url

ROOT = Path(__file__).resolve().parent.parent.parent
TEMPLATES_DIR = ROOT / "templates"


def _card_name(c: int) -> str:
    return translator(current_language.get()).card_names[c]


def make_environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES_DIR),
        autoescape=True,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=StrictUndefined,
        auto_reload=False,
    )
    # The i18n extension adds this method to the environment.
    env.install_gettext_callables(  # type: ignore[attr-defined]
        jinja_gettext, jinja_ngettext, newstyle=True, pgettext=jinja_pgettext
    )
    env.filters["number"] = jinja_number
    env.globals.update(
        static=static_url, card_name=_card_name, SUIT_SYMBOLS=SUIT_SYMBOLS, LANGUAGES=LANGUAGES,
        oob_attr=oob_attr, BOT_PACE=bot_pace_attributes(),
    )
    return env


OOB_ATTR = Markup(' hx-swap-oob="true"')
NO_ATTR = Markup("")


def oob_attr(oob: bool) -> Markup:
    """The attribute that makes a piece an out-of-band swap (app/web/pieces.py), when ``oob``.
    A function, not a macro: every piece drawn calls it, and a macro call costs as much as the
    piece's own."""
    return OOB_ATTR if oob else NO_ATTR


templates = make_environment()


@contextmanager
def language(lang: str) -> Iterator[None]:
    """Translate ``_()`` in templates and macros into ``lang`` inside this block."""
    token = current_language.set(lang)
    try:
        yield
    finally:
        current_language.reset(token)


def render_template(name: str, context: dict[str, Any], lang: str) -> str:
    """Render a template (or a partial) in ``lang``."""
    with language(lang):
        return templates.get_template(name).render(lang=lang, **context)


def page(
    request: Request,
    name: str,
    context: dict[str, Any],
    lang: str,
    *,
    status: int = 200,
    headers: dict[str, str] | None = None,
) -> HTMLResponse:
    """A full page: ``context`` plus ``path`` (for the language switch), ``url_for`` (the
    path of a named route: ``url_for("hearts_deal", code=…)``) and ``settings_attributes``
    (the player's settings on ``<body>``, when the route read the profile) rendered in ``lang``,
    which ``Content-Language`` names (the service worker keeps its offline page in it)."""
    settings = request_settings(request)
    context = {
        "path": request.url.path,
        "url_for": request.app.url_path_for,
        "settings_attributes": html_attributes(settings),
        **context,
    }
    return HTMLResponse(render_template(name, context, lang), status_code=status,
                        headers={"Content-Language": lang, **(headers or {})})
