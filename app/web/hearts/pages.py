"""Hearts pages: the table, deal URLs and the rules page.

An action (pass, play, undo, next hand) goes to the service (app/web/hearts/service.py), which
applies it and the bots' answer; the page answers with the pieces of the table that changed
(app/web/hearts/table.py).
"""

from __future__ import annotations

from functools import cache, lru_cache

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup

from app.rules.cards import cards_in
from app.rules.deal_codes import DealCode, DealCodeError
from app.rules.hearts import BOT_LEVELS, HUMAN, HeartsMatch, PlayedCard, parse_match_code
from app.rules.hearts_rules import PRESETS, preset_of
from app.web import first_visit
from app.web.actions import action_answer, conflict_answer
from app.web.deps import ClockDep, Lang, SessionId, StoreDep, Visit, VisitDep
from app.web.errors import PageError
from app.web.games import StaleVersion, unstored_id
from app.web.hearts import assists, service
from app.web.hearts.dealer import dealer
from app.web.hearts.forms import (
    MoonFormDep,
    MoveFormDep,
    NewMatchFormDep,
    PassFormDep,
    PlayFormDep,
)
from app.web.hearts.review import Reviews, review
from app.web.hearts.service import LoadedMatch, MoveRefused, Seen
from app.web.hearts.table import (
    TEMPLATE,
    Review,
    Urls,
    changes,
    closing_words,
    everything,
    hint_marks,
    last_trick,
    opening_words,
    piece_renderer,
    review_of,
    steps_of,
    table_pieces,
)
from app.web.hearts.texts import (
    deal_error_message,
    moon_rule_names,
    preset_names,
    refusal_text,
    rule_lines,
    rules_differences,
    rules_summary,
    seat_names,
)
from app.web.hearts.thinking import THINKING
from app.web.i18n import Translator, translator
from app.web.pieces import Piece, Pieces, answer, render_once, status
from app.web.preferences import PlayHelp, request_settings, save_settings
from app.web.templating import page

router = APIRouter(prefix="/hearts", include_in_schema=False)


# A pure function of its arguments that every answer needs, and seven url_path_for searches
# through the routers cost a noticeable share of an action: kept.
@lru_cache(maxsize=4096)
def urls_for(game_id: str, deal: str) -> Urls:
    def url(name: str) -> str:
        return router.url_path_for(name, game_id=game_id)

    return Urls(
        play=url("hearts_play"),
        pass_=url("hearts_pass"),
        undo=url("hearts_undo"),
        next=url("hearts_next_hand"),
        last=url("hearts_last_trick"),
        review=url("hearts_review"),
        replay=(deal, router.url_path_for("hearts_deal", code=deal)),
        moon=url("hearts_moon"),
    )


def pieces_of(seen: Seen, tr: Translator) -> Pieces:
    return table_pieces(seen, urls_for(seen.game_id, seen.view.deal), tr)


# -- pages ----------------------------------------------------------------------------------


def hearts_page(
    request: Request, loaded: LoadedMatch, lang: str, *, ask_deal: DealCode | None = None,
    status: int = 200, notice: str = "",
) -> HTMLResponse:
    tr = translator(lang)
    pieces = pieces_of(Seen.of(loaded), tr)
    deal = service.shown_deal(loaded)
    rules = loaded.game.rules
    context = {
        # The rules never change during a match: drawn with the page, never by an action.
        "rules_summary": rules_summary(rules, tr),
        "rule_lines": rule_lines(rules, tr),
        "rules_choice": rules_choice(preset_of(rules), tr),
        "game_id": loaded.stored.game_id,
        "deal": deal,
        "piece": piece_renderer(pieces, lang),
        "level": request_settings(request).hearts_bot_level,
        "share_url": deal and request.app.state.settings.public_link(
            request.app.url_path_for("hearts_deal", code=deal)
        ),
        "ask_deal": str(ask_deal) if ask_deal else None,
        "hint_url": router.url_path_for("hearts_hint", game_id=loaded.stored.game_id),
        "hint_marks": hint_marks(0, lang),
        "live": notice,
    }
    return page(request, "hearts/page.html", context, lang, status=status)


LEVEL_LETTERS = {name: letter for letter, name in BOT_LEVELS.items()}


def rules_choice(current: str | None, tr: Translator) -> dict:
    """What the new-match dialog offers: the presets (the current match's chosen, "custom"
    when its rules are none of them) and the moon rules of the custom choice."""
    names = preset_names(tr)
    return {
        "presets": [
            (name, names[name], rules_differences(rules, tr)) for name, rules in PRESETS.items()
        ],
        "current": current or "custom",
        "moons": moon_rule_names(tr),
    }


