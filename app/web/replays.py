"""Replays of finished games: the pages, the JSON API and the share links.

A Hearts match (against the bots, a daily, a table's) is played again through the rules from
its deal and the hands it remembers (app/web/hearts/replay.py): four hands face up, the passes,
every trick with its winner and points, each hand's scores and moons, the match score after
each hand, and for South (the player of a match against the bots, the creator at a table) the
hand review's expected points lost on each pass and play (app/web/hearts/review.py, kept in
``app.state.reviews`` as the hand-over dialog keeps it). A Heart to Heart game is played again
from its deal, with the solver's verdict at each step (app/web/heart_to_heart/replay.py).

Who may look: the browser that played the game; anyone with its share link (an HMAC signature
of the game's kind and id under the server's key: it opens that one game's replay, read-only);
anyone who may see the table, for a table's match. Nothing is shown of a game still in play
(403, no card), nor of a daily deal before its UTC day is over (403, saying when it opens).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from itsdangerous import BadSignature, Signer

from app.rules.cards import card_text, cards_in
from app.rules.heart_to_heart import ALL_REMOVED, free_mask_of, new_game, rank_name
from app.rules.hearts import HUMAN, NUM_SEATS, HeartsMatch
from app.store import GameUnreadable, StoredGame
from app.web.api_models import (
    FinishedTrick,
    HeartsReplay,
    HeartsRulesState,
    HeartToHeartReplay,
    HeartToHeartReplayStep,
    Play,
    ReplayDecision,
    ReplayHand,
    ReplayPass,
    ReplaySeat,
    error_responses,
)
from app.web.daily_codes import is_over
from app.web.deps import VisitDep
from app.web.errors import PageError
from app.web.games import GameNotFound, ReplayMissing
from app.web.heart_to_heart import service as heart_to_heart_service
from app.web.heart_to_heart.board import build_board, piece_renderer
from app.web.heart_to_heart.replay import GameReplay, Step, replay_game
from app.web.heart_to_heart.service import Options
from app.web.hearts import service as hearts_service
from app.web.hearts.replay import (
    MatchReplay,
    ReplayedHand,
    ReplayMismatch,
    replay_match,
    reviewable,
)
from app.web.hearts.review import Decision, Reviews, review
from app.web.hearts.table import lost_points, passing_labels, play_line, trick_line
from app.web.hearts.tables import service as tables_service
from app.web.hearts.tables.texts import compass, seat_label
from app.web.hearts.texts import rule_lines, rules_summary, seat_names
from app.web.hearts.thinking import THINKING
from app.web.i18n import Translator, format_number, heart_name, translator
from app.web.results import daily_of
from app.web.templating import page

G = TypeVar("G")
router = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api", tags=["Replays"])

HEARTS = hearts_service.KIND
HEART_TO_HEART = heart_to_heart_service.KIND
ShareToken = Annotated[
    str | None,
    Query(max_length=64, description="A share link's token: opens this finished game's replay "
          "to anyone who has it, read-only."),
]


# -- share links --------------------------------------------------------------------------------


def _signer(secret: str) -> Signer:
    return Signer(secret, salt="cardroom-replay")


def share_token(secret: str, kind: str, game_id: str) -> str:
    """The token of a game's share link: it names the game and nothing else."""
    return _signer(secret).get_signature(f"{kind}:{game_id}").decode()


def token_opens(secret: str, kind: str, game_id: str, token: str) -> bool:
    try:
        return _signer(secret).verify_signature(f"{kind}:{game_id}", token)
    except BadSignature:
        return False


# -- who may see what ---------------------------------------------------------------------------


def not_over(tr: Translator) -> PageError:
    return PageError(403, tr.gettext(
        "This game is still being played: its replay opens when it is over."
    ), title=tr.gettext("Not over yet"))


def check_daily(stored: StoredGame, now: float, tr: Translator) -> None:
    """A daily deal's replay waits for its UTC day to be over, even for its player."""
    day = daily_of(stored.state)
    if day is not None and not is_over(day, now):
        opens = (day + timedelta(days=1)).isoformat()
        raise PageError(403, tr.gettext(
            "This is the daily deal of %(date)s: it stays secret until that day is over, so its "
            "replay opens on %(opens)s at 00:00 UTC."
        ) % {"date": day.isoformat(), "opens": opens}, title=tr.gettext("Not open yet"))


