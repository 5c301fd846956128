"""Expert: Hard's search, reading the other seats' plays.

Hard deals the unseen cards uniformly among the deals that fit what the seat knows. Expert
samples many more deals and weighs each by how well it explains the cards the others have
played this hand: replayed from the first trick, each of their plays is likely when it is the
card Normal would have played with that deal's hand, unlikely otherwise (:class:`hard.Reading`).
The deals it plays out are drawn again by those weights, so a hand that the plays make
unlikely (a seat that ducked a trick it would have won with the queen, say) counts for little;
the weights are tempered so that the deals drawn are not copies of a few.
It also searches more deals than Hard, for the pass too. As for Hard, the amount of search is
a count, so the same view and seed give the same decision.
"""

from __future__ import annotations

from app.bots import hard, normal
from app.bots.hard import PassSearch, PlaySearch, Reading
from app.bots.model import from_view

PLAY_SEARCH = PlaySearch(plays=150_000, min_deals=60, max_deals=1_500)
READING = Reading(drawn=3, noise=0.3, moon_losers=3, ess=0.5)
PASS_SEARCH = PassSearch(screen_deals=16, final_deals=192, finalists=16, moon_losers=3)


def choose_play(
    view, seed: int, search: PlaySearch = PLAY_SEARCH, reading: Reading | None = READING
) -> int:
    """The card Expert plays (``reading`` None: the same search without reading the plays)."""
    legal_mask = view.legal
    if legal_mask & (legal_mask - 1) == 0:
        return legal_mask.bit_length() - 1
    pos = from_view(view)
    if len(hard.candidates(pos, view.seat, legal_mask)) == 1:
        return normal.choose_play(pos, view.seat, legal_mask)
    return hard._evaluate_play(view, pos, seed, search, reading).best()


def choose_pass(view, seed: int) -> int:
    """A mask of the three cards Expert passes."""
    return hard._evaluate_pass(view, seed, PASS_SEARCH).best()
