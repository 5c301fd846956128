"""Heart to Heart pages: the game, deal URLs, taps answered with out-of-band swaps, options,
new games, the rules and the examples.

A tap or an undo goes to the service (app/web/heart_to_heart/service.py), which applies it; the
page answers with the pieces of the board that changed (app/web/heart_to_heart/board.py) and
the status line (app/web/actions.py). Without JavaScript a move leads back to the game page;
a hint answers that page with the hint's cards marked.

Unfinished games (contract: "at least one move … that is not over"): a stalemate is not over
here. Undo leads out of it (heart-to-heart.md, "Undo"), and the player may want to try another
line from an earlier position. So a deal URL asks before it replaces a stalemated game, and the
home page offers Continue for it; only a won game is final. A deal stuck from the start has no
move, so it is replaced without a question.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from functools import cache
from typing import Annotated

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup

from app.rules.deal_codes import DealCodeError
from app.rules.heart_to_heart import (
    HEART_SIZE,
    VARIANTS,
    HeartToHeartGame,
    Target,
    TargetError,
    new_game,
    parse_target,
    rank_name,
)
from app.rules.heart_to_heart_solver import replay, solve_moves
from app.web import first_visit
from app.web.actions import action_answer, conflict_answer, is_htmx
from app.web.deps import Lang, ProfileDep, SessionId, StoreDep, Visit, VisitDep
from app.web.errors import PageError
from app.web.games import StaleVersion, is_stored, unstored_id
from app.web.heart_to_heart import assists, service
from app.web.heart_to_heart.board import (
    action_changes,
    build_board,
    changes,
    hint_marks,
    piece_renderer,
    stored_board,
)
from app.web.heart_to_heart.forms import ActionForm, ActionFormDep, OptionsFormDep, TapFormDep
from app.web.heart_to_heart.service import LoadedGame, Options, UndoRefused
from app.web.heart_to_heart.texts import deal_error_message, move_error, undo_refusal
from app.web.i18n import heart_name, rank_word, translator
from app.web.pieces import answer, status
from app.web.templating import page

# The won game the examples page walks through (its line is the solver's).
EXAMPLE_DEAL = "HH1-W-AAAAAAB"

router = APIRouter(prefix="/heart-to-heart", include_in_schema=False)

# --- status messages -------------------------------------------------------------------------


def rank_of(game: HeartToHeartGame, target: Target | None) -> int:
    """The rank of the card at a heart position or on top of the waste (there is one)."""
    rank = game.rank_at(target) if isinstance(target, int) else game.waste_top
    assert rank is not None, f"no card at {target!r}"
    return rank


def name_at(game: HeartToHeartGame, target: Target | None, lang: str) -> str:
    """The name of the card at a heart position or on top of the waste (there is one)."""
    return heart_name(rank_name(rank_of(game, target)), lang)


# Taps that only choose or let go of a card: the player knows them (the card says it is
# pressed), so "fewer announcements" leaves their lines out; pairs, the stock's cards, the
# end of the game and every refusal are always said.
OWN_SELECTION = frozenset({"select", "reselect", "deselect"})


def undo_message(turn: service.HeartToHeartTurn, options: Options, lang: str) -> str:
    return translator(lang).gettext("Move taken back")


def tap_message(turn: service.HeartToHeartTurn, options: Options, lang: str) -> str | None:
    """What the status line says after a tap: the tap's kind and the rank it concerns are
    worked out here, the words by tap_text."""
    result, game = turn.result, turn.after.game
    kind = result.kind
    if game.status != "playing" and result.changed:
        if game.status == "won" and result.is_move:
            return tap_text("won", 0, 0, False, lang)
        if game.status == "stalemate" and turn.before.game.status != "stalemate":
            return tap_text("stalemate", 0, 0, False, lang)
    rank = points = 0
    if kind in ("select", "reselect"):
        rank = rank_of(game, game.selected)
    elif kind == "pair":
        before = turn.before.game
        points = game.score - before.score
        rank = game.rank_at((game.removed_mask & ~before.removed_mask).bit_length() - 1)
    elif kind == "draw":
        rank = rank_of(game, "waste")
    return tap_text(kind, rank, points, options.move_errors, lang)


def tap_text(kind: str, rank: int, points: int, move_errors: bool, lang: str) -> str | None:
    """The status line after a tap of ``kind`` ("won" and "stalemate" for a tap that ended
    the game) concerning a card of ``rank``."""
    tr = translator(lang)
    if kind == "won":
        return tr.gettext("You won! All 25 cards are gone.")
    if kind == "stalemate":
        return tr.gettext("No more moves")
    error = move_error(kind, move_errors, lang)
    if error:
        return error
    if kind in ("select", "reselect"):
        return tr.gettext("%(card)s selected") % {"card": heart_name(rank_name(rank), lang)}
    if kind == "deselect":
        return tr.gettext("Selection cleared")
    if kind == "pair":
        return tr.gettext("Pair of %(rank)ss removed, +%(points)d") % {
            "rank": rank_word(rank_name(rank), lang),
            "points": points,
        }
    if kind == "draw":
        return tr.gettext("Turned over %(card)s") % {"card": heart_name(rank_name(rank), lang)}
    if kind == "redeal":
        return tr.gettext("The waste is the stock again")
    return None


# --- routes ----------------------------------------------------------------------------------
# Taps and undos come first: routes are matched in the order they are declared, and these are
# most of the requests.


def game_page(
    request: Request,
    loaded: LoadedGame,
    options: Options,
    lang: str,
    *,
    message: str | None = None,
    question: str | None = None,
    ask_new: str | None = None,
    hint: assists.Hint | None = None,
) -> HTMLResponse:
    board = stored_board(loaded, undo_url(loaded.stored.game_id), options, lang)
    deal = service.shown_deal(loaded)
    context = {
        "hint_marks": hint_marks(hint, lang),
        "game": loaded.game,
        "deal": deal,
        "game_id": loaded.stored.game_id,
        "share_url": deal and request.app.state.settings.public_link(
            request.app.url_path_for("heart_to_heart_deal", code=deal)
        ),
        "options": options,
        "message": message,
        "question": question,
        "ask_new": ask_new,
        "piece": piece_renderer(board, lang),
    }
    return page(request, "heart_to_heart/game.html", context, lang, headers={"Vary": "HX-Request"})


@cache  # a constant, looked up once the routes exist
def to_game_url() -> str:
    return router.url_path_for("heart_to_heart")


def to_game() -> RedirectResponse:
    """After a form: to the game page (303, so a reload does not post again)."""
    return RedirectResponse(to_game_url(), status_code=303)


def parse_code(text: str, lang: str) -> str:
    try:
        return service.parse_code(text)
    except DealCodeError as error:
        tr = translator(lang)
        raise PageError(
            400,
            deal_error_message(error, text, lang),
            title=tr.gettext("This deal code cannot be used"),
            link=(router.url_path_for("heart_to_heart"), tr.gettext("Play Heart to Heart")),
        ) from error


Message = Callable[[service.HeartToHeartTurn, Options, str], str | None]


async def page_action(
    request: Request,
    visit: Visit,
    game_id: str,
    form: ActionForm,
    action: service.Action,
    message: Message,
) -> Response:
    """The page's side of an action: the service applies it, the answer is what changed."""
    options, lang = Options.of(visit.profile), visit.lang
    url = undo_url(game_id)
    timing = service.screen_time(form.elapsed, visit.clock())
    try:
        turn = await service.apply_action(
            visit.store, visit.session_id, game_id, form.version, action, timing,
            visit.latest_games,
        )
    except StaleVersion as stale:
        return stale_answer(request, stale.current, options, lang)
    except UndoRefused as refused:
        return board_conflict(request, refused.current, options, lang,
                              undo_refusal(refused.error, lang))
    text = message(turn, options, lang) if turn.after is not turn.before else None
    detail = turn.result.kind in OWN_SELECTION
    return action_answer(
        request, to_game_url(),
        lambda: action_changes(turn.before, turn.after, url, options, lang)
        + status(text, detail=detail),
    )


