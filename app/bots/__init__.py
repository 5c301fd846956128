"""The Hearts bots: Easy, Normal, Hard and Expert (spec/hearts.md, "The bots").

Each decision is a function of one seat's :class:`HeartsView` and a seed, nothing else, so a
match replays exactly. The web layer calls these off the event loop (Hard searches). What Hard's
search thinks of every choice, for a hint or a review of the hand: :func:`hard.play_advice` and
:func:`hard.pass_advice` (same view and seed, same answer).
"""

from __future__ import annotations

from app.bots import easy, expert, hard, normal
from app.bots.model import from_view
from app.rules.cards import card_text
from app.rules.deal_codes import seed_from

LEVELS = ("easy", "normal", "hard", "expert")


def decision_seed(view, kind: str = "play") -> int:
    """The seed of the decision in ``view``: the deal, hand, seat, and "pass" or the cards
    played so far this hand (all public), so replaying a match repeats every decision."""
    if kind == "pass":
        return seed_from(view.deal, view.hand_number, view.seat, "pass")
    played = [pc.card for trick in view.tricks for pc in trick.cards]
    played += [pc.card for pc in view.trick]
    return seed_from(view.deal, view.hand_number, view.seat, " ".join(map(card_text, played)))


def choose_pass(level: str, view, seed: int) -> int:
    """A mask of the three cards this seat passes."""
    _check(level)
    if level == "easy":
        return easy.choose_pass(view.hand)
    if level == "hard":
        return hard.choose_pass(view, seed)
    if level == "expert":
        return expert.choose_pass(view, seed)
    return normal.choose_pass(view.hand, view.rules)


def choose_play(level: str, view, seed: int) -> int:
    """The card this seat plays now (it must be the seat's turn)."""
    _check(level)
    if not view.legal:
        raise ValueError(f"seat {view.seat} has no card to play now")
    if level == "hard":
        return hard.choose_play(view, seed)
    if level == "expert":
        return expert.choose_play(view, seed)
    pos = from_view(view)
    if level == "easy":
        return easy.choose_play(pos, view.seat, view.legal, seed)
    return normal.choose_play(pos, view.seat, view.legal)


def choose_moon(view) -> str:
    """What this seat, having shot the moon under the shooter's-choice rule, makes of it
    (every level chooses alike: the choice is plain arithmetic on the totals)."""
    return normal.choose_moon(view)


def _check(level: str) -> None:
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; use one of {', '.join(LEVELS)}")