@router.get("", response_class=HTMLResponse, name="hearts")
async def hearts_current(
    request: Request, store: StoreDep, session_id: SessionId, lang: Lang, clock: ClockDep
) -> HTMLResponse:
    """The current match; when there is none, the next one, not stored until its first action:
    a deal link's (app/web/first_visit.py), or a random one with the level of the settings."""
    level = LEVEL_LETTERS[request_settings(request).hearts_bot_level]
    handed = first_visit.handed_over(request, session_id)
    loaded = await service.current_match(
        store, session_id, dealer(request, clock()), level, handed
    )
    notice = ""
    if loaded.replaced_unreadable:
        notice = translator(lang).gettext("Your saved match could not be read: here is a new one.")
    return hearts_page(request, loaded, lang, notice=notice)


@cache  # a constant, looked up once the routes exist
def to_game_url() -> str:
    return router.url_path_for("hearts")


def to_game() -> RedirectResponse:
    """After a form: to the table (303, so a reload does not post again)."""
    return RedirectResponse(to_game_url(), status_code=303)


def parse_code(text: str, tr: Translator) -> DealCode:
    try:
        return parse_match_code(text)
    except DealCodeError as exc:
        message = deal_error_message(exc, tr)
        title = tr.pgettext("hearts", "This deal code cannot be used")  # "mã trận", not "mã ván"
        raise PageError(400, message, title=title) from exc


@router.get("/deal/{code}", response_class=HTMLResponse, name="hearts_deal")
async def hearts_deal(
    request: Request, code: str, store: StoreDep, session_id: SessionId, lang: Lang
) -> Response:
    deal = parse_code(code, translator(lang))
    if first_visit.is_new_session(request):
        # Nothing stored for a visit without a cookie: the deal goes to /hearts with it.
        return first_visit.hand_over(to_game(), request, unstored_id(session_id, str(deal)))
    current = await service.readable_current(store, session_id)
    if current is not None and service.is_unfinished(current):
        if service.shown_deal(current) == str(deal):  # a secret code is no shortcut
            return to_game()
        return hearts_page(request, current, lang, ask_deal=deal)
    await service.new_match(store, session_id, deal)
    return to_game()


@router.post("/deal/{code}", name="hearts_deal_replace")
async def hearts_deal_replace(
    code: str, store: StoreDep, session_id: SessionId, lang: Lang
) -> Response:
    deal = parse_code(code, translator(lang))
    await service.new_match(store, session_id, deal)
    return to_game()


@router.post("/new", name="hearts_new")
async def hearts_new(
    store: StoreDep, session_id: SessionId, lang: Lang, form: NewMatchFormDep
) -> Response:
    letter = form.level if form.level in BOT_LEVELS else "N"
    rules = form.chosen_rules()
    if rules is None:
        tr = translator(lang)
        raise PageError(400, tr.gettext("These house rules are not on offer."),
                        title=tr.gettext("This match cannot be started"))
    await service.new_random_match(store, session_id, letter, rules)
    # The level chosen is the next match's default (a setting, also on /settings).
    await save_settings(store, session_id, {"hearts_bot_level": BOT_LEVELS[letter]})
    return to_game()


@router.get("/rules", response_class=HTMLResponse, name="hearts_rules")
async def hearts_rules(request: Request, lang: Lang) -> HTMLResponse:
    return page(request, "hearts/rules.html", {}, lang)


@router.get("/games/{game_id}/last-trick", response_class=HTMLResponse,
            name="hearts_last_trick")
async def hearts_last_trick(
    request: Request, game_id: str, store: StoreDep, session_id: SessionId, lang: Lang,
    clock: ClockDep,
) -> HTMLResponse:
    found = await service.owned(store, session_id, game_id, dealer(request, clock()))
    view = found.game.view(HUMAN)
    tr = translator(lang)
    piece = Piece.of("last_trick", last=last_trick(view, tr), names=seat_names(tr))
    return answer(render_once(TEMPLATE, piece, lang))


@router.get("/games/{game_id}/review", response_class=HTMLResponse, name="hearts_review")
async def hearts_review(
    request: Request, game_id: str, store: StoreDep, session_id: SessionId, lang: Lang,
    clock: ClockDep,
) -> HTMLResponse:
    """The review of the hand just over (the hand-over dialog opens it)."""
    found = await service.owned(store, session_id, game_id, dealer(request, clock()))
    view = found.game.view(HUMAN)
    tr = translator(lang)
    shown: Review | None = None
    if view.phase in ("hand_over", "match_over") and len(view.tricks) == 13:
        reviews: Reviews = request.app.state.reviews
        key = (game_id, view.hand_number, found.stored.version)
        judged = reviews.get(key)
        if judged is None:
            judged = await THINKING.search(review, view)
            reviews.keep(key, judged)
        shown = review_of(judged, tr)
    return answer(render_once(TEMPLATE, Piece.of("review", review=shown), lang))


# -- actions --------------------------------------------------------------------------------


