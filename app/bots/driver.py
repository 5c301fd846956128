"""Runs the bot seats of a :class:`HeartsMatch`: seats 1–3 in a solo match (seat 0 is the
player); at a table with friends, whichever seats have no player at the moment.

Hard and Expert search: a caller may send their decisions to another executor
(:func:`search_in`; the web app gives a process pool, app/web/hearts/thinking.py) while the
driver waits for each answer.
Every other decision, and theirs when no executor is given, is made in the calling thread. The
decisions are the same either way: each is a function of the seat's view and a seed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Container
from concurrent.futures import BrokenExecutor, Executor

from app.bots import choose_moon, choose_pass, choose_play, decision_seed
from app.metrics import BOT_DECISION_SECONDS
from app.rules.hearts import HeartsMatch, HeartsView, PlayedCard

BOT_SEATS = (1, 2, 3)
# The levels whose decisions search, and may be sent to an executor.
SEARCHING_LEVELS = ("hard", "expert")

_searches: Executor | None = None


def search_in(executor: Executor | None) -> None:
    """Make the searching levels' decisions in ``executor`` from now on (None: here)."""
    global _searches
    _searches = executor


def _decide(choose: Callable[[str, HeartsView, int], int], level: str, view: HeartsView,
            seed: int) -> int:
    start = time.perf_counter()
    try:
        executor = _searches
        if level in SEARCHING_LEVELS and executor is not None:
            try:
                return executor.submit(choose, level, view, seed).result()
            except BrokenExecutor:  # the process died while deciding: decide here instead
                pass
        return choose(level, view, seed)
    finally:
        BOT_DECISION_SECONDS.labels(level).observe(time.perf_counter() - start)


def pass_for_bots(match: HeartsMatch, seats: Container[int] = BOT_SEATS) -> None:
    """Each bot seat that has not chosen yet chooses its three cards from its own view."""
    if match.phase != "passing":
        return
    for seat in range(4):
        if seat not in seats:
            continue
        view = match.view(seat)
        if not view.pass_chosen:
            cards = _decide(choose_pass, match.bot_level, view, decision_seed(view, "pass"))
            match.choose_pass(seat, cards)


def play_bots(match: HeartsMatch, seats: Container[int] = BOT_SEATS) -> list[PlayedCard]:
    """Bots play until it is a player's turn or the hand is over; the plays in order. A bot
    that shot the moon under the shooter's-choice rule makes its choice."""
    plays: list[PlayedCard] = []
    while match.phase == "playing" and match.turn is not None and match.turn in seats:
        seat = match.turn
        view = match.view(seat)
        card = _decide(choose_play, match.bot_level, view, decision_seed(view))
        match.play(card)
        plays.append(PlayedCard(seat, card))
    shooter = match.state.moon
    if match.phase == "moon" and shooter is not None and shooter in seats:
        match.choose_moon(shooter, choose_moon(match.view(shooter)))
    return plays
