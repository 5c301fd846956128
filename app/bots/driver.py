"""Runs the three bot seats of a :class:`HeartsMatch` (seats 1–3; seat 0 is the player)."""

from __future__ import annotations

from app.bots import choose_pass, choose_play, decision_seed
from app.rules.hearts import HUMAN, HeartsMatch, PlayedCard

BOT_SEATS = (1, 2, 3)


def pass_for_bots(match: HeartsMatch) -> None:
    """Each bot seat that has not chosen yet chooses its three cards from its own view."""
    if match.phase != "passing":
        return
    for seat in BOT_SEATS:
        view = match.view(seat)
        if not view.pass_chosen:
            cards = choose_pass(match.bot_level, view, decision_seed(view, "pass"))
            match.choose_pass(seat, cards)


def play_bots(match: HeartsMatch) -> list[PlayedCard]:
    """Bots play until it is the player's turn or the hand is over; the plays in order."""
    plays: list[PlayedCard] = []
    while match.phase == "playing" and match.turn is not None and match.turn != HUMAN:
        seat = match.turn
        view = match.view(seat)
        card = choose_play(match.bot_level, view, decision_seed(view))
        match.play(card)
        plays.append(PlayedCard(seat, card))
    return plays
