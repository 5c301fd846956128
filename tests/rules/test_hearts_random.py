"""Random play of whole Hearts matches with the invariants checked at every step.

Also a Hypothesis state machine for play / undo / save sequences.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import traceback
from concurrent.futures import ProcessPoolExecutor

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from app.rules.cards import FULL_DECK, cards_in, mask_of
from app.rules.hearts import HUMAN, HeartsMatch, NothingToUndo, pass_direction
from app.rules.hearts_core import (
    MATCH_TARGET,
    TOTAL_POINTS,
    moon_scores,
    nth_card,
    pass_source,
    points_of,
)

MATCHES = 200
# The matches are independent: they are shared among up to this many processes, one a core.
WORKERS = min(len(os.sched_getaffinity(0)), 4)
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def check_state(match: HeartsMatch) -> None:
    """The invariants of one moment of a match, from its full state and its four views."""
    played = check_rules(match)
    for seat in range(4):
        check_view(match, seat, played)


def check_rules(match: HeartsMatch) -> int:
    """Cards, points, totals and the match end; returns the cards played this hand."""
    s = match.state
    played = 0
    won = [0, 0, 0, 0]
    leader = s.tricks[0].leader if s.tricks else -1
    for trick in s.tricks:
        assert trick.leader == leader  # the winner of a trick leads the next
        taken = 0
        for i, p in enumerate(trick.cards):
            assert p.seat == (trick.leader + i) % 4
            taken |= 1 << p.card
        assert taken.bit_count() == 4 and not played & taken
        assert trick.points == points_of(taken)
        played |= taken
        won[trick.winner] += trick.points
        leader = trick.winner
    assert tuple(won) == s.hand_points
    for i, p in enumerate(s.trick):
        assert p.seat == (s.trick[0].seat + i) % 4 and not played & (1 << p.card)
        played |= 1 << p.card
    # 52 distinct cards: the hands and the played cards split the deck.
    seen = played
    for hand in s.hands:
        assert not seen & hand
        seen |= hand
    assert seen == FULL_DECK
    done = len(s.tricks)
    in_trick = {p.seat for p in s.trick}
    for seat in range(4):
        assert s.hands[seat].bit_count() == 13 - done - (seat in in_trick)

    assert (s.turn is not None) == (s.phase == "playing")
    assert s.phase in ("passing", "playing") or done == 13
    assert len(s.hand_scores) == s.hand_number - (s.phase in ("passing", "playing"))
    if s.phase in ("hand_over", "match_over"):
        assert sum(s.hand_points) == TOTAL_POINTS
        assert s.hand_scores[-1] == moon_scores(s.hand_points)[0]
        assert s.moon == (s.hand_points.index(26) if 26 in s.hand_points else None)
    assert s.totals == (tuple(map(sum, zip(*s.hand_scores, strict=True))) or (0, 0, 0, 0))
    if s.phase == "match_over":
        assert max(s.totals) >= MATCH_TARGET
        assert s.totals.count(min(s.totals)) == 1
        assert s.winner == s.totals.index(min(s.totals))
    else:
        assert s.winner is None
        if s.phase == "hand_over":
            assert max(s.totals) < MATCH_TARGET or s.totals.count(min(s.totals)) > 1
    return played


def check_cards(match: HeartsMatch) -> None:
    """The cheap part of check_rules, for every action: hands and trick hold distinct cards."""
    s = match.state
    held = 0
    for hand in s.hands:
        assert not held & hand
        held |= hand
    in_trick = 0
    for p in s.trick:
        in_trick |= 1 << p.card
    assert not held & in_trick
    assert (held | in_trick).bit_count() == 52 - 4 * len(s.tricks)


def check_view(match: HeartsMatch, seat: int, played: int) -> None:
    """The view holds no card its seat has not seen, and shows that seat's own facts.

    ``played``: the cards played this hand, or -1 to take them as the cards in no hand
    (check_cards has checked that they are the ones in the tricks).
    """
    s = match.state
    view = match.view(seat)
    received = s.passed[pass_source(seat, pass_direction(s.hand_number))]
    if played < 0:
        played = FULL_DECK & ~(s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3])
    # What this seat may know: its own cards, passed and received ones, the played ones.
    known = s.hands[seat] | s.chosen[seat] | s.passed[seat] | received | played
    for mask in (view.hand, view.passed or 0, view.received or 0, view.pass_choice, view.legal):
        assert not mask & ~known
    assert view.hand == s.hands[seat]
    if s.phase == "passing":
        assert view.legal == (0 if s.chosen[seat] else view.hand)
    else:
        assert view.legal == (match.legal_plays() if seat == s.turn else 0)
    assert view.trick == s.trick and view.tricks == s.tricks
    assert view.cards_left == tuple(h.bit_count() for h in s.hands)


def check_round_trips(match: HeartsMatch) -> None:
    assert HeartsMatch.from_json(match.to_json()) == match
    assert match.copy() == match


def random_card(match: HeartsMatch, rng: random.Random) -> int:
    legal = match.legal_plays()
    return nth_card(legal, rng.randrange(legal.bit_count()))


def play_random_match(code: str, rng: random.Random, everything_every_step: bool) -> int:
    """Play a whole match at random, undoing now and then; returns the number of hands.

    After every action: distinct cards, and the view of the seat to move (the one a bot or
    the page reads next); after every trick the whole of check_rules. All four views and
    the save round trip run at the moments the server saves with the player to move (a
    quarter of them, drawn at random) and at each hand's end. With
    ``everything_every_step``, all of it after every action.
    """
    match = HeartsMatch.new(code)
    hands = 0

    def after_action(save_point: bool) -> None:
        if everything_every_step or (save_point and rng.random() < 0.25):
            check_state(match)
            check_round_trips(match)
            return
        check_cards(match)
        played = check_rules(match) if not match.state.trick else -1
        check_view(match, HUMAN if match.turn is None else match.turn, played)

    while True:
        if match.phase == "passing":
            for seat in rng.sample(range(4), 4):
                match.choose_pass(seat, mask_of(rng.sample(cards_in(match.state.hands[seat]), 3)))
                after_action(save_point=False)
        checkpoint = None
        while match.phase == "playing":
            if match.turn == HUMAN:
                checkpoint = match.copy()
            match.play(random_card(match, rng))
            after_action(save_point=match.turn == HUMAN)
            if match.turn == HUMAN and match.undo_available and rng.random() < 0.3:
                # Undo puts back exactly the moment before the player's card.
                match.undo()
                assert match == checkpoint
                after_action(save_point=True)
        hands += 1
        check_state(match)
        check_round_trips(match)
        assert not match.undo_available
        with pytest.raises(NothingToUndo):
            match.undo()
        if match.phase == "match_over":
            return hands
        match.next_hand()
        after_action(save_point=False)


def one_match(number: int) -> int:
    """Match ``number`` of the ``MATCHES``, with its own generator, so it is the same match in
    whichever process plays it; returns its number of hands. The first 20 check everything
    after every action."""
    rng = random.Random(f"hearts-random-{number}")
    code = f"HT1-{'ENH'[number % 3]}-{''.join(rng.choices(LETTERS, k=7))}"
    return play_random_match(code, rng, everything_every_step=number < 20)


def some_matches(numbers: range) -> tuple[int, int | None, str]:
    """The hands played by these matches, or the first one that failed and how."""
    hands = 0
    for number in numbers:
        try:
            hands += one_match(number)
        except Exception:
            return hands, number, traceback.format_exc()
    return hands, None, ""


@pytest.mark.slow
def test_random_matches_keep_every_invariant():
    shares = [range(w, MATCHES, WORKERS) for w in range(WORKERS)]
    if WORKERS == 1:
        results = [some_matches(shares[0])]
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(WORKERS, mp_context=context) as pool:
            results = list(pool.map(some_matches, shares))
    failed = sorted((number, text) for _, number, text in results if number is not None)
    if failed:
        number, text = failed[0]
        one_match(number)  # again here, for pytest's report of the failing assertion
        pytest.fail(f"match {number} failed in its worker only:\n{text}")
    hands = sum(hands for hands, _, _ in results)
    assert hands > 5 * MATCHES


class PlayUndoSave(RuleBasedStateMachine):
    """Any sequence of plays, undos, saves and new hands keeps the match consistent."""

    def __init__(self) -> None:
        super().__init__()
        self.match = HeartsMatch.new("HT1-N-AAAAAAM")
        # The states before each of the player's plays this hand, as undo must restore them.
        self.expected_undo: list[HeartsMatch] = []

    @precondition(lambda self: self.match.phase == "passing")
    @rule(data=st.data())
    def pass_cards(self, data):
        for seat in range(4):
            hand = cards_in(self.match.state.hands[seat])
            chosen = data.draw(st.lists(st.sampled_from(hand), min_size=3, max_size=3, unique=True))
            self.match.choose_pass(seat, mask_of(chosen))

    @precondition(lambda self: self.match.phase == "playing")
    @rule(pick=st.integers(0, 12))
    def play(self, pick):
        legal = self.match.legal_plays()
        if self.match.turn == HUMAN:
            self.expected_undo.append(self.match.copy())
        self.match.play(nth_card(legal, pick % legal.bit_count()))
        if self.match.phase != "playing":
            self.expected_undo.clear()

    @rule()
    def undo(self):
        if self.expected_undo:
            self.match.undo()
            assert self.match == self.expected_undo.pop()
        else:
            with pytest.raises(NothingToUndo):
                self.match.undo()

    @rule()
    def save_and_load(self):
        self.match = HeartsMatch.from_json(self.match.to_json())

    @precondition(lambda self: self.match.phase == "hand_over")
    @rule()
    def next_hand(self):
        self.match.next_hand()

    @invariant()
    def consistent(self):
        check_state(self.match)
        assert self.match.undo_available == bool(self.expected_undo)


PlayUndoSave.TestCase.settings = settings(
    max_examples=30,
    stateful_step_count=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_play_undo_save_sequences = PlayUndoSave.TestCase
