"""Every request's id, access line and numbers (pure ASGI, the outermost middleware), and
``/metrics``.

The id is the request's ``X-Request-ID`` when it is sane (1–64 letters, digits and ``._:-``,
so a proxy's id follows the request through), else one made here; it goes back in the answer's
``X-Request-ID`` and into every log line written while serving (app/logs.py). The access line
(when uvicorn's access log is on) and the request metrics (when ``CARDROOM_METRICS=true``) name
the route template (``/hearts/games/{game_id}/play``), never the raw path; a request no route
matched counts as ``unmatched``. The access line names the session by a hash of its id: the
cookie, which signs that id, never goes in a log.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import metrics
from app.logs import ACCESS, REQUEST_ID
from app.web.session import SCOPE_KEY

SANE_REQUEST_ID = re.compile(rb"[A-Za-z0-9._:\-]{1,64}")
UNMATCHED = "unmatched"

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def metrics_page() -> Response:
    body, content_type = metrics.exposition()
    return Response(body, media_type=content_type)


def session_hash(session_id: str) -> str:
    """A browser's mark in the logs: the same for its every request, and no key to anything."""
    return hashlib.blake2b(session_id.encode(), digest_size=8).hexdigest()


def route_of(scope: Scope) -> str:
    route = scope.get("route")
    return UNMATCHED if route is None else getattr(route, "path", UNMATCHED)


class ObserveMiddleware:
    def __init__(self, app: ASGIApp, *, metrics_on: bool) -> None:
        self.app = app
        self.metrics_on = metrics_on
        # Read once: the level is set at start-up (app/logs.py) and asking costs every request.
        self.access_log = ACCESS.isEnabledFor(logging.INFO)
        # Made ids: this process's random prefix and a count, unique without a call per request.
        self._prefix = secrets.token_hex(4).encode()
        self._count = itertools.count(1)
        # (method, route, status) -> the counter's and the histogram's own increments: found
        # once, not through labels() on every request.
        self._counted: dict[tuple[str, str, int], tuple[Callable[[], None],
                                                         Callable[[float], None]]] = {}

    def request_id(self, scope: Scope) -> bytes:
        for key, value in scope["headers"]:
            if key == b"x-request-id":
                if SANE_REQUEST_ID.fullmatch(value):
                    return value
                break
        return b"%s-%x" % (self._prefix, next(self._count))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = self.request_id(scope)
        token = REQUEST_ID.set(request_id.decode())
        start = time.perf_counter()
        status = 500  # an app that fails before answering: uvicorn answers 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), (b"x-request-id", request_id)]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            if self.metrics_on or self.access_log:
                self.observed(scope, status, time.perf_counter() - start)
        # Reset only when the app returned: the server's report of an exception, written
        # after, names the request too (uvicorn runs each request in a task of its own).
        REQUEST_ID.reset(token)

    def observed(self, scope: Scope, status: int, seconds: float) -> None:
        route, method = route_of(scope), scope["method"]
        if self.metrics_on:
            key = (method, route, status)
            counted = self._counted.get(key)
            if counted is None:
                counted = self._counted[key] = (
                    metrics.REQUESTS.labels(method, route, str(status)).inc,
                    metrics.REQUEST_SECONDS.labels(method, route).observe,
                )
            count, observe = counted
            count()
            observe(seconds)
        if self.access_log:
            session = scope.get(SCOPE_KEY)
            access: dict[str, Any] = {
                "method": method, "route": route, "status": status,
                "duration_ms": round(seconds * 1000, 2),
                "session": None if session is None else session_hash(session),
            }
            ACCESS.info("%s %s %d %.1f ms session %s", method, route, status, seconds * 1000,
                        access["session"], extra={"access": access})
