"""Slow: Expert takes fewer points than Hard on a fixed set of duplicate deals (issue 32).

The deals are the first ones of ``bench.bots`` (the same hands, played by the same code): one
Expert and three Hard, each deal played four times with Expert in each seat in turn. Every
decision is a function of the view and a seed, so the totals are the same on every run; a
change that makes Expert weaker on these deals fails here. Over the bench's longer runs the
two levels are close (bench/README.md, "Issue 32"): this guards against a loss on these deals,
it does not show a margin.
"""

from __future__ import annotations

import pytest

from bench.bots import FIRST_DEAL, play_hand

DEALS = 40


@pytest.mark.slow
def test_expert_takes_fewer_points_than_hard_on_fixed_deals():
    expert = hard = 0
    for index in range(DEALS):
        for odd in range(4):
            players = tuple("expert" if seat == odd else "hard" for seat in range(4))
            scores = play_hand(players, FIRST_DEAL + index, 1 + index % 4)["scores"]
            expert += scores[odd]
            hard += sum(scores) - scores[odd]
    # Per seat: Expert holds one seat of four, Hard three.
    assert expert < hard / 3