def stale_answer(request: Request, loaded: LoadedGame, options: Options, lang: str) -> Response:
    message = translator(lang).gettext("The game had changed (another tab?); here it is now.")
    return board_conflict(request, loaded, options, lang, message)


def board_conflict(
    request: Request, loaded: LoadedGame, options: Options, lang: str, reason: str
) -> Response:
    """Nothing changed: the whole board as it is, and why."""

    def whole_board() -> Markup:
        board = stored_board(loaded, undo_url(loaded.stored.game_id), options, lang)
        return changes(None, board, lang)

    return conflict_answer(request, to_game_url(), whole_board, reason)


def undo_url(game_id: str) -> str:
    return router.url_path_for("heart_to_heart_undo", game_id=game_id)


@router.post("/games/{game_id}/tap", name="heart_to_heart_tap")
async def tap(
    game_id: str, form: TapFormDep, request: Request, visit: VisitDep
) -> Response:
    try:
        where = parse_target(form.target)
    except TargetError as error:
        message = translator(visit.lang).gettext("That is not a place on the table.")
        raise PageError(400, message) from error
    return await page_action(
        request, visit, game_id, form, lambda game: game.tap(where), tap_message
    )


@router.post("/games/{game_id}/undo", name="heart_to_heart_undo")
async def undo(
    game_id: str, form: ActionFormDep, request: Request, visit: VisitDep
) -> Response:
    return await page_action(request, visit, game_id, form, lambda game: game.undo(), undo_message)


