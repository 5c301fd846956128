"""Heart to Heart assists, from the solver: hints (the next step of a winning line, or how far
back undo must go to reach a position that can still be won), Finish, and where a lost game was
lost.

Asking for a hint marks the game assisted (statistics keep it apart) and clears the selection,
so that the marked taps make exactly the marked move. Asking where a game was lost while it is
still in play does the same (it says whether the game can still be won, as a hint does); once
no pair can be made any more (a stalemate) it tells nothing that helps without undo, and undo
or going back there marks the game anyway.

Where it was lost: winning depends only on which heart cards are gone and which ranks the piles
hold (app/rules/heart_to_heart_solver.py), so only pairs change it, and once a position cannot
be won no later one can. The game's log of pairs (``pair_log``) gives those two things after
each pair without replaying anything, and a binary search over it finds the first pair after
which the solver says no: the move that lost it. Going back there is
:meth:`~app.rules.heart_to_heart.HeartToHeartGame.rewind`: undo while the undo history reaches,
else the game played again from its deal, as the same game (its clock and score go back as
undo's do, and it counts as assisted, as after an undo).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import Literal

from app.rules.heart_to_heart import (
    ALL_REMOVED,
    HEART_SIZE,
    NOTHING,
    HeartToHeartGame,
    Move,
    StateError,
    TapResult,
    Target,
    new_game,
)
from app.rules.heart_to_heart_solver import is_winnable, layout_is_winnable, solve_moves
from app.store import GameStore
from app.web.heart_to_heart import service
from app.web.hearts.thinking import THINKING
from app.web.i18n import translator


@dataclass(frozen=True, slots=True)
class Hint:
    """``targets``: the taps of the next move of a winning line (none when there is no line,
    or the game is won); ``undo_to_winnable``: when there is no line, the fewest undos that
    reach a position with one (None when undo cannot reach one)."""

    winnable: bool
    targets: tuple[Target, ...]
    undo_to_winnable: int | None


def hint_of(game: HeartToHeartGame) -> Hint:
    """The hint for ``game`` as it stands (a selection, if any, is ignored: see take_hint)."""
    if game.is_won:
        return Hint(True, (), None)
    moves = solve_moves(game)
    if moves is not None:
        return Hint(True, moves[0].taps, None)
    return Hint(False, (), undo_to_winnable(game))


def undo_to_winnable(game: HeartToHeartGame) -> int | None:
    """The fewest undos after which the game can be won again, within the undo history."""
    back = game.copy()
    for count in range(1, game.undo_depth + 1):
        back.undo()
        if is_winnable(back):
            return count
    return None


def take_hint(game: HeartToHeartGame) -> TapResult:
    """What asking for a hint does to the game: it becomes assisted and loses its selection.
    NOTHING when it already was and had none (nothing to store)."""
    if game.is_won or (game.assisted and game.selected is None):
        return NOTHING
    selected = game.selected
    game.assisted = True
    if selected is None:
        return TapResult("hint")
    game.tap(selected)  # tapping the selected card again clears the selection
    return TapResult(
        "hint", frozenset({selected} if isinstance(selected, int) else ()),
        waste_changed=selected == "waste",
    )


def hint_message(hint: Hint, lang: str) -> str | None:
    """The status line when there is no winning line (the marks say the rest)."""
    if hint.winnable:
        return None
    tr = translator(lang)
    if hint.undo_to_winnable is None:
        return tr.gettext("No winning line from here, and undo cannot reach one.")
    return tr.ngettext(
        "No winning line from here — undo %(num)d move to get back to one.",
        "No winning line from here — undo %(num)d moves to get back to one.",
        hint.undo_to_winnable,
    ) % {"num": hint.undo_to_winnable}


async def ask(
    store: GameStore, session_id: str, game_id: str, version: int | None, timing: service.Timing
) -> tuple[service.HeartToHeartTurn, Hint]:
    """Take a hint in this session's game (marking it assisted) and compute it. Looking back
    through the undo history may solve up to a hundred positions: that waits its turn in the
    bots' queue (app/web/hearts/thinking.py), which a full queue refuses before anything is
    marked."""
    THINKING.check_room()
    turn = await service.apply_action(store, session_id, game_id, version, take_hint, timing)
    return turn, await THINKING.run(hint_of, turn.after.game)


def can_finish(game: HeartToHeartGame) -> bool:
    """Whether no choice matters any more: every heart card left is free. Each then has a
    partner (another of its rank, or a pile card: every rank keeps an even number of cards),
    so whatever order they go in, the game is won."""
    left = ALL_REMOVED & ~game.removed_mask
    return bool(left) and game.free_mask == left


def finish(game: HeartToHeartGame) -> TapResult:
    """Play a finishable game out (the solver's line); NOTHING when it is not finishable."""
    if not can_finish(game):
        return NOTHING
    moves = solve_moves(game)
    assert moves is not None, "a finishable game is won"
    if game.selected is not None:
        game.tap(game.selected)
    for move in moves:
        game.play(move)
    return TapResult("pair", frozenset(range(HEART_SIZE)), stock_changed=True, waste_changed=True)


@dataclass(frozen=True, slots=True)
class WhereLost:
    """What the solver says of a game's past. ``verdict``: ``"winnable"`` (it is won, or can
    still be won from here), ``"never"`` (not even the deal could be won), ``"lost"`` or
    ``"unknown"`` (a game saved before its pairs were logged, lost beyond its undo history).

    When lost: ``moves``, the moves made at the last position from which it could be won;
    ``move``, the move made there that lost it (a pair: only pairs change who can win);
    ``undos``, how many undos go back there, None when that is beyond the undo history (going
    back then plays the game again from its deal)."""

    verdict: Literal["winnable", "never", "lost", "unknown"]
    moves: int | None = None
    move: Move | None = None
    undos: int | None = None


def where_lost(game: HeartToHeartGame) -> WhereLost:
    """Where ``game`` was lost, if it was (see the module docstring)."""
    if is_winnable(game):
        return WhereLost("winnable")
    try:
        log = game.pair_log
    except StateError:
        log = None
    if log is None:
        return where_lost_within_undo(game)
    start = new_game(game.deal)
    piles = list(start.stock_ranks + start.waste_ranks)
    # The layouts before each pair and after the last: which heart cards are gone, which
    # ranks the piles hold.
    layouts = [(0, tuple(piles))]
    removed = 0
    for _, move in log:
        removed |= 1 << move.first  # type: ignore[operator]
        if move.second == "waste":
            piles.remove(game.heart_ranks[move.first])  # type: ignore[index]
        else:
            removed |= 1 << move.second  # type: ignore[operator]
        layouts.append((removed, tuple(piles)))

    def lost_at(index: int) -> bool:
        return not layout_is_winnable(game.heart_ranks, *layouts[index])

    first_lost = bisect_left(range(len(layouts)), True, key=lost_at)
    if first_lost == 0:
        return WhereLost("never")
    before, move = log[first_lost - 1]
    return lost_before(game, before, move)


def where_lost_within_undo(game: HeartToHeartGame) -> WhereLost:
    """``where_lost`` from the undo history alone (a game saved without its log of pairs)."""
    count = undo_to_winnable(game)
    if count is None:
        return WhereLost("never" if game.undo_depth == game.moves else "unknown")
    back = game.copy()
    for _ in range(count - 1):
        back.undo()
    gone = back.removed_mask
    back.undo()
    first, *second = [pos for pos in range(HEART_SIZE) if (gone & ~back.removed_mask) >> pos & 1]
    move = Move("pair", first, second[0] if second else "waste")
    return lost_before(game, back.moves, move)


def lost_before(game: HeartToHeartGame, moves: int, move: Move) -> WhereLost:
    undos = game.moves - moves
    return WhereLost("lost", moves, move, undos if undos <= game.undo_depth else None)


def position_before(game: HeartToHeartGame, lost: WhereLost) -> HeartToHeartGame:
    """The last position of ``game`` from which it could be won (``lost`` is its verdict)."""
    assert lost.moves is not None, "only a lost game has one"
    back = game.copy()
    back.rewind(lost.moves)
    return back


def go_back(game: HeartToHeartGame) -> TapResult:
    """Take the game back to the last position from which it could be won; NOTHING when there
    is none (it can still be won, it never could, or it cannot tell)."""
    lost = where_lost(game)
    if lost.moves is None:
        return NOTHING
    return game.rewind(lost.moves)


def consult(game: HeartToHeartGame) -> TapResult:
    """Asking where a game was lost: like a hint while the game is in play (see the module
    docstring), nothing once it is over."""
    return take_hint(game) if game.status == "playing" else NOTHING


async def review(
    store: GameStore, session_id: str, game_id: str, version: int | None, timing: service.Timing
) -> tuple[service.HeartToHeartTurn, WhereLost]:
    """Where this session's game (held at ``version``; None: as it is) was lost, with the game
    as it is after asking (marked assisted when it is still in play). The solver waits its
    turn in the bots' queue, as a hint does."""
    THINKING.check_room()
    turn = await service.apply_action(store, session_id, game_id, version, consult, timing)
    return turn, await THINKING.run(where_lost, turn.after.game)
