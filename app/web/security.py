"""Security as one pure ASGI middleware (no BaseHTTPMiddleware: a tap should cost little more
than the framework's floor).

- State-changing requests from another origin are refused with 403 (``Sec-Fetch-Site`` when the
  browser sends it, else ``Origin``). Requests with neither (scripts, tests) are let through:
  they carry no ambient browser credentials of somebody else.
- Request bodies over ``MAX_BODY`` are refused with 413, by ``Content-Length`` up front and by
  counting when the body arrives in chunks.
- Every response gets the CSP and the other protective headers.
- Every answer but a static file gets ``Cache-Control: no-store`` unless it chose its own: pages
  and API answers hold a player's game or profile, which no shared cache may keep or replay.
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.errors import security_refusal

MAX_BODY = 16 * 1024
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
HINT_SUFFIX = "/hint"

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
_COMMON_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
PAGE_HEADERS = [(b"content-security-policy", CSP.encode()), *_COMMON_HEADERS]
NO_STORE = (b"cache-control", b"no-store")
STATIC_PREFIX = "/static/"


class BodyTooLarge(HTTPException):
    """Raised from ``receive``: the app's error handlers turn it into a 413 page or JSON error."""

    def __init__(self) -> None:
        super().__init__(413, "The request body is too large.")


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            return value
    return None


def _same_origin(scope: Scope) -> bool:
    site = _header(scope, b"sec-fetch-site")
    if site is not None:
        return site in (b"same-origin", b"none")
    origin = _header(scope, b"origin")
    if origin is None:
        return True
    host = _header(scope, b"host")
    scheme = scope.get("scheme", "http")
    return host is not None and origin.decode("latin-1") == f"{scheme}://{host.decode('latin-1')}"


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, code: str) -> None:
    """The API's JSON error or an error page, in the language the browser asks for."""
    response = await security_refusal(Request(scope), status, code)
    response.raw_headers.extend(PAGE_HEADERS)
    await response(scope, receive, send)


class SecurityMiddleware:
    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # A hint is a GET (the contract's) that marks the game assisted: another site's link
        # must not do that either.
        changes = scope["method"] not in SAFE_METHODS or scope["path"].endswith(HINT_SUFFIX)
        if changes and not _same_origin(scope):
            await _refuse(scope, receive, send, 403, "cross_origin")
            return
        length = _header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _refuse(scope, receive, send, 413, "body_too_large")
            return

        cacheable = scope["path"].startswith(STATIC_PREFIX)
        started = False
        received = 0
        max_body = self.max_body

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > max_body:
                    raise BodyTooLarge()
            return message

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                # /docs too: Swagger UI runs from this site's files (app/web/api_docs.py).
                headers = [*message.get("headers", ()), *PAGE_HEADERS]
                if not cacheable and all(key != b"cache-control" for key, _ in headers):
                    headers.append(NO_STORE)
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, counting_receive, send_with_headers)
        except BodyTooLarge:
            if started:
                raise
            await _refuse(scope, receive, send, 413, "body_too_large")
