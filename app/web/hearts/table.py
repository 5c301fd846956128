"""The Hearts table as pieces (app/web/pieces.py), drawn by templates/hearts/_pieces.html from
the player's :class:`HeartsView` only (never the match itself), so no card of another hand can
reach a template.

An action's answer is worked out from the pieces before and after it, not from their HTML:
each piece is drawn only when its arguments differ, so a play draws a few small pieces. The
cards played come back all at once, in the order they were played, in place of the trick:
static/js/hearts-table.js shows them one by one and builds the final table from them.
tests/web/test_hearts_page.py applies every answer of a whole match to the page it changes and
checks that the result is the page drawn afresh.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from markupsafe import Markup

from app.rules.cards import DECK_SIZE, RANKS, SUITS, card_text, cards_in, rank_of, suit_of
from app.rules.hearts import HUMAN, SEED_RULES, HeartsView, PlayedCard
from app.web.hearts.review import Decision
from app.web.hearts.service import Seen, moon_of
from app.web.hearts.texts import refusal_text, rules_summary, seat_names
from app.web.i18n import (
    SUIT_SYMBOLS,
    Translator,
    cards_by_suit,
    cards_in_words,
    format_number,
)
from app.web.pieces import Piece, Pieces, changed, render, render_once

TEMPLATE = "hearts/_pieces.html"

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
    """One card played by an action; ``winner``/``points`` are set when it ends a trick.
    ``words``: what the page says as the card lands (the card, hearts broken, the trick);
    ``mine``: the player's own card; ``brief``: the words without it, for a player who chose
    fewer announcements."""

    played: TablePlay
    winner: int | None = None
    points: int = 0
    words: str = ""
    mine: bool = False
    brief: str = ""


@dataclass(frozen=True, slots=True)
class EndOfHand:
    """What the dialog at the end of a hand (or of the match) shows."""

    phase: str
    hand_number: int
    names: tuple[str, str, str, str]
    rows: tuple[ScoreRow, ...]
    totals: tuple[int, int, int, int]
    moon: int | None
    moon_line: str
    winner: int | None
    headline: str  # the match's end: the player's own result first ("" after a hand)
    results: str | None = None  # once the match is over: its board's URL
    places: tuple[Place, ...] = ()  # at the match's end: every seat, best first
    second_line: str = ""  # under the headline: the player's points, or who won
    rules: str = ""  # the house rules in a short line ("" for the classic rules)
    # In the phase "moon", what the others see while the shooter chooses (at a table).
    choosing: str = ""


@dataclass(frozen=True, slots=True)
class Place:
    place: int  # 1-4; seats on the same total share a place
    seat: int
    name: str
    total: int


def places_of(totals: tuple[int, ...], names: tuple[str, ...]) -> tuple[Place, ...]:
    """The seats by total, fewest points first; equal totals share the better place."""
    order = sorted(range(len(totals)), key=lambda seat: (totals[seat], seat))
    return tuple(
        Place(1 + sum(t < totals[seat] for t in totals), seat, names[seat], totals[seat])
        for seat in order
    )


@dataclass(frozen=True, slots=True)
class Urls:
    """Where the table's forms post (app/web/hearts/pages.py builds them with url_path_for)."""

    play: str
    pass_: str
    undo: str
    next: str
    last: str
    review: str = ""  # the review of a finished hand (the solo page only)
    # The match's deal code and its URL, shown once the match is over (empty before).
    replay: tuple[str, str] | None = None
    moon: str = ""  # the player's choice of what a moon does (none on a watcher's page)


def face(c: int, tr: Translator, *, legal: bool = False, received: bool = False) -> CardFace:
    code = card_text(c)
    suit = code[-1]
    return CardFace(code, suit, code[:-1], SUIT_SYMBOLS[suit], tr.card_name(c), legal, received)


