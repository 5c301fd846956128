"""Normal: the five tips of the seed page (spec/hearts.md, "The bots"), as plain rules.

Under house rules it plays only legal cards (the rules give it ``legal``), and where the rules
value the J♦ (Omnibus) it keeps it, takes a trick with it when that is safe, and never throws it
to another seat; a moon it shot under the shooter's choice it adds to the others only when it
leads the match after that (:func:`choose_moon`).

The play policy reads only its own seat's hand and the public facts of a :class:`Pos`, so the
Hard bot can use it to play sampled worlds out. Each tip is marked where it acts. The Hard
bot's C core (``_search.c``) plays the same policy; a change here must be made there too
(tests/bots/test_bots_search_core.py compares the two card by card).
"""

from __future__ import annotations

from app.bots.model import (
    ACE_OF_SPADES_BIT,
    HIGH_SPADES,
    KING_OF_SPADES_BIT,
    SPADES_MASK,
    Pos,
    above,
    below,
)
from app.rules.cards import (
    CLUBS,
    DIAMONDS,
    FULL_DECK,
    HEARTS,
    JACK_OF_DIAMONDS,
    QUEEN_OF_SPADES,
    SPADES,
    SUIT_MASKS,
    cards_in,
    rank_of,
    suit_of,
)
from app.rules.hearts_core import (
    HEARTS_MASK,
    JACK_OF_DIAMONDS_BIT,
    POINT_CARDS,
    QUEEN_OF_SPADES_BIT,
    hand_scores,
    highest_card,
    lowest_card,
    points_of,
    settle_totals,
)
from app.rules.hearts_rules import SEED_RULES, HeartsRules, MoonChoice

# Tip 5: the points one player must hold, alone, before the others start blocking a moon.
MOON_WATCH = 6
# Tip 1: hearts from this rank up (J) are worth passing.
HIGH_HEART_RANK = 9
# Tip 4: lead a high card early only from this rank up (Q).
HIGH_LEAD_RANK = 10


def moon_losers(hand: int, out: int) -> int:
    """Cards of ``hand`` that some unplayed card of another seat outranks (they can lose)."""
    losers = 0
    for suit_mask in SUIT_MASKS:
        theirs = out & suit_mask
        if theirs and hand & suit_mask:
            losers |= hand & below(highest_card(theirs))
    return losers


# --- passing -------------------------------------------------------------------------------


def choose_pass(hand: int, rules: HeartsRules = SEED_RULES) -> int:
    """Three cards to pass, by tip 1 (void a minor suit, shed danger), tip 2 and tip 5; a J♦
    worth points to its taker stays."""
    losers = moon_losers(hand, FULL_DECK & ~hand)
    if losers.bit_count() <= 3 and (hand & HEARTS_MASK).bit_count() >= 5:
        # Tip 5: a hand that can clearly take every trick passes its weak cards and shoots.
        chosen = losers
        for c in cards_in(hand & ~chosen):
            if chosen.bit_count() == 3:
                break
            chosen |= 1 << c
        return chosen

    chosen = 0
    low_spades = (hand & SPADES_MASK & ~HIGH_SPADES).bit_count()
    # Tip 2: the queen with four or more lower spades is safer kept; so are K and A with them.
    if low_spades < 4:
        chosen |= hand & QUEEN_OF_SPADES_BIT
        chosen |= hand & ACE_OF_SPADES_BIT
        chosen |= hand & KING_OF_SPADES_BIT
        while chosen.bit_count() > 3:
            chosen &= ~(1 << lowest_card(chosen))
    room = 3 - chosen.bit_count()
    keep = JACK_OF_DIAMONDS_BIT if rules.jack_of_diamonds else 0
    # Tip 1: void clubs or diamonds (shortest first, clubs on a tie) if it fits.
    minors = [
        (hand & SUIT_MASKS[s]).bit_count() for s in (CLUBS, DIAMONDS)
    ]
    for length, suit in sorted(zip(minors, (CLUBS, DIAMONDS), strict=True)):
        if 0 < length <= room and not hand & SUIT_MASKS[suit] & keep:
            chosen |= hand & SUIT_MASKS[suit]
            break
    # Then the high hearts, then the highest cards, keeping low spades (tip 2) to the last.
    rest = hand & ~chosen
    while chosen.bit_count() < 3:
        chosen |= 1 << _most_dangerous((rest & ~keep) or rest, hand)
        rest = hand & ~chosen
    return chosen


def _most_dangerous(cards: int, hand: int) -> int:
    def danger(c: int) -> tuple[int, int, int]:
        rank = rank_of(c)
        suit = suit_of(c)
        if suit == HEARTS and rank >= HIGH_HEART_RANK:
            tier = 2
        elif suit == SPADES and c < QUEEN_OF_SPADES:
            tier = 0
        else:
            tier = 1
        return (tier, rank, -(hand & SUIT_MASKS[suit]).bit_count())

    return max(cards_in(cards), key=danger)


