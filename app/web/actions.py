"""One shape for a page action, in every game: how it answers.

A page action (a Heart to Heart tap, a Hearts play, a seat's move at a table) is a route that
takes its form as a model (app/web/forms.py), asks the game's service to apply it (the service
checks the version and stores the change by compare-and-set), and answers here:

- a request from htmx (``HX-Request: true``) gets the pieces that changed, as out-of-band swaps
  (app/web/pieces.py);
- a plain form post (no JavaScript) is sent back to the game's page (303), which draws the game
  as it is now, so a reload never posts twice;
- a stale version or an action the rules refuse changes nothing and answers 409, with every
  piece as it is now and the reason in the status line: the page catches up by itself.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import Request
from fastapi.responses import RedirectResponse, Response
from markupsafe import Markup

from app.web.pieces import answer, status


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def action_answer(
    request: Request, page_url: str, draw: Callable[[], Markup], status_code: int = 200
) -> Response:
    """htmx: the pieces ``draw`` makes; a plain form post: back to the game's page."""
    if not is_htmx(request):
        return RedirectResponse(page_url, status_code=303)
    return answer(draw(), status_code)


def conflict_answer(
    request: Request, page_url: str, draw_all: Callable[[], Markup], reason: str
) -> Response:
    """A stale version or a refused action (nothing changed): every piece as it is now, and
    ``reason`` in the status line."""
    return action_answer(request, page_url, lambda: draw_all() + status(reason), 409)