def suit_order(suits_present: set[str]) -> list[str]:
    """The present suits in an order that alternates colours as far as it can (♣ ♦ ♠ ♥ first)."""
    present = [s for s in _SUIT_ORDER if s in suits_present]

    def clashes(order: Iterable[str]) -> int:
        return sum((a in _RED) == (b in _RED) for a, b in itertools.pairwise(order))

    # At most 24 orders; min() keeps the first best one, so the base order wins ties.
    return list(min(itertools.permutations(present), key=clashes))


def sorted_hand(hand: int) -> list[int]:
    cards = cards_in(hand)
    order = suit_order({SUITS[suit_of(c)] for c in cards})
    place = {s: i for i, s in enumerate(order)}
    return sorted(cards, key=lambda c: (place[SUITS[suit_of(c)]], rank_of(c)))


def passing_labels(direction: str, tr: Translator) -> tuple[str, str]:
    """What the info bar says of this hand's passing, and the pass button's label."""
    return {
        "left": (tr.gettext("Passing left"), tr.gettext("Pass left")),
        "right": (tr.gettext("Passing right"), tr.gettext("Pass right")),
        "across": (tr.gettext("Passing across"), tr.gettext("Pass across")),
        "none": (tr.gettext("No passing"), tr.gettext("No passing")),
    }[direction]


def trick_line(winner: int, points: int, names: tuple[str, ...], tr: Translator) -> str:
    if points:
        return tr.ngettext(
            "%(seat)s took the trick: %(num)d point.",
            "%(seat)s took the trick: %(num)d points.",
            points,
        ) % {"seat": names[winner], "num": points}
    return tr.gettext("%(seat)s took the trick.") % {"seat": names[winner]}



def end_of_hand(
    view: HeartsView, names: tuple[str, str, str, str], tr: Translator, results: str,
    rules: str = "",
) -> EndOfHand | None:
    """The dialog at the end of a hand or of the match, or the question to the player who
    shot the moon under the shooter's-choice rule (phase "moon"); ``results``: the URL of the
    match's results board; ``rules``: the house rules in a line, "" for the classic ones."""
    if view.phase not in ENDS:
        return None
    rows = tuple(
        ScoreRow(i + 1, scores, moon_of(scores)) for i, scores in enumerate(view.hand_scores)
    )

    def line(seat: int | None, yours: str, theirs: str) -> str:
        """What a seat did, said to the player ("" when no seat did it)."""
        if seat is None:
            return ""
        return yours if seat == HUMAN else theirs % {"seat": names[seat]}

    moon_line = line(
        view.moon, tr.gettext("You shot the moon!"), tr.gettext("%(seat)s shot the moon.")
    )
    places: tuple[Place, ...] = ()
    headline = second_line = ""
    if view.phase == "match_over":
        winner_line = line(
            view.winner, tr.gettext("You win the match!"), tr.gettext("%(seat)s wins the match.")
        )
        if view.winner is None:  # a tie (a daily, over after four hands, may end so)
            winner_line = tr.gettext("A tie for the fewest points.")
        places = places_of(view.totals, names)
        mine = next(p for p in places if p.seat == HUMAN)
        your_place = tr.ngettext(
            "Your place: %(place)s of 4, with %(num)d point.",
            "Your place: %(place)s of 4, with %(num)d points.",
            mine.total,
        ) % {"place": mine.place, "num": mine.total}
        # The player's own result first: a win (alone or shared), or the place; then the rest.
        if view.winner == HUMAN:
            headline, second_line = winner_line, your_place
        elif mine.place == 1:
            headline, second_line = tr.gettext("You share first place."), your_place
        else:
            headline, second_line = your_place, winner_line
    return EndOfHand(
        view.phase, view.hand_number, names, rows, view.totals, view.moon, moon_line,
        view.winner, headline, results if view.phase == "match_over" else None,
        places, second_line, rules, moon_choosing(view, names, tr),
    )