async def finished_game(
    request: Request, visit: VisitDep, kind: str, game_id: str, share: str | None,
    load: Callable[[StoredGame], G], over: Callable[[G], bool], not_found: str,
) -> tuple[G, StoredGame, bool]:
    """The finished game a replay is asked of (``load`` reads it, ``over`` says it is over),
    its stored record, and whether it came through a share link. A token that does not open
    it is refused (403), so is a game still in play and a daily before its day is over."""
    tr = translator(visit.lang)
    shared = share is not None
    if shared:
        secret = request.app.state.settings.secret_key
        if len(game_id) > 64 or not token_opens(secret, kind, game_id, share or ""):
            raise PageError(403, tr.gettext("This share link does not open any replay."))
    try:
        stored = (await visit.store.get_shared(game_id) if shared
                  else await visit.store.get(visit.session_id, game_id))
        if stored is None or stored.kind != kind:
            raise GameNotFound(not_found)
        game = load(stored)
    except GameUnreadable as error:
        raise GameNotFound(not_found) from error
    if not over(game):
        raise not_over(tr)
    check_daily(stored, visit.clock(), tr)
    return game, stored, shared


def not_kept(tr: Translator) -> PageError:
    return PageError(404, tr.gettext(
        "This game was played before replays were kept: there is no replay of it."
    ))


def missing_page(missing: ReplayMissing, tr: Translator) -> PageError:
    return not_over(tr) if missing.reason == "not_over" else not_kept(tr)


def share_url(request: Request, kind: str, game_id: str, route: str) -> str:
    token = share_token(request.app.state.settings.secret_key, kind, game_id)
    path = request.app.url_path_for(route, game_id=game_id)
    return str(request.app.state.settings.public_link(f"{path}?share={token}"))


# -- Hearts ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HeartsSeen:
    """A Hearts replay as one visitor may see it: the replay, who sat where, the visitor's
    seat and its review (one list of decisions per hand), the share link."""

    replay: MatchReplay
    names: tuple[str, ...]
    humans: tuple[bool, ...]
    seat: int | None
    reviews: list[list[Decision]] | None
    share: str


async def reviews_of(
    request: Request, key: str, version: int, replay: MatchReplay
) -> list[list[Decision]]:
    """South's review of every hand: computed once per hand and kept (the search runs in the
    bots' processes), as the hand-over dialog's review is."""
    kept: Reviews = request.app.state.reviews
    judged = []
    for hand in replay.hands:
        view = hand.views[HUMAN]
        found = kept.get((key, hand.number, version))
        if found is None:
            found = await THINKING.search(review, view)
            kept.keep((key, hand.number, version), found)
        judged.append(found)
    return judged


def replayed(match: HeartsMatch, tr: Translator, not_found: str) -> MatchReplay:
    """The match replayed; a record that does not replay is damaged: it is not found."""
    try:
        return replay_match(match)
    except ReplayMissing as missing:
        raise missing_page(missing, tr) from missing
    except ReplayMismatch as damaged:
        raise GameNotFound(not_found) from damaged


async def solo_seen(
    request: Request, visit: VisitDep, game_id: str, share: str | None
) -> HeartsSeen:
    tr = translator(visit.lang)
    match, stored, shared = await finished_game(
        request, visit, HEARTS, game_id, share, hearts_service.load,
        lambda match: match.phase == "match_over", hearts_service.NOT_FOUND,
    )
    replay = replayed(match, tr, hearts_service.NOT_FOUND)
    reviews = await reviews_of(request, game_id, stored.version, replay)
    # The player sees "You"; someone with the share link sees the compass.
    names = compass(tr) if shared else seat_names(tr)
    return HeartsSeen(replay, names, (True, False, False, False), None if shared else HUMAN,
                      reviews, share_url(request, HEARTS, game_id, "hearts_replay"))


async def table_seen(request: Request, visit: VisitDep, table_id: str) -> HeartsSeen:
    tr = translator(visit.lang)
    table = await tables_service.load(visit.store, table_id)
    if table.match is None or table.match.phase != "match_over":
        raise not_over(tr)
    replay = replayed(table.match, tr, tables_service.NOT_FOUND)
    seat = table.seat_of(visit.session_id)
    names = tuple(seat_label(table, n, tr) for n in range(NUM_SEATS))
    # Keyed by the match's deal: the table's version moves on after the match (reactions).
    reviews = (await reviews_of(request, f"table:{table_id}:{replay.deal}", 0, replay)
               if reviewable(seat) else None)
    link = request.app.state.settings.public_link(
        request.app.url_path_for("hearts_table_replay", table_id=table_id)
    )
    return HeartsSeen(replay, names, tuple(s.human for s in table.seats), seat, reviews, link)