# --- playing -------------------------------------------------------------------------------


def choose_moon(view) -> MoonChoice:
    """What a bot that shot the moon under the shooter's choice does: adding 26 to the others
    moves every seat as far from it as taking 26 off, so only the end of the match tells them
    apart; it adds when it is then alone lowest (the match ends won, or comes nearer with it
    ahead), and otherwise takes 26 off its own total."""
    jack = -1
    won = [0, 0, 0, 0]
    for trick in view.tricks:
        won[trick.winner] += 1
        if any(p.card == JACK_OF_DIAMONDS for p in trick.cards):
            jack = trick.winner
    return moon_choice_for(view.moon, view.hand_points, jack, won, view.totals, view.rules)


def moon_choice_for(
    shooter: int,
    points: tuple[int, ...] | list[int],
    jack: int,
    won: list[int],
    totals: tuple[int, ...],
    rules: HeartsRules,
) -> MoonChoice:
    added = hand_scores(points, None if jack < 0 else jack, won, rules, "add_to_others")
    after = settle_totals(totals, added, rules)
    alone_lowest = all(after[shooter] < after[s] for s in range(4) if s != shooter)
    return "add_to_others" if alone_lowest else "subtract_from_shooter"


def moon_threat(pos: Pos, me: int) -> int:
    """Tip 5: the other seat that has taken every point so far (enough to matter), or -1."""
    total = pos.points[0] + pos.points[1] + pos.points[2] + pos.points[3]
    if total < MOON_WATCH or total == 26:
        return -1
    for s in range(4):
        if s != me and pos.points[s] == total:
            return s
    return -1


def choose_play(pos: Pos, me: int, legal: int) -> int:
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    hand = pos.hands[me]
    out = FULL_DECK & ~(pos.played | hand)
    others = sum(pos.points) - pos.points[me]
    if others == 0 and moon_losers(hand, out).bit_count() <= 1 and out & POINT_CARDS:
        return _shoot(pos, legal, out)
    threat = moon_threat(pos, me)
    if not pos.trick:
        return _lead(pos, me, hand, legal, out, threat)
    if legal & SUIT_MASKS[suit_of(pos.trick[0])]:
        return _follow(pos, legal, threat)
    return _discard(pos, hand, legal, threat)


def _shoot(pos: Pos, legal: int, out: int) -> int:
    # Tip 5, second half: take every trick, and never hand a point card to another seat.
    if not pos.trick:
        sure = [c for c in cards_in(legal) if not out & above(c)]
        if sure:
            return max(sure, key=lambda c: ((out & SUIT_MASKS[suit_of(c)]).bit_count(), c))
        return highest_card(legal)
    _, win = pos.winning()
    if legal & SUIT_MASKS[suit_of(pos.trick[0])]:
        over = legal & above(win)
        return highest_card(over) if over else lowest_card(legal)
    safe = legal & ~POINT_CARDS
    return lowest_card(safe or legal)


def _lead(pos: Pos, me: int, hand: int, legal: int, out: int, threat: int) -> int:
    if threat >= 0:
        # Tip 5: lead the top heart to take a trick with points away from the shooter.
        hearts = legal & HEARTS_MASK
        if hearts and not out & above(highest_card(hearts)):
            return highest_card(hearts)
    queen_out = not pos.played & QUEEN_OF_SPADES_BIT
    spades = legal & SPADES_MASK
    if queen_out and spades and not hand & HIGH_SPADES:
        # Tip 3: without Q, K or A of spades, low spade leads force the queen out.
        return lowest_card(spades)
    avoid = 0
    if queen_out and hand & HIGH_SPADES:
        # Tip 2: holding the queen (or what it falls on), keep the spades and wait.
        avoid = SPADES_MASK
    choices = (legal & ~avoid) or legal
    early = _early_high_lead(pos, choices, out)
    if early >= 0:
        return early
    best = -1
    best_key: tuple[int, int, int] = (0, 0, 0)
    for suit_mask in SUIT_MASKS:
        mine = choices & suit_mask
        if not mine:
            continue
        c = lowest_card(mine)
        key = (
            0 if out & above(c) else 1,
            (out & below(c)).bit_count(),
            mine.bit_count(),
        )
        if best < 0 or key < best_key:
            best, best_key = c, key
    return best


def _early_high_lead(pos: Pos, choices: int, out: int) -> int:
    # Tip 4: in the first round of a side suit nobody is void yet, so a high card wins a
    # trick without points and leaves the hand.
    best = -1
    for suit in (CLUBS, DIAMONDS):
        mine = choices & SUIT_MASKS[suit]
        if not mine or rank_of(highest_card(mine)) < HIGH_LEAD_RANK:
            continue
        if any(v & (1 << suit) for v in pos.voids):
            continue
        played_in_suit = (pos.played & SUIT_MASKS[suit]).bit_count()
        if played_in_suit > 4 or (out & SUIT_MASKS[suit]).bit_count() < 6:
            continue
        if highest_card(mine) > best:
            best = highest_card(mine)
    return best


