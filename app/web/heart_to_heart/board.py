"""The Heart to Heart board as pieces (app/web/pieces.py), drawn by templates/heart_to_heart/
_pieces.html: heart positions ``p0``…``p24``, ``h2h-stock``, ``h2h-waste``, the info-bar values,
the version, undo, the dialog slot and the placement-help sets.

A card whose placement help alone changed is not sent: its help is an ``extra`` argument, and
the ``h2h-help`` piece carries the sets instead (a selection dims nearly every card);
static/js/placement-help.js applies them to the cards, so the DOM ends up as the full page
draws it. Without JavaScript the page is drawn whole, placement help on every card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from markupsafe import Markup

from app.rules.heart_to_heart import (
    ALL_REMOVED,
    HEART_SIZE,
    RANK_NAMES,
    WASTE_BIT,
    HeartToHeartGame,
    Target,
    positions_in,
    rank_name,
    target_text,
)
from app.web.heart_to_heart.assists import Hint, can_finish
from app.web.heart_to_heart.service import LoadedGame, Options
from app.web.heart_to_heart.texts import result_share_text
from app.web.i18n import heart_name, rank_word, translator
from app.web.pieces import (
    Piece,
    Pieces,
    changed,
    render,
    render_all,
    render_once,
)
from app.web.results import daily_of

TEMPLATE = "heart_to_heart/_pieces.html"
HEART_NAMES = tuple(f"p{pos}" for pos in range(HEART_SIZE))
# When more heart cards than this changed, one swap of the whole heart is smaller than a swap
# per card.
WHOLE_HEART_OVER = HEART_SIZE // 2


def build_board(
    game: HeartToHeartGame, version: int, undo_url: str, options: Options, lang: str,
    *, static: bool = False, results: str | None = None, share: bool = False,
) -> Pieces:
    """The board's pieces; ``static`` draws pictures instead of controls (the examples);
    ``results`` and ``share``: the dialog at its end (``side_pieces``)."""
    help = placement(game, options)
    sides = side_pieces(game, version, undo_url, help, lang, static=static, results=results,
                        share=share)
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
    rank = rank_name(game.heart_ranks[pos])
    return Piece.of(
        "heart_card", pos=pos, rank=rank, name=heart_name(rank, lang),
        covered=not game.free_mask >> pos & 1, pressed=game.selected == pos,
        extra=_extra(help, 1 << pos, static),
    )


def side_pieces(
    game: HeartToHeartGame, version: int, undo_url: str, help: Help, lang: str,
    *, static: bool = False, results: str | None = None, share: bool = False,
) -> Pieces:
    """The pieces beside the heart: piles, info bar, version, buttons, dialog, help sets;
    ``results``: the URL of the game's results board; ``share``: the won dialog offers to
    share the result with the deal's link (not a daily's, whose code stays secret)."""
    stock_count = game.stock_count
    top = game.waste_top
    if top is None:
        waste = EMPTY_WASTE
    else:
        rank = rank_name(top)
        waste = Piece.of("waste", rank=rank, name=heart_name(rank, lang),
                         pressed=game.selected == "waste", extra=_extra(help, WASTE_BIT, static))
    can_undo = game.undo_depth > 0
    status = game.status
    if status == "playing":  # no dialog: nothing of the game in it, not even its id
        dialog = NO_DIALOG
    else:
        shared = share and status == "won"  # a daily's deal never goes into its page
        dialog = Piece.of("end_dialog", undo_url=undo_url, status=status,
                          seconds=game.elapsed_seconds, moves=game.moves, can_undo=can_undo,
                          results=results, share=result_share_text(game, lang) if shared else "",
                          deal=game.deal if shared else None,
                          # A daily's replay waits for its day's end: linked from its board.
                          replay=share and not static)
    return {
        # An empty stock shows whether tapping it turns the waste over. The stock is never
        # helped (drawing is always allowed).
        "h2h-stock": Piece.of(
            "stock", count=stock_count, can_redeal=stock_count == 0 and game.waste_count > 0,
            extra=STATIC if static else (),
        ),
        "h2h-waste": waste,
        "h2h-score": Piece.of("score", value=game.score),
        "h2h-moves": Piece.of("moves", value=game.moves),
        "h2h-time": Piece.of("clock", elapsed=round(game.play_time, 1),
                             running=game.clock_running),
        "h2h-version": Piece.of("version", value=version),
        "h2h-undo": Piece.of("undo", url=undo_url, enabled=can_undo and status != "won"),
        "h2h-finish": Piece.of("finish", url=finish_url(undo_url),
                               enabled=can_finish(game) and not static),
        "h2h-dialog": dialog,
        "h2h-help": Piece.of("help", outlined=help_text(help.outlined),
                             dimmed=help_text(help.dimmed)),
        "h2h-answers": Piece.of("answers", items=answers(game, lang)),
    }


def answers(game: HeartToHeartGame, lang: str) -> tuple[tuple[str, str], ...]:
    """What the page answers when the player asks (static/js/questions.js): the free cards and
    the pairs they make, with the waste's top card; the stock and the waste."""
    tr = translator(lang)
    free = [rank_name(game.heart_ranks[pos]) for pos in positions_in(game.free_mask)]
    free.sort(key=RANK_NAMES.index)
    top = None if game.waste_top is None else rank_name(game.waste_top)
    if free:
        free_words = tr.gettext("Free cards: %(ranks)s.") % {
            "ranks": ", ".join(rank_word(rank, lang) for rank in free)}
    else:
        free_words = tr.gettext("No free card: the heart is cleared.")
    open_ranks = [*free, *([top] if top else [])]
    pairs = sorted({rank for rank in open_ranks if open_ranks.count(rank) > 1},
                   key=RANK_NAMES.index)
    pair_words = (tr.gettext("Pairs to take: %(ranks)s.") % {
        "ranks": ", ".join(rank_word(rank, lang) for rank in pairs)} if pairs
        else tr.gettext("No pair among the free cards and the waste."))
    stock = tr.ngettext("Stock: %(num)d card.", "Stock: %(num)d cards.", game.stock_count) % {
        "num": game.stock_count}
    waste = (tr.ngettext("Waste: %(num)d card, %(card)s on top",
                         "Waste: %(num)d cards, %(card)s on top", game.waste_count)
             % {"num": game.waste_count, "card": heart_name(top, lang)} if top
             else tr.gettext("Waste: empty"))
    return (("free", f"{free_words} {pair_words}"), ("piles", f"{stock} {waste}."))