def cards(mask: int) -> list[str]:
    return [card_text(c) for c in cards_in(mask)]


def decision_model(d: Decision) -> ReplayDecision:
    lost = lost_points(d)
    return ReplayDecision(
        trick=d.trick, chosen=cards(d.chosen), best=cards(d.best),
        expected_points_lost=None if lost is None else round(lost, 2),
    )


def hand_model(hand: ReplayedHand, judged: list[Decision] | None) -> ReplayHand:
    return ReplayHand(
        number=hand.number,
        pass_direction=hand.direction,
        dealt=[cards(m) for m in hand.dealt],
        passes=[ReplayPass(seat=s, to=hand.receiver(s), cards=cards(hand.passed[s]))
                for s in range(NUM_SEATS) if hand.passed[s]],
        tricks=[FinishedTrick(
            leader=t.leader, cards=[Play(seat=p.seat, card=card_text(p.card)) for p in t.cards],
            winner=t.winner, points=t.points,
        ) for t in hand.tricks],
        points=list(hand.points),
        scores=list(hand.scores),
        moon=hand.moon,
        totals=list(hand.totals),
        review=None if judged is None else [decision_model(d) for d in judged],
    )


def hearts_model(
    seen: HeartsSeen, kind: Literal["hearts", "hearts_table"], game_id: str
) -> HeartsReplay:
    replay = seen.replay
    return HeartsReplay(
        kind=kind, id=game_id, deal=replay.deal,
        rules=HeartsRulesState(**replay.rules.to_json()),
        seats=[ReplaySeat(seat=n, name=seen.names[n], human=seen.humans[n])
               for n in range(NUM_SEATS)],
        your_seat=seen.seat, review_seat=HUMAN if seen.reviews is not None else None,
        hands=[hand_model(h, None if seen.reviews is None else seen.reviews[i])
               for i, h in enumerate(replay.hands)],
        winner=replay.winner, share_url=seen.share,
    )


def review_note(d: Decision, tr: Translator) -> str:
    lost = lost_points(d)
    if lost is None:
        return ""
    if d.chosen == d.best or round(lost, 1) == 0:
        return tr.gettext("Review: the best choice.")
    best = ", ".join(tr.card_name(c) for c in cards_in(d.best))
    return tr.gettext("Review: %(num)s points expected lost; best: %(cards)s.") % {
        "num": format_number(lost, tr.lang, 1), "cards": best,
    }


def scores_line(values: tuple[int, ...], names: tuple[str, ...], signed: bool) -> str:
    return ", ".join(f"{names[s]} {values[s]:+d}" if signed else f"{names[s]} {values[s]}"
                     for s in range(NUM_SEATS))


def hearts_steps(seen: HeartsSeen, tr: Translator) -> tuple[list[dict], list[list[Any]]]:
    """What the page's timeline draws (static/js/replay.js): each hand's cards, and each step
    as ``[hand index, kind, cards played, words, review note, the seat the note is about]``;
    kind 0 is the deal, 1 the pass, 2 a card, 3 the hand's end."""
    names, hands, steps = seen.names, [], []
    last = len(seen.replay.hands) - 1
    for index, hand in enumerate(seen.replay.hands):
        judged = {} if seen.reviews is None else {d.trick: d for d in seen.reviews[index]}
        plays = [[p.seat, card_text(p.card)] for t in hand.tricks for p in t.cards]
        hands.append({
            "dealt": [cards(m) for m in hand.dealt], "held": [cards(m) for m in hand.held],
            "plays": plays,
            "taken": [[sum(t.points for t in hand.tricks[:k] if t.winner == s)
                       for s in range(NUM_SEATS)] for k in range(len(hand.tricks) + 1)],
        })
        opening = tr.gettext("Hand %(n)s") % {"n": hand.number}
        steps.append([index, 0, 0, f"{opening}. {passing_labels(hand.direction, tr)[0]}.", ""])
        if any(hand.passed):
            passes = " ".join(tr.gettext("%(seat)s passed %(cards)s to %(to)s.") % {
                "seat": names[s], "to": names[hand.receiver(s) or 0],
                "cards": ", ".join(tr.card_name(c) for c in cards_in(hand.passed[s])),
            } for s in range(NUM_SEATS))
            note = review_note(judged[None], tr) if None in judged else ""
            steps.append([index, 1, 0, passes, note])
        for number, trick in enumerate(hand.tricks, 1):
            for k, p in enumerate(trick.cards):
                said = [play_line(p.seat, tr.card_name(p.card), names, tr, False)]
                if k == 3:
                    said.append(trick_line(trick.winner, trick.points, names, tr))
                note = review_note(judged[number], tr) if (
                    p.seat == HUMAN and number in judged) else ""
                steps.append([index, 2, 4 * (number - 1) + k + 1, " ".join(said), note])
        ending = [tr.gettext("Hand over.") + " " + scores_line(hand.scores, names, True)]
        if hand.moon is not None:
            ending.append(tr.gettext("%(seat)s shot the moon.") % {"seat": names[hand.moon]})
        ending.append(tr.gettext("Match score: %(scores)s.") % {
            "scores": scores_line(hand.totals, names, False)})
        if index == last:
            winner = seen.replay.winner
            ending.append(tr.gettext("A tie for the fewest points.") if winner is None else
                          tr.gettext("%(seat)s wins the match.") % {"seat": names[winner]})
        steps.append([index, 3, len(plays), " ".join(ending), ""])
    return hands, steps


