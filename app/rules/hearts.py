"""Hearts against three bots: the rules engine and the match flow (pure, no I/O).

Seat 0 is the player (south), 1 West, 2 North, 3 East; play goes 0 → 1 → 2 → 3. The whole
match lives in one immutable compact state (:class:`HandState`: a bitmask per hand, tuples
for the rest); every action builds a new one. Undo keeps the states taken before each of the
player's plays and puts one back, so nothing is ever reversed by hand. Pages, the API and the
bots see a match only through :meth:`HeartsMatch.view`, which holds what one seat may know.

The rules as bitmask functions (legal plays, trick winner, points, the moon and the match end)
are in :mod:`app.rules.hearts_core` and re-exported here for the bots' rollouts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Literal, NamedTuple

from app.rules.cards import DECK_SIZE, FULL_DECK, SUIT_MASKS, card_text, suit_of
from app.rules.deal_codes import (
    CODE_SPACE,
    DealCode,
    DealCodeError,
    parse_deal_code,
    secret_shuffled,
    shuffled,
)
from app.rules.hearts_core import (
    HAND_SIZE,
    HEARTS_MASK,
    JACK_OF_DIAMONDS_BIT,
    MATCH_TARGET,
    NO_POINT_CARDS,
    NUM_SEATS,
    PASS_OFFSETS,
    PASS_ORDER,
    PASS_SIZE,
    POINT_CARDS,
    QUEEN_OF_SPADES_BIT,
    TOTAL_POINTS,
    TWO_OF_CLUBS_BIT,
    PassDirection,
    hand_scores,
    legal_mask,
    match_winner,
    moon_by_rule,
    moon_scores,
    moon_shooter,
    pass_direction,
    pass_source,
    pass_target,
    points_of,
    settle_totals,
    trick_winner,
)
from app.rules.hearts_rules import (
    MOON_CHOICES,
    SEED_RULES,
    HeartsRules,
    MoonChoice,
    RulesError,
)

__all__ = [
    "ALL_PHASES",
    "BOT_LEVELS",
    "GAME",
    "HAND_SIZE",
    "HEARTS_MASK",
    "HUMAN",
    "MATCH_TARGET",
    "NO_POINT_CARDS",
    "NUM_SEATS",
    "PASS_ORDER",
    "PASS_SIZE",
    "PHASES",
    "POINT_CARDS",
    "QUEEN_OF_SPADES_BIT",
    "SEED_RULES",
    "TOTAL_POINTS",
    "TWO_OF_CLUBS_BIT",
    "BotLevel",
    "HandState",
    "HeartsError",
    "HeartsMatch",
    "HeartsRules",
    "HeartsStateError",
    "HeartsView",
    "IllegalMoonChoice",
    "IllegalPass",
    "IllegalPlay",
    "NothingToUndo",
    "PassDirection",
    "Phase",
    "PlayedCard",
    "Trick",
    "WrongPhase",
    "deal_hands",
    "legal_mask",
    "match_winner",
    "moon_scores",
    "parse_match_code",
    "pass_direction",
    "pass_source",
    "pass_target",
    "points_of",
    "rules_of",
    "trick_winner",
]

HUMAN = 0
GAME = "HT1"
BotLevel = Literal["easy", "normal", "hard", "expert"]
BOT_LEVELS: dict[str, BotLevel] = {"E": "easy", "N": "normal", "H": "hard", "X": "expert"}
Phase = Literal["passing", "playing", "moon", "hand_over", "match_over"]
# The phases every match goes through.
PHASES: tuple[Phase, ...] = ("passing", "playing", "hand_over", "match_over")
# And "moon": a seat shot the moon under the shooter's-choice rule and has not chosen yet.
ALL_PHASES: tuple[Phase, ...] = (*PHASES[:2], "moon", *PHASES[2:])
JSON_VERSION = 1


class HeartsError(ValueError):
    """An action the rules refuse. ``reason`` is a stable key for translations."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


class IllegalPass(HeartsError):
    pass


class IllegalPlay(HeartsError):
    pass


class WrongPhase(HeartsError):
    pass


class IllegalMoonChoice(HeartsError):
    pass


class NothingToUndo(HeartsError):
    pass


class HeartsStateError(HeartsError):
    """A saved match or a position (app/rules/hearts_position.py) that cannot be read."""


@dataclass(frozen=True, slots=True)
class PlayedCard:
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    cards: tuple[PlayedCard, ...]
    winner: int
    points: int


# Played cards are immutable, so one shared object per (seat, card) serves every trick.
_PLAYED = tuple(tuple(PlayedCard(seat, c) for c in range(DECK_SIZE)) for seat in range(NUM_SEATS))


