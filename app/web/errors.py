"""Error answers: JSON ``{"error": {...}}`` under /api, a page that says what is wrong elsewhere.

Nothing a client sends may produce a 5xx: handlers validate their input and raise
:class:`PageError` (or FastAPI's HTTPException) with a 4xx status and a translated message.
The one 5xx is 503, when the store cannot be reached or stays locked (:class:`StoreError`): the
request may well succeed a moment later, and ``Retry-After`` says so.
"""

from __future__ import annotations

import contextlib
import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from app.store import StoreError
from app.web.deps import language_of
from app.web.games import GameNotFound
from app.web.i18n import translator
from app.web.pieces import answer, status
from app.web.profile import Profile, load_profile
from app.web.session import SCOPE_KEY
from app.web.templating import page
from app.web.validation_messages import validation_message

# Generic messages by status; msgids are translated when the page is rendered.
_TITLES = {
    400: "This request cannot be used",
    403: "Not allowed",
    404: "Page not found",
    405: "Not allowed",
    409: "The game changed",
    413: "Too much data",
    429: "Too many requests",
    422: "This request cannot be used",
    503: "The card room is busy",
}
_MESSAGES = {
    400: "The address or the form holds something the card room cannot use.",
    403: "Requests from other sites are refused.",
    404: "There is nothing here. The game may belong to another browser, or it has expired.",
    405: "This address does not accept that kind of request.",
    413: "The request body is too large.",
    422: "The address or the form holds something the card room cannot use.",
    500: "The card room failed on its side. Your games are kept; try again in a moment.",
    503: "Your games cannot be reached just now. Try again in a moment.",
}
STORE_RETRY_AFTER = "5"  # seconds: a lock or a restart of Redis is usually over by then

logger = logging.getLogger(__name__)


class Busy(Exception):
    """Too much work is waiting (say, for the bots): nothing was changed, and the same request
    will do in ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"busy: try again in {retry_after} s")
        self.retry_after = retry_after


class PageError(HTTPException):
    """A 4xx page with a specific, already translated message (e.g. a bad deal code)."""

    def __init__(
        self,
        status_code: int,
        message: str,
        *,
        title: str | None = None,
        link: tuple[str, str] | None = None,
    ) -> None:
        super().__init__(status_code, message)
        self.message = message
        self.title = title
        self.link = link  # (href, label): the page's main way on, besides the home page


def api_error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/") or request.url.path == "/api"


async def _language(request: Request) -> str:
    session_id = request.scope.get(SCOPE_KEY)
    profile = Profile(0, {})
    store = getattr(request.app.state, "store", None)
    if session_id is not None and store is not None:
        # On the page that says the store is unavailable, the browser's language will do.
        with contextlib.suppress(StoreError):
            profile = await load_profile(store, session_id)
    return language_of(request, profile)


async def error_page(
    request: Request,
    status: int,
    message: str | None,
    title: str | None,
    link: tuple[str, str] | None = None,
):
    lang = await _language(request)
    tr = translator(lang)
    context = {
        "status": status,
        "title": title or tr.gettext(_TITLES.get(status, "Something went wrong")),
        "message": message or tr.gettext(_MESSAGES.get(status, "")),
        "link": link,
    }
    return page(request, "error.html", context, lang, status=status)


async def http_exception_handler(request: Request, exc: HTTPException) -> Response:
    if _is_api(request) and exc.status_code == 400:
        # The API raises no 400 of its own: FastAPI could not read the body (bytes that are not
        # UTF-8 under a JSON content type), which is malformed input like any other.
        message = validation_message([{"type": "body"}], await _language(request))
        return api_error(422, "invalid_request", message)
    if _is_api(request):
        code = {
            404: "not_found",
            405: "method_not_allowed",
            413: "body_too_large",
            500: "server_error",
        }.get(exc.status_code, "http_error")
        message = exc.message if isinstance(exc, PageError) else await _generic(request, exc)
        return api_error(exc.status_code, code, message)
    if isinstance(exc, PageError):
        return await error_page(request, exc.status_code, exc.message, exc.title, exc.link)
    return await error_page(request, exc.status_code, None, None)


async def validation_exception_handler(request: Request, exc: RequestValidationError) -> Response:
    if _is_api(request):
        message = validation_message(exc.errors(), await _language(request))
        return api_error(422, "invalid_request", message)
    return await error_page(request, 400, None, None)


async def game_not_found_handler(request: Request, exc: GameNotFound) -> Response:
    """A game this session does not have: 404 from the pages and the API alike."""
    message = translator(await _language(request)).gettext(exc.message)
    return await http_exception_handler(request, PageError(404, message))


async def _generic(request: Request, exc: HTTPException) -> str:
    """Starlette's own errors (an unknown path, a refused body) carry English: say it anew."""
    gettext = translator(await _language(request)).gettext
    return gettext(_MESSAGES.get(exc.status_code, "Something went wrong"))