def hearts_page(request: Request, seen: HeartsSeen, lang: str, back: tuple[str, str]):
    tr = translator(lang)
    hands, steps = hearts_steps(seen, tr)
    deck = [(card_text(c), tr.card_name(c)) for c in range(52)]
    context = {
        "seen": seen,
        "rules_summary": rules_summary(seen.replay.rules, tr),
        "rule_lines": rule_lines(seen.replay.rules, tr),
        "hand_rows": [(h, h.scores, h.totals) for h in seen.replay.hands],
        "deck": deck,
        "data": json.dumps({"hands": hands, "steps": steps}, separators=(",", ":")),
        "hands_count": len(hands),
        "back": back,
    }
    return page(request, "replay/hearts.html", context, lang)


@router.get("/hearts/games/{game_id}/replay", response_class=HTMLResponse,
            name="hearts_replay")
async def hearts_replay_page(
    request: Request, game_id: str, visit: VisitDep, share: ShareToken = None
) -> HTMLResponse:
    seen = await solo_seen(request, visit, game_id, share)
    tr = translator(visit.lang)
    return hearts_page(request, seen, visit.lang,
                       (request.app.url_path_for("hearts"), tr.gettext("Play Hearts")))


@router.get("/hearts/t/{table_id}/replay", response_class=HTMLResponse,
            name="hearts_table_replay")
async def table_replay_page(request: Request, table_id: str, visit: VisitDep) -> HTMLResponse:
    seen = await table_seen(request, visit, table_id)
    tr = translator(visit.lang)
    return hearts_page(request, seen, visit.lang,
                       (request.app.url_path_for("table_page", table_id=table_id),
                        tr.gettext("Back to the table")))


REPLAY_ERRORS = error_responses(403, 404, 422)


@api.get("/hearts/games/{game_id}/replay", response_model=HeartsReplay, responses=REPLAY_ERRORS,
         operation_id="hearts_replay", summary="A finished match's replay")
async def hearts_replay_api(
    request: Request, game_id: str, visit: VisitDep, share: ShareToken = None
) -> HeartsReplay:
    """Every hand of a finished match played again from its deal: the four hands, the passes,
    the tricks, the scores and moons, the match score after each hand, and South's review.
    403 while the match is being played, and for a daily deal until its UTC day is over."""
    return hearts_model(await solo_seen(request, visit, game_id, share), "hearts", game_id)


@api.get("/hearts/tables/{table_id}/replay", response_model=HeartsReplay,
         responses=REPLAY_ERRORS, operation_id="hearts_table_replay",
         summary="A table's finished match, replayed")
async def table_replay_api(request: Request, table_id: str, visit: VisitDep) -> HeartsReplay:
    """As a match's replay, for anyone who can see the table, once its match is over (403
    before). The review is South's, given to the player sitting there."""
    return hearts_model(await table_seen(request, visit, table_id), "hearts_table", table_id)


# -- Heart to Heart -----------------------------------------------------------------------------


async def game_replay(
    request: Request, visit: VisitDep, game_id: str, share: str | None
) -> tuple[GameReplay, StoredGame, bool]:
    tr = translator(visit.lang)
    game, stored, shared = await finished_game(
        request, visit, HEART_TO_HEART, game_id, share, heart_to_heart_service.load,
        heart_to_heart_service.is_played_out, heart_to_heart_service.NOT_FOUND,
    )
    try:
        replay = await THINKING.run(replay_game, game)
    except ReplayMissing as missing:
        raise missing_page(missing, tr) from missing
    return replay, stored, shared


