"""Where a Heart to Heart game was lost: the page that shows it and the tap that goes back.

The stalemate dialog links here ("Show where it was lost"), and so do the questions asked
before a new game or a shared deal replaces an unfinished game ("Could it still be won?"):
the player learns it before the game is given up, while going back is still one tap. Once a
game has been replaced it is no longer this browser's game, and nothing is offered for it.

The page draws the last position from which the game could be won, as the examples page draws
its positions, with the move that lost it marked as a hint marks its move, says what it was,
and offers "Go back there" (:func:`app.web.heart_to_heart.assists.go_back`).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.rules.heart_to_heart import HeartToHeartGame, Move, rank_name
from app.web.deps import VisitDep
from app.web.games import StaleVersion
from app.web.heart_to_heart import assists, service
from app.web.heart_to_heart.board import PIECE_NAMES, build_board, piece_renderer
from app.web.heart_to_heart.forms import ActionFormDep
from app.web.heart_to_heart.service import Options
from app.web.i18n import heart_name, translator
from app.web.pieces import Pieces
from app.web.templating import page

router = APIRouter(prefix="/heart-to-heart", include_in_schema=False)


def marked(board: Pieces, move: Move) -> Pieces:
    """``board`` with the cards of ``move`` carrying the hint's mark."""
    for target in move.taps:
        name = PIECE_NAMES[target]
        piece = board[name]
        board[name] = piece._replace(extra=(*piece.extra, ("hint", True)))
    return board


def move_text(game: HeartToHeartGame, lost: assists.WhereLost, lang: str) -> str:
    """The move that lost it, in words; ``game`` is the position it was made from."""
    tr = translator(lang)
    move = lost.move
    assert move is not None and move.first is not None and lost.moves is not None
    card = heart_name(rank_name(game.rank_at(move.first)), lang)
    number = lost.moves + 1
    if move.second == "waste":
        return tr.gettext(
            "Move %(num)d lost it: %(card)s at position %(pos)d with the waste top (marked)."
        ) % {"num": number, "card": card, "pos": move.first}
    return tr.gettext(
        "Move %(num)d lost it: the pair of %(card)s at positions %(a)d and %(b)d (marked)."
    ) % {"num": number, "card": card, "a": move.first, "b": move.second}


def way_back(lost: assists.WhereLost, lang: str) -> str:
    tr = translator(lang)
    if lost.undos is None:
        return tr.gettext(
            "That is further back than undo reaches: going back plays the game again from its "
            "deal up to there, and you play on from it."
        )
    return tr.ngettext(
        "Going back undoes %(num)d move, as Undo does.",
        "Going back undoes %(num)d moves, as Undo does.",
        lost.undos,
    ) % {"num": lost.undos}


def verdict_text(lost: assists.WhereLost, lang: str) -> str:
    tr = translator(lang)
    if lost.verdict == "winnable":
        return tr.gettext("This game can still be won from here.")
    if lost.verdict == "never":
        return tr.gettext("This deal could not be won from the start: no move lost it.")
    if lost.verdict == "unknown":
        return tr.gettext(
            "This game was saved before its moves were kept, and undo does not reach back to "
            "where it was lost."
        )
    return tr.ngettext(
        "After %(num)d move this game could still be won: this was the position.",
        "After %(num)d moves this game could still be won: this was the position.",
        lost.moves or 0,
    ) % {"num": lost.moves or 0}


@router.get("/games/{game_id}/lost", name="heart_to_heart_lost")
async def lost_view(game_id: str, request: Request, visit: VisitDep) -> Response:
    timing = service.wall_time(visit.clock())
    turn, lost = await assists.review(visit.store, visit.session_id, game_id, None, timing)
    loaded, lang = turn.after, visit.lang
    if loaded.game.is_won:  # nothing was lost: the game page says it was won
        return RedirectResponse(request.app.url_path_for("heart_to_heart"), 303)
    shown = loaded.game if lost.moves is None else assists.position_before(loaded.game, lost)
    board = build_board(shown, 0, "", Options(placement_help=False), lang, static=True)
    if lost.move is not None:
        board = marked(board, lost.move)
    context = {
        "game": shown,
        "deal": service.shown_deal(loaded),
        "game_id": game_id,
        "version": loaded.stored.version,
        "lost": lost,
        "verdict": verdict_text(lost, lang),
        "move_text": move_text(shown, lost, lang) if lost.move is not None else None,
        "way_back": way_back(lost, lang) if lost.move is not None else None,
        "piece": piece_renderer(board, lang),
    }
    return page(request, "heart_to_heart/lost.html", context, lang)


@router.post("/games/{game_id}/back", name="heart_to_heart_back")
async def go_back(
    game_id: str, form: ActionFormDep, request: Request, visit: VisitDep
) -> Response:
    """Back to the last position from which the game could be won; then the game page. A page
    that no longer shows the game as it is (another tab moved it) is shown again, anew."""
    timing = service.screen_time(form.elapsed, visit.clock())
    try:
        await service.apply_action(
            visit.store, visit.session_id, game_id, form.version, assists.go_back, timing
        )
    except StaleVersion:
        return RedirectResponse(router.url_path_for("heart_to_heart_lost", game_id=game_id), 303)
    return RedirectResponse(request.app.url_path_for("heart_to_heart"), 303)
