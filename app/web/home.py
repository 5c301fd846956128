"""Pages shared by the whole card room: home, language switch, health and readiness."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from app.web.daily import home_daily
from app.web.deps import ClockDep, Lang, ProfileDep, SessionId, StoreDep
from app.web.heart_to_heart import service as heart_to_heart
from app.web.hearts import service as hearts
from app.web.i18n import LANGUAGES
from app.web.profile import statistics, update_profile
from app.web.templating import page

router = APIRouter()

# Whether this session's game of each kind is unfinished (the home page then offers Continue).
UNFINISHED = {
    heart_to_heart.KIND: heart_to_heart.has_unfinished,
    hearts.KIND: hearts.has_unfinished,
}


@router.get("/healthz", include_in_schema=False, name="healthz")
async def healthz() -> Response:
    return Response(b'{"status":"ok"}', media_type="application/json")


# Crawlers keep to the pages anyone may read (home, rules, deals, daily boards): a session's
# games, tables, statistics and settings are nobody else's, and a replay's review costs the
# bots' processes a search per hand.
NOT_FOR_CRAWLERS = ("/api/", "/hearts/games/", "/heart-to-heart/games/", "/hearts/t/",
                    "/hearts/w/", "/stats", "/settings")
ROBOTS_TXT = "User-agent: *\n" + "".join(f"Disallow: {path}\n" for path in NOT_FOR_CRAWLERS)


@router.get("/robots.txt", include_in_schema=False)
async def robots() -> Response:
    return Response(ROBOTS_TXT, media_type="text/plain",
                    headers={"Cache-Control": "public, max-age=86400"})


@router.get("/readyz", include_in_schema=False)
async def readyz(request: Request) -> Response:
    try:
        await request.app.state.store.ping()
    except Exception:  # any failure of the backend means "not ready"
        return JSONResponse({"status": "unavailable"}, status_code=503)
    return JSONResponse({"status": "ok"})


@router.get("/", include_in_schema=False, name="home")
async def home(
    request: Request,
    store: StoreDep,
    session_id: SessionId,
    profile: ProfileDep,
    lang: Lang,
    clock: ClockDep,
) -> Response:
    in_progress = {}
    for kind, unfinished in UNFINISHED.items():
        in_progress[kind] = await unfinished(store, session_id)
    context = {
        "in_progress": in_progress,
        "stats": statistics(profile),
        "daily": home_daily(profile, clock()),
    }
    return page(request, "home.html", context, lang)


def _safe_next(target: str) -> str:
    """Only a path of this site: never an open redirect."""
    if target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return "/"


@router.post("/lang", include_in_schema=False, name="switch_language")
async def switch_language(
    store: StoreDep,
    session_id: SessionId,
    lang: Annotated[str, Form(max_length=5)],
    next: Annotated[str, Form(max_length=300)] = "/",
) -> Response:
    if lang in LANGUAGES:
        await update_profile(store, session_id, lambda data: data.__setitem__("lang", lang))
    return RedirectResponse(_safe_next(next), status_code=303)
