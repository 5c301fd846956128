"""The application: ``create_app(settings)``; ``app`` is what ``uvicorn app.main:app`` serves."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI
from fastapi.staticfiles import StaticFiles

from app import web as web_package
from app.settings import Settings
from app.store import open_store
from app.web.errors import install_error_handlers
from app.web.i18n import load_all
from app.web.security import SecurityMiddleware
from app.web.session import SessionMiddleware
from app.web.templating import STATIC_DIR

FIRST_ROUTERS = ("pages", "heart_to_heart", "hearts")


def web_routers() -> list[APIRouter]:
    """Every module of ``app.web`` with a module-level ``router``, the busiest pages first.

    A new area (a game's pages, the JSON API) only has to add its module; nothing else changes.
    """
    names = sorted(info.name for info in pkgutil.iter_modules(web_package.__path__))
    # Routes are matched in order: the pages people use most come first.
    names.sort(key=lambda name: FIRST_ROUTERS.index(name) if name in FIRST_ROUTERS else 99)
    routers = []
    for name in names:
        router = getattr(importlib.import_module(f"app.web.{name}"), "router", None)
        if isinstance(router, APIRouter):
            routers.append(router)
    return routers


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    load_all()

    @asynccontextmanager
    async def lifespan(application: FastAPI) -> AsyncIterator[None]:
        # The store purges expired games itself (SQLite on its own schedule, Redis by TTL).
        application.state.store = open_store(settings.store_url, settings.game_ttl_days)
        try:
            yield
        finally:
            await application.state.store.close()

    application = FastAPI(
        title="Cardroom",
        summary="Heart to Heart patience and Hearts against three bots.",
        lifespan=lifespan,
        redoc_url=None,
    )
    application.state.settings = settings
    for router in web_routers():
        application.include_router(router)
    application.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    install_error_handlers(application)
    # Added last = outermost: security checks run before anything else, even the session.
    application.add_middleware(
        SessionMiddleware, secret_key=settings.secret_key, secure=settings.secure_cookies
    )
    application.add_middleware(SecurityMiddleware)
    return application


app = create_app()
