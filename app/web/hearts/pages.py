"""Hearts pages: the table, deal URLs and the rules page.

A page is drawn from the player's :class:`HeartsView` only (never the match itself), so no card
of another hand can reach a template. An action (pass, play, undo, next hand) loads the match,
checks the version the page holds, applies the action and the bots' answer, stores it by
compare-and-set, and answers with the pieces of the table whose values changed (htmx
out-of-band swaps, drawn only for those). The cards played come back all at once, in the order
they were played, in place of the trick: static/js/hearts-table.js shows them one by one and
builds the final table from them.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from html import escape
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.rules.cards import SUITS, card_text, cards_in, parse_card, rank_of, suit_of
from app.rules.deal_codes import DealCode, DealCodeError
from app.rules.hearts import (
    BOT_LEVELS,
    HUMAN,
    HeartsMatch,
    HeartsView,
    PlayedCard,
    parse_match_code,
)
from app.store import GameStore
from app.web.deps import Lang, SessionId, StoreDep
from app.web.errors import PageError
from app.web.games import StaleVersion
from app.web.hearts import service
from app.web.hearts.service import Loaded, Refused, Seen, moon_of
from app.web.hearts.texts import deal_error_message, refusal_text, seat_names
from app.web.i18n import SUIT_SYMBOLS, Translator, current_language, translator
from app.web.templating import page, templates

router = APIRouter()

_RED = frozenset("DH")
# Base order of suits in the hand; reordered per hand so that colours alternate where possible.
_SUIT_ORDER = "CDSH"


# -- the table model: everything the templates read, built from one seat's view -------------


@dataclass(frozen=True, slots=True)
class CardFace:
    code: str
    suit: str
    rank: str
    symbol: str
    name: str
    legal: bool = False
    received: bool = False


@dataclass(frozen=True, slots=True)
class TablePlay:
    seat: int
    card: CardFace


@dataclass(frozen=True, slots=True)
class SeatBadge:
    name: str
    hand_points: int
    total: int
    cards_left: int
    turn: bool


@dataclass(frozen=True, slots=True)
class ScoreRow:
    number: int
    scores: tuple[int, int, int, int]
    moon: int | None


@dataclass(frozen=True, slots=True)
class LastTrick:
    by_seat: tuple[TablePlay, ...]
    winner: int
    line: str


@dataclass(frozen=True, slots=True)
class Step:
    """One card played by an action; ``winner``/``points`` are set when it ends a trick."""

    played: TablePlay
    winner: int | None = None
    points: int = 0


@dataclass(slots=True)
class Table:
    game_id: str
    version: int
    deal: str
    phase: str
    hand_number: int
    pass_direction: str
    direction_label: str
    pass_label: str
    hearts_broken: bool
    seat_names: tuple[str, str, str, str]
    seats: tuple[SeatBadge, ...]
    hand: tuple[CardFace, ...]
    table: tuple[TablePlay | None, ...]
    table_done: bool
    table_winner: int | None
    undo_available: bool
    has_last_trick: bool
    score_rows: tuple[ScoreRow, ...]
    moon: int | None
    moon_line: str
    winner: int | None
    winner_line: str
    urls: dict[str, str] = field(default_factory=dict)
    last_trick: LastTrick | None = None


def face(c: int, tr: Translator, *, legal: bool = False, received: bool = False) -> CardFace:
    code = card_text(c)
    suit = code[-1]
    return CardFace(code, suit, code[:-1], SUIT_SYMBOLS[suit], tr.card_name(c), legal, received)


def suit_order(suits_present: set[str]) -> list[str]:
    """The present suits in an order that alternates colours as far as it can (♣ ♦ ♠ ♥ first)."""
    present = [s for s in _SUIT_ORDER if s in suits_present]

    def clashes(order: tuple[str, ...]) -> int:
        return sum((a in _RED) == (b in _RED) for a, b in itertools.pairwise(order))

    # At most 24 orders; min() keeps the first best one, so the base order wins ties.
    return list(min(itertools.permutations(present), key=clashes))


def sorted_hand(hand: int) -> list[int]:
    cards = cards_in(hand)
    order = suit_order({SUITS[suit_of(c)] for c in cards})
    place = {s: i for i, s in enumerate(order)}
    return sorted(cards, key=lambda c: (place[SUITS[suit_of(c)]], rank_of(c)))


def direction_label(direction: str, tr: Translator) -> str:
    return {
        "left": tr.gettext("Passing left"),
        "right": tr.gettext("Passing right"),
        "across": tr.gettext("Passing across"),
        "none": tr.gettext("No passing"),
    }[direction]


def pass_label(direction: str, tr: Translator) -> str:
    return {
        "left": tr.gettext("Pass left"),
        "right": tr.gettext("Pass right"),
        "across": tr.gettext("Pass across"),
        "none": tr.gettext("No passing"),
    }[direction]


def urls_for(game_id: str) -> dict[str, str]:
    base = f"/hearts/{game_id}"
    return {
        "play": f"{base}/play",
        "pass_": f"{base}/pass",
        "undo": f"{base}/undo",
        "next": f"{base}/next-hand",
        "last": f"{base}/last-trick",
    }


def trick_line(winner: int, points: int, names: tuple[str, ...], tr: Translator) -> str:
    if points:
        return tr.ngettext(
            "%(seat)s took the trick: %(num)d point.",
            "%(seat)s took the trick: %(num)d points.",
            points,
        ) % {"seat": names[winner], "num": points}
    return tr.gettext("%(seat)s took the trick.") % {"seat": names[winner]}


def build_table(
    view: HeartsView, game_id: str, version: int, undo_available: bool, tr: Translator
) -> Table:
    names = seat_names(tr)
    received = view.received if view.received and not view.tricks else 0
    legal = view.legal
    hand = tuple(
        face(c, tr, legal=bool(legal >> c & 1), received=bool(received >> c & 1))
        for c in sorted_hand(view.hand)
    )
    # The trick in progress; when none, the last finished trick stays until the next card.
    shown: tuple[PlayedCard, ...] = view.trick
    done = False
    winner = None
    if not shown and view.tricks:
        shown, done, winner = view.tricks[-1].cards, True, view.tricks[-1].winner
    table: list[TablePlay | None] = [None] * 4
    for p in shown:
        table[p.seat] = TablePlay(p.seat, face(p.card, tr))
    seats = tuple(
        SeatBadge(
            names[s], view.hand_points[s], view.totals[s], view.cards_left[s], view.turn == s
        )
        for s in range(4)
    )
    rows = tuple(
        ScoreRow(i + 1, scores, moon_of(scores)) for i, scores in enumerate(view.hand_scores)
    )
    moon_line = ""
    if view.moon is not None:
        moon_line = (
            tr.gettext("You shot the moon!")
            if view.moon == HUMAN
            else tr.gettext("%(seat)s shot the moon.") % {"seat": names[view.moon]}
        )
    winner_line = ""
    if view.winner is not None:
        winner_line = (
            tr.gettext("You win the match!")
            if view.winner == HUMAN
            else tr.gettext("%(seat)s wins the match.") % {"seat": names[view.winner]}
        )
    return Table(
        game_id=game_id,
        version=version,
        deal=view.deal,
        phase=view.phase,
        hand_number=view.hand_number,
        pass_direction=view.pass_direction,
        direction_label=direction_label(view.pass_direction, tr),
        pass_label=pass_label(view.pass_direction, tr),
        hearts_broken=view.hearts_broken,
        seat_names=names,
        seats=seats,
        hand=hand,
        table=tuple(table),
        table_done=done,
        table_winner=winner,
        undo_available=undo_available,
        has_last_trick=bool(view.tricks),
        score_rows=rows,
        moon=view.moon,
        moon_line=moon_line,
        winner=view.winner,
        winner_line=winner_line,
        urls=urls_for(game_id),
    )


def last_trick(view: HeartsView, tr: Translator) -> LastTrick | None:
    if not view.tricks:
        return None
    trick = view.tricks[-1]
    names = seat_names(tr)
    by_seat = tuple(
        TablePlay(p.seat, face(p.card, tr)) for p in sorted(trick.cards, key=lambda p: p.seat)
    )
    return LastTrick(by_seat, trick.winner, trick_line(trick.winner, trick.points, names, tr))


def steps_of(before: HeartsView, after: HeartsView, plays: list[PlayedCard], tr: Translator):
    """The cards one action played, in order, each marked with its trick's winner when it ends
    a trick. ``before`` is the view before the action; a new hand starts counting afresh."""
    done = 0
    if before.hand_number == after.hand_number:
        done = 4 * len(before.tricks) + len(before.trick)
    steps = []
    for k, p in enumerate(plays, start=done):
        step = Step(TablePlay(p.seat, face(p.card, tr)))
        if k % 4 == 3 and k // 4 < len(after.tricks):
            trick = after.tricks[k // 4]
            step = Step(step.played, trick.winner, trick.points)
        steps.append(step)
    return steps


def narration(
    before: HeartsView, after: HeartsView, steps: list[Step], tr: Translator
) -> str:
    """What the aria-live line says after an action: the cards received in a pass, the cards
    played, the tricks taken and the scores when a hand is over. (The cards the player passed
    are in a bot's hand now, so they are never named.)"""
    names = seat_names(tr)
    parts = []
    if before.phase == "passing" and after.received:
        received = ", ".join(tr.card_name(c) for c in sorted_hand(after.received))
        parts.append(tr.gettext("You received %(cards)s.") % {"cards": received})
    for step in steps:
        p = step.played
        if p.seat == HUMAN:
            parts.append(tr.gettext("You played %(card)s.") % {"card": p.card.name})
        else:
            parts.append(
                tr.gettext("%(seat)s played %(card)s.")
                % {"seat": names[p.seat], "card": p.card.name}
            )
        if step.winner is not None:
            parts.append(trick_line(step.winner, step.points, names, tr))
    hand_over = before.phase == "playing" and after.phase in ("hand_over", "match_over")
    if hand_over and after.hand_scores:
        scores = after.hand_scores[-1]
        parts.append(
            tr.gettext("Hand over.")
            + " "
            + ", ".join(f"{names[s]} +{scores[s]}" for s in range(4))
            + "."
        )
    return " ".join(parts)


# -- rendering ------------------------------------------------------------------------------
#
# An action's answer is worked out from the two table models, not from their HTML: each piece
# is drawn only when the values it shows differ, so a play renders a few small pieces once.
# tests/web/test_hearts_page.py applies every answer of a whole match to the page it changes
# and checks that the result is the page drawn afresh.

# Pieces drawn whole when what they show changed: (macro, what it shows).
_WHOLE_PIECES: tuple[tuple[str, Callable[[Table], object]], ...] = (
    ("info", lambda t: (t.hand_number, t.direction_label, t.hearts_broken)),
    ("bar", lambda t: (t.phase, t.pass_label)),
    ("dialog", lambda t: t.phase in ("hand_over", "match_over") and (
        t.phase, t.hand_number, t.moon_line, t.winner_line, t.score_rows,
        tuple(seat.total for seat in t.seats),
    )),
)


def pieces_module(table: Table):
    """The macros of templates/hearts/_pieces.html bound to ``table`` (call in a language)."""
    return templates.get_template("hearts/_pieces.html").make_module({"t": table})


def number_piece(ident: str, value: int) -> str:
    return f'<span id="{ident}" hx-swap-oob="innerHTML">{value}</span>'


def hand_changes(old: Table, new: Table, macros) -> list[str]:
    """The hand as out-of-band pieces: the cards that went, and each card that changed (only
    its state attributes when that is all); the whole hand when the phase changed or a card
    came in."""
    before = {c.code: c for c in old.hand}
    now = [c.code for c in new.hand]
    if old.phase != new.phase or [code for code in before if code in now] != now:
        return [str(macros.hand(True))]
    out = [str(macros.gone(code)) for code in before if code not in now]
    for card in new.hand:
        was = before[card.code]
        if card == was:
            continue
        if new.phase == "playing" and replace(
            was, legal=card.legal, received=card.received
        ) == card:
            out.append(str(macros.card_state(card)))
        else:
            out.append(str(macros.hand_card(card, True)))
    return out


def seat_changes(old: Table, new: Table, steps: list[Step], macros) -> list[str]:
    """A badge whose turn mark moved, whole; else its numbers that changed, each alone. The
    page takes one from a bot's count of cards as each of its steps lands, so a count is sent
    only when that does not give it (a new hand)."""
    played = Counter(step.played.seat for step in steps)
    out = []
    for s, (was, now) in enumerate(zip(old.seats, new.seats, strict=True)):
        if (was.name, was.turn) != (now.name, now.turn):
            out.append(str(macros.seat(s, True)))
            continue
        numbers = [("hp", was.hand_points, now.hand_points), ("tot", was.total, now.total)]
        if s != HUMAN:  # the player's cards are counted by the hand itself
            numbers.append(("left", was.cards_left - played[s], now.cards_left))
        out.extend(number_piece(f"ht-{name}-{s}", after)
                   for name, shown, after in numbers if shown != after)
    return out


def changed_pieces(old: Table, new: Table, steps: list[Step], lang: str) -> list[str]:
    """The pieces of ``new`` that differ from ``old``, as out-of-band swaps. When the action
    played cards, they come in place of the trick, in order, for the page to show one by
    one."""
    token = current_language.set(lang)
    try:
        macros = pieces_module(new)
        # The trick goes first: the page holds back the numbers and the narration that come
        # after it until its cards have been shown one by one.
        out = []
        if steps:
            out.append(str(macros.steps(steps)))
        elif (old.table, old.table_done, old.table_winner) != (
            new.table, new.table_done, new.table_winner
        ):
            out.append(str(macros.trick(True)))
        for name, shown in _WHOLE_PIECES:
            if shown(old) != shown(new):
                out.append(str(getattr(macros, name)(True)))
        if old.phase == new.phase == "playing":  # the bar is the same but for its buttons
            if old.undo_available != new.undo_available:
                out.append(str(macros.undo_button(True)))
            if old.has_last_trick != new.has_last_trick:
                out.append(str(macros.last_button(True)))
        out.extend(hand_changes(old, new, macros))
        out.extend(seat_changes(old, new, steps, macros))
        out.append(str(macros.version(True)))
        return out
    finally:
        current_language.reset(token)


def all_pieces(table: Table, lang: str) -> list[str]:
    """Every piece of the table, as out-of-band swaps (for a page that has to catch up)."""
    token = current_language.set(lang)
    try:
        macros = pieces_module(table)
        out = [str(macros.trick(True)), str(macros.info(True)), str(macros.hand(True)),
               str(macros.bar(True)), str(macros.dialog(True)), str(macros.version(True))]
        return out + [str(macros.seat(s, True)) for s in range(4)]
    finally:
        current_language.reset(token)


def live_piece(text: str) -> str:
    # innerHTML keeps the live region itself in place, so screen readers announce the change.
    return f'<p id="status" hx-swap-oob="innerHTML">{escape(text)}</p>'


def fragment(pieces: list[str], status: int = 200) -> HTMLResponse:
    return HTMLResponse("\n".join(pieces), status_code=status, headers={"Vary": "HX-Request"})


def table_of(seen: Seen, tr: Translator) -> Table:
    return build_table(seen.view, seen.game_id, seen.version, seen.undo_available, tr)


# -- pages ----------------------------------------------------------------------------------


def hearts_page(
    request: Request, loaded: Loaded, lang: str, *, ask_deal: DealCode | None = None,
    status: int = 200,
) -> HTMLResponse:
    tr = translator(lang)
    table = table_of(Seen.of(loaded), tr)
    context = {
        "t": table,
        "level": loaded.match.bot_level,
        "share_url": str(request.url_for("hearts_deal", code=table.deal)),
        "ask_deal": str(ask_deal) if ask_deal else None,
        "live": "",
    }
    return page(request, "hearts/page.html", context, lang, status=status)


@router.get("/hearts", response_class=HTMLResponse, include_in_schema=False)
async def hearts_current(
    request: Request, store: StoreDep, session_id: SessionId, lang: Lang
) -> HTMLResponse:
    return hearts_page(request, await service.current_match(store, session_id), lang)


def parse_code(text: str, tr: Translator) -> DealCode:
    try:
        return parse_match_code(text)
    except DealCodeError as exc:
        message = deal_error_message(exc, tr)
        raise PageError(400, message, title=tr.gettext("This deal code cannot be used")) from exc


@router.get("/hearts/deal/{code}", response_class=HTMLResponse, include_in_schema=False,
            name="hearts_deal")
async def hearts_deal(
    request: Request, code: str, store: StoreDep, session_id: SessionId, lang: Lang
) -> Response:
    deal = parse_code(code, translator(lang))
    current = service.readable(await store.current(session_id, service.KIND))
    if current is not None and service.is_unfinished(current):
        if current.match.deal == str(deal):
            return RedirectResponse("/hearts", status_code=303)
        return hearts_page(request, current, lang, ask_deal=deal)
    await service.new_match(store, session_id, deal)
    return RedirectResponse("/hearts", status_code=303)


@router.post("/hearts/deal/{code}", include_in_schema=False)
async def hearts_deal_replace(
    code: str, store: StoreDep, session_id: SessionId, lang: Lang
) -> Response:
    await service.new_match(store, session_id, parse_code(code, translator(lang)))
    return RedirectResponse("/hearts", status_code=303)


@router.post("/hearts/new", include_in_schema=False)
async def hearts_new(
    store: StoreDep, session_id: SessionId, level: Annotated[str, Form()] = "N"
) -> Response:
    code = service.random_code(level if level in BOT_LEVELS else "N")
    await service.new_match(store, session_id, code)
    return RedirectResponse("/hearts", status_code=303)


@router.get("/hearts/rules", response_class=HTMLResponse, include_in_schema=False)
async def hearts_rules(request: Request, lang: Lang) -> HTMLResponse:
    return page(request, "hearts/rules.html", {}, lang)


@router.get("/hearts/{game_id}/last-trick", response_class=HTMLResponse,
            include_in_schema=False)
async def hearts_last_trick(
    game_id: str, store: StoreDep, session_id: SessionId, lang: Lang
) -> HTMLResponse:
    seen = Seen.of(await service.owned(store, session_id, game_id))
    tr = translator(lang)
    table = table_of(seen, tr)
    table.last_trick = last_trick(seen.view, tr)
    token = current_language.set(lang)
    try:
        return HTMLResponse(str(pieces_module(table).last_trick()), headers={"Vary": "HX-Request"})
    finally:
        current_language.reset(token)


# -- actions --------------------------------------------------------------------------------


def _parse_version(text: str | None) -> int | None:
    """The version the page holds; -1 (never current) when it is not a number."""
    if text is None:
        return None
    return int(text) if text.isdigit() and len(text) < 12 else -1


def _parse_cards(text: str) -> int:
    mask = 0
    for part in text.replace(",", " ").split()[:13]:
        mask |= 1 << parse_card(part)
    return mask


async def act(
    request: Request,
    store: GameStore,
    session_id: str,
    lang: str,
    game_id: str,
    version: str | None,
    action: service.Action,
) -> Response:
    """The page's side of an action: the pieces that changed, the cards played in order.

    A stale version, an illegal action or a lost compare-and-set changes nothing: the answer
    (409) then carries every piece as it is now, so the page catches up.
    """
    tr = translator(lang)
    htmx = request.headers.get("hx-request") == "true"
    try:
        turn = await service.act(store, session_id, game_id, _parse_version(version), action)
    except StaleVersion as stale:
        message = tr.gettext("The table had changed; here it is now.")
        return _current(stale.current, lang, htmx, message)
    except Refused as refused:
        return _current(refused.current, lang, htmx, refusal_text(refused.error, tr))
    if not htmx:
        return RedirectResponse("/hearts", status_code=303)
    after = Seen.of(turn.after)
    before_table, after_table = table_of(turn.before, tr), table_of(after, tr)
    steps = steps_of(turn.before.view, after.view, turn.plays, tr)
    changed = changed_pieces(before_table, after_table, steps, lang)
    changed.append(live_piece(narration(turn.before.view, after.view, steps, tr)))
    return fragment(changed)


def _current(loaded: Loaded, lang: str, htmx: bool, message: str) -> Response:
    if not htmx:
        return RedirectResponse("/hearts", status_code=303)
    table = table_of(Seen.of(loaded), translator(lang))
    return fragment([*all_pieces(table, lang), live_piece(message)], status=409)


VersionField = Annotated[str | None, Form()]


@router.post("/hearts/{game_id}/pass", include_in_schema=False)
async def hearts_pass(
    request: Request, game_id: str, store: StoreDep, session_id: SessionId, lang: Lang,
    cards: Annotated[str, Form(max_length=80)] = "", version: VersionField = None,
) -> Response:
    def action(match: HeartsMatch) -> list[PlayedCard]:
        return service.pass_cards(match, _parse_cards(cards))

    return await act(request, store, session_id, lang, game_id, version, action)


@router.post("/hearts/{game_id}/play", include_in_schema=False)
async def hearts_play(
    request: Request, game_id: str, store: StoreDep, session_id: SessionId, lang: Lang,
    card: Annotated[str, Form(max_length=8)] = "", version: VersionField = None,
) -> Response:
    def action(match: HeartsMatch) -> list[PlayedCard]:
        return service.play_card(match, parse_card(card))

    return await act(request, store, session_id, lang, game_id, version, action)


@router.post("/hearts/{game_id}/undo", include_in_schema=False)
async def hearts_undo(
    request: Request, game_id: str, store: StoreDep, session_id: SessionId, lang: Lang,
    version: VersionField = None,
) -> Response:
    return await act(request, store, session_id, lang, game_id, version, service.undo)


@router.post("/hearts/{game_id}/next-hand", include_in_schema=False)
async def hearts_next_hand(
    request: Request, game_id: str, store: StoreDep, session_id: SessionId, lang: Lang,
    version: VersionField = None,
) -> Response:
    return await act(request, store, session_id, lang, game_id, version, service.next_hand)