# A Trick is built through its slots: the frozen dataclass __init__ (object.__setattr__ per
# field) cost more than the rest of a finished trick. Only finished tricks are built here.
_new_object = object.__new__
_set_leader = Trick.leader.__set__  # type: ignore[attr-defined, misc]
_set_cards = Trick.cards.__set__  # type: ignore[attr-defined, misc]
_set_winner = Trick.winner.__set__  # type: ignore[attr-defined, misc]
_set_points = Trick.points.__set__  # type: ignore[attr-defined, misc]


def _finished_trick(cards: tuple[PlayedCard, ...]) -> Trick:
    first, second, third, fourth = cards
    plain = (first.card, second.card, third.card, fourth.card)
    taken = (1 << plain[0]) | (1 << plain[1]) | (1 << plain[2]) | (1 << plain[3])
    trick = _new_object(Trick)
    _set_leader(trick, first.seat)
    _set_cards(trick, cards)
    _set_winner(trick, trick_winner(first.seat, plain))
    _set_points(trick, points_of(taken))
    return trick


@dataclass(frozen=True, slots=True)
class HeartsView:
    """Exactly what one seat may know; bots and pages get only this.

    ``legal``: in "playing", the cards this seat may play now (0 when it is not its turn); in
    "passing", the whole hand until this seat has chosen (any card may be picked), then 0;
    otherwise 0. ``received`` and ``passed`` become known at the exchange.
    """

    seat: int
    deal: str
    phase: Phase
    hand_number: int
    pass_direction: PassDirection
    hand: int
    pass_chosen: bool
    passed: int | None
    received: int | None
    trick: tuple[PlayedCard, ...]
    tricks: tuple[Trick, ...]
    turn: int | None
    hearts_broken: bool
    hand_points: tuple[int, int, int, int]
    totals: tuple[int, int, int, int]
    hand_scores: tuple[tuple[int, int, int, int], ...]
    cards_left: tuple[int, int, int, int]
    legal: int
    moon: int | None
    winner: int | None
    # Added to the interface: the three cards this seat chose to pass, while it waits for the
    # exchange (0 otherwise); they are still in ``hand`` until the exchange.
    pass_choice: int = 0
    # The match's house rules (the seed's unless the match was made with others).
    rules: HeartsRules = SEED_RULES


class HandState(NamedTuple):
    """The whole match at one moment. Immutable: every action makes a new one.

    ``hands``: each seat's cards now. ``chosen``: the three cards each seat chose to pass,
    waiting for the exchange (0 = not chosen yet). ``passed``: what each seat passed this hand
    (0 before the exchange and in a no-pass hand). ``trick``: the trick in progress.
    ``tricks``: this hand's finished tricks (kept after the hand until the next one).
    ``hand_points``: points taken this hand, before the moon rule. ``turn``/``moon``/``winner``
    are a seat or None (the state JSON writes None as -1).
    """

    hand_number: int
    phase: Phase
    hands: tuple[int, int, int, int]
    chosen: tuple[int, int, int, int]
    passed: tuple[int, int, int, int]
    trick: tuple[PlayedCard, ...]
    tricks: tuple[Trick, ...]
    turn: int | None
    hearts_broken: bool
    hand_points: tuple[int, int, int, int]
    totals: tuple[int, int, int, int]
    hand_scores: tuple[tuple[int, int, int, int], ...]
    moon: int | None
    winner: int | None


def parse_match_code(text: str) -> DealCode:
    """Parse a Hearts match code ``HT1-L-ABCDEFG`` (L: E, N or H), or a secret match's long
    code (28 letters), either followed by house rules in their short form (``-JB``,
    app/rules/hearts_rules.py); raises DealCodeError."""
    code = parse_deal_code(text, GAME, "".join(BOT_LEVELS), long_ok=True, rules_ok=True)
    if code.rules:
        try:
            HeartsRules.from_short(code.rules)
        except RulesError as error:
            raise DealCodeError("rules", error.message) from error
    return code


def rules_of(code: DealCode) -> HeartsRules:
    """The house rules a match code carries (the seed's when it names none)."""
    return HeartsRules.from_short(code.rules) if code.rules else SEED_RULES


