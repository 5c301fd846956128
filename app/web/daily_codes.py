"""The daily deals: one deal per game and UTC day, the same for everyone, secret until the day
is over.

A day's deal is drawn from the date and the server's secret key (an HMAC-SHA256 of
``daily:{kind}:{date}``), so every instance that shares the key agrees without storing
anything, and no one can compute a day's deal before it is over. Both get a long code, shuffled
by app/rules/deal_codes.py's secret_shuffled, so the cards on the table cannot be searched for
among the codes: Heart to Heart a ``W`` code (winnable), whose stock stays unknown, Hearts an
``N`` code (Normal bots), whose four hands are drawn apart, so one hand's cards tell nothing of
the next. The code is shown once the UTC day is over; it is then an ordinary deal, open to
anyone.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, date, datetime, timedelta

from app.rules.deal_codes import LONG_CODE_SPACE, DealCode
from app.rules.heart_to_heart import GAME as HEART_TO_HEART_GAME
from app.rules.hearts import GAME as HEARTS_GAME

HEART_TO_HEART = "heart_to_heart"
HEARTS = "hearts"
# A daily deal's board is kept this long at least.
DAILY_KEEP_DAYS = 90
# The Hearts daily is this many hands, one per pass direction (left, right, across, none).
HEARTS_DAILY_HANDS = 4


def today(now: float) -> date:
    """The UTC date at ``now`` (seconds since the epoch)."""
    return datetime.fromtimestamp(now, UTC).date()


def seconds_to_next(now: float) -> int:
    """Seconds from ``now`` until the next daily deals (UTC midnight)."""
    midnight = datetime.combine(today(now) + timedelta(days=1), datetime.min.time(), UTC)
    return max(0, int(midnight.timestamp() - now))


def daily_code(kind: str, day: date, secret: str) -> str:
    """The daily deal of ``kind`` on ``day`` under the server's key ``secret``: 256 bits of
    HMAC, reduced to the code's numbers (the bias is below 2**-100)."""
    message = f"daily:{kind}:{day.isoformat()}".encode()
    number = int.from_bytes(hmac.new(secret.encode(), message, hashlib.sha256).digest(), "big")
    if kind == HEART_TO_HEART:
        return str(DealCode(HEART_TO_HEART_GAME, "W", number % LONG_CODE_SPACE, long=True))
    return str(DealCode(HEARTS_GAME, "N", number % LONG_CODE_SPACE, long=True))


def is_over(day: date, now: float) -> bool:
    """Whether ``day``'s daily deals are over everywhere (UTC): their codes may be shown."""
    return day < today(now)


def shown_code(kind: str, day: date, secret: str, now: float) -> str | None:
    """The code of ``day``'s deal as anyone may see it: None until the day is over."""
    return daily_code(kind, day, secret) if is_over(day, now) else None
