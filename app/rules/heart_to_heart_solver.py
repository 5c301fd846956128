"""Heart to Heart solver: decides any position and finds a winning line.

Public API
==========
``solve(game) -> list[Target] | None``
    The taps (heart positions, ``"stock"``, ``"waste"``) that win from ``game`` when fed to
    ``game.tap()`` one by one; ``None`` when the position cannot be won; ``[]`` when it is
    already won. A pair is two taps; a draw or a redeal is a ``"stock"`` tap. If a card is
    selected, the line starts by tapping it to deselect it.
``solve_moves(game) -> list[Move] | None``
    The same line as moves (draws, redeals, pairs): one step per move, for showing a won game
    move by move.
``replay(game, moves) -> list[HeartToHeartGame]``
    The positions after each move of ``moves`` played from a copy of ``game`` (the examples
    page steps forward and back through them).
``is_winnable(game) -> bool`` and ``layout_is_winnable(heart_ranks, removed, pile_ranks)``
    The yes/no answer, the second straight from ranks (used to find ``W`` deals).

How it works
============
With unlimited redeals every card of stock and waste can be brought to the waste top, so a
position wins or loses by its gone heart positions and the ranks left in the piles, not their
order. The search runs on that abstract state (a 25-bit mask plus 3 bits of pile count per
rank), depth first with a set of states known to lose, after two moves that never hurt:

* a rank whose heart cards still in place are all free is cleared at once (pairs among them,
  the odd one with a pile card, which then exists because every rank keeps an even number of
  cards): a winning line with those pairs taken out still wins, since removing cards only
  frees others;
* when the piles hold at least as many cards of a rank as the heart still does, each free
  heart card of that rank pairs with a pile card at once: every heart card of the rank has a
  pile partner of its own whenever it comes free.

Pile counts above the heart count of the rank are capped, since they can never be used. The
abstract line is turned into real moves by making its pairs as soon as their cards are free
(a pair with the piles when its rank shows on the waste top) and turning the stock otherwise,
which keeps the number of draws in a line low.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.heart_to_heart import (
    ALL_REMOVED,
    DRAW,
    HEART_SIZE,
    REDEAL,
    HeartToHeartGame,
    Move,
    Target,
    free_mask_of,
    pair_move,
    positions_in,
)

_RANKS = range(1, 14)
_BITS = 3  # pile cards of one rank: 0..4


class _Search:
    """One abstract search over a fixed heart."""

    __slots__ = ("line", "lost", "rank_masks")

    def __init__(self, heart_ranks: Sequence[int]) -> None:
        self.rank_masks = [0] * 14
        for p, rank in enumerate(heart_ranks):
            self.rank_masks[rank] |= 1 << p
        self.lost: set[int] = set()
        # Abstract pairs on the current path: (heart position, other position or None for a
        # pile card).
        self.line: list[tuple[int, int | None]] = []

    def counts_of(self, removed: int, pile_ranks: Sequence[int]) -> int:
        counts = 0
        for rank in _RANKS:
            in_heart = (self.rank_masks[rank] & ~removed).bit_count()
            counts |= min(pile_ranks.count(rank), in_heart) << (_BITS * rank)
        return counts

    def settle(self, removed: int, counts: int) -> tuple[int, int]:
        """Make the moves that never hurt until none is left (see the module docstring)."""
        line = self.line
        settled = False
        while not settled:
            settled = True
            free = free_mask_of(removed)
            for rank in _RANKS:
                present = self.rank_masks[rank] & ~removed
                ready = present & free
                if not ready:
                    continue
                shift = _BITS * rank
                piles = counts >> shift & 7
                if ready == present:
                    places = positions_in(ready)
                    while len(places) > 1:
                        line.append((places.pop(), places.pop()))
                    if places:
                        line.append((places[0], None))
                    removed |= ready
                    counts &= ~(7 << shift)
                    settled = False
                elif piles >= present.bit_count():
                    places = positions_in(ready)
                    line.extend((p, None) for p in places)
                    removed |= ready
                    counts -= len(places) << shift
                    settled = False
        return removed, counts

    def wins(self, removed: int, counts: int) -> bool:
        mark = len(self.line)
        removed, counts = self.settle(removed, counts)
        if removed == ALL_REMOVED:
            return True
        state = removed | counts << HEART_SIZE
        if state not in self.lost:
            free = free_mask_of(removed)
            line = self.line
            for rank in _RANKS:
                ready = self.rank_masks[rank] & free & ~removed
                if not ready:
                    continue
                places = positions_in(ready)
                # Heart pairs first: they keep the pile cards for later.
                for i, p in enumerate(places):
                    for q in places[i + 1 :]:
                        line.append((p, q))
                        if self.wins(removed | 1 << p | 1 << q, counts):
                            return True
                        line.pop()
                shift = _BITS * rank
                if counts >> shift & 7:
                    for p in places:
                        line.append((p, None))
                        if self.wins(removed | 1 << p, counts - (1 << shift)):
                            return True
                        line.pop()
            self.lost.add(state)
        del self.line[mark:]
        return False


def _abstract_line(
    heart_ranks: Sequence[int], removed: int, pile_ranks: Sequence[int]
) -> list[tuple[int, int | None]] | None:
    search = _Search(heart_ranks)
    if search.wins(removed, search.counts_of(removed, pile_ranks)):
        return search.line
    return None


def layout_is_winnable(heart_ranks: Sequence[int], removed: int, pile_ranks: Sequence[int]) -> bool:
    """Whether a heart with the ``removed`` positions gone and the stock and waste holding
    ``pile_ranks`` (in any order) can be won."""
    return _abstract_line(heart_ranks, removed, pile_ranks) is not None


def is_winnable(game: HeartToHeartGame) -> bool:
    """Whether ``game`` can still be won (a won game counts as winnable)."""
    return game.is_won or layout_is_winnable(
        game.heart_ranks, game.removed_mask, game.stock_ranks + game.waste_ranks
    )


def solve_moves(game: HeartToHeartGame) -> list[Move] | None:
    """A winning line from ``game`` as moves, or ``None`` when it cannot be won."""
    piles = game.stock_ranks + game.waste_ranks
    plan = _abstract_line(game.heart_ranks, game.removed_mask, piles)
    if plan is None:
        return None
    # Any order of the plan's pairs in which each pair's cards are free is a winning line, and
    # the first pair of the plan not yet made is always free. So: heart pairs as soon as they
    # are free, pairs with the piles whenever their rank comes up, else turn the stock. One
    # pass through stock and waste brings every pile rank up, which bounds the turns between
    # two pairs.
    board = game.copy()
    moves: list[Move] = []
    turns = 0
    while plan:
        free, top = board.free_mask, board.waste_top
        ready = [
            (p, q)
            for p, q in plan
            if free >> p & 1
            and (free >> q & 1 if q is not None else game.heart_ranks[p] == top)
        ]
        if ready:
            pair = min(ready, key=lambda step: step[1] is None)  # heart pairs first
            plan.remove(pair)
            move = pair_move(pair[0], "waste" if pair[1] is None else pair[1])
            turns = 0
        elif turns > len(piles) + 1:
            raise RuntimeError(f"the solver's plan does not replay from {game!r}")
        else:
            move = DRAW if board.stock_count else REDEAL
            turns += 1
        board.play(move)
        moves.append(move)
    return moves


def solve(game: HeartToHeartGame) -> list[Target] | None:
    """A winning line from ``game`` as taps for ``game.tap()``, or ``None``."""
    moves = solve_moves(game)
    if moves is None:
        return None
    taps: list[Target] = [] if game.selected is None else [game.selected]
    for move in moves:
        taps.extend(move.taps)
    return taps


def replay(game: HeartToHeartGame, moves: Sequence[Move]) -> list[HeartToHeartGame]:
    """The position after each of ``moves``, played in turn from a copy of ``game``."""
    board = game.copy()
    positions = []
    for move in moves:
        board.play(move)
        positions.append(board.copy())
    return positions
