"""Hearts positions for the bot tests, built as real engine states."""

from __future__ import annotations

import random

from app.bots import choose_pass, choose_play, decision_seed
from app.bots.driver import pass_for_bots
from app.rules.cards import FULL_DECK, HEARTS, QUEEN_OF_SPADES, SUIT_MASKS, cards_in, parse_card
from app.rules.hearts import HUMAN, HeartsMatch, PlayedCard, Trick, deal_hands, pass_direction

CODE = "HT1-N-AAAABCD"


def mask(text: str) -> int:
    return sum(1 << parse_card(t) for t in text.split())


def _winner(leader: int, cards: list[int]) -> int:
    suit = cards[0] // 13
    best = max(range(4), key=lambda i: cards[i] if cards[i] // 13 == suit else -1)
    return (leader + best) % 4


def position(
    hands: dict[int, str],
    tricks: list[tuple[int, str]] = (),
    trick: tuple[int, str] | None = None,
    hand_number: int = 4,
    code: str = CODE,
) -> HeartsMatch:
    """A match in the middle of a hand.

    ``hands`` gives the current cards of some seats; the cards not named anywhere go to the
    other seats, in order, so every seat holds as many cards as the tricks leave it.
    ``tricks`` are finished tricks as (leader, "2C 3C 4C 5C") in play order; ``trick`` the
    open one. Points, broken hearts and the seat to move follow from the cards.
    """
    finished = [(leader, [parse_card(t) for t in text.split()]) for leader, text in tricks]
    open_leader, open_cards = (trick[0], [parse_card(t) for t in trick[1].split()]) if trick else (
        None,
        [],
    )
    played = sum(1 << c for _, cards in finished for c in cards) | sum(1 << c for c in open_cards)
    left = [13 - len(finished)] * 4
    if trick:
        for i in range(len(open_cards)):
            left[(open_leader + i) % 4] -= 1
    held = [0, 0, 0, 0]
    for seat, text in hands.items():
        held[seat] = mask(text)
        assert held[seat].bit_count() == left[seat], f"seat {seat} needs {left[seat]} cards"
    free = cards_in(FULL_DECK & ~played & ~sum(held))
    for seat in range(4):
        if seat not in hands:
            held[seat] = sum(1 << c for c in free[: left[seat]])
            free = free[left[seat]:]
    assert not free
    points = [0, 0, 0, 0]
    broken = False
    leader = None
    for lead, cards in finished:
        win = _winner(lead, cards)
        points[win] += sum(1 for c in cards if c // 13 == HEARTS) + 13 * (QUEEN_OF_SPADES in cards)
        broken = broken or any(c // 13 == HEARTS for c in cards)
        leader = win
    broken = broken or any(c // 13 == HEARTS for c in open_cards)
    if trick:
        turn = (open_leader + len(open_cards)) % 4
    else:
        turn = leader if leader is not None else next(s for s in range(4) if held[s] & 1)
    start = HeartsMatch.new(code)
    state = start.state._replace(
        hand_number=hand_number,
        phase="playing",
        hands=tuple(held),
        trick=tuple(PlayedCard((open_leader + i) % 4, c) for i, c in enumerate(open_cards)),
        tricks=tuple(_trick(lead, cards) for lead, cards in finished),
        turn=turn,
        hearts_broken=broken,
        hand_points=tuple(points),
    )
    return HeartsMatch(start.code, state, [])


def _trick(leader: int, cards: list[int]) -> Trick:
    played = tuple(PlayedCard((leader + i) % 4, c) for i, c in enumerate(cards))
    pts = sum(1 for c in cards if c // 13 == HEARTS) + 13 * (QUEEN_OF_SPADES in cards)
    return Trick(leader, played, _winner(leader, cards), pts)


def at_hand(code: str, hand_number: int) -> HeartsMatch:
    """A match at the start of hand ``hand_number`` (totals 0)."""
    match = HeartsMatch.new(code)
    hands = deal_hands(match.code, hand_number)
    state = match.state._replace(hand_number=hand_number, hands=hands)
    if hand_number % 4 == 0:
        state = state._replace(phase="playing", turn=next(s for s in range(4) if hands[s] & 1))
    return HeartsMatch(match.code, state, [])


def passing(seat: int, hand: str, hand_number: int = 1, code: str = CODE) -> HeartsMatch:
    """A match in the passing phase where ``seat`` holds ``hand``."""
    match = at_hand(code, hand_number)
    dealt = list(match.state.hands)
    wanted = mask(hand)
    # Swap the wanted cards into the seat from whoever holds them.
    for other in range(4):
        if other != seat:
            moving = dealt[other] & wanted
            giving = cards_in(dealt[seat] & ~wanted)[: moving.bit_count()]
            dealt[other] = (dealt[other] & ~moving) | sum(1 << c for c in giving)
            dealt[seat] = (dealt[seat] & ~sum(1 << c for c in giving)) | moving
    assert dealt[seat] == wanted
    return HeartsMatch(match.code, match.state._replace(hands=tuple(dealt)), [])


def redeal(match: HeartsMatch, seat: int, rng: random.Random) -> HeartsMatch:
    """The same match with the unseen cards of the other seats moved around.

    Within each suit the others' cards are shuffled among the same places, so every seat keeps
    its number of cards per suit (voids shown stay true). Cards ``seat`` passed stay with the
    seat that received them.
    """
    st = match.state
    hands = list(st.hands)
    fixed = st.passed[seat] if pass_direction(st.hand_number) != "none" else 0
    others = [s for s in range(4) if s != seat]
    for suit_mask in SUIT_MASKS:
        slots = [(s, c) for s in others for c in cards_in(hands[s] & suit_mask & ~fixed)]
        cards = [c for _, c in slots]
        rng.shuffle(cards)
        for s in others:
            hands[s] &= ~(suit_mask & ~fixed)
        for (s, _), c in zip(slots, cards, strict=True):
            hands[s] |= 1 << c
    return HeartsMatch(match.code, st._replace(hands=tuple(hands)), [])


def positions(code: str, rng: random.Random, stops: int) -> list[HeartsMatch]:
    """Positions of one hand after the exchange where the seat to move has a choice, reached
    by Normal bots playing every seat."""
    match = HeartsMatch.new(code)
    if match.phase == "passing":
        pass_for_bots(match)
        view = match.view(HUMAN)
        match.choose_pass(HUMAN, choose_pass("normal", view, decision_seed(view, "pass")))
    found = []
    while match.phase == "playing":
        view = match.view(match.turn)
        if view.legal.bit_count() > 1:
            found.append(match.copy())
        match.play(choose_play("normal", view, decision_seed(view)))
    return rng.sample(found, stops)