def deal_hands(deal: DealCode | int, hand_number: int) -> tuple[int, int, int, int]:
    """The four hands of hand ``hand_number`` of match ``deal`` (a code, or a seven-letter
    code's number), as bitmasks by seat.

    Hand k of a seven-letter code is ``shuffled(deck, "HT1", number, k)``. Hand k of a long
    code (a match dealt in secret) is ``secret_shuffled(deck, "HT1", number, k)``: drawn from
    SHA-256 of the code's whole number and k, so the cards of one hand tell nothing of the
    others (issue 28, F1)."""
    if isinstance(deal, DealCode) and deal.long:
        deck = secret_shuffled(range(DECK_SIZE), GAME, deal.number, hand_number)
    else:
        number = deal.number if isinstance(deal, DealCode) else deal
        if not 0 <= number < CODE_SPACE:
            raise ValueError(f"not a seven-letter code's number: {number}")
        deck = shuffled(range(DECK_SIZE), GAME, number, hand_number)
    # The cards are distinct, so the sum of their bits is their mask.
    return (
        sum(map(_ONE_SHIFTED, deck[0:13])),
        sum(map(_ONE_SHIFTED, deck[13:26])),
        sum(map(_ONE_SHIFTED, deck[26:39])),
        sum(map(_ONE_SHIFTED, deck[39:52])),
    )


_ONE_SHIFTED = (1).__lshift__


def _holder_of_two_of_clubs(hands: tuple[int, ...]) -> int:
    for seat in range(NUM_SEATS):
        if hands[seat] & TWO_OF_CLUBS_BIT:
            return seat
    raise AssertionError("the 2♣ is in no hand")


def _start_hand(
    deal: DealCode,
    hand_number: int,
    totals: tuple[int, int, int, int],
    hand_scores: tuple[tuple[int, int, int, int], ...],
    rules: HeartsRules,
) -> HandState:
    hands = deal_hands(deal, hand_number)
    passing = pass_direction(hand_number, rules) != "none"
    return HandState(
        hand_number=hand_number,
        phase="passing" if passing else "playing",
        hands=hands,
        chosen=(0, 0, 0, 0),
        passed=(0, 0, 0, 0),
        trick=(),
        tricks=(),
        turn=None if passing else _holder_of_two_of_clubs(hands),
        hearts_broken=False,
        hand_points=(0, 0, 0, 0),
        totals=totals,
        hand_scores=hand_scores,
        moon=None,
        winner=None,
    )


def _exchange(state: HandState, chosen: tuple[int, int, int, int]) -> HandState:
    offset = PASS_OFFSETS[pass_direction(state.hand_number)]
    hands = list(state.hands)
    for seat in range(NUM_SEATS):
        hands[seat] &= ~chosen[seat]
    for seat in range(NUM_SEATS):
        hands[(seat + offset) & 3] |= chosen[seat]
    new_hands = (hands[0], hands[1], hands[2], hands[3])
    return state._replace(
        phase="playing",
        hands=new_hands,
        chosen=(0, 0, 0, 0),
        passed=chosen,
        turn=_holder_of_two_of_clubs(new_hands),
    )


# Building the state positionally skips NamedTuple's keyword handling: plays are hot.
_new_state = tuple.__new__


def _apply_play(state: HandState, card: int, rules: HeartsRules) -> HandState:
    """The state after the seat to move plays ``card`` (already checked legal)."""
    (hand_number, phase, hands, chosen, passed, trick, tricks, turn, broken, hand_points,
     totals, hand_scores, moon, winner) = state  # fmt: skip
    seat: int = turn  # type: ignore[assignment]  # a seat is to move: the phase is playing
    bit = 1 << card
    h0, h1, h2, h3 = hands
    # One branch per seat builds the new hands faster than a list round trip.
    if seat == 0:
        hands = (h0 ^ bit, h1, h2, h3)
    elif seat == 1:
        hands = (h0, h1 ^ bit, h2, h3)
    elif seat == 2:
        hands = (h0, h1, h2 ^ bit, h3)
    else:
        hands = (h0, h1, h2, h3 ^ bit)
    trick = (*trick, _PLAYED[seat][card])
    if bit & HEARTS_MASK or (bit == QUEEN_OF_SPADES_BIT and rules.queen_breaks_hearts):
        broken = True
    if len(trick) < NUM_SEATS:
        return _new_state(HandState, (
            hand_number, phase, hands, chosen, passed, trick, tricks, (seat + 1) & 3, broken,
            hand_points, totals, hand_scores, moon, winner,
        ))  # fmt: skip
    done = _finished_trick(trick)
    taker = done.winner
    points = list(hand_points)
    points[taker] += done.points
    tricks = (*tricks, done)
    state = _new_state(HandState, (
        hand_number, phase, hands, chosen, passed, (), tricks, taker, broken,
        (points[0], points[1], points[2], points[3]), totals, hand_scores, moon, winner,
    ))  # fmt: skip
    if len(tricks) < HAND_SIZE:
        return state
    return _score_hand(state, rules)