async def security_refusal(request: Request, status: int, code: str) -> Response:
    """A request the security layer refuses before routing (403 cross-site, 413 too large)."""
    if _is_api(request):
        return api_error(status, code, await _generic(request, HTTPException(status)))
    return await error_page(request, status, None, None)


async def server_error_handler(request: Request, exc: Exception) -> Response:
    """A bug is still answered in the player's language (the server log keeps the traceback)."""
    return await http_exception_handler(request, HTTPException(500))


async def store_error_handler(request: Request, exc: StoreError) -> Response:
    logger.warning("the store is unavailable: %s", exc)
    if _is_api(request):
        message = await _generic(request, HTTPException(503))
        response = api_error(503, "store_unavailable", message)
    else:
        response = await error_page(request, 503, None, None)
    response.headers["retry-after"] = STORE_RETRY_AFTER
    return response


async def _try_later(
    request: Request, status_code: int, code: str, message: str, retry_after: int,
    htmx_message: str | None = None,
) -> Response:
    """Nothing was changed, and the same request will do in ``retry_after`` seconds
    (``message`` is translated already; ``htmx_message``, when given, is what a page's tap
    says instead)."""
    response: Response
    if _is_api(request):
        response = api_error(status_code, code, message)
    elif request.headers.get("hx-request") == "true":  # a tap on the table: say it there
        response = answer(status(htmx_message or message), status_code=status_code)
    else:
        response = await error_page(request, status_code, message, None)
    response.headers["retry-after"] = str(retry_after)
    return response


async def busy_handler(request: Request, exc: Busy) -> Response:
    """The bots' queue is full: nothing was changed, and a moment later it will work."""
    tr = translator(await _language(request))
    message = tr.gettext("The bots are thinking for many players at once. Try again in a moment.")
    # A tap on the table: the page sends it again after Retry-After (static/js/taps.js).
    again = tr.gettext(
        "The bots are thinking for many players at once: the page tries again in a moment,"
        " by itself."
    )
    return await _try_later(request, 503, "busy", message, exc.retry_after, htmx_message=again)


async def rate_limited(request: Request, retry_after: int) -> Response:
    """More requests than a person makes (app/web/limits.py): 429, with when to try again."""
    message = translator(await _language(request)).gettext(
        "Too many requests in a short time. Wait a few seconds, then try again."
    )
    return await _try_later(request, 429, "rate_limited", message, retry_after)


def install_error_handlers(app: FastAPI) -> None:
    # Starlette types a handler as taking any Exception; each of these gets only its own class.
    app.add_exception_handler(HTTPException, http_exception_handler)  # type: ignore[arg-type]
    app.add_exception_handler(GameNotFound, game_not_found_handler)  # type: ignore[arg-type]
    app.add_exception_handler(StoreError, store_error_handler)  # type: ignore[arg-type]
    app.add_exception_handler(Busy, busy_handler)  # type: ignore[arg-type]
    app.add_exception_handler(
        RequestValidationError, validation_exception_handler  # type: ignore[arg-type]
    )
    app.add_exception_handler(Exception, server_error_handler)
