"""HeartsMatch remembers the legal cards of its current state: that must never go stale.

The rule is recomputed here from the state with ``legal_mask`` at every step of random
matches that copy, undo, refuse cards and go through JSON.
"""

import random

from app.rules.hearts import HeartsMatch, IllegalPlay, legal_mask
from app.rules.hearts_core import nth_card


def rule(match: HeartsMatch) -> int:
    st = match.state
    if st.turn is None:
        return 0
    led = st.trick[0].card // 13 if st.trick else -1
    return legal_mask(st.hands[st.turn], led, not st.tricks, st.hearts_broken)


def random_cards(hand: int, rng: random.Random, count: int) -> int:
    chosen = 0
    while chosen.bit_count() < count:
        chosen |= 1 << nth_card(hand, rng.randrange(hand.bit_count()))
    return chosen


def test_legal_plays_fits_the_current_state_through_copies_undo_and_refusals():
    rng = random.Random(4)
    match = HeartsMatch.new("HT1-N-AAAAABC")
    undos = refusals = 0
    for _ in range(3000):
        if match.phase == "match_over":
            match = HeartsMatch.new("HT1-N-AAAAABD")
        if match.phase == "hand_over":
            match.next_hand()
        if match.phase == "passing":
            for seat in range(4):
                match.choose_pass(seat, random_cards(match.state.hands[seat], rng, 3))
        roll = rng.random()
        if roll < 0.5:
            assert match.legal_plays() == rule(match)
        if roll < 0.1 and match.undo_available:
            match.undo()
            undos += 1
        elif roll < 0.2:
            twin = match.copy()
            legal = rule(twin)
            card = nth_card(legal, rng.randrange(legal.bit_count()))
            twin.play(card)
            # Playing on the copy changes neither the original nor what it allows.
            assert match.legal_plays() == legal and twin.legal_plays() == rule(twin)
        elif roll < 0.3:
            wrong = ~rule(match) & ((1 << 52) - 1)
            before = match.copy()
            try:
                match.play(nth_card(wrong, rng.randrange(wrong.bit_count())))
            except IllegalPlay:
                refusals += 1
            assert match == before and match.legal_plays() == rule(match)
        elif roll < 0.35:
            match = HeartsMatch.from_json(match.to_json())
        else:
            legal = rule(match)
            match.play(nth_card(legal, rng.randrange(legal.bit_count())))
        assert match.legal_plays() == rule(match)
    assert undos > 50 and refusals > 200


def test_every_card_is_accepted_exactly_when_the_rule_allows_it():
    rng = random.Random(5)
    match = HeartsMatch.new("HT1-H-AAAAABE")
    for seat in range(4):
        match.choose_pass(seat, random_cards(match.state.hands[seat], rng, 3))
    for _ in range(40):
        legal = rule(match)
        for card in range(52):
            asked, unasked = match.copy(), match.copy()
            asked.legal_plays()
            outcomes = []
            for twin in (asked, unasked):
                try:
                    twin.play(card)
                    outcomes.append(twin.state)
                except IllegalPlay as error:
                    outcomes.append(error.reason)
            assert outcomes[0] == outcomes[1]
            assert (outcomes[0] == asked.state) == bool(legal >> card & 1)
        match.play(nth_card(legal, rng.randrange(legal.bit_count())))
