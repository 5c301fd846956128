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
from typing import NamedTuple

from markupsafe import Markup

from app.rules.heart_to_heart import (
    ALL_REMOVED,
    HEART_SIZE,
    WASTE_BIT,
    HeartToHeartGame,
    Target,
    positions_in,
    rank_name,
    target_text,
)
from app.web.heart_to_heart.assists import Hint, can_finish
from app.web.heart_to_heart.service import LoadedGame, Options, Write, keep, kept, written
from app.web.i18n import heart_name
from app.web.pieces import (
    Piece,
    Pieces,
    changed,
    changed_in_order,
    drawn_oob,
    make_piece,
    render,
    render_all,
    render_once,
)

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
    help = placement(game, options)
    sides = side_pieces(game, version, undo_url, help, lang, static=static)
    return with_heart(game, help, sides, lang, static=static)


def with_heart(
    game: HeartToHeartGame, help: Help, sides: Pieces, lang: str, *, static: bool = False
) -> Pieces:
    """The whole board: the heart's pieces, then ``sides``."""
    pieces: Pieces = {name: heart_piece(game, pos, help, lang, static=static)
                      for pos, name in enumerate(HEART_NAMES)}
    pieces.update(sides)
    return pieces


class Help(NamedTuple):
    """Placement help now: the targets outlined and dimmed, as masks (a bit per heart position,
    WASTE_BIT for the waste; see HeartToHeartGame.placement_masks)."""

    outlined: int
    dimmed: int

    def of(self, bit: int) -> str | None:
        """The ``help`` of the piece of the target at ``bit``: dimmed wins over outlined (a free
        card with a partner, of another rank than the selected one, is both)."""
        return "dimmed" if self.dimmed & bit else "outlined" if self.outlined & bit else None


NO_HELP = Help(0, 0)


def placement(game: HeartToHeartGame, options: Options) -> Help:
    return Help(*game.placement_masks()) if options.placement_help else NO_HELP


def _extra(help: Help, bit: int, static: bool) -> tuple[tuple[str, object], ...]:
    shown = help.of(bit)
    helped = () if shown is None else (("help", shown),)
    return (("static", True), *helped) if static else helped


def heart_piece(
    game: HeartToHeartGame, pos: int, help: Help, lang: str, *, static: bool = False
) -> Piece:
    """The piece at heart position ``pos``: its card, or the gap it left."""
    if game.removed_mask >> pos & 1:
        return GAPS[pos]
    key = (pos, game.heart_ranks[pos], not game.free_mask >> pos & 1, game.selected == pos,
           help.of(1 << pos), static, lang)
    piece = _CARDS.get(key)
    if piece is None:
        rank = rank_name(key[1])
        args = (pos, rank, heart_name(rank, lang), key[2], key[3])
        piece = _CARDS[key] = make_piece("heart_card", args, _extra(help, 1 << pos, static))
    return piece


def side_pieces(
    game: HeartToHeartGame, version: int, undo_url: str, help: Help, lang: str,
    *, static: bool = False,
) -> Pieces:
    """The pieces beside the heart: piles, info bar, version, buttons, dialog, help sets."""
    stock_count = game.stock_count
    top = game.waste_top
    if top is None:
        waste = EMPTY_WASTE
    else:
        rank = rank_name(top)
        args = (rank, heart_name(rank, lang), game.selected == "waste")
        waste = make_piece("waste", args, _extra(help, WASTE_BIT, static))
    can_undo = game.undo_depth > 0
    status = game.status
    if status == "playing":  # no dialog: nothing of the game in it, not even its id
        dialog = NO_DIALOG
    else:
        dialog = make_piece("end_dialog", (undo_url, status, game.elapsed_seconds,
                                           game.moves, can_undo, game.deal))
    return {
        # An empty stock shows whether tapping it turns the waste over. The stock is never
        # helped (drawing is always allowed).
        "h2h-stock": make_piece(
            "stock", (stock_count, stock_count == 0 and game.waste_count > 0),
            STATIC if static else (),
        ),
        "h2h-waste": waste,
        "h2h-score": make_piece("score", (game.score,)),
        "h2h-moves": make_piece("moves", (game.moves,)),
        "h2h-time": make_piece("clock", (round(game.play_time, 1), game.clock_running)),
        "h2h-version": make_piece("version", (version,)),
        "h2h-undo": make_piece("undo", (undo_url, can_undo and status != "won")),
        "h2h-finish": make_piece("finish",
                                 (finish_url(undo_url), can_finish(game) and not static)),
        "h2h-dialog": dialog,
        "h2h-help": make_piece("help", (help_text(help.outlined), help_text(help.dimmed))),
    }