def moon_choosing(view: HeartsView, names: tuple[str, str, str, str], tr: Translator) -> str:
    """While a seat chooses what its moon does: the others' words for it ("" otherwise)."""
    if view.phase != "moon" or view.moon is None:
        return ""
    return tr.gettext("%(seat)s shot the moon and is choosing.") % {"seat": names[view.moon]}


ENDS = ("hand_over", "match_over", "moon")


# The seat that receives the player's cards in each pass direction.
RECEIVER = {"left": 1, "across": 2, "right": 3}


def level_label(deal: str, tr: Translator) -> str:
    """The bots' level, from the letter of the match's code (HT1-N-…)."""
    letter = deal.split("-")[1]
    return {"E": tr.gettext("Easy"), "N": tr.gettext("Normal"), "H": tr.gettext("Hard"),
            "X": tr.gettext("Expert")}[letter]


def table_pieces(
    seen: Seen, urls: Urls, tr: Translator, names: tuple[str, str, str, str] | None = None,
    *, watching: bool = False,
) -> Pieces:
    """The table's pieces, in the order an answer sends them; ``names`` are the seats' (the
    solo match's when None; a table with friends names its players); ``watching``: for a
    watcher, who holds no hand, the bottom seat's cards are counted like the others'."""
    view = seen.view
    names = names or seat_names(tr)
    phase = view.phase
    # The trick in progress; when none, the last finished trick stays until the next card.
    shown: tuple[PlayedCard, ...] = view.trick
    done = False
    winner = None
    if not shown and view.tricks:
        shown, done, winner = view.tricks[-1].cards, True, view.tricks[-1].winner
    slots: list[TablePlay | None] = [None] * 4
    for p in shown:
        slots[p.seat] = TablePlay(p.seat, face(p.card, tr))
    passing, pass_button = passing_labels(view.pass_direction, tr)
    receiver = RECEIVER.get(view.pass_direction)
    pieces: Pieces = {
        "ht-trick": Piece.of("trick", slots=tuple(slots), done=done, winner=winner, names=names),
        "ht-info": Piece.of(
            "info", hand_number=view.hand_number, pass_direction=view.pass_direction,
            direction_label=passing, hearts_broken=view.hearts_broken,
            level=level_label(view.deal, tr),
            # A watcher passes to nobody: the direction alone.
            receiver=None if receiver is None or watching else names[receiver],
        ),
    }
    has_last = bool(view.tricks)
    pieces["ht-bar"] = Piece.of(
        "bar", phase=phase, pass_label=pass_button, urls=urls,
        extra=(("undo_available", seen.undo_available), ("has_last_trick", has_last),
               ("moon_mine", view.moon == HUMAN)),
    )
    # A daily match's code stays secret: its board shows it once the day is over.
    replay = urls.replay if phase == "match_over" and seen.daily is None else None
    if seen.daily is None:
        results = f"/hearts/deal/{view.deal}/results"
    else:
        results = f"/hearts/daily/{seen.daily}/results"
    # The rules are put in words only for the dialog at a hand's end, not at every play.
    over = phase in ENDS and view.rules != SEED_RULES
    end = end_of_hand(view, names, tr, results, rules_summary(view.rules, tr) if over else "")
    pieces["ht-dialog"] = Piece.of("dialog", end=end, next_url=urls.next,
                                   review_url=urls.review, replay=replay, urls_moon=urls.moon)
    if phase == "playing":  # the bar is the same but for these two buttons
        pieces["ht-undo"] = Piece.of("undo_button", enabled=seen.undo_available,
                                     inside="ht-bar")
        pieces["ht-last"] = Piece.of("last_button", enabled=has_last, url=urls.last,
                                     inside="ht-bar")
    received = view.received if view.received and not view.tricks else 0
    legal = view.legal
    hand = tuple(
        face(c, tr, legal=bool(legal >> c & 1), received=bool(received >> c & 1))
        for c in sorted_hand(view.hand)
    )
    pieces["ht-hand"] = Piece.of("hand", phase=phase, url=urls.play, cards=hand)
    # Once a hand is scored, its points are the scored ones (a moon turns 26 into 0 and 0 into
    # 26), as the score table shows them.
    points = view.hand_scores[-1] if phase in ("hand_over", "match_over") else view.hand_points
    for s in range(4):
        seat = f"ht-seat-{s}"
        numbers = {"hand_points": points[s], "total": view.totals[s]}
        if s != HUMAN or watching:  # the player's cards are counted by the hand itself
            numbers["cards_left"] = view.cards_left[s]
        pieces[seat] = Piece.of("seat", s=s, name=names[s], turn=view.turn == s,
                                extra=tuple(numbers.items()))
        for key, value in numbers.items():
            ident = f"ht-{NUMBER_IDS[key]}-{s}"
            pieces[ident] = Piece.of("number", ident=ident, value=value, inside=seat)
    pieces["ht-answers"] = Piece.of("answers", items=answers(view, names, tr, watching=watching))
    pieces["ht-played"] = Piece.of("played_panel", suits=played_by_suit(view, tr))
    pieces["ht-version"] = Piece.of("version", value=seen.version)
    refusal = seen.dimmed_refusal
    pieces["ht-why"] = Piece.of("why", text=refusal_text(refusal, tr) if refusal else "")
    return pieces


