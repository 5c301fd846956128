"""Table matches that end after their second hand, for the tests that watch a match to its end.

Two hands hold everything those tests check in a longer match: a pass each way (none in a
no-pass game), a hand's end and the next hand, the match's end and its revealed deal. A match
to 50 took from two to six hands by the deal (one run of a test 30 s, another 118 s); a match
to its target is played whole in tests/tables/test_tables_live.py.
"""

from __future__ import annotations

from app.rules.deal_codes import DealCode
from app.rules.hearts import HeartsMatch, HeartsRules

LAST_HAND = 2


class TwoHandMatch(HeartsMatch):
    """service.start's match, with a last hand as a daily deal has (HeartsMatch.new)."""

    @classmethod
    def new(
        cls, code: DealCode | str, *, last_hand: int | None = None,
        rules: HeartsRules | None = None,
    ) -> HeartsMatch:
        return HeartsMatch.new(code, last_hand=LAST_HAND, rules=rules)