async def page_action(
    request: Request, visit: Visit, game_id: str, version: int | None, action: service.Action,
    help: PlayHelp | None = None,
) -> Response:
    """The page's side of an action: the pieces that changed, the cards played in order."""
    tr = translator(visit.lang)
    try:
        turn = await service.apply_action(
            visit.store, visit.session_id, game_id, version, action,
            dealer(request, visit.clock()), help,
        )
    except StaleVersion as stale:
        return match_conflict(request, stale.current, visit.lang,
                        tr.gettext("The table had changed; here it is now."))
    except MoveRefused as refused:
        return match_conflict(request, refused.current, visit.lang, refusal_text(refused.error, tr))

    def changed() -> Markup:
        after = Seen.of(turn.after)
        before, names = turn.before.view, seat_names(tr)
        steps = steps_of(before, after.view, turn.plays, tr, names)
        opening = opening_words(before, after.view, tr)
        if service.was_claimed(turn.after.stored):
            claimed = tr.gettext("The rest of the tricks are yours.")
            opening = " ".join(filter(None, (claimed, opening)))
        closing = closing_words(before, after.view, names, tr)
        # The opening goes with the cards when there are any (said before the first); the
        # status line, said when they have landed, has the rest.
        told = closing if steps else " ".join(filter(None, (opening, closing)))
        pieces = changes(pieces_of(turn.before, tr), pieces_of(after, tr), steps, visit.lang,
                         opening if steps else "")
        return Markup("\n").join([*pieces, status(told)] if told else pieces)

    return action_answer(request, to_game_url(), changed)


def match_conflict(request: Request, loaded: LoadedMatch, lang: str, reason: str) -> Response:
    """Nothing changed: every piece of the table as it is now, and why."""

    def every_piece() -> Markup:
        return Markup("\n").join(everything(pieces_of(Seen.of(loaded), translator(lang)), lang))

    return conflict_answer(request, to_game_url(), every_piece, reason)


@router.post("/games/{game_id}/pass", name="hearts_pass")
async def hearts_pass(
    request: Request, game_id: str, form: PassFormDep, visit: VisitDep
) -> Response:
    def action(match: HeartsMatch) -> list[PlayedCard]:
        return service.pass_cards(match, form.cards)

    return await page_action(request, visit, game_id, form.version, action,
                             PlayHelp.of(visit.profile))


@router.post("/games/{game_id}/play", name="hearts_play")
async def hearts_play(
    request: Request, game_id: str, form: PlayFormDep, visit: VisitDep
) -> Response:
    def action(match: HeartsMatch) -> list[PlayedCard]:
        return service.play_card(match, form.card)

    return await page_action(request, visit, game_id, form.version, action,
                             PlayHelp.of(visit.profile))


@router.post("/games/{game_id}/undo", name="hearts_undo")
async def hearts_undo(
    request: Request, game_id: str, form: MoveFormDep, visit: VisitDep
) -> Response:
    return await page_action(request, visit, game_id, form.version, service.undo)


@router.post("/games/{game_id}/next-hand", name="hearts_next_hand")
async def hearts_next_hand(
    request: Request, game_id: str, form: MoveFormDep, visit: VisitDep
) -> Response:
    help = PlayHelp.of(visit.profile)
    return await page_action(request, visit, game_id, form.version, service.next_hand, help)


@router.post("/games/{game_id}/moon", name="hearts_moon")
async def hearts_moon(
    request: Request, game_id: str, form: MoonFormDep, visit: VisitDep
) -> Response:
    """The player who shot the moon under the shooter's-choice rule says what it does."""
    action = service.choose_moon(form.choice)
    return await page_action(request, visit, game_id, form.version, action)


@router.post("/games/{game_id}/hint", name="hearts_hint")
async def hearts_hint(
    request: Request, game_id: str, form: MoveFormDep, visit: VisitDep
) -> Response:
    """The cards Hard would pass or play, marked by static/js/hint-marks.js from the
    ``ht-hint-marks`` piece, with the version (a first hint stores the match as assisted)."""
    lang = visit.lang
    tr = translator(lang)
    try:
        # A hint marks the match assisted: a page's match not stored yet is stored first.
        await service.owned_stored(
            visit.store, visit.session_id, game_id, dealer(request, visit.clock())
        )
        loaded, cards = await assists.ask(visit.store, visit.session_id, game_id, form.version)
    except StaleVersion as stale:
        return match_conflict(request, stale.current, lang,
                        tr.gettext("The table had changed; here it is now."))
    names = ", ".join(tr.card_name(c) for c in cards_in(cards))
    if not cards:
        message = tr.gettext("Nothing to choose now: no hint.")
    elif loaded.game.phase == "passing":
        message = tr.gettext("Hint: the Hard bot would pass %(cards)s.") % {"cards": names}
    else:
        message = tr.gettext("Hint: the Hard bot would play %(card)s.") % {"card": names}
    version_piece = Piece.of("version", value=loaded.stored.version)

    def marks() -> Markup:
        new_version = render_once(TEMPLATE, version_piece, lang, oob=True)
        return new_version + hint_marks(cards, lang, oob=True) + status(message)

    return action_answer(request, to_game_url(), marks)
