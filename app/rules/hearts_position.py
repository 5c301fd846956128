"""A Hearts position as one line of text, as FEN is for chess: :func:`position_text` prints a
match's position, :func:`parse_position` reads one back (tests set a position up with it).

The fields, separated by one space; trailing fields may be left out and take the default::

    HT1-N-AAAAAAM 4 playing 5432.A9.T.J/…/…/… 0:KD 1 - 0:2C3C4C5C,… 5,6,7,8 - - - - -
    deal          hand phase hands          trick turn hearts tricks totals scores
                                                                  chosen passed moon winner

- ``deal``: the match code (its letter is the bots' level; house rules follow its number, as
  in ``HT1-N-AAAAAAM-JB``). ``hand``: the hand number, from 1.
  ``phase``: ``passing``, ``playing``, ``moon``, ``hand_over`` or ``match_over``.
- ``hands``: the four seats' cards, seat 0 (the player) first, separated by ``/``. A hand is its
  ranks suit by suit, clubs, diamonds, hearts, spades, separated by ``.``, highest first
  (``T`` is the ten): ``AK2..QJ.T`` is A♣ K♣ 2♣, Q♥ J♥ and 10♠.
- ``trick`` (default ``-``, none): the trick in progress, its leader's seat, ``:`` and its cards
  in the order played: ``3:KDAD``.
- ``turn`` (default ``-``, nobody): the seat to play.
- ``hearts`` (default ``-``): ``broken`` once hearts are broken.
- ``tricks`` (default ``-``): this hand's finished tricks, oldest first, separated by ``,``; each
  is written like ``trick``. The points each seat took this hand follow from them.
- ``totals`` (default ``0,0,0,0``): the match totals by seat.
- ``scores`` (default ``-``): the scores of the hands played, separated by ``;``:
  ``0,26,0,0;13,0,13,0``.
- ``chosen``, ``passed`` (default ``-``, none): the cards each seat chose to pass, waiting for
  the exchange, and the cards each seat passed this hand, written like ``hands``.
- ``moon``, ``winner`` (default ``-``): the seat that shot the moon in the last hand, and the
  match winner.

A position holds no undo history. Anything that does not read as a position, or whose cards
are not the 52 cards once each, raises :class:`~app.rules.hearts.HeartsStateError`.
"""

from __future__ import annotations

import re

from app.rules.cards import DECK_SIZE, FULL_DECK, RANKS, SUITS, card, rank_of, suit_of
from app.rules.deal_codes import DealCodeError
from app.rules.hearts import (
    ALL_PHASES,
    NUM_SEATS,
    HandState,
    HeartsMatch,
    HeartsStateError,
    PlayedCard,
    Trick,
    parse_match_code,
    points_of,
    trick_winner,
)

FIELDS = (
    "deal", "hand", "phase", "hands", "trick", "turn", "hearts", "tricks", "totals", "scores",
    "chosen", "passed", "moon", "winner",
)  # fmt: skip
DEFAULTS = {"totals": "0,0,0,0"}  # every other field left out is "-"
NONE = "-"
BROKEN = "broken"
# Ranks as one letter each: T is the ten.
RANK_LETTERS = "".join(rank[-1] if rank != "10" else "T" for rank in RANKS)
_CARD = re.compile(rf"([{RANK_LETTERS}])([{SUITS}])")
_NUMBER = re.compile(r"-?[0-9]{1,9}")


def _bad(what: str) -> HeartsStateError:
    return HeartsStateError("bad_position", f"Not a Hearts position: {what.rstrip('.')}.")


# -- printing ---------------------------------------------------------------------------------


def _card(c: int) -> str:
    return RANK_LETTERS[rank_of(c)] + SUITS[suit_of(c)]


def _hand(mask: int) -> str:
    return ".".join(
        "".join(RANK_LETTERS[r] for r in reversed(range(13)) if mask >> card(s, r) & 1)
        for s in range(len(SUITS))
    )


def _hands(masks: tuple[int, ...]) -> str:
    return "/".join(map(_hand, masks)) if any(masks) else NONE


def _trick(cards: tuple[PlayedCard, ...]) -> str:
    return f"{cards[0].seat}:" + "".join(_card(p.card) for p in cards) if cards else NONE


def _seat(seat: int | None) -> str:
    return NONE if seat is None else str(seat)


def _numbers(values: tuple[int, ...]) -> str:
    return ",".join(map(str, values))


def position_text(match: HeartsMatch) -> str:
    """The position of ``match`` as one line, every field written."""
    st = match.state
    tricks = ",".join(_trick(t.cards) for t in st.tricks) or NONE
    scores = ";".join(map(_numbers, st.hand_scores)) or NONE
    return " ".join((
        match.deal, str(st.hand_number), st.phase, "/".join(map(_hand, st.hands)),
        _trick(st.trick), _seat(st.turn), BROKEN if st.hearts_broken else NONE, tricks,
        _numbers(st.totals), scores, _hands(st.chosen), _hands(st.passed), _seat(st.moon),
        _seat(st.winner),
    ))  # fmt: skip


# -- reading ----------------------------------------------------------------------------------


def _read_hand(text: str) -> int:
    suits = text.split(".")
    if len(suits) != len(SUITS):
        raise _bad(f"a hand is four suits separated by dots: {text!r}")
    mask = 0
    for s, ranks in enumerate(suits):
        for letter in ranks:
            r = RANK_LETTERS.find(letter)
            if r < 0 or mask >> card(s, r) & 1:
                raise _bad(f"{letter!r} in {text!r} is not a new rank")
            mask |= 1 << card(s, r)
    return mask


