"""Heart to Heart assists, from the solver: hints (the next step of a winning line, or how far
back undo must go to reach a position that can still be won) and Finish.

Asking for a hint marks the game assisted (statistics keep it apart) and clears the selection,
so that the marked taps make exactly the marked move.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.concurrency import run_in_threadpool

from app.rules.heart_to_heart import (
    ALL_REMOVED,
    HEART_SIZE,
    NOTHING,
    HeartToHeartGame,
    TapResult,
    Target,
)
from app.rules.heart_to_heart_solver import is_winnable, solve_moves
from app.store import GameStore
from app.web.heart_to_heart import service
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
) -> tuple[service.Turn, Hint]:
    """Take a hint in this session's game (marking it assisted) and compute it. Looking back
    through the undo history may solve up to a hundred positions: that runs off the event
    loop."""
    turn = await service.act(store, session_id, game_id, version, take_hint, timing)
    return turn, await run_in_threadpool(hint_of, turn.after.game)


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
