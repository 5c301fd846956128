"""The daily deals: one deal code per game and UTC day, the same for everyone.

A day's code is drawn from the date alone (``seed_from("daily", kind, "2026-11-30")``), so
every instance and every browser agree without storing anything: Heart to Heart gets a ``W``
code (winnable), Hearts an ``N`` code (Normal bots; its first hand passes left).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from functools import lru_cache

from app.rules.deal_codes import CODE_SPACE, DealCode, SplitMix64, seed_from
from app.rules.heart_to_heart import GAME as HEART_TO_HEART_GAME
from app.rules.hearts import GAME as HEARTS_GAME

HEART_TO_HEART = "heart_to_heart"
HEARTS = "hearts"
# (the code's game, its variant) by game kind, as the services name the kinds.
VARIANTS = {HEART_TO_HEART: (HEART_TO_HEART_GAME, "W"), HEARTS: (HEARTS_GAME, "N")}
# A daily deal's results are kept this long at least; a code is known as a daily this long.
DAILY_KEEP_DAYS = 90


def today(now: float) -> date:
    """The UTC date at ``now`` (seconds since the epoch)."""
    return datetime.fromtimestamp(now, UTC).date()


def seconds_to_next(now: float) -> int:
    """Seconds from ``now`` until the next daily deals (UTC midnight)."""
    midnight = datetime.combine(today(now) + timedelta(days=1), datetime.min.time(), UTC)
    return max(0, int(midnight.timestamp() - now))


@lru_cache(maxsize=512)
def daily_code(kind: str, day: date) -> str:
    """The daily deal of ``kind`` on ``day``: ``daily_code("hearts", date(2026, 11, 30))``."""
    game, variant = VARIANTS[kind]
    number = SplitMix64(seed_from("daily", kind, day.isoformat())).below(CODE_SPACE)
    return str(DealCode(game, variant, number))


def daily_date(kind: str, code: str, now: float) -> date | None:
    """The day whose daily deal ``code`` is (among the last DAILY_KEEP_DAYS days and
    tomorrow, which has begun somewhere), or None."""
    first = today(now) + timedelta(days=1)
    for back in range(DAILY_KEEP_DAYS + 1):
        day = first - timedelta(days=back)
        if daily_code(kind, day) == code:
            return day
    return None
