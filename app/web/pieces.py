"""Pieces: how both games send only what changed.

A page is a set of pieces, each an element with a stable id, drawn by a macro of the game's
pieces template (``templates/<game>/_pieces.html``) from a :class:`Piece`'s arguments. A
page draws every piece in place; an action's answer compares the pieces before and after it
(:func:`changed`) and draws only those that differ, as htmx out-of-band swaps (:func:`render`
with ``oob=True``). The same piece always draws the same HTML, so drawn pieces are kept: a tap
then costs dictionary lookups, not template runs.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any, NamedTuple

from fastapi.responses import HTMLResponse
from markupsafe import Markup

from app.web.templating import language, templates

SHARED_TEMPLATE = "_pieces.html"


Args = tuple[tuple[str, Any], ...]  # a macro's arguments by name, in a fixed order


class Piece(NamedTuple):
    """One element of a page, drawn as ``macro(**args, **extra)``. Two pieces are the same when
    their macro and ``args`` are; ``extra`` arguments are drawn but not compared (the page keeps
    them up to date another way). ``inside`` names the piece that draws this one too: when both
    changed, only that one is sent."""

    macro: str
    args: Args = ()
    extra: Args = ()
    inside: str | None = None

    @classmethod
    def of(cls, macro: str, *, extra: Args = (), inside: str | None = None,
           **args: Any) -> Piece:
        """``Piece.of("score", value=250)``: the arguments named as the macro names them."""
        return cls(macro, tuple(args.items()), extra, inside)

    def arg(self, name: str) -> Any:
        return dict(self.args)[name]

    def looks_like(self, other: Piece) -> bool:
        """Whether both draw the same (their ``extra`` aside)."""
        return self.args == other.args and self.macro == other.macro


Pieces = dict[str, Piece]  # by element id, in the order an answer sends them


def changed(before: Pieces | None, after: Pieces) -> list[str]:
    """The ids of the pieces of ``after`` that differ from ``before`` (all when None), less
    those inside another piece that is sent."""
    if before is None:
        names = list(after)
    else:
        names = [name for name, piece in after.items()
                 if (old := before.get(name)) is None or not old.looks_like(piece)]
    sent = set(names)
    return [name for name in names if after[name].inside not in sent]


@cache
def _macros(template: str) -> Any:
    """The macros of a pieces template (templates are not reloaded: auto_reload is off)."""
    return templates.get_template(template).module


def _draw(template: str, macro: str, args: Args, extra: Args, lang: str, oob: bool) -> Markup:
    draw = getattr(_macros(template), macro)
    with language(lang):
        return Markup(draw(**dict(args), **dict(extra), oob=oob))


# A pure function of its arguments, and pieces repeat endlessly (a card in one state looks the
# same in every game): the drawn HTML is kept.
_kept_draw = lru_cache(maxsize=16384)(_draw)


def render(template: str, piece: Piece, lang: str, *, oob: bool = False) -> Markup:
    return _kept_draw(template, piece.macro, piece.args, piece.extra, lang, oob)


def render_once(template: str, piece: Piece, lang: str, *, oob: bool = False) -> Markup:
    """A piece that is not worth keeping (its arguments are drawn once)."""
    return _draw(template, piece.macro, piece.args, piece.extra, lang, oob)


def render_all(template: str, pieces: Iterable[Piece], lang: str) -> Markup:
    """``pieces`` as out-of-band swaps."""
    # Pieces are markup already: joined as text, not escaped one by one again.
    return Markup("".join(render(template, piece, lang, oob=True) for piece in pieces))


def status(message: str | None, *, detail: bool = False) -> Markup:
    """The status line's new text, said by the page (static/js/announce.js); ``detail``: the
    player's own doing, which "fewer announcements" leaves out (the line still shows it)."""
    if not message:
        return Markup("")
    return render(SHARED_TEMPLATE, Piece.of("status", message=message, detail=detail), "en",
                  oob=True)


def answer(body: Markup, status_code: int = 200) -> HTMLResponse:
    """An htmx answer: pieces as HTML. It varies with HX-Request: a plain form post is sent to
    the game's page instead (app/web/actions.py)."""
    return HTMLResponse(body, status_code=status_code, headers={"vary": "HX-Request"})