def _follow(pos: Pos, legal: int, threat: int) -> int:
    trick = pos.trick
    led = suit_of(trick[0])
    win_seat, win = pos.winning()
    trick_points = points_of(sum(1 << c for c in trick))
    last = len(trick) == 3
    duck = legal & below(win)
    over = legal & above(win)
    if threat >= 0 and win_seat == threat and over and (trick_points or led == HEARTS):
        # Tip 5: take this trick from the would-be shooter.
        return highest_card(over)
    if led == DIAMONDS and pos.rules.jack_of_diamonds and trick_points < 10:
        jack = _take_jack(pos, legal, win, last)
        if jack >= 0:
            return jack
    if led == SPADES and not pos.played & QUEEN_OF_SPADES_BIT:
        return _follow_spades(legal, win, last and not trick_points)
    if trick_points or led == HEARTS:
        if duck:
            return highest_card(duck)
        return highest_card(legal) if last else lowest_card(legal)
    first_round = (pos.played & SUIT_MASKS[led]).bit_count() == len(trick)
    nobody_void = not any(v & (1 << led) for v in pos.voids)
    if last or pos.tricks_done == 0 or (first_round and nobody_void):
        # Tip 4: shed the high card while the trick carries no points.
        return highest_card(legal)
    if duck:
        return highest_card(duck)
    return lowest_card(legal)


def _take_jack(pos: Pos, legal: int, win: int, last: bool) -> int:
    """Omnibus: the card that takes the J♦ in this diamond trick for sure, or -1. The J♦ of
    ours wins when nothing unseen is above it (or we play last); the J♦ in the trick is
    taken by the lowest card over the winner when we play last."""
    out = FULL_DECK & ~(pos.played | pos.hands[pos.turn])
    sure = last or not out & above(JACK_OF_DIAMONDS)
    if legal & JACK_OF_DIAMONDS_BIT and win < JACK_OF_DIAMONDS and sure:
        return JACK_OF_DIAMONDS
    if last and JACK_OF_DIAMONDS in pos.trick:
        over = legal & above(win)
        if over:
            return lowest_card(over)
    return -1


def _follow_spades(legal: int, win: int, last_and_clean: bool) -> int:
    # The queen has not been played: it is ours (then in ``legal``) or still out.
    if legal & QUEEN_OF_SPADES_BIT:
        rest = legal & ~QUEEN_OF_SPADES_BIT
        if win > QUEEN_OF_SPADES:
            # A K or A already wins the trick: give the queen to it.
            return QUEEN_OF_SPADES
        if rest:
            # Tip 2: the queen stays home; a K or A of ours wins safely since Q is ours.
            return highest_card((rest & below(win)) or rest)
        return QUEEN_OF_SPADES
    if last_and_clean:
        return highest_card(legal)
    safe = legal & below(QUEEN_OF_SPADES)
    if safe:
        return highest_card((safe & below(win)) or safe)
    return lowest_card(legal)


def _discard(pos: Pos, hand: int, legal: int, threat: int) -> int:
    win_seat, _ = pos.winning()
    if threat >= 0:
        if win_seat == threat:
            # Tip 5: feed the would-be shooter nothing; keep the hearts for a blocking trick.
            safe = legal & ~POINT_CARDS
            if safe:
                return _highest_rank(safe, hand)
        elif legal & POINT_CARDS:
            # Any point to another seat already stops the moon.
            if legal & QUEEN_OF_SPADES_BIT:
                return QUEEN_OF_SPADES
            return highest_card(legal & POINT_CARDS)
    if legal & QUEEN_OF_SPADES_BIT:
        return QUEEN_OF_SPADES
    if not pos.played & QUEEN_OF_SPADES_BIT and legal & (ACE_OF_SPADES_BIT | KING_OF_SPADES_BIT):
        return highest_card(legal & (ACE_OF_SPADES_BIT | KING_OF_SPADES_BIT))
    if legal & HEARTS_MASK and not (threat >= 0 and win_seat == threat):
        return highest_card(legal & HEARTS_MASK)
    keep = SPADES_MASK & ~HIGH_SPADES
    if pos.rules.jack_of_diamonds:
        # Omnibus: the J♦ is never thrown to another seat's trick.
        keep |= JACK_OF_DIAMONDS_BIT
    return _highest_rank((legal & ~keep) or legal, hand)


def _highest_rank(cards: int, hand: int) -> int:
    # Tip 4 again: the highest card goes first; on equal rank, the shorter suit (to void it).
    return max(
        cards_in(cards),
        key=lambda c: (rank_of(c), -(hand & SUIT_MASKS[suit_of(c)]).bit_count()),
    )