def move_words(step: Step, number: int, heart_ranks: tuple[int, ...], lang: str) -> str:
    tr = translator(lang)
    move = step.move
    assert move is not None
    if move.kind == "draw":
        return tr.gettext("Move %(num)d: a card turned from the stock.") % {"num": number}
    if move.kind == "redeal":
        return tr.gettext("Move %(num)d: the waste turned back into the stock.") % {"num": number}
    card = heart_name(rank_name(heart_ranks[move.first]), lang)  # type: ignore[index]
    if move.second == "waste":
        return tr.gettext("Move %(num)d: %(card)s at position %(pos)d with the waste top.") % {
            "num": number, "card": card, "pos": move.first}
    return tr.gettext("Move %(num)d: the pair of %(card)s at positions %(a)d and %(b)d.") % {
        "num": number, "card": card, "a": move.first, "b": move.second}


def game_model(replay: GameReplay, game_id: str, share: str) -> HeartToHeartReplay:
    lost = replay.lost
    return HeartToHeartReplay(
        id=game_id, deal=replay.deal, won=replay.won,
        heart=[rank_name(r) for r in replay.heart_ranks],
        verdict=lost.verdict,  # type: ignore[arg-type]
        lost_after=lost.moves,
        losing_move=None if lost.move is None else str(lost.move),
        steps=[HeartToHeartReplayStep(
            move=None if s.move is None else str(s.move),
            removed=[p for p in range(25) if s.removed >> p & 1],
            stock=s.stock, waste=s.waste,
            waste_top=None if s.waste_top is None else rank_name(s.waste_top),
            winnable=s.winnable,
        ) for s in replay.steps],
        share_url=share,
    )


@router.get("/heart-to-heart/games/{game_id}/replay", response_class=HTMLResponse,
            name="heart_to_heart_replay")
async def game_replay_page(
    request: Request, game_id: str, visit: VisitDep, share: ShareToken = None
) -> HTMLResponse:
    replay, _, _ = await game_replay(request, visit, game_id, share)
    lang, tr = visit.lang, translator(visit.lang)
    start = new_game(replay.deal)
    board = build_board(start, 0, "", Options(placement_help=False), lang, static=True)
    lost = replay.lost
    steps = []
    for number, step in enumerate(replay.steps):
        words = (tr.gettext("The deal as it comes: only the tip is free.") if step.move is None
                 else move_words(step, number, replay.heart_ranks, lang))
        note = tr.gettext("Winnable.") if step.winnable else tr.gettext("Not winnable.")
        if lost.moves is not None and number == lost.moves + 1:
            note = tr.gettext("This move lost the game: it could not be won after it.")
        steps.append([
            step.removed, step.stock, step.waste,
            None if step.waste_top is None else [
                rank_name(step.waste_top), heart_name(rank_name(step.waste_top), lang)],
            int(step.winnable), words, note,
            list(step.move.taps) if step.move and step.move.kind == "pair" else [],
            ALL_REMOVED & ~step.removed & ~free_mask_of(step.removed),
        ])
    verdict = {
        "winnable": tr.gettext("Won: every position of this game could be won."),
        "never": tr.gettext("This deal could not be won from the start: no move lost it."),
        "lost": tr.ngettext(
            "After %(num)d move this game could still be won; move %(next)d lost it.",
            "After %(num)d moves this game could still be won; move %(next)d lost it.",
            lost.moves or 0,
        ) % {"num": lost.moves or 0, "next": (lost.moves or 0) + 1},
    }.get(lost.verdict, "")
    context = {
        "replay": replay,
        "deal": replay.deal,
        "piece": piece_renderer(board, lang),
        "data": json.dumps({"steps": steps, "lost": lost.moves}, separators=(",", ":")),
        "verdict": verdict,
        "share_url": share_url(request, HEART_TO_HEART, game_id, "heart_to_heart_replay"),
    }
    return page(request, "replay/heart_to_heart.html", context, lang)


@api.get("/heart-to-heart/games/{game_id}/replay", response_model=HeartToHeartReplay,
         responses=REPLAY_ERRORS, operation_id="heart_to_heart_replay",
         summary="A finished game's replay")
async def game_replay_api(
    request: Request, game_id: str, visit: VisitDep, share: ShareToken = None
) -> HeartToHeartReplay:
    """Every move of a won or stalemated game from its deal (moves undone are not in it), the
    board after each, and the solver's verdict at each step: winnable until the move that lost
    it. 403 while the game is being played, and for a daily deal until its UTC day is over."""
    replay, _, _ = await game_replay(request, visit, game_id, share)
    return game_model(
        replay, game_id, share_url(request, HEART_TO_HEART, game_id, "heart_to_heart_replay")
    )
