"""Rate limits on requests that write (pure ASGI): a person never meets one, a script that
floods the card room with new games, tables or profiles does.

Every POST, PUT, DELETE and PATCH takes one request from two buckets of its class, its
session's and its client address's (``GameStore.take_allowance``: fixed windows on the app's
clock, counted in the store, so shared by every worker and every instance on one Redis). When
either bucket is empty the request is answered 429 with ``Retry-After`` (the seconds until the
window ends) and changes nothing; a refused request takes nothing from either bucket, so a
flooding session does not spend its address's budget past its own limit.

The budgets, at ``CARDROOM_RATE_LIMIT_SCALE`` 1:

- **moves** (every write but a creation: taps, plays, undo, settings, nicknames, a table's
  actions): 150 per 10 s per session, 600 per 10 s per address. A fast player taps 5 or 6 times
  a second in a burst and rarely keeps 3 a second up (a whole Heart to Heart game is about 90
  taps, a minute or more); scripts on the API may keep 15 a second.
- **creations** (a new game, a deal that replaces the game, a new table: each stores a new
  record, and a game given up for another goes on the deal's board): 30 per minute per session,
  120 per minute per address. A person starts one every few seconds at the most.

The address is the ASGI scope's client: uvicorn sets it from ``X-Forwarded-For`` only with
``--proxy-headers`` and only from ``--forwarded-allow-ips``; the app never reads the header.
An IPv6 client is counted by its /64, which one machine usually holds whole. A request without
a session cookie has a fresh session, so only its address counts for it.
"""

from __future__ import annotations

import functools
import ipaddress
import math
import re
from dataclasses import dataclass

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from app.store import GameStore, StoreError
from app.web.errors import rate_limited, store_error_handler
from app.web.security import SAFE_METHODS
from app.web.session import NEW_SESSION_KEY, SCOPE_KEY


@dataclass(frozen=True, slots=True)
class Budget:
    name: str
    window: int  # seconds
    per_session: int
    per_address: int

    def scaled(self, scale: float) -> Budget:
        def times(limit: int) -> int:
            return max(1, round(limit * scale))

        return Budget(self.name, self.window, times(self.per_session), times(self.per_address))


MOVES = Budget("moves", 10, 150, 600)
CREATIONS = Budget("new", 60, 30, 120)

# Page and API routes that store a new game or table (POST only; other methods are moves).
CREATION = re.compile(r"/(?:api/)?(?:heart-to-heart|hearts)/(?:new|games|tables|deal/[^/]+)/?")
IPV6_NETWORK = 64


def address_of(scope: Scope) -> str:
    client = scope.get("client")
    if not client:  # a Unix socket, say: every such request shares one bucket
        return "-"
    return _bucket_address(client[0])


@functools.lru_cache(maxsize=4096)  # a browser sends many requests from one address
def _bucket_address(host: str) -> str:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:  # not an address (a test client's name): counted as it is
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:  # ::ffff:192.0.2.1 is 192.0.2.1
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_NETWORK), strict=False))
    return host


class RateLimitMiddleware:
    """Inside the session middleware (it reads the session id)."""

    def __init__(self, app: ASGIApp, scale: float) -> None:
        self.app = app
        self.moves = MOVES.scaled(scale)
        self.creations = CREATIONS.scaled(scale)

    def budget_for(self, method: str, path: str) -> Budget:
        return self.creations if method == "POST" and CREATION.fullmatch(path) else self.moves

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        budget = self.budget_for(scope["method"], scope["path"])
        buckets = [(f"{budget.name}:a:{address_of(scope)}", budget.per_address)]
        session_id = scope.get(SCOPE_KEY)
        if session_id is not None and not scope.get(NEW_SESSION_KEY):
            buckets.append((f"{budget.name}:s:{session_id}", budget.per_session))
        store: GameStore = scope["app"].state.store
        try:
            wait = await store.take_allowance(buckets, budget.window)
        except StoreError as exc:
            await (await store_error_handler(Request(scope), exc))(scope, receive, send)
            return
        if wait:
            response = await rate_limited(Request(scope), math.ceil(wait))
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
