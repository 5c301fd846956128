"""The Heart to Heart board as pieces (app/web/pieces.py), drawn by templates/heart_to_heart/
_pieces.html: heart positions ``p0``…``p24``, ``h2h-stock``, ``h2h-waste``, the info-bar values,
the version, undo, the dialog slot and the placement-help sets.

A card whose placement help alone changed is not sent: its help is an ``extra`` argument, and
the ``h2h-help`` piece carries the sets instead (a selection dims nearly every card);
static/js/placement-help.js applies them to the cards, so the DOM ends up as the full page
draws it. Without JavaScript the page is drawn whole, placement help on every card.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache

from markupsafe import Markup

from app.rules.heart_to_heart import (
    HEART_SIZE,
    HeartToHeartGame,
    Target,
    rank_name,
    target_text,
)
from app.web.heart_to_heart.assists import Hint, can_finish
from app.web.heart_to_heart.service import LoadedGame, Options, keep
from app.web.i18n import heart_name
from app.web.pieces import Piece, Pieces, changed, render, render_all, render_once

TEMPLATE = "heart_to_heart/_pieces.html"
HEART_NAMES = tuple(f"p{pos}" for pos in range(HEART_SIZE))
# When more heart cards than this changed, one swap of the whole heart is smaller than a swap
# per card.
WHOLE_HEART_OVER = HEART_SIZE // 2


def build_board(
    game: HeartToHeartGame, version: int, undo_url: str, options: Options, lang: str,
    *, static: bool = False,
) -> Pieces:
    """The board's pieces; ``static`` draws pictures instead of controls (the examples)."""
    outlined, dimmed = game.placement_help() if options.placement_help else ((), ())
    # Both can apply to one card (a free card with a partner, of another rank than the
    # selected one): dimmed wins.
    help = {piece_name(target): "outlined" for target in outlined}
    help.update((piece_name(target), "dimmed") for target in dimmed)

    def extra(name: str) -> tuple[tuple[str, object], ...]:
        helped = (("help", help[name]),) if name in help else ()
        return (("static", True), *helped) if static else helped

    free, removed, selected = game.free_mask, game.removed_mask, game.selected
    pieces: Pieces = {}
    args: tuple[object, ...]
    for pos, name in enumerate(HEART_NAMES):
        if removed >> pos & 1:
            pieces[name] = GAPS[pos]
            continue
        key = (pos, game.rank_at(pos), not free >> pos & 1, selected == pos, help.get(name),
               static, lang)
        piece = _CARDS.get(key)
        if piece is None:
            rank = rank_name(key[1])
            args = (pos, rank, heart_name(rank, lang), key[2], key[3])
            piece = _CARDS[key] = Piece("heart_card", args, extra(name))
        pieces[name] = piece
    # An empty stock shows whether tapping it turns the waste over.
    can_redeal = game.stock_count == 0 and game.waste_count > 0
    pieces["h2h-stock"] = Piece("stock", (game.stock_count, can_redeal), extra("h2h-stock"))
    top = game.waste_top
    if top is None:
        pieces["h2h-waste"] = Piece("empty_waste")
    else:
        rank = rank_name(top)
        args = (rank, heart_name(rank, lang), selected == "waste")
        pieces["h2h-waste"] = Piece("waste", args, extra("h2h-waste"))
    pieces["h2h-score"] = Piece("score", (game.score,))
    pieces["h2h-moves"] = Piece("moves", (game.moves,))
    pieces["h2h-time"] = Piece("clock", (round(game.play_time, 1), game.clock_running))
    pieces["h2h-version"] = Piece("version", (version,))
    can_undo = game.undo_depth > 0
    pieces["h2h-undo"] = Piece("undo", (undo_url, can_undo and not game.is_won))
    # Action routes are /heart-to-heart/games/{id}/{verb}: Finish sits beside undo.
    finish_url = undo_url.rsplit("/", 1)[0] + "/finish"
    pieces["h2h-finish"] = Piece("finish", (finish_url, can_finish(game) and not static))
    if game.status == "playing":  # no dialog: nothing of the game in it, not even its id
        pieces["h2h-dialog"] = Piece("end_dialog", ("", "playing", 0, 0, False))
    else:
        args = (undo_url, game.status, game.elapsed_seconds, game.moves, can_undo, game.deal)
        pieces["h2h-dialog"] = Piece("end_dialog", args)
    pieces["h2h-help"] = Piece("help", (help_text(outlined), help_text(dimmed)))
    return pieces


GAPS = tuple(Piece("gap", (pos,)) for pos in range(HEART_SIZE))
# Heart cards by everything they are drawn from (a few thousand at most): a board is mostly
# the same cards again.
_CARDS: dict[tuple, Piece] = {}


def piece_name(target: Target) -> str:
    return "h2h-waste" if target == "waste" else f"p{target}"


@lru_cache(maxsize=4096)
def help_text(targets: frozenset[Target] | tuple[()]) -> str:
    """A help set as the ``h2h-help`` piece carries it: "3 7 24 waste"."""
    return " ".join(sorted(map(str, targets), key=lambda t: (not t.isdigit(), len(t), t)))


# The boards of stored versions, by (game id, version, placement help, language): a tap's
# "before" is the previous tap's "after", so each tap builds the board once.
_BOARDS: OrderedDict[tuple[str, int, bool, str], Pieces] = OrderedDict()


def stored_board(loaded: LoadedGame, undo_url: str, options: Options, lang: str) -> Pieces:
    """``build_board`` of a stored game (shared: read only)."""
    stored = loaded.stored
    key = (stored.game_id, stored.version, options.placement_help, lang)
    board = _BOARDS.get(key)
    if board is None:
        board = build_board(loaded.game, stored.version, undo_url, options, lang)
        keep(_BOARDS, key, board)
    return board


def heart(board: Pieces, lang: str, *, oob: bool = False) -> Markup:
    cards = Markup("".join(render(TEMPLATE, board[name], lang) for name in HEART_NAMES))
    return render_once(TEMPLATE, Piece("heart", (cards,)), lang, oob=oob)


def changes(before: Pieces | None, after: Pieces, lang: str) -> Markup:
    """The pieces of ``after`` that differ from ``before`` (all when None), as out-of-band
    swaps: the whole heart when many of its cards changed."""
    names = changed(before, after)
    if sum(name in HEART_NAMES for name in names) > WHOLE_HEART_OVER:
        names = [name for name in names if name not in HEART_NAMES]
        return heart(after, lang, oob=True) + render_all(TEMPLATE, after, names, lang)
    return render_all(TEMPLATE, after, names, lang)


def piece_renderer(board: Pieces, lang: str) -> Callable[[str], Markup]:
    """``piece(id)`` for a page template: one piece in place ("h2h-heart": the whole heart)."""

    def piece(name: str) -> Markup:
        if name == "h2h-heart":
            return heart(board, lang)
        return render(TEMPLATE, board[name], lang)

    return piece


def hint_marks(hint: Hint | None, lang: str, *, oob: bool = False) -> Markup:
    """The ``h2h-hint`` piece: the targets a hint marks ("heart:7 waste"), which
    static/js/hint-marks.js sets ``data-hint`` on as it is swapped in."""
    targets = "" if hint is None else " ".join(map(target_text, hint.targets))
    return render_once(TEMPLATE, Piece("hint", (targets,)), lang, oob=oob)
