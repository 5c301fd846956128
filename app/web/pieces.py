"""Pieces: how both games send only what changed.

A page is a set of pieces, each an element with a stable id, drawn by a macro of the game's
pieces template (``templates/<game>/_pieces.html``) from a :data:`Piece`'s arguments. A
page draws every piece in place; an action's answer compares the pieces before and after it
(:func:`changed`) and draws only those that differ, as htmx out-of-band swaps (:func:`render`
with ``oob=True``). The same piece always draws the same HTML, so drawn pieces are kept: a tap
then costs dictionary lookups, not template runs.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any, Final

from fastapi.responses import HTMLResponse
from markupsafe import Markup

from app.web.i18n import current_language
from app.web.templating import templates

SHARED_TEMPLATE = "_pieces.html"


# One piece: (macro, args, extra, inside), drawn as ``macro(*args, **dict(extra))``. Two pieces
# are the same when their macro and arguments are; ``extra`` arguments are drawn but not
# compared (the page keeps them up to date another way). ``inside`` names the piece that draws
# this one too: when both changed, only that one is sent. (A plain tuple: a tap builds and
# compares dozens, and a named tuple costs several times as much to make.)
Piece = tuple[str, tuple[Any, ...], tuple[tuple[str, Any], ...], str | None]
# Its fields' places (Final, so that the type checker knows each field's type).
MACRO: Final = 0
ARGS: Final = 1
INSIDE: Final = 3


def make_piece(
    macro: str, args: tuple[Any, ...] = (), extra: tuple[tuple[str, Any], ...] = (),
    inside: str | None = None,
) -> Piece:
    return (macro, args, extra, inside)


Pieces = dict[str, Piece]  # by element id, in the order an answer sends them


def changed(before: Pieces | None, after: Pieces) -> list[str]:
    """The ids of the pieces of ``after`` whose macro or arguments differ from ``before`` (all
    when None), less those inside another piece that is sent."""
    if before is None:
        names = list(after)
    else:
        names = [name for name, piece in after.items()
                 if (old := before.get(name)) is None
                 or old[ARGS] != piece[ARGS] or old[MACRO] != piece[MACRO]]
    sent = set(names)
    return [name for name in names if after[name][INSIDE] not in sent]


def changed_in_order(before: Pieces, after: Pieces) -> list[Piece]:
    """``changed`` for two sets of pieces made by one function (the same ids, in the same
    order) with no piece inside another, as the pieces: a tap's answer compares them without
    looking each id up."""
    return [piece for piece, old in zip(after.values(), before.values(), strict=True)
            if old[ARGS] != piece[ARGS] or old[MACRO] != piece[MACRO]]


@cache
def _macros(template: str) -> Any:
    """The macros of a pieces template (templates are not reloaded: auto_reload is off)."""
    return templates.get_template(template).module


def _draw(template: str, macro: str, args: tuple, extra: tuple, lang: str, oob: bool) -> Markup:
    draw = getattr(_macros(template), macro)
    # The context variable is set by hand: a context manager costs a generator per piece.
    token = current_language.set(lang)
    try:
        return Markup(draw(*args, oob=oob, **dict(extra)))
    finally:
        current_language.reset(token)


# Pieces repeat endlessly (a card in one state looks the same in every game).
_cached_draw = lru_cache(maxsize=16384)(_draw)


def render(template: str, piece: Piece, lang: str, *, oob: bool = False) -> Markup:
    macro, args, extra, _ = piece
    return _cached_draw(template, macro, args, extra, lang, oob)


def render_once(template: str, piece: Piece, lang: str, *, oob: bool = False) -> Markup:
    """A piece that is not worth keeping (its arguments are drawn once)."""
    macro, args, extra, _ = piece
    return _draw(template, macro, args, extra, lang, oob)


def render_all(template: str, pieces: Pieces, names: Iterable[str], lang: str) -> Markup:
    """The named pieces as out-of-band swaps."""
    # Pieces are markup already: joined as text, not escaped one by one again.
    return Markup("".join(drawn_oob(template, [pieces[name] for name in names], lang)))


def drawn_oob(template: str, pieces: Iterable[Piece], lang: str) -> list[str]:
    """``pieces`` drawn as out-of-band swaps, or found drawn (an answer's hot path: nothing
    per piece but the cache's own lookup)."""
    return [_cached_draw(template, macro, args, extra, lang, True)
            for macro, args, extra, _ in pieces]


def status(message: str | None) -> Markup:
    """The status line's new text (the live region itself stays, so it is announced)."""
    if not message:
        return Markup("")
    # Kept like any piece: a game says the same few things again and again.
    return render(SHARED_TEMPLATE, make_piece("status", (message,)), "en", oob=True)


class Answer(HTMLResponse):
    """An htmx answer: pieces as HTML, varying with HX-Request (a plain form post gets the
    whole page at the same address). Its headers are the same every time, so they are written
    once, not worked out per answer."""

    HEADERS = ((b"content-type", b"text/html; charset=utf-8"), (b"vary", b"HX-Request"))

    def init_headers(self, headers: object = None) -> None:
        self.raw_headers = [(b"content-length", str(len(self.body)).encode()), *self.HEADERS]


def answer(body: Markup, status_code: int = 200) -> HTMLResponse:
    return Answer(body, status_code=status_code)