NUMBER_IDS = {"hand_points": "hp", "total": "tot", "cards_left": "left"}
PLAYED_PANEL_SUITS = "CDSH"  # the suits' order in the panel, as in "the cards still out"


def played_by_suit(view: HeartsView, tr: Translator) -> tuple[tuple[str, str, str, str], ...]:
    """The "cards played" panel (the setting ``hearts_cards_played``): the cards of this
    hand's finished tricks, suit by suit, redrawn with each trick: (suit letter, symbol, the
    ranks as shown, the same said in words) per suit."""
    played = sorted(p.card for t in view.tricks for p in t.cards)
    rows = []
    for suit in PLAYED_PANEL_SUITS:
        symbol = SUIT_SYMBOLS[suit]
        cards = [c for c in played if SUITS[suit_of(c)] == suit]
        shown = " ".join(RANKS[rank_of(c)] for c in cards) or "–"
        rows.append((suit, symbol, shown, cards_by_suit(cards, suit, tr)))
    return tuple(rows)


def last_trick(
    view: HeartsView, tr: Translator, names: tuple[str, ...] | None = None
) -> LastTrick | None:
    """The hand's last finished trick; ``names`` the seats' (the solo match's when None)."""
    if not view.tricks:
        return None
    trick = view.tricks[-1]
    names = names or seat_names(tr)
    by_seat = tuple(
        TablePlay(p.seat, face(p.card, tr)) for p in sorted(trick.cards, key=lambda p: p.seat)
    )
    return LastTrick(by_seat, trick.winner, trick_line(trick.winner, trick.points, names, tr))