def _tricks_taken(state: HandState) -> tuple[int | None, list[int]]:
    """Who took the J♦ this hand (None before it is taken), and how many tricks each seat."""
    jack_taker = None
    won = [0, 0, 0, 0]
    for trick in state.tricks:
        won[trick.winner] += 1
        if any(p.card == _JACK_OF_DIAMONDS for p in trick.cards):
            jack_taker = trick.winner
    return jack_taker, won


_JACK_OF_DIAMONDS = JACK_OF_DIAMONDS_BIT.bit_length() - 1


def _score_hand(
    state: HandState, rules: HeartsRules, choice: MoonChoice | None = None
) -> HandState:
    """The finished hand scored, or, when its shooter chooses what the moon does and has not
    chosen yet (``choice``), in the phase "moon" waiting for it."""
    points = state.hand_points
    jack_taker, won = _tricks_taken(state)
    shooter = moon_shooter(points)
    if shooter is not None and choice is None:
        choice = moon_by_rule(shooter, points, jack_taker, won, state.totals, rules)
        if choice is None:
            return state._replace(phase="moon", turn=None, moon=shooter)
    scores = hand_scores(points, jack_taker, won, rules, choice or "add_to_others")
    totals = settle_totals(state.totals, scores, rules)
    return _scored(state, scores, shooter, totals, match_winner(totals, rules.target))


def _scored(
    state: HandState,
    scores: tuple[int, int, int, int],
    shooter: int | None,
    totals: tuple[int, int, int, int],
    winner: int | None,
) -> HandState:
    return state._replace(
        phase="hand_over" if winner is None else "match_over",
        turn=None,
        totals=totals,
        hand_scores=(*state.hand_scores, scores),
        moon=shooter,
        winner=winner,
    )


def _alone_lowest(totals: tuple[int, ...]) -> int | None:
    """The seat with the fewest points, if no other seat has as few."""
    low = min(totals)
    return totals.index(low) if totals.count(low) == 1 else None


def _why_illegal(state: HandState, card: int) -> IllegalPlay:
    """Why ``card``, which is in the hand of the seat to move but not legal, may not be played."""
    name = card_text(card)
    if state.trick:
        led = suit_of(state.trick[0].card)
        if state.hands[state.turn] & SUIT_MASKS[led]:  # type: ignore[index]
            return IllegalPlay(
                "follow_suit", f"{name} does not follow suit; play a card of the suit led."
            )
        return IllegalPlay(
            "first_trick",
            f"{name} may not be played on the first trick: no hearts and no Q♠ while you hold "
            "other cards.",
        )
    if not state.tricks:
        return IllegalPlay("two_of_clubs", "The first trick is led with the 2♣.")
    return IllegalPlay(
        "hearts_not_broken",
        f"{name} is a heart, and hearts may not be led before one has been played.",
    )


def _invalid_state(what: str) -> HeartsStateError:
    return HeartsStateError("bad_state", f"Saved Hearts match is not valid: {what}.")


