"""The session: a signed, HttpOnly, SameSite=Lax cookie holding a random id (pure ASGI).

The id is the browser's only identity. A request without a valid cookie gets a fresh id, and the
response sets the cookie. Handlers read the id from ``scope["cardroom.session"]`` through the
``SessionId`` dependency.

With secure cookies the name takes the ``__Host-`` prefix: browsers then only accept the cookie
from this very host over HTTPS, so a sibling subdomain cannot plant one. A request that carries
the cookie twice (one may have been planted with another path or domain) has no session: which
of the two is ours cannot be told.
"""

from __future__ import annotations

import secrets

from itsdangerous import BadSignature, Signer
from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE_NAME = "cardroom_session"
SECURE_COOKIE_NAME = "__Host-" + COOKIE_NAME
SCOPE_KEY = "cardroom.session"
# Set (True) on a request that came without a valid session cookie: its id is new, made for the
# answer's cookie. Pages store nothing for such a visit (app/web/first_visit.py).
NEW_SESSION_KEY = "cardroom.new_session"
COOKIE_MAX_AGE = 400 * 24 * 3600  # the longest browsers keep a cookie
CHECKED_COOKIES = 10_000
# Paths that never need a session (no cookie is issued on them).
_SESSIONLESS = ("/static/", "/healthz", "/readyz", "/metrics", "/docs", "/openapi.json",
                "/robots.txt")


def new_session_id() -> str:
    return secrets.token_urlsafe(18)


def _cookie_value(headers: list[tuple[bytes, bytes]], name: str) -> str | None:
    """The cookie's value, or None when it is missing or sent more than once."""
    prefix = name + "="
    found = None
    for key, value in headers:
        if key != b"cookie":
            continue
        for part in value.decode("latin-1").split(";"):
            part = part.strip()
            if part.startswith(prefix):
                if found is not None:
                    return None
                found = part[len(prefix) :]
    return found


class SessionMiddleware:
    def __init__(self, app: ASGIApp, secret_key: str, secure: bool) -> None:
        self.app = app
        self.signer = Signer(secret_key, salt="cardroom-session")
        self.cookie_name = SECURE_COOKIE_NAME if secure else COOKIE_NAME
        self.checked: dict[str, str] = {}  # signed cookie value -> session id
        self.attributes = f"; Path=/; Max-Age={COOKIE_MAX_AGE}; HttpOnly; SameSite=Lax" + (
            "; Secure" if secure else ""
        )

    def session_from(self, raw: str | None) -> str | None:
        if not raw:
            return None
        # Cookies that checked out before: a browser sends the same one on every request.
        known = self.checked.get(raw)
        if known is not None:
            return known
        try:
            session_id = self.signer.unsign(raw).decode()
        except BadSignature:
            return None
        if len(self.checked) >= CHECKED_COOKIES:
            self.checked.clear()
        self.checked[raw] = session_id
        return session_id

    def cookie_for(self, session_id: str) -> bytes:
        signed = self.signer.sign(session_id).decode()
        return f"{self.cookie_name}={signed}{self.attributes}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith(_SESSIONLESS):
            await self.app(scope, receive, send)
            return
        session_id = self.session_from(_cookie_value(scope["headers"], self.cookie_name))
        if session_id is not None:
            scope[SCOPE_KEY] = session_id
            await self.app(scope, receive, send)
            return
        session_id = scope[SCOPE_KEY] = new_session_id()
        scope[NEW_SESSION_KEY] = True
        cookie = self.cookie_for(session_id)

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), (b"set-cookie", cookie)]
            await send(message)

        await self.app(scope, receive, send_with_cookie)
