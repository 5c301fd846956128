"""Expert: Hard's search, with better play-outs and reading the other seats' plays.

Hard judges a card by hands played out by Normal at every seat. Expert's play-outs play by a
policy learned from Hard's own decisions (:mod:`app.bots.playout_policy`): Normal, corrected
where Hard's search disagrees with it, so the seats of a play-out play more as Hard seats do.
It is costlier than Normal, so a play decision takes many times as long as Hard's. The pass,
whose search plays out every set of three, keeps Normal's play-outs, and so do the rules where
the J♦ or taking no trick scores (the policy was fitted under the seed's scoring).

Hard deals the unseen cards uniformly among the deals that fit what the seat knows. Expert
samples more deals and weighs each by how well it explains the cards the others have
played this hand: replayed from the first trick, each of their plays is likely when it is the
card the learned policy would have played with that deal's hand (Normal's, where the
play-outs are Normal's), unlikely otherwise (:class:`hard.Reading`). Read as Normal's, the
plays told the search little; read as the policy's, which plays more as a searching player
does, they tell it more (bench/README.md, "Issue 32"). The deals it plays out are drawn again
by those weights, so a hand that the plays make unlikely (a seat that ducked a trick it would
have won with the queen, say) counts for little; the weights are tempered so that the deals
drawn are not copies of a few.
It also searches more deals than Hard for the pass. As for Hard, the amount of search is
a count, so the same view and seed give the same decision.
"""

from __future__ import annotations

from app.bots import hard, normal, playout_policy
from app.bots.hard import PassSearch, PlaySearch, Reading
from app.bots.model import from_view
from app.rules.hearts_rules import HeartsRules

# The learned play-outs make a simulated play cost several times Normal's: this count keeps a
# decision's median inside the bound with room to spare for a busier machine.
PLAY_SEARCH = PlaySearch(plays=80_000, min_deals=20, max_deals=500)
# Where the play-outs are Normal's (the rules score more than the seed's cards).
NORMAL_PLAY_OUTS_SEARCH = PlaySearch(plays=150_000, min_deals=60, max_deals=1_500)
READING = Reading(drawn=3, noise=0.3, moon_losers=3, ess=0.5, learned=True)
PASS_SEARCH = PassSearch(screen_deals=16, final_deals=192, finalists=16, moon_losers=3)


def choose_play(
    view, seed: int, reading: Reading | None = READING, learned_play_outs: bool = True
) -> int:
    """The card Expert plays (``reading`` None: the same search without reading the plays;
    ``learned_play_outs`` False: played out by Normal, as Expert did before the policy)."""
    legal_mask = view.legal
    if legal_mask & (legal_mask - 1) == 0:
        return legal_mask.bit_length() - 1
    pos = from_view(view)
    if len(hard.candidates(pos, view.seat, legal_mask)) == 1:
        return normal.choose_play(pos, view.seat, legal_mask)
    if learned_play_outs and _seed_scoring(view.rules):
        search, policy = PLAY_SEARCH, playout_policy.WEIGHTS
    else:
        search, policy = NORMAL_PLAY_OUTS_SEARCH, None
    return hard._evaluate_play(view, pos, seed, search, reading, policy).best()


def _seed_scoring(rules: HeartsRules) -> bool:
    """Cards score as in the seed's rules, which the policy was fitted under (where the J♦ or
    taking no trick scores too, the play-outs are Normal's, which plays for them)."""
    return not rules.jack_of_diamonds and not rules.no_tricks_bonus


def choose_pass(view, seed: int) -> int:
    """A mask of the three cards Expert passes."""
    return hard._evaluate_pass(view, seed, PASS_SEARCH).best()