STATIC = (("static", True),)
EMPTY_WASTE = Piece.of("empty_waste")
NO_DIALOG = Piece.of("end_dialog", undo_url="", status="playing", seconds=0, moves=0,
                     can_undo=False)


def finish_url(undo_url: str) -> str:
    """Action routes are /heart-to-heart/games/{id}/{verb}: Finish sits beside undo."""
    return undo_url.rsplit("/", 1)[0] + "/finish"


GAPS = tuple(Piece.of("gap", pos=pos) for pos in range(HEART_SIZE))


# The piece of each target (a hint marks them on the review page).
PIECE_NAMES: dict[Target, str] = {**dict(enumerate(HEART_NAMES)), "waste": "h2h-waste"}


def help_text(targets: int) -> str:
    """A mask of help targets as the ``h2h-help`` piece carries it: "3 7 24 waste"."""
    positions = " ".join(map(str, positions_in(targets & ALL_REMOVED)))
    if targets & WASTE_BIT:
        return f"{positions} waste" if positions else "waste"
    return positions


def stored_board(loaded: LoadedGame, undo_url: str, options: Options, lang: str) -> Pieces:
    """``build_board`` of a stored game."""
    return build_board(loaded.game, loaded.stored.version, undo_url, options, lang,
                       results=results_url(loaded), share=shareable(loaded))


def results_url(loaded: LoadedGame) -> str:
    """The results board of a stored game: its daily's (whose code stays secret), or its
    code's."""
    day = daily_of(loaded.stored.state)
    if day is not None:
        return f"/heart-to-heart/daily/{day.isoformat()}/results"
    return f"/heart-to-heart/deal/{loaded.game.deal}/results"


def shareable(loaded: LoadedGame) -> bool:
    """Whether a won game's result may be shared with its deal: not a daily's."""
    return daily_of(loaded.stored.state) is None


def stored_sides(
    loaded: LoadedGame, undo_url: str, options: Options, lang: str
) -> tuple[Help, Pieces]:
    """``placement`` and ``side_pieces`` of a stored game."""
    help = placement(loaded.game, options)
    return help, side_pieces(loaded.game, loaded.stored.version, undo_url, help, lang,
                             results=results_url(loaded), share=shareable(loaded))


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
    sides = [sides_after[name] for name in changed(sides_before, sides_after)]
    return render_all(TEMPLATE, cards + sides, lang)


def heart(board: Pieces, lang: str, *, oob: bool = False) -> Markup:
    cards = Markup("".join(render(TEMPLATE, board[name], lang) for name in HEART_NAMES))
    return render_once(TEMPLATE, Piece.of("heart", cards=cards), lang, oob=oob)


def changes(before: Pieces | None, after: Pieces, lang: str) -> Markup:
    """The pieces of ``after`` that differ from ``before`` (all when None), as out-of-band
    swaps: the whole heart when many of its cards changed."""
    names = changed(before, after)
    if sum(name in HEART_NAMES for name in names) > WHOLE_HEART_OVER:
        names = [name for name in names if name not in HEART_NAMES]
        return heart(after, lang, oob=True) + render_all(
            TEMPLATE, [after[name] for name in names], lang
        )
    return render_all(TEMPLATE, [after[name] for name in names], lang)


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
    return render_once(TEMPLATE, Piece.of("hint", targets=targets), lang, oob=oob)
