"""Pieces: how both games send only what changed.

A page is a set of pieces, each an element with a stable id, drawn by a macro of the game's
pieces template (``templates/<game>/_pieces.html``) from the :class:`Piece`'s arguments. A
page draws every piece in place; an action's answer compares the pieces before and after it
(:func:`changed`) and draws only those that differ, as htmx out-of-band swaps (:func:`render`
with ``oob=True``). The same piece always draws the same HTML, so drawn pieces are kept: a tap
then costs dictionary lookups, not template runs.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any, NamedTuple

from fastapi.responses import HTMLResponse
from markupsafe import Markup

from app.web.templating import language, templates

SHARED_TEMPLATE = "_pieces.html"


class Piece(NamedTuple):
    """One piece: ``macro(*args, **dict(extra))``. Two pieces are the same when their macro and
    arguments are; ``extra`` arguments are drawn but not compared (the page keeps them up to
    date another way). ``inside`` names the piece that draws this one too: when both changed,
    only that one is sent. (A named tuple: a tap builds and compares dozens of them.)"""

    macro: str
    args: tuple[Any, ...] = ()
    extra: tuple[tuple[str, Any], ...] = ()
    inside: str | None = None


Pieces = dict[str, Piece]  # by element id, in the order an answer sends them


def changed(before: Pieces | None, after: Pieces) -> list[str]:
    """The ids of the pieces of ``after`` whose macro or arguments differ from ``before`` (all
    when None), less those inside another piece that is sent."""
    if before is None:
        names = list(after)
    else:
        # By index, not by field name: a tap compares a few dozen pieces (0: macro, 1: args).
        names = [name for name, piece in after.items()
                 if (old := before.get(name)) is None or old[1] != piece[1] or old[0] != piece[0]]
    sent = set(names)
    return [name for name in names if after[name].inside not in sent]


def _draw(template: str, macro: str, args: tuple, extra: tuple, lang: str, oob: bool) -> Markup:
    module = templates.get_template(template).module
    with language(lang):
        return Markup(getattr(module, macro)(*args, oob=oob, **dict(extra)))


# Pieces repeat endlessly (a card in one state looks the same in every game).
_cached_draw = lru_cache(maxsize=16384)(_draw)


def render(template: str, piece: Piece, lang: str, *, oob: bool = False) -> Markup:
    return _cached_draw(template, piece.macro, piece.args, piece.extra, lang, oob)


def render_once(template: str, piece: Piece, lang: str, *, oob: bool = False) -> Markup:
    """A piece that is not worth keeping (its arguments are drawn once)."""
    return _draw(template, piece.macro, piece.args, piece.extra, lang, oob)


def render_all(template: str, pieces: Pieces, names: Iterable[str], lang: str) -> Markup:
    """The named pieces as out-of-band swaps."""
    # Pieces are markup already: joined as text, not escaped one by one again.
    return Markup("".join([render(template, pieces[name], lang, oob=True) for name in names]))


def status(message: str | None) -> Markup:
    """The status line's new text (the live region itself stays, so it is announced)."""
    if not message:
        return Markup("")
    # Kept like any piece: a game says the same few things again and again.
    return render(SHARED_TEMPLATE, Piece("status", (message,)), "en", oob=True)


class Answer(HTMLResponse):
    """An htmx answer: pieces as HTML, varying with HX-Request (a plain form post gets the
    whole page at the same address). Its headers are the same every time, so they are written
    once, not worked out per answer."""

    HEADERS = ((b"content-type", b"text/html; charset=utf-8"), (b"vary", b"HX-Request"))

    def init_headers(self, headers: object = None) -> None:
        self.raw_headers = [(b"content-length", str(len(self.body)).encode()), *self.HEADERS]


def answer(body: Markup, status_code: int = 200) -> HTMLResponse:
    return Answer(body, status_code=status_code)