@router.get("", name="heart_to_heart")
async def game_view(
    request: Request, store: StoreDep, session_id: SessionId, profile: ProfileDep, lang: Lang
) -> Response:
    loaded = await service.current_game(store, session_id)
    handed = None if is_stored(loaded.stored) else first_visit.handed_over(request, session_id)
    if handed is not None:  # a deal link's, not stored yet (app/web/first_visit.py)
        with suppress(DealCodeError):  # (a Hearts deal's is not for this page)
            loaded = service.unstored_game(session_id, service.parse_code(handed))
    notice = None
    if loaded.replaced_unreadable:
        notice = translator(lang).gettext("Your saved game could not be read: here is a new one.")
    return game_page(request, loaded, Options.of(profile), lang, message=notice)


@router.post("/new", name="heart_to_heart_new")
async def new_game_route(
    request: Request,
    store: StoreDep,
    session_id: SessionId,
    profile: ProfileDep,
    lang: Lang,
    kind: Annotated[str, Form(max_length=1)] = "W",  # winnable unless "any deal" is asked for
    confirm: Annotated[bool, Form()] = False,
) -> Response:
    if kind not in VARIANTS:
        raise PageError(
            400,
            translator(lang).gettext("A new game is any deal (N) or a deal that can be won (W)."),
        )
    current = await service.readable_current(store, session_id)
    if not confirm and current is not None and service.is_unfinished(current.game):
        # Nothing is replaced (nor counted as lost) until the player confirms.
        return game_page(request, current, Options.of(profile), lang, ask_new=kind)
    await service.replace_game(store, session_id, service.random_code(kind))
    return to_game()


@router.get("/deal/{code}", name="heart_to_heart_deal")
async def deal_view(
    code: str,
    request: Request,
    store: StoreDep,
    session_id: SessionId,
    profile: ProfileDep,
    lang: Lang,
) -> Response:
    code = parse_code(code, lang)
    if first_visit.is_new_session(request):
        # Nothing stored for a visit without a cookie: the deal goes to the game page with it.
        return first_visit.hand_over(to_game(), request, unstored_id(session_id, code))
    current = await service.readable_current(store, session_id)
    if current is not None and service.is_unfinished(current.game):
        if current.game.deal == code:
            return to_game()
        # Nothing is replaced until the player answers the question.
        return game_page(request, current, Options.of(profile), lang, question=code)
    await service.replace_game(store, session_id, code)
    return to_game()


@router.post("/deal/{code}", name="heart_to_heart_deal_accept")
async def deal_accept(code: str, store: StoreDep, session_id: SessionId, lang: Lang) -> Response:
    await service.replace_game(store, session_id, parse_code(code, lang))
    return to_game()


@router.post("/games/{game_id}/finish", name="heart_to_heart_finish")
async def finish(
    game_id: str, form: ActionFormDep, request: Request, visit: VisitDep
) -> Response:
    """Play out a game in which no choice matters any more (the button shows only then)."""
    return await page_action(request, visit, game_id, form, assists.finish, tap_message)


