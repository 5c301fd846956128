"""The plays the player's settings make for them in Hearts, all from the player's own view:

- the claim (``hearts_claim``, on by default): when the player is to lead and holds only cards
  above every card of their suit still out, every trick left is theirs whatever anyone plays,
  so the hand plays itself out, with a short "the rest are yours";
- auto-play of a single legal card (``hearts_autoplay_single``, off by default).

The service applies them after each of the player's actions that the settings follow (a pass,
a play, the next hand; not an undo, which would play the card straight back), for the pages and
the JSON API alike (app/web/hearts/service.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.rules.cards import FULL_DECK, SUIT_MASKS
from app.rules.hearts import HUMAN, HeartsMatch, HeartsView, PlayedCard
from app.web.preferences import PlayHelp

# The player's play of a card and the bots' answer (the service's ``play_card``).
PlayCard = Callable[[HeartsMatch, int], list[PlayedCard]]
Action = Callable[[HeartsMatch], list[PlayedCard]]


def claim_is_certain(view: HeartsView) -> bool:
    """Whether every trick left is the player's whatever anyone plays: the player leads and
    each card in hand is above every card of its suit not yet played (wherever it is)."""
    if view.phase != "playing" or view.turn != view.seat or view.trick or not view.hand:
        return False
    played = 0
    for trick in view.tricks:
        for pc in trick.cards:
            played |= 1 << pc.card
    out = FULL_DECK & ~played & ~view.hand
    for suit_mask in SUIT_MASKS:
        mine, theirs = view.hand & suit_mask, out & suit_mask
        # Cards are ranked upwards within a suit: the lowest of ours must beat their highest.
        if mine and theirs and (mine & -mine).bit_length() < theirs.bit_length():
            return False
    return True


def play_for_player(
    match: HeartsMatch, help: PlayHelp, play_card: PlayCard
) -> tuple[list[PlayedCard], bool]:
    """Play the player's cards that the settings say play themselves, with the bots' answers:
    the rest of the hand once a claim is certain, a single legal card. The plays, and whether
    the hand was claimed."""
    plays: list[PlayedCard] = []
    claimed = False
    while match.phase == "playing" and match.turn == HUMAN:
        view = match.view(HUMAN)
        if help.claim and (claimed or claim_is_certain(view)):
            claimed = True
        elif not (help.autoplay_single and view.legal.bit_count() == 1):
            break
        plays += play_card(match, (view.legal & -view.legal).bit_length() - 1)
    return plays, claimed


@dataclass(slots=True)
class Helped:
    """An action of the player followed by the plays their settings make for them;
    ``claimed`` tells afterwards whether the hand was claimed."""

    action: Action
    help: PlayHelp
    play_card: PlayCard
    claimed: bool = False

    def __call__(self, match: HeartsMatch) -> list[PlayedCard]:
        plays = self.action(match)
        more, self.claimed = play_for_player(match, self.help, self.play_card)
        return plays + more
