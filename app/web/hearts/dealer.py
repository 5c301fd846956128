"""What deals a request's Hearts match not stored yet, for the pages and the API alike."""

from __future__ import annotations

from fastapi import Request

from app.web.hearts.service import Dealer


def dealer(request: Request, now: float) -> Dealer:
    """The server's secret key (a random match's secret deal comes from it) and the time."""
    return Dealer(request.app.state.settings.secret_key, now)
