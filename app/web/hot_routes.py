"""The hottest requests answered below FastAPI's router: :class:`HotRoutes`.

A Heart to Heart tap or undo, page or API, is most of what a player sends. FastAPI's router finds
its route by asking each included router in turn (matching the route twice on the way) and wraps
the endpoint in exit stacks that a lean endpoint (app/web/api_route.py) does not use.
:class:`HotRoutes` sits where the router is called, inside every middleware and inside FastAPI's
exception handling: it recognises exactly the lean POST routes it is given, by the routes' own
matching, and calls their lean handler with a ``Request``, as the router would. Every other
request goes on to the router unchanged, and whatever a handler raises reaches the app's
exception handlers (app/web/errors.py) the usual way. The routes stay declared on their routers,
for the OpenAPI document and ``url_for``.
"""

from __future__ import annotations

from collections.abc import Iterable

from fastapi import Request
from starlette.routing import BaseRoute, Match, Router
from starlette.types import ASGIApp, Receive, Scope, Send

from app.web.api_route import Handler, LeanRoute, is_lean


class HotRoutes:
    """ASGI: the lean POST routes among ``routes`` answered directly, the rest passed to ``app``
    (the router's own stack). Routes earlier in the router must not match their paths."""

    def __init__(self, app: ASGIApp, router: Router, routes: Iterable[BaseRoute]) -> None:
        self.app = app
        self.router = router
        # Candidates by the path's last segment ("tap", "undo"): one dict lookup for the rest.
        self.by_last_segment: dict[str, list[tuple[LeanRoute, Handler]]] = {}
        for route in routes:
            if isinstance(route, LeanRoute) and is_lean(route) and route.methods == {"POST"}:
                last = route.path.rpartition("/")[2]
                candidates = self.by_last_segment.setdefault(last, [])
                candidates.append((route, route.get_route_handler()))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            for route, handler in self.by_last_segment.get(scope["path"].rpartition("/")[2], ()):
                match, child_scope = route.matches(scope)
                if match is Match.FULL:
                    scope.setdefault("router", self.router)
                    scope.update(child_scope)  # endpoint, path_params, route
                    response = await handler(Request(scope, receive, send))
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)
