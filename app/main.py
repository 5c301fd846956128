"""The application: ``create_app(settings)``; ``app`` is what ``uvicorn app.main:app`` serves."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app import metrics
from app.logs import configure_logging
from app.settings import Settings
from app.store import open_store
from app.web import api_docs, daily, home, install, observe, replays, settings_routes, stats
from app.web.compression import CompressionMiddleware
from app.web.errors import install_error_handlers
from app.web.games import LatestGames
from app.web.heart_to_heart import api as heart_to_heart_api
from app.web.heart_to_heart import pages as heart_to_heart_pages
from app.web.heart_to_heart import review as heart_to_heart_review
from app.web.hearts import api as hearts_api
from app.web.hearts import pages as hearts_pages
from app.web.hearts.review import Reviews
from app.web.hearts.tables import api as tables_api
from app.web.hearts.tables import pages as tables_pages
from app.web.hearts.tables.clock import TableClock
from app.web.hearts.tables.service import Waits
from app.web.hearts.thinking import THINKING
from app.web.i18n import load_all
from app.web.limits import RateLimitMiddleware
from app.web.security import SecurityMiddleware
from app.web.session import SessionMiddleware
from app.web.static_files import assets, serve_static

# Routes are matched in order: what people use most comes first (a Heart to Heart tap, page or
# API, is the most frequent request).
ROUTERS = (
    home.router,
    heart_to_heart_pages.router,
    heart_to_heart_api.router,
    heart_to_heart_review.router,
    hearts_pages.router,
    daily.router,
    tables_pages.router,
    hearts_api.router,
    daily.api,
    settings_routes.router,
    settings_routes.api,
    stats.router,
    install.router,
    api_docs.router,
    tables_api.router,
    replays.router,
    replays.api,
    tables_api.watching,
)


def create_app(
    settings: Settings | None = None, clock: Callable[[], float] = time.time
) -> FastAPI:
    """The app; ``clock`` gives the time (seconds since the epoch) to the store and the pages,
    so tests can set it."""
    settings = settings or Settings()
    configure_logging(settings.log_format)
    load_all()

    @asynccontextmanager
    async def lifespan(application: FastAPI) -> AsyncIterator[None]:
        assets()  # read before the first request, not during it
        # The store purges expired games itself (SQLite on its own schedule, Redis by TTL).
        application.state.store = open_store(
            settings.store_url, settings.game_ttl_days, clock=clock
        )
        application.state.table_clock = TableClock(
            application.state.store, clock, Waits.of(settings)
        )
        try:
            yield
        finally:
            await application.state.table_clock.stop()
            await application.state.store.close()
            THINKING.close()
            metrics.process_ended()

    application = FastAPI(
        title="Cardroom",
        summary="Heart to Heart patience and Hearts against three bots.",
        lifespan=lifespan,
        docs_url=None,  # app/web/api_docs.py serves /docs
        redoc_url=None,
    )
    application.state.settings = settings
    application.state.clock = clock
    application.state.latest_games = LatestGames()
    application.state.reviews = Reviews()
    for router in ROUTERS:
        application.include_router(router)
    if settings.metrics:
        application.include_router(observe.router)
    application.mount("/static", serve_static, name="static")
    install_error_handlers(application)
    # Added last = outermost: after the request's id, security checks run before anything else,
    # even the session; the rate limits need the session, and their answers are compressed like
    # any other.
    if settings.rate_limit_scale:
        application.add_middleware(RateLimitMiddleware, scale=settings.rate_limit_scale)
    application.add_middleware(CompressionMiddleware)
    application.add_middleware(
        SessionMiddleware, secret_key=settings.secret_key, secure=settings.secure_cookies
    )
    application.add_middleware(SecurityMiddleware)
    # Outermost: the request id is set before anything logs, and every answer is counted.
    application.add_middleware(observe.ObserveMiddleware, metrics_on=settings.metrics)
    return application


app = create_app()