class HeartsMatch:
    """A match of Hearts: the player against three bots, hand after hand up to 100."""

    __slots__ = (
        "_assisted", "_code", "_deal", "_last_hand", "_legal", "_legal_at", "_past", "_rules",
        "_state", "_undo",
    )  # fmt: skip

    def __init__(
        self,
        code: DealCode,
        state: HandState,
        undo: list[HandState],
        *,
        last_hand: int | None = None,
        assisted: bool = False,
        past: tuple[dict[str, Any], ...] = (),
    ) -> None:
        """A match at ``state`` with the player's undo snapshots ``undo`` (oldest first).

        :meth:`new` starts a match; this is for loading and for tests and benchmarks that
        set a position up. ``last_hand``: the match ends with that hand (a daily deal);
        ``assisted``: the player took a play back (or had other help); ``past``: the hands
        played before this one, as :meth:`played_hands` reads them (its replay).
        """
        self._past = past
        self._code = code
        self._rules = rules_of(code)
        self._last_hand = last_hand
        self._assisted = assisted
        self._deal = str(code)
        self._state = state
        # States taken just before each of the player's plays in this hand, oldest first.
        self._undo = undo
        # legal_plays() of the state ``_legal_at``: a caller that asks before it plays (the
        # bots, the pages, any random driver) then pays for the rule once per play.
        self._legal_at: HandState | None = None
        self._legal = 0

    @classmethod
    def new(
        cls, code: DealCode | str, *, last_hand: int | None = None,
        rules: HeartsRules | None = None,
    ) -> HeartsMatch:
        """A new match; with ``last_hand`` it is over after that hand (or at its target, if
        sooner), its totals so far scored (the fewest points wins, when one seat has them
        alone). ``rules``, when given, replace the house rules the code carries (the code then
        carries these)."""
        if isinstance(code, str):
            code = parse_match_code(code)
        elif code.game != GAME or code.variant not in BOT_LEVELS:
            raise DealCodeError("game", f"'{code}' is not a Hearts match code.")
        if rules is not None:
            code = replace(code, rules=rules.short)
        return cls(
            code, _start_hand(code, 1, (0, 0, 0, 0), (), rules_of(code)), [], last_hand=last_hand
        )

    # -- reading --------------------------------------------------------------------------

    @property
    def code(self) -> DealCode:
        return self._code

    @property
    def deal(self) -> str:
        return self._deal

    @property
    def last_hand(self) -> int | None:
        """The hand the match ends with, whatever the scores (None: it goes to 100)."""
        return self._last_hand

    @property
    def rules(self) -> HeartsRules:
        return self._rules

    @property
    def assisted(self) -> bool:
        """Whether the player had help in this match (an undo)."""
        return self._assisted

    @property
    def bot_level(self) -> BotLevel:
        return BOT_LEVELS[self._code.variant]

    @property
    def state(self) -> HandState:
        """The full state, every hand included: for tests and benchmarks. Pages and bots
        read :meth:`view` instead, which holds only what their seat may know."""
        return self._state

    @property
    def phase(self) -> str:
        return self._state.phase

    @property
    def hand_number(self) -> int:
        return self._state.hand_number

    @property
    def turn(self) -> int | None:
        return self._state.turn

    @property
    def pass_direction(self) -> str:
        return pass_direction(self._state.hand_number, self._rules)

    def legal_plays(self) -> int:
        """The cards the seat to move may play (0 outside the playing phase)."""
        st = self._state
        if self._legal_at is st:
            return self._legal
        turn = st.turn
        if turn is None:
            legal = 0
        else:
            trick = st.trick
            led = suit_of(trick[0].card) if trick else -1
            rules = self._rules
            legal = legal_mask(
                st.hands[turn],
                led,
                not st.tricks,
                st.hearts_broken or not rules.hearts_must_be_broken,
                rules.first_trick_points,
            )
        # States are immutable, so the mask holds as long as this very state is current.
        self._legal_at, self._legal = st, legal
        return legal

    def view(self, seat: int) -> HeartsView:
        if not 0 <= seat < NUM_SEATS:
            raise ValueError(f"no seat {seat}")
        st = self._state
        direction = pass_direction(st.hand_number, self._rules)
        exchanged = bool(st.passed[seat])
        hands = st.hands
        if st.phase == "playing":
            legal = self.legal_plays() if st.turn == seat else 0
        elif st.phase == "passing" and not st.chosen[seat]:
            # While passing, any card of the hand may be picked.
            legal = hands[seat]
        else:
            legal = 0
        return HeartsView(
            seat=seat,
            deal=self._deal,
            phase=st.phase,
            hand_number=st.hand_number,
            pass_direction=direction,
            hand=hands[seat],
            pass_chosen=bool(st.chosen[seat]),
            passed=st.passed[seat] if exchanged else None,
            received=st.passed[pass_source(seat, direction)] if exchanged else None,
            trick=st.trick,
            tricks=st.tricks,
            turn=st.turn,
            hearts_broken=st.hearts_broken,
            hand_points=st.hand_points,
            totals=st.totals,
            hand_scores=st.hand_scores,
            cards_left=(
                hands[0].bit_count(),
                hands[1].bit_count(),
                hands[2].bit_count(),
                hands[3].bit_count(),
            ),
            legal=legal,
            moon=st.moon,
            winner=st.winner,
            pass_choice=st.chosen[seat],
            rules=self._rules,
        )

    # -- acting ---------------------------------------------------------------------------

    def choose_pass(self, seat: int, cards: int) -> None:
        """``seat`` chooses the three cards it passes; the fourth choice makes the exchange."""
        st = self._state
        if st.phase != "passing":
            if st.phase == "playing" and pass_direction(st.hand_number, self._rules) == "none":
                raise IllegalPass("no_pass", "There is no passing in this hand.")
            raise WrongPhase("not_passing", "Cards can only be passed before the first trick.")
        if not isinstance(seat, int) or not 0 <= seat < NUM_SEATS:
            raise IllegalPass("seat", f"There is no seat {seat!r}.")
        if st.chosen[seat]:
            raise IllegalPass("already_chosen", "The cards to pass are already chosen.")
        if not isinstance(cards, int) or cards < 0 or cards & ~FULL_DECK:
            raise IllegalPass("not_in_hand", "Pass cards from your hand.")
        if cards.bit_count() != PASS_SIZE:
            raise IllegalPass("count", f"Pass exactly {PASS_SIZE} cards.")
        if cards & ~st.hands[seat]:
            raise IllegalPass("not_in_hand", "Pass cards from your hand.")
        chosen = list(st.chosen)
        chosen[seat] = cards
        new_chosen = (chosen[0], chosen[1], chosen[2], chosen[3])
        if all(new_chosen):
            self._state = _exchange(st, new_chosen)
        else:
            self._state = st._replace(chosen=new_chosen)

    def play(self, card: int, seat: int | None = None) -> None:
        """The seat to move plays ``card``. Raises IllegalPlay and changes nothing if illegal.

        ``seat``, when given, must be the seat to move (the web layer passes the player's).
        """
        st = self._state
        turn = st.turn
        if turn is None:
            raise WrongPhase("not_playing", "No card can be played now.")
        if seat is not None and seat != turn:
            raise IllegalPlay("not_your_turn", "It is not your turn.")
        if type(card) is not int or not 0 <= card < DECK_SIZE:
            raise IllegalPlay("not_a_card", f"{card!r} is not a card.")
        bit = 1 << card
        legal = self._legal if self._legal_at is st else self.legal_plays()
        if not legal & bit:
            # Legal cards are in the hand, so this tells the two refusals apart.
            if not st.hands[turn] & bit:
                raise IllegalPlay("not_in_hand", f"{card_text(card)} is not in the hand.")
            raise _why_illegal(st, card)
        if turn == HUMAN:
            self._undo.append(st)
        new = _apply_play(st, card, self._rules)
        if new.turn is None:
            # The hand is over, and a finished hand is final.
            self._undo.clear()
            new = self._last_hand_over(new)
        self._state = new

    def _last_hand_over(self, state: HandState) -> HandState:
        """A finished hand that is the match's last ends the match."""
        if state.phase == "hand_over" and state.hand_number == self._last_hand:
            return state._replace(phase="match_over", winner=_alone_lowest(state.totals))
        return state

    def choose_moon(self, seat: int, choice: str) -> None:
        """The seat that shot the moon, under the shooter's-choice rule, says what it does:
        ``"add_to_others"`` or ``"subtract_from_shooter"``."""
        st = self._state
        if st.phase != "moon":
            raise WrongPhase("not_moon", "There is no moon to choose for now.")
        if seat != st.moon:
            raise IllegalMoonChoice("not_shooter", "Only the seat that shot the moon chooses.")
        if choice not in MOON_CHOICES:
            raise IllegalMoonChoice(
                "moon_choice", "Choose add_to_others or subtract_from_shooter."
            )
        moon: MoonChoice = "add_to_others" if choice == "add_to_others" else "subtract_from_shooter"
        self._state = self._last_hand_over(_score_hand(st, self._rules, moon))

    @property
    def undo_available(self) -> bool:
        return bool(self._undo)

    def undo(self) -> None:
        """Put back the state from before the player's last play (bots' later plays go too)."""
        if not self._undo:
            raise NothingToUndo("nothing_to_undo", "There is no play of yours to take back.")
        self._state = self._undo.pop()
        self._assisted = True

    def mark_assisted(self) -> None:
        """The player had help other than undo (a hint): the match counts as assisted."""
        self._assisted = True

    def next_hand(self) -> None:
        st = self._state
        if st.phase != "hand_over":
            raise WrongPhase("not_hand_over", "The next hand is dealt only after a hand is over.")
        self._past = (*self._past, _played_to_json(st))
        self._state = _start_hand(
            self._code, st.hand_number + 1, st.totals, st.hand_scores, self._rules
        )

    def played_hands(self) -> list[tuple[tuple[int, int, int, int], tuple[Trick, ...]]]:
        """The passes (what each seat passed; zeros in a hand without passing) and the tricks
        of every finished hand of the match, in order: what a replay plays again. The hands
        kept before the match remembered them (matches saved before replays) are missing:
        the list is then shorter than the hands played. Raises HeartsStateError when a
        remembered hand cannot be read."""
        hands = []
        try:
            for hand in self._past:
                passed = _four(hand["passed"], 0, FULL_DECK, "passed")
                tricks = hand["tricks"]
                if type(tricks) is not list or len(tricks) != HAND_SIZE:
                    raise _invalid_state("a played hand has thirteen tricks")
                hands.append((passed, tuple(_trick_from_json(*t) for t in tricks)))
        except HeartsError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise _invalid_state(str(exc) or type(exc).__name__) from exc
        st = self._state
        if len(st.tricks) == HAND_SIZE:
            hands.append((st.passed, st.tricks))
        return hands

    # -- copying and saving ---------------------------------------------------------------

    def copy(self) -> HeartsMatch:
        # States are immutable: a copy shares them and owns only its list of snapshots.
        twin = HeartsMatch.__new__(HeartsMatch)
        twin._code, twin._deal, twin._rules = self._code, self._deal, self._rules
        twin._state, twin._undo = self._state, list(self._undo)
        twin._legal_at, twin._legal = self._legal_at, self._legal
        twin._last_hand, twin._assisted = self._last_hand, self._assisted
        twin._past = self._past
        return twin

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HeartsMatch):
            return NotImplemented
        return (
            self._code == other._code
            and self._state == other._state
            and self._undo == other._undo
            and self._last_hand == other._last_hand
            and self._past == other._past
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        st = self._state
        return f"<HeartsMatch {self._deal} hand {st.hand_number} {st.phase}>"

    def to_json(self) -> dict[str, Any]:
        """The match as plain JSON types; :meth:`from_json` rebuilds exactly this match.

        Undo snapshots are earlier states of the current hand, so each is saved as the
        fields a play changes, with its finished tricks as a count: they are the first
        tricks of the current state.
        """
        st = self._state
        for snap in self._undo:
            if _shared_fields(snap) != _shared_fields(st) or st.tricks[: len(snap.tricks)] != (
                snap.tricks
            ):
                raise ValueError("an undo snapshot is not an earlier moment of this hand")
        return {
            "v": JSON_VERSION,
            "deal": self._deal,
            "state": {
                "hand_number": st.hand_number,
                "phase": st.phase,
                "chosen": list(st.chosen),
                "passed": list(st.passed),
                "tricks": [[t.leader, *(p.card for p in t.cards)] for t in st.tricks],
                "totals": list(st.totals),
                "hand_scores": [list(row) for row in st.hand_scores],
                "moon": _seat_to_json(st.moon),
                "winner": _seat_to_json(st.winner),
                **_moment_to_json(st),
            },
            "undo": [_moment_to_json(snap) for snap in self._undo],
            # Written only when set, so a plain match saves as it always did.
            **({} if self._last_hand is None else {"last_hand": self._last_hand}),
            **({"assisted": True} if self._assisted else {}),
            **({"past": list(self._past)} if self._past else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HeartsMatch:
        """Rebuild a match saved by :meth:`to_json`; raises HeartsError("bad_state")."""
        try:
            if data["v"] != JSON_VERSION:
                raise _invalid_state("unknown version")
            code = parse_match_code(data["deal"])
            state = _state_from_json(data["state"], rules_of(code))
            undo = [_moment_from_json(state, moment) for moment in data["undo"]]
            if undo and state.phase != "playing":
                raise _invalid_state("undo snapshots outside the playing phase")
            # A one-hand daily match of before issue 29 said "one_hand": true.
            last_hand = data.get("last_hand", 1 if data.get("one_hand") is True else None)
            assisted = data.get("assisted", False)
            if last_hand is not None and not _is_int(last_hand, 1, 1000):
                raise _invalid_state("last_hand is a hand number")
            if type(assisted) is not bool:
                raise _invalid_state("assisted is true or false")
            # Read again (played_hands) only when a replay asks: a load stays as quick as it was.
            past = data.get("past", [])
            if type(past) is not list or not all(type(hand) is dict for hand in past):
                raise _invalid_state("past is a list of hands")
        except HeartsError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise _invalid_state(str(exc) or type(exc).__name__) from exc
        return cls(
            code, state, undo, last_hand=last_hand, assisted=assisted, past=tuple(past)
        )


def _played_to_json(st: HandState) -> dict[str, Any]:
    """A finished hand as the match remembers it: the passes and the tricks."""
    return {
        "passed": list(st.passed),
        "tricks": [[t.leader, *(p.card for p in t.cards)] for t in st.tricks],
    }


def _shared_fields(st: HandState) -> tuple[Any, ...]:
    """What stays the same through the plays of one hand."""
    return (st.hand_number, st.phase, st.chosen, st.passed, st.totals, st.hand_scores,
            st.moon, st.winner)  # fmt: skip


def _moment_to_json(st: HandState) -> dict[str, Any]:
    """The fields a play changes (finished tricks as a count)."""
    trick = st.trick
    return {
        "hands": list(st.hands),
        "trick": [trick[0].seat, *(p.card for p in trick)] if trick else [],
        "done": len(st.tricks),
        "turn": _seat_to_json(st.turn),
        "hearts_broken": st.hearts_broken,
        "hand_points": list(st.hand_points),
    }


def _seat_to_json(seat: int | None) -> int:
    return -1 if seat is None else seat


def _seat_from_json(value: Any, what: str) -> int | None:
    """A seat or -1 (none) as saved; raises for anything else."""
    if not _is_int(value, -1, NUM_SEATS - 1):
        raise _invalid_state(f"{what} out of range")
    return None if value == -1 else value


def _is_int(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _ints(values: Any, count: int | None, low: int, high: int, what: str) -> list[int]:
    if type(values) is not list or (count is not None and len(values) != count):
        raise _invalid_state(f"{what} has the wrong length")
    for v in values:
        if type(v) is not int or not low <= v <= high:
            raise _invalid_state(f"{what} out of range")
    return values


def _cards_of_trick(values: Any, most: int, what: str) -> tuple[PlayedCard, ...]:
    """``[leader, card, ...]`` → played cards in order."""
    _ints(values, None, 0, DECK_SIZE - 1, what)
    if not values:
        return ()
    leader, *cards = values
    if leader >= NUM_SEATS or not 1 <= len(cards) <= most:
        raise _invalid_state(f"{what} is not a trick")
    return tuple(_PLAYED[(leader + i) & 3][c] for i, c in enumerate(cards))


@lru_cache(maxsize=4096, typed=True)
def _trick_from_json(*values: Any) -> Trick:
    """A finished trick from ``leader, card × 4``. Cached: every load of a match rebuilds
    the same tricks, and tricks are immutable."""
    return _finished_trick(_cards_of_trick(list(values), NUM_SEATS, "a finished trick"))


def _four(values: Any, low: int, high: int, what: str) -> tuple[int, int, int, int]:
    a, b, c, d = _ints(values, NUM_SEATS, low, high, what)
    return a, b, c, d


def _moment_from_json(base: HandState, data: dict[str, Any]) -> HandState:
    """Fields a play changes, over ``base``: the current state, or the hand it belongs to."""
    done = data["done"]
    if not _is_int(done, 0, len(base.tricks)):
        raise _invalid_state("finished tricks out of range")
    turn = _seat_from_json(data["turn"], "turn")
    if (turn is not None) != (base.phase == "playing"):
        raise _invalid_state("turn does not fit the phase")
    if type(data["hearts_broken"]) is not bool:
        raise _invalid_state("hearts_broken is true or false")
    return _new_state(HandState, (
        base.hand_number, base.phase, _four(data["hands"], 0, FULL_DECK, "hands"), base.chosen,
        base.passed, _cards_of_trick(data["trick"], NUM_SEATS - 1, "trick"), base.tricks[:done],
        turn, data["hearts_broken"], _four(data["hand_points"], 0, TOTAL_POINTS, "hand_points"),
        base.totals, base.hand_scores, base.moon, base.winner,
    ))  # fmt: skip


def _state_from_json(data: dict[str, Any], rules: HeartsRules) -> HandState:
    phase = data["phase"]
    if phase not in ALL_PHASES:
        raise _invalid_state("unknown phase")
    tricks = data["tricks"]
    if type(tricks) is not list or len(tricks) > HAND_SIZE:
        raise _invalid_state("too many tricks")
    finished = []
    for trick in tricks:
        if type(trick) is not list or len(trick) != NUM_SEATS + 1:
            raise _invalid_state("a finished trick has four cards")
        finished.append(_trick_from_json(*trick))
    big = 2**31
    moon = _seat_from_json(data["moon"], "moon")
    winner = _seat_from_json(data["winner"], "winner")
    hand_number = data["hand_number"]
    if not _is_int(hand_number, 1, big):
        raise _invalid_state("hand_number out of range")
    if phase == "moon" and (
        moon is None or len(tricks) != HAND_SIZE or rules.moon != "shooters_choice"
    ):
        raise _invalid_state("a moon to choose needs its shooter and the shooter's choice")
    # House rules with bonuses or a moon taken off the shooter score below zero.
    lowest = rules.lowest_hand_score
    lowest_total = 0 if lowest >= 0 else -big
    hand = HandState(
        hand_number=hand_number,
        phase=phase,
        hands=(0, 0, 0, 0),
        chosen=_four(data["chosen"], 0, FULL_DECK, "chosen"),
        passed=_four(data["passed"], 0, FULL_DECK, "passed"),
        trick=(),
        tricks=tuple(finished),
        turn=None,
        hearts_broken=False,
        hand_points=(0, 0, 0, 0),
        totals=_four(data["totals"], lowest_total, big, "totals"),
        hand_scores=tuple(
            _four(r, lowest, TOTAL_POINTS, "hand_scores") for r in data["hand_scores"]
        ),
        moon=moon,
        winner=winner,
    )
    state = _moment_from_json(hand, data)
    if len(state.tricks) != len(finished):
        raise _invalid_state("the finished tricks do not match their count")
    return state