STATIC = (("static", True),)
EMPTY_WASTE = make_piece("empty_waste")
NO_DIALOG = make_piece("end_dialog", ("", "playing", 0, 0, False))


@lru_cache(maxsize=4096)
def finish_url(undo_url: str) -> str:
    """Action routes are /heart-to-heart/games/{id}/{verb}: Finish sits beside undo."""
    return undo_url.rsplit("/", 1)[0] + "/finish"


GAPS = tuple(make_piece("gap", (pos,)) for pos in range(HEART_SIZE))
# Heart cards by everything they are drawn from (a few thousand at most): a board is mostly
# the same cards again.
_CARDS: dict[tuple, Piece] = {}


# The piece of each target (a hint marks them on the review page).
PIECE_NAMES: dict[Target, str] = {**dict(enumerate(HEART_NAMES)), "waste": "h2h-waste"}


@lru_cache(maxsize=4096)
def help_text(targets: int) -> str:
    """A mask of help targets as the ``h2h-help`` piece carries it: "3 7 24 waste"."""
    positions = " ".join(map(str, positions_in(targets & ALL_REMOVED)))
    if targets & WASTE_BIT:
        return f"{positions} waste" if positions else "waste"
    return positions


# The board of each game's latest write, by (game id, placement help, language): (the write,
# the board) (service.kept).
_BOARDS: OrderedDict[tuple[str, bool, str], tuple[Write, Pieces]] = OrderedDict()


def stored_board(loaded: LoadedGame, undo_url: str, options: Options, lang: str) -> Pieces:
    """``build_board`` of a stored game (shared: read only)."""
    stored = loaded.stored
    key, write = (stored.game_id, options.placement_help, lang), written(stored)
    board = kept(_BOARDS, key, write)
    if board is None:
        board = with_heart(loaded.game, *stored_sides(loaded, undo_url, options, lang), lang)
        keep(_BOARDS, key, (write, board))
    return board


# The side pieces of each game's latest write, keyed as _BOARDS: (the write, (help, pieces)).
# A tap's "before" is the previous tap's "after".
_SIDES: OrderedDict[tuple[str, bool, str], tuple[Write, tuple[Help, Pieces]]] = OrderedDict()


def stored_sides(
    loaded: LoadedGame, undo_url: str, options: Options, lang: str
) -> tuple[Help, Pieces]:
    """``placement`` and ``side_pieces`` of a stored game (shared: read only)."""
    stored = loaded.stored
    key, write = (stored.game_id, options.placement_help, lang), written(stored)
    found = kept(_SIDES, key, write)
    if found is None:
        help = placement(loaded.game, options)
        found = (help, side_pieces(loaded.game, stored.version, undo_url, help, lang))
        keep(_SIDES, key, (write, found))
    return found


def action_changes(
    before: LoadedGame, after: LoadedGame, undo_url: str, options: Options, lang: str
) -> Markup:
    """``changes`` between the boards of an action's game before and after it, without
    building either heart: a card's piece is drawn from whether it is gone, free and selected,
    so only the cards where one of those changed differ."""
    old, new = before.game, after.game
    pressed = 0  # the heart cards selected or no longer selected
    if old.selected != new.selected:
        for target in (old.selected, new.selected):
            if isinstance(target, int):
                pressed |= 1 << target
    differ = (old.removed_mask ^ new.removed_mask) | (old.free_mask ^ new.free_mask) | pressed
    if differ.bit_count() > WHOLE_HEART_OVER:
        return changes(stored_board(before, undo_url, options, lang),
                       stored_board(after, undo_url, options, lang), lang)
    _, sides_before = stored_sides(before, undo_url, options, lang)
    help, sides_after = stored_sides(after, undo_url, options, lang)
    cards = [heart_piece(new, pos, help, lang) for pos in positions_in(differ)]
    sides = changed_in_order(sides_before, sides_after)
    # Every part is drawn markup already: joined as text, made Markup once.
    return Markup("".join(drawn_oob(TEMPLATE, cards + sides, lang)))


def heart(board: Pieces, lang: str, *, oob: bool = False) -> Markup:
    cards = Markup("".join(render(TEMPLATE, board[name], lang) for name in HEART_NAMES))
    return render_once(TEMPLATE, make_piece("heart", (cards,)), lang, oob=oob)


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
    return render_once(TEMPLATE, make_piece("hint", (targets,)), lang, oob=oob)
