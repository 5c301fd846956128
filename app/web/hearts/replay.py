"""A finished Hearts match played again, card for card, through the rules: its replay.

The match remembers each finished hand's passes and tricks (``HeartsMatch.played_hands``); the
replay deals the match anew from its code (which carries its house rules), makes every pass and
plays every card of those hands through :class:`~app.rules.hearts.HeartsMatch`, and checks each
hand's scores against the ones the match kept: what the replay shows is what the rules make of
the stored actions, never a copy of them. A hand the shooter of a moon settled (the shooter's
choice) is settled as its kept scores say.

The review of a seat's decisions is the hand review's (app/web/hearts/review.py), run on the
seat's view at the end of each replayed hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.hearts import (
    HUMAN,
    NUM_SEATS,
    HeartsError,
    HeartsMatch,
    HeartsRules,
    HeartsView,
    PassDirection,
    Trick,
    pass_direction,
    pass_target,
)
from app.rules.hearts_rules import MOON_CHOICES
from app.web.games import ReplayMissing


class ReplayMismatch(AssertionError):
    """Playing the remembered hands again did not give the scores the match kept."""


@dataclass(frozen=True, slots=True)
class ReplayedHand:
    """One hand as the replay played it. Masks by seat: ``dealt`` (before the pass),
    ``passed`` (what each seat gave; zeros without passing), ``held`` (after the pass)."""

    number: int
    direction: PassDirection
    dealt: tuple[int, int, int, int]
    passed: tuple[int, int, int, int]
    held: tuple[int, int, int, int]
    tricks: tuple[Trick, ...]
    points: tuple[int, int, int, int]  # taken in tricks, before the moon
    scores: tuple[int, int, int, int]  # what the hand scored
    moon: int | None  # the seat that shot the moon
    totals: tuple[int, int, int, int]  # the match's score after the hand
    views: tuple[HeartsView, ...]  # each seat's view at the hand's end (for the review)

    def receiver(self, seat: int) -> int | None:
        """The seat that got ``seat``'s three cards, None in a hand without passing."""
        return None if self.direction == "none" else pass_target(seat, self.direction)


@dataclass(frozen=True, slots=True)
class MatchReplay:
    deal: str
    rules: HeartsRules
    hands: tuple[ReplayedHand, ...]
    winner: int | None


def _finish_moon(again: HeartsMatch, kept: tuple[int, int, int, int]) -> None:
    """Settle a moon the shooter chose about as the match's kept scores say they did."""
    shooter = again.state.moon
    assert shooter is not None
    for choice in MOON_CHOICES:
        trial = again.copy()
        trial.choose_moon(shooter, choice)
        if trial.state.hand_scores[-1] == kept:
            again.choose_moon(shooter, choice)
            return
    raise ReplayMismatch("no moon choice gives the kept scores")


def replay_match(match: HeartsMatch) -> MatchReplay:
    """``match``, over, played again from its deal; ReplayMissing when it cannot be,
    ReplayMismatch when its remembered hands do not lead to its kept scores (or the rules
    refuse one of their passes or cards)."""
    try:
        return _replayed(match)
    except HeartsError as error:
        raise ReplayMismatch(f"the remembered hands do not replay: {error}") from error


def _replayed(match: HeartsMatch) -> MatchReplay:
    if match.phase != "match_over":
        raise ReplayMissing("not_over")
    played = match.played_hands()
    kept = match.state.hand_scores
    if len(played) != match.hand_number or len(kept) != len(played):
        raise ReplayMissing("not_kept")
    again = HeartsMatch.new(match.code, last_hand=match.last_hand)
    hands = []
    for index, (passed, tricks) in enumerate(played):
        if index:
            again.next_hand()
        number = again.hand_number
        direction = pass_direction(number, again.rules)
        dealt = again.state.hands
        if again.phase == "passing":
            for seat in range(NUM_SEATS):
                again.choose_pass(seat, passed[seat])
        held = again.state.hands
        for trick in tricks:
            for card in trick.cards:
                again.play(card.card, seat=card.seat)
        if again.phase == "moon":
            _finish_moon(again, kept[index])
        state = again.state
        if state.tricks != tricks or state.hand_scores[-1] != kept[index]:
            raise ReplayMismatch(f"hand {number} does not replay to its kept scores")
        hands.append(ReplayedHand(
            number, direction, dealt, state.passed, held, state.tricks, state.hand_points,
            state.hand_scores[-1], state.moon, state.totals,
            tuple(again.view(seat) for seat in range(NUM_SEATS)),
        ))
    if again.phase != "match_over" or again.state.totals != match.state.totals:
        raise ReplayMismatch("the replayed match does not end as the match did")
    return MatchReplay(again.deal, again.rules, tuple(hands), again.state.winner)


def reviewable(seat: int | None) -> bool:
    """Whether the review can judge ``seat``'s decisions: it reviews South's, the seat of a
    match against the bots and of a table's creator."""
    return seat == HUMAN
