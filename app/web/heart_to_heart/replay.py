"""A finished Heart to Heart game played again from its deal, move by move, with the solver's
verdict after each move.

The game's log of pairs (``pair_log``) and the stock taps between them are every move of the
game that was not undone (app/rules/heart_to_heart.py): the replay plays them through the
rules from the deal. Winning depends only on the pairs made (app/web/heart_to_heart/assists.py),
and once a position cannot be won no later one can, so :func:`~app.web.heart_to_heart.assists.
where_lost` (a binary search over the pairs, a handful of solver calls) gives the verdict of
every step: winnable up to the position before the move that lost it, not winnable after.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.heart_to_heart import DRAW, REDEAL, HeartToHeartGame, Move, StateError, new_game
from app.web.games import ReplayMissing
from app.web.heart_to_heart.assists import WhereLost, where_lost


@dataclass(frozen=True, slots=True)
class Step:
    """The board after a move (the deal's step has no move)."""

    move: Move | None
    removed: int
    stock: int
    waste: int
    waste_top: int | None
    winnable: bool


@dataclass(frozen=True, slots=True)
class GameReplay:
    deal: str
    heart_ranks: tuple[int, ...]
    steps: tuple[Step, ...]
    lost: WhereLost
    won: bool


def moves_of(game: HeartToHeartGame) -> list[Move]:
    """Every move of ``game`` not undone, in order: its logged pairs, stock taps between."""
    log = game.pair_log
    if log is None:
        raise ReplayMissing("not_kept")
    again = new_game(game.deal)
    moves: list[Move] = []

    def tap_stock(until: int) -> None:
        while len(moves) < until:
            move = DRAW if again.stock_count else REDEAL
            again.play(move)
            moves.append(move)

    for before, move in log:
        tap_stock(before)
        again.play(move)
        moves.append(move)
    tap_stock(game.moves)
    return moves


def step_of(game: HeartToHeartGame, move: Move | None, winnable: bool) -> Step:
    return Step(move, game.removed_mask, game.stock_count, game.waste_count, game.waste_top,
                winnable)


def replay_game(game: HeartToHeartGame) -> GameReplay:
    """``game``, won or at a stalemate, played again from its deal (CPU: the solver)."""
    if game.status == "playing":
        raise ReplayMissing("not_over")
    try:
        moves = moves_of(game)
    except StateError as error:
        raise ReplayMissing("not_kept") from error
    lost = where_lost(game)
    # The last move made from a position that could still be won: every step up to it is.
    last_winnable = {"winnable": len(moves), "never": -1}.get(lost.verdict, lost.moves)
    assert last_winnable is not None
    again = new_game(game.deal)
    steps = [step_of(again, None, last_winnable >= 0)]
    for number, move in enumerate(moves, 1):
        again.play(move)
        steps.append(step_of(again, move, number <= last_winnable))
    if (again.removed_mask, again.stock_ranks, again.waste_ranks) != (
        game.removed_mask, game.stock_ranks, game.waste_ranks
    ):
        raise AssertionError("the replay does not end where the game did")
    return GameReplay(game.deal, game.heart_ranks, tuple(steps), lost, game.is_won)