@router.post("/games/{game_id}/hint", name="heart_to_heart_hint")
async def hint(
    game_id: str, form: ActionFormDep, request: Request, visit: VisitDep
) -> Response:
    """The next move of a winning line, marked on its cards by static/js/hint-marks.js from the
    ``h2h-hint`` piece (or how far back undo must go when there is none)."""
    options, lang = Options.of(visit.profile), visit.lang
    timing = service.screen_time(form.elapsed, visit.clock())
    try:
        turn, given = await assists.ask(
            visit.store, visit.session_id, game_id, form.version, timing
        )
    except StaleVersion as stale:
        return stale_answer(request, stale.current, options, lang)
    message = assists.hint_message(given, lang)
    if not is_htmx(request):  # without JavaScript the page itself marks the hint's cards
        return game_page(request, turn.after, options, lang, message=message, hint=given)
    before = stored_board(turn.before, undo_url(game_id), options, lang)
    after = stored_board(turn.after, undo_url(game_id), options, lang)
    return answer(
        changes(before, after, lang) + hint_marks(given, lang, oob=True) + status(message)
    )


@router.post("/options", name="heart_to_heart_options")
async def save_options(
    form: OptionsFormDep, request: Request, visit: VisitDep
) -> Response:
    chosen = Options(move_errors=form.move_errors, placement_help=form.placement_help)
    await service.store_options(visit.store, visit.session_id, chosen)
    if form.game is None:
        return to_game()
    if not is_htmx(request):
        return to_game()
    loaded = await service.owned(visit.store, visit.session_id, form.game)
    url = undo_url(form.game)
    before = stored_board(loaded, url, Options.of(visit.profile), visit.lang)
    after = stored_board(loaded, url, chosen, visit.lang)
    return answer(changes(before, after, visit.lang))


@router.get("/rules", name="heart_to_heart_rules")
async def rules(request: Request, lang: Lang) -> Response:
    return page(request, f"heart_to_heart/rules.{lang}.html", {}, lang)


@cache
def example_line() -> tuple[HeartToHeartGame, ...]:
    """The example deal and the position after each move of the solver's winning line."""
    start = new_game(EXAMPLE_DEAL)
    line = solve_moves(start)
    assert line is not None, "the example deal is a winnable one"
    return (start, *replay(start, line))


def describe_move(before: HeartToHeartGame, after: HeartToHeartGame, lang: str) -> str:
    """One move of a line, in words: "Pair: 7 of hearts (position 14) with the waste, +10"."""
    tr = translator(lang)
    if after.removed_mask == before.removed_mask:
        if after.stock_count < before.stock_count:
            card = name_at(after, "waste", lang)
            return tr.gettext("Draw: %(card)s turns up on the waste.") % {"card": card}
        return tr.gettext("Redeal: the waste turns over and becomes the stock again.")
    gone = positions_of(after.removed_mask & ~before.removed_mask)
    card = heart_name(rank_name(before.rank_at(gone[0])), lang)
    points = after.score - before.score
    if len(gone) == 1:
        return tr.gettext("Pair: %(card)s at position %(pos)d with the waste top, +%(points)d.") % {
            "card": card, "pos": gone[0], "points": points
        }
    return tr.gettext("Pair: %(card)s at positions %(a)d and %(b)d, +%(points)d.") % {
        "card": card, "a": gone[0], "b": gone[1], "points": points
    }


def positions_of(mask: int) -> list[int]:
    return [pos for pos in range(HEART_SIZE) if mask >> pos & 1]


@router.get("/examples", name="heart_to_heart_examples")
async def examples(
    request: Request, lang: Lang, step: Annotated[int, Query(ge=0, le=10_000)] = 0
) -> Response:
    line = example_line()
    last = len(line) - 1
    step = min(step, last)
    game = line[step]
    board = build_board(game, 0, "", Options(placement_help=False), lang, static=True)
    context = {
        "deal": EXAMPLE_DEAL,
        "step": step,
        "last": last,
        "game": game,
        "piece": piece_renderer(board, lang),
        "done": describe_move(line[step - 1], game, lang) if step else None,
        "next": describe_move(game, line[step + 1], lang) if step < last else None,
        "pairs_left": (HEART_SIZE - game.removed_mask.bit_count()) // 2,
    }
    return page(request, "heart_to_heart/examples.html", context, lang)
