"""Request dependencies, for pages and the JSON API alike.

Use them as annotated parameters: ``store: StoreDep``, ``session_id: SessionId``,
``lang: Lang``, ``clock: ClockDep``. FastAPI resolves each at most once per request, so ``Lang``
and a handler's own ``ProfileDep`` share one profile read. ``VisitDep`` gives store, session,
profile, language and clock in one dependency (what every action route needs).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from app.settings import Settings
from app.store import GameStore
from app.web.games import LatestGames
from app.web.i18n import LANGUAGES, pick_language
from app.web.profile import Profile, load_profile
from app.web.session import SCOPE_KEY


async def get_settings(request: Request) -> Settings:
    return request.app.state.settings


async def get_store(request: Request) -> GameStore:
    return request.app.state.store


async def get_session_id(request: Request) -> str:
    return request.scope[SCOPE_KEY]


async def get_clock(request: Request) -> Callable[[], float]:
    return request.app.state.clock


SettingsDep = Annotated[Settings, Depends(get_settings)]
ClockDep = Annotated[Callable[[], float], Depends(get_clock)]
StoreDep = Annotated[GameStore, Depends(get_store)]
SessionId = Annotated[str, Depends(get_session_id)]


async def get_profile(request: Request, store: StoreDep, session_id: SessionId) -> Profile:
    profile = await load_profile(store, session_id)
    request.state.profile = profile  # the page's settings come from it (templating.page)
    return profile


ProfileDep = Annotated[Profile, Depends(get_profile)]


def language_of(request: Request, profile: Profile) -> str:
    """The player's pick when there is one, else what the browser asks for."""
    if profile.lang in LANGUAGES:
        return profile.lang
    return pick_language(request.headers.get("accept-language"))


async def get_lang(request: Request, profile: ProfileDep) -> str:
    return language_of(request, profile)


Lang = Annotated[str, Depends(get_lang)]


@dataclass(slots=True)
class Visit:
    """Everything an action route needs about the request's browser, as one dependency."""

    store: GameStore
    session_id: str
    profile: Profile
    lang: str
    clock: Callable[[], float]  # the time now, in seconds since the epoch
    latest_games: LatestGames  # the games this process stored last (app/web/games.py)


async def get_visit(request: Request) -> Visit:
    state = request.app.state
    session_id = request.scope[SCOPE_KEY]
    profile = await load_profile(state.store, session_id)
    request.state.profile = profile
    return Visit(state.store, session_id, profile, language_of(request, profile), state.clock,
                 state.latest_games)


VisitDep = Annotated[Visit, Depends(get_visit)]