def _read_hands(text: str) -> tuple[int, int, int, int]:
    if text == NONE:
        return (0, 0, 0, 0)
    parts = text.split("/")
    if len(parts) != NUM_SEATS:
        raise _bad(f"four hands separated by '/' are needed: {text!r}")
    a, b, c, d = map(_read_hand, parts)
    return a, b, c, d


def _read_trick(text: str) -> tuple[PlayedCard, ...]:
    if text == NONE:
        return ()
    leader, colon, cards = text.partition(":")
    found = _CARD.findall(cards)
    if not colon or leader not in "0123" or len(leader) != 1 or not 1 <= len(found) <= 4:
        raise _bad(f"a trick is its leader, ':' and one to four cards: {text!r}")
    if "".join(rank + suit for rank, suit in found) != cards:
        raise _bad(f"cards are a rank (23456789TJQKA) and a suit (CDHS): {cards!r}")
    first = int(leader)
    return tuple(
        PlayedCard((first + i) % NUM_SEATS, card(SUITS.index(s), RANK_LETTERS.index(r)))
        for i, (r, s) in enumerate(found)
    )


def _read_finished(text: str) -> Trick:
    cards = _read_trick(text)
    if len(cards) != NUM_SEATS:
        raise _bad(f"a finished trick has four cards: {text!r}")
    played = [p.card for p in cards]
    mask = sum(1 << c for c in played)
    return Trick(cards[0].seat, cards, trick_winner(cards[0].seat, played), points_of(mask))


def _read_seat(text: str) -> int | None:
    if text == NONE:
        return None
    if text not in ("0", "1", "2", "3"):
        raise _bad(f"a seat is 0 to 3 or '-': {text!r}")
    return int(text)


def _read_numbers(text: str) -> tuple[int, int, int, int]:
    # House rules can score below zero (app/rules/hearts_rules.py), so a number may be negative.
    parts = text.split(",")
    if len(parts) != NUM_SEATS or not all(_NUMBER.fullmatch(p) for p in parts):
        raise _bad(f"four whole numbers separated by commas are needed: {text!r}")
    a, b, c, d = map(int, parts)
    return a, b, c, d


def _items(text: str, separator: str) -> list[str]:
    return [] if text == NONE else text.split(separator)


def parse_position(text: str) -> HeartsMatch:
    """The match at the position ``text`` (see the module's docstring), with no undo."""
    values = text.split()
    if not 4 <= len(values) <= len(FIELDS):
        raise _bad(f"{len(FIELDS)} fields at most, the first four needed")
    field = dict(zip(FIELDS, values, strict=False))
    for name in FIELDS[len(values) :]:
        field[name] = DEFAULTS.get(name, NONE)
    try:
        code = parse_match_code(field["deal"])
    except DealCodeError as error:
        raise _bad(error.message) from error
    if not field["hand"].isdigit() or not 1 <= len(field["hand"]) < 10 or field["hand"] == "0":
        raise _bad(f"the hand number is a whole number from 1: {field['hand']!r}")
    if field["phase"] not in ALL_PHASES:
        raise _bad(f"the phase is one of {', '.join(ALL_PHASES)}: {field['phase']!r}")
    if field["hearts"] not in (NONE, BROKEN):
        raise _bad(f"hearts are '{BROKEN}' or '-': {field['hearts']!r}")
    hands = _read_hands(field["hands"])
    trick = _read_trick(field["trick"])
    tricks = tuple(map(_read_finished, _items(field["tricks"], ",")))
    scores = tuple(map(_read_numbers, _items(field["scores"], ";")))
    turn = _read_seat(field["turn"])
    if (turn is not None) != (field["phase"] == "playing"):
        raise _bad("a seat has the turn exactly in the playing phase")
    _check_deck(hands, trick, tricks)
    taken = [0, 0, 0, 0]
    for finished in tricks:
        taken[finished.winner] += finished.points
    state = HandState(
        hand_number=int(field["hand"]),
        phase=field["phase"],
        hands=hands,
        chosen=_read_hands(field["chosen"]),
        passed=_read_hands(field["passed"]),
        trick=trick,
        tricks=tricks,
        turn=turn,
        hearts_broken=field["hearts"] == BROKEN,
        hand_points=(taken[0], taken[1], taken[2], taken[3]),
        totals=_read_numbers(field["totals"]),
        hand_scores=scores,
        moon=_read_seat(field["moon"]),
        winner=_read_seat(field["winner"]),
    )
    return HeartsMatch(code, state, [])


def _check_deck(
    hands: tuple[int, ...], trick: tuple[PlayedCard, ...], tricks: tuple[Trick, ...]
) -> None:
    """The hands, the trick and the finished tricks hold each of the 52 cards once."""
    seen = 0
    count = 0
    for mask in (*hands, *(1 << p.card for p in trick),
                 *(1 << p.card for t in tricks for p in t.cards)):  # fmt: skip
        if seen & mask:
            raise _bad("a card is in two places")
        seen |= mask
        count += mask.bit_count()
    if seen != FULL_DECK or count != DECK_SIZE:
        raise _bad("the hands and the tricks do not hold the 52 cards")
