"""A visit without a session cookie stores nothing (issue 17).

Such a visit is a crawler, a chat app's link preview, or a browser's very first request: most
of them never come back. So no GET route writes anything for it (no game, profile or result):

- a game page that finds no game shows the session's next game, not stored until its first
  action (app/web/games.py; for any visit, with a cookie or without);
- a daily deal page shows what starting it means, and its button (a form) starts it;
- a deal link (``/heart-to-heart/deal/{code}``, ``/hearts/deal/{code}``) still answers 303 to
  the game page, as for a known browser, and hands the deal over in a short-lived cookie: its
  value is the id the game will have (:func:`~app.web.games.unstored_id`, which only this
  session's id checks out), and the game page shows that deal, not stored, while the session
  has no game of that kind.

A request with a session cookie goes on as before: a deal link stores its game at once (the
player chose it), and asks first over an unfinished game. Posted forms (new game, a deal
accepted) are actions and store too.
"""

from __future__ import annotations

from typing import TypeVar

from fastapi import Request
from fastapi.responses import Response

from app.web.games import unstored_code
from app.web.session import NEW_SESSION_KEY

DEAL_COOKIE = "cardroom_deal"
# Long enough to follow the redirect, or come back the same day.
DEAL_COOKIE_SECONDS = 24 * 3600


def is_new_session(request: Request) -> bool:
    """The request came without a valid session cookie (app/web/session.py)."""
    return request.scope.get(NEW_SESSION_KEY, False)


def _cookie_name(request: Request) -> str:
    # Like the session cookie: over HTTPS only this very host may set it (app/web/session.py).
    secure = request.app.state.settings.secure_cookies
    return f"__Host-{DEAL_COOKIE}" if secure else DEAL_COOKIE


R = TypeVar("R", bound=Response)


def hand_over(response: R, request: Request, game_id: str) -> R:
    """Let the game page show the game of ``game_id`` (a game not stored yet) next."""
    response.set_cookie(
        _cookie_name(request), game_id, max_age=DEAL_COOKIE_SECONDS, path="/",
        secure=request.app.state.settings.secure_cookies, httponly=True, samesite="lax",
    )
    return response


def handed_over(request: Request, session_id: str) -> str | None:
    """The deal code a deal link handed over to this session's game pages, or None."""
    game_id = request.cookies.get(_cookie_name(request))
    return None if game_id is None else unstored_code(session_id, game_id)