def steps_of(
    before: HeartsView, after: HeartsView, plays: list[PlayedCard], tr: Translator,
    names: tuple[str, ...], *, seated: bool = True,
) -> list[Step]:
    """The cards one action played, in order, each marked with its trick's winner when it ends
    a trick and with the words the page says as it lands. ``before`` is the view before the
    action (only its cards played count); a new hand starts counting afresh. ``seated``: the
    view is a player's (seat 0 is "you"), not a watcher's."""
    done = 0
    broken = False
    if before.hand_number == after.hand_number:
        done = 4 * len(before.tricks) + len(before.trick)
        earlier = [p.card for t in before.tricks for p in t.cards] + [p.card for p in before.trick]
        broken = any(SUITS[suit_of(c)] == "H" for c in earlier)
    steps = []
    for k, p in enumerate(plays, start=done):
        played = TablePlay(p.seat, face(p.card, tr))
        mine = seated and p.seat == HUMAN
        words = [play_line(p.seat, played.card.name, names, tr, mine)]
        if not broken and played.card.suit == "H":
            broken = True
            words.append(tr.gettext("Hearts are broken."))
        winner, points = None, 0
        if k % 4 == 3 and k // 4 < len(after.tricks):
            trick = after.tricks[k // 4]
            winner, points = trick.winner, trick.points
            words.append(trick_line(winner, points, names, tr))
        steps.append(Step(played, winner, points, " ".join(words), mine,
                          " ".join(words[1:]) if mine else ""))
    return steps


def play_line(seat: int, card: str, names: tuple[str, ...], tr: Translator, mine: bool) -> str:
    if mine:
        return tr.gettext("You played %(card)s.") % {"card": card}
    return tr.gettext("%(seat)s played %(card)s.") % {"seat": names[seat], "card": card}


def opening_words(before: HeartsView, after: HeartsView, tr: Translator) -> str:
    """What the page says before the cards an action played: a new hand and its passing, the
    cards an undo gave back (so nothing goes on reading a trick that was taken back), or the
    cards received in a pass. (The cards the player passed are in a bot's hand now, so they
    are never named.)"""
    if after.hand_number != before.hand_number:
        hand = tr.gettext("Hand %(n)s") % {"n": after.hand_number}
        return f"{hand}. {passing_labels(after.pass_direction, tr)[0]}."
    taken_back = after.hand & ~before.hand if before.phase == after.phase == "playing" else 0
    if taken_back:
        back = cards_in_words(sorted_hand(taken_back), tr)
        return tr.gettext("Undone: %(cards)s back in your hand.") % {"cards": back}
    if before.phase == "passing" and after.received:
        received = cards_in_words(sorted_hand(after.received), tr)
        return tr.gettext("You received %(cards)s.") % {"cards": received}
    return ""


def closing_words(
    before: HeartsView, after: HeartsView, names: tuple[str, str, str, str], tr: Translator
) -> str:
    """What the page says once an action's cards have landed: the hand's scores when it is
    over (after a play, or after the moon's choice under the shooter's-choice rule), and the
    match's result when that is over too."""
    hand_over = before.phase in ("playing", "moon") and after.phase in ("hand_over", "match_over")
    if not (hand_over and after.hand_scores):
        return ""
    parts = [hand_over_line(after.hand_scores[-1], names, tr)]
    end = end_of_hand(after, names, tr, results="")
    if end is not None:
        parts += [end.moon_line, end.headline, end.second_line]
    return " ".join(part for part in parts if part)


def hand_over_line(scores: tuple[int, ...], names: tuple[str, ...], tr: Translator) -> str:
    """A hand's points, seat by seat, as the page says them when it is over."""
    points = ", ".join(f"{names[s]} {scores[s]:+d}" for s in range(4))
    return f"{tr.gettext('Hand over.')} {points}."


# -- answers --------------------------------------------------------------------------------


def hand_changes(old: Piece, new: Piece, lang: str) -> list[Markup]:
    """The hand as out-of-band pieces: the cards that went, and each card that changed (only
    its state attributes when that is all); the whole hand when the phase changed or a card
    came in."""
    old_phase, old_hand = old.arg("phase"), old.arg("cards")
    phase, hand = new.arg("phase"), new.arg("cards")
    before = {c.code: c for c in old_hand}
    now = [c.code for c in hand]
    if old_phase != phase or [code for code in before if code in now] != now:
        return [render(TEMPLATE, new, lang, oob=True)]
    out = [render(TEMPLATE, Piece.of("gone", code=code), lang, oob=True)
           for code in before if code not in now]
    for card in hand:
        was = before[card.code]
        if card == was:
            continue
        if phase == "playing" and replace(was, legal=card.legal, received=card.received) == card:
            out.append(render(TEMPLATE, Piece.of("card_state", c=card), lang, oob=True))
        else:
            out.append(render(TEMPLATE, Piece.of("hand_card", c=card, phase=phase), lang,
                              oob=True))
    return out


def changes(
    before: Pieces, after: Pieces, steps: list[Step], lang: str, opening: str = ""
) -> list[Markup]:
    """The pieces of ``after`` that differ from ``before``, as out-of-band swaps. When the
    action played cards, they come in place of the trick, in order, for the page to show one
    by one (``opening`` said before the first); the page then takes one from a bot's count of
    cards as each of its steps lands."""
    played = Counter(step.played.seat for step in steps)
    seen_before = dict(before)
    for s, count in played.items():
        ident = f"ht-left-{s}"
        if s != HUMAN and ident in before:
            shown = before[ident].arg("value") - count
            seen_before[ident] = Piece.of("number", ident=ident, value=shown,
                                          inside=before[ident].inside)
    out = []
    # The trick goes first: the page holds back the numbers and the narration that come after
    # it until its cards have been shown one by one.
    if steps:
        steps_piece = Piece.of("steps", steps=tuple(steps), names=after["ht-trick"].arg("names"),
                               opening=opening)
        out.append(render_once(TEMPLATE, steps_piece, lang, oob=True))
    for name in changed(seen_before, after):
        if name == "ht-trick" and steps:
            continue
        if name == "ht-hand":
            out.extend(hand_changes(before[name], after[name], lang))
        else:
            out.append(render(TEMPLATE, after[name], lang, oob=True))
    return out


def everything(pieces: Pieces, lang: str) -> list[Markup]:
    """Every piece of the table, as out-of-band swaps (for a page that has to catch up)."""
    return [render(TEMPLATE, piece, lang, oob=True)
            for piece in pieces.values() if piece.inside is None]


def piece_renderer(pieces: Pieces, lang: str) -> Callable[[str], Markup]:
    """``piece(id)`` for the page template: one piece in place."""
    return lambda name: render(TEMPLATE, pieces[name], lang)


def hint_marks(cards: int, lang: str, *, oob: bool = False) -> Markup:
    """The ``ht-hint-marks`` piece: the cards a hint marks ("QS 2C"), which
    static/js/hint-marks.js sets ``data-hint`` on as it is swapped in."""
    codes = " ".join(card_text(c) for c in cards_in(cards))
    return render_once(TEMPLATE, Piece.of("hint_marks", cards=codes), lang, oob=oob)


@dataclass(frozen=True, slots=True)
class ReviewRow:
    """One decision of the hand's review: the cards played (or passed), the search's best
    cards when they differ, and the points the choice lost against them."""

    what: str  # "Pass" or the trick's number
    played: tuple[CardFace, ...]
    best: tuple[CardFace, ...]  # empty: the choice was the best
    lost: str  # "0.7"; "—" for a pass the search has no figure for
    costly: bool


@dataclass(frozen=True, slots=True)
class Review:
    """A finished hand's review as the dialog shows it: one row per decision, and whether
    every choice was the best (the dialog then says so once instead of listing them)."""

    rows: tuple[ReviewRow, ...]
    all_best: bool


def lost_points(d: Decision) -> float | None:
    """How many points the choice is expected to cost against the best one (None: unknown)."""
    return None if d.chosen_points is None else max(0.0, d.chosen_points - d.best_points)


def review_of(decisions: list[Decision], tr: Translator) -> Review:
    """The rows of the review; a choice whose loss rounds to 0.0 counts as the best (two cards
    the search values alike)."""

    def faces(mask: int) -> tuple[CardFace, ...]:
        return tuple(face(c, tr) for c in cards_in(mask))

    rows = []
    for d in decisions:
        lost = lost_points(d)
        best = d.chosen == d.best or (lost is not None and round(lost, 1) == 0)
        rows.append(ReviewRow(
            tr.gettext("Pass") if d.trick is None else str(d.trick),
            faces(d.chosen), () if best else faces(d.best),
            "—" if lost is None else format_number(lost, tr.lang, 1), d.costly,
        ))
    return Review(tuple(rows), all(not row.best for row in rows))


# -- the answers to the player's questions (static/js/questions.js) --------------------------


def answers(
    view: HeartsView, names: tuple[str, str, str, str], tr: Translator, *,
    watching: bool = False,
) -> tuple[tuple[str, str], ...]:
    """What the page answers when the player asks, by question: their hand by suit, what they
    can play, the trick so far, the last trick, the scores, the cards still out by suit, whose
    turn it is and the passing. All of it from the player's own view. A watcher holds no hand
    and is no seat: no hand, nothing to play, and every turn is a seat's by name."""
    hand = sorted_hand(view.hand)
    order = suit_order({SUITS[suit_of(c)] for c in hand}) if hand else []
    mine = cards_by_suit(hand, "".join(order), tr)
    your_hand = (tr.gettext("Your hand: %(cards)s.") % {"cards": mine} if hand
                 else tr.gettext("Your hand is empty."))
    turn = "" if view.turn is None else (
        tr.gettext("Your turn.") if view.turn == HUMAN and not watching
        else tr.gettext("%(seat)s to play.") % {"seat": names[view.turn]})
    if view.phase == "passing":
        playable = (tr.gettext("Your cards are passed; the others are choosing.")
                    if view.pass_choice else tr.gettext("Pick three cards to pass."))
    elif view.phase == "playing" and view.turn == HUMAN:
        playable = tr.gettext("You can play: %(cards)s.") % {
            "cards": ", ".join(tr.card_name(c) for c in sorted_hand(view.legal))}
    else:
        playable = turn or tr.gettext("The hand is over.")
    trick = (tr.gettext("On the table: %(cards)s.") % {"cards": "; ".join(
        f"{names[p.seat]}: {tr.card_name(p.card)}" for p in view.trick)} if view.trick
        else tr.gettext("No card on the table."))
    last = view.tricks[-1] if view.tricks else None
    last_words = (tr.gettext("Last trick: %(cards)s.") % {"cards": "; ".join(
        f"{names[p.seat]}: {tr.card_name(p.card)}" for p in last.cards)} + " "
        + trick_line(last.winner, last.points, names, tr) if last
        else tr.gettext("No trick has been played yet in this hand."))
    points = view.hand_scores[-1] if view.phase in ("hand_over", "match_over") else (
        view.hand_points)
    scores = tr.gettext("Points this hand: %(hand)s. Match total: %(total)s.") % {
        "hand": ", ".join(f"{names[s]} {points[s]}" for s in range(4)),
        "total": ", ".join(f"{names[s]} {view.totals[s]}" for s in range(4)),
    }
    played = {p.card for t in view.tricks for p in t.cards} | {p.card for p in view.trick}
    out = [c for c in range(DECK_SIZE) if c not in played and not view.hand >> c & 1]
    still_out = (tr.gettext("Still out: %(cards)s.") % {"cards": cards_by_suit(out, "CDSH", tr)}
                 if out else tr.gettext("No card is still out."))
    passing, _ = passing_labels(view.pass_direction, tr)
    receiver = RECEIVER.get(view.pass_direction)
    if receiver is not None and not watching:
        passing = tr.gettext("%(passing)s, to %(seat)s") % {
            "passing": passing, "seat": names[receiver]}
    broken = tr.gettext("Hearts broken") if view.hearts_broken else tr.gettext(
        "Hearts not broken")
    hand_number = tr.gettext("Hand %(n)s") % {"n": view.hand_number}
    whose = " ".join(filter(None, (turn, f"{hand_number}. {passing}. {broken}.")))
    public = (("trick", trick), ("last", last_words), ("scores", scores), ("out", still_out),
              ("turn", whose))
    return public if watching else (("hand", your_hand), ("play", playable), *public)
