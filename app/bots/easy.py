"""Easy: legal, simple and forgiving — for beginners.

It passes its three highest cards, follows suit with its lowest card, and otherwise (leading or
discarding) plays a card picked at random from its seed. It never hunts the queen, never aims
a discard at anyone and never watches for a moon.
"""

from __future__ import annotations

from app.bots.model import Pos
from app.rules.cards import SUIT_MASKS, cards_in, rank_of, suit_of
from app.rules.deal_codes import SplitMix64
from app.rules.hearts_core import lowest_card


def choose_pass(hand: int) -> int:
    ranked = sorted(cards_in(hand), key=lambda c: (rank_of(c), suit_of(c)), reverse=True)
    return sum(1 << c for c in ranked[:3])


def choose_play(pos: Pos, me: int, legal: int, seed: int) -> int:
    if pos.trick and legal & SUIT_MASKS[suit_of(pos.trick[0])]:
        return lowest_card(legal)
    options = cards_in(legal)
    return options[SplitMix64(seed).below(len(options))]
