"""Hearts engine speed against OpenSpiel's ``hearts`` (issue 3; results in bench/README.md).

Random full hands per second, measured in the same run and interleaved round by round so a
busy machine slows both alike:

- ``openspiel``: ``pyspiel`` ``hearts`` (``qs_breaks_hearts=False``) driven from Python: the
  pass-direction and 52 deal chance actions, 12 pass actions, 52 plays, each a uniformly
  random legal action (``rng.choice(state.legal_actions())``).
- ``ours (HeartsMatch)``: the public engine as the web layer drives it: whole matches, hand
  after hand (so all four pass directions come round), four random passes, 52 random legal
  plays through ``legal_plays()`` and ``play()`` (with their checks and undo snapshots).
- ``ours (rules core)``: a random hand as a bot's rollout plays it: shuffled deal, random
  passes, plays chosen from ``legal_mask`` and tricks scored with ``trick_winner`` and
  ``points_of`` on plain ints, no state objects.

Rates are per CPU second of this process (``time.process_time``), which descheduling on a
shared machine does not inflate; wall-clock rates are printed too. Also: ``view()`` calls and
``to_json``/``from_json`` round trips per second, and CPU time per hand of the deal, the plays
and the random picks.

    nice .venv/bin/python -m bench.hearts_engine --hands 2000 --rounds 5
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

import pyspiel

from app.rules.cards import mask_of
from app.rules.deal_codes import number_to_letters
from app.rules.hearts import HUMAN, HeartsMatch, deal_hands
from app.rules.hearts_core import (
    TWO_OF_CLUBS_BIT,
    legal_mask,
    nth_card,
    points_of,
    trick_winner,
)


def openspiel_hands(count: int, rng: random.Random) -> int:
    game = pyspiel.load_game("hearts", {"qs_breaks_hearts": False})
    choice = rng.choice
    for _ in range(count):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
    return count


def random_pass(hand: int, rng: random.Random) -> int:
    chosen = 0
    while chosen.bit_count() < 3:
        chosen |= 1 << nth_card(hand, rng.randrange(hand.bit_count()))
    return chosen


def match_hands(count: int, rng: random.Random) -> int:
    randrange = rng.randrange
    played = 0
    while played < count:
        match = HeartsMatch.new(f"HT1-N-{number_to_letters(randrange(26**7))}")
        while played < count:
            if match.phase == "passing":
                for seat in range(4):
                    match.choose_pass(seat, random_pass(match.state.hands[seat], rng))
            while match.phase == "playing":
                legal = match.legal_plays()
                match.play(nth_card(legal, randrange(legal.bit_count())))
            played += 1
            if match.phase == "match_over":
                break
            match.next_hand()
    return count


def core_hands(count: int, rng: random.Random) -> int:
    randrange = rng.randrange
    deck = list(range(52))
    for n in range(count):
        rng.shuffle(deck)
        hands = [mask_of(deck[13 * s : 13 * s + 13]) for s in range(4)]
        offset = (1, 3, 2, 0)[n % 4]
        if offset:
            chosen = [random_pass(h, rng) for h in hands]
            for s in range(4):
                hands[s] &= ~chosen[s]
            for s in range(4):
                hands[(s + offset) & 3] |= chosen[s]
        leader = next(s for s in range(4) if hands[s] & TWO_OF_CLUBS_BIT)
        broken = False
        points = [0, 0, 0, 0]
        for trick_number in range(13):
            cards = []
            seat = leader
            led = -1
            first = trick_number == 0
            for _ in range(4):
                legal = legal_mask(hands[seat], led, first, broken)
                card = nth_card(legal, randrange(legal.bit_count()))
                hands[seat] ^= 1 << card
                if led < 0:
                    led = card // 13
                cards.append(card)
                seat = (seat + 1) & 3
            broken = broken or any(c // 13 == 2 for c in cards)
            leader = trick_winner(leader, cards)
            points[leader] += points_of(mask_of(cards))
        assert sum(points) == 26
    return count


def mid_hand_match(rng: random.Random) -> HeartsMatch:
    """A match in its second hand, eight tricks in, with the player's undo snapshots."""
    match = HeartsMatch.new("HT1-N-AAAAAAM")
    for _ in range(2):
        if match.phase == "passing":
            for seat in range(4):
                match.choose_pass(seat, random_pass(match.state.hands[seat], rng))
        while match.phase == "playing" and (match.hand_number == 1 or len(match.state.tricks) < 8):
            legal = match.legal_plays()
            match.play(nth_card(legal, rng.randrange(legal.bit_count())))
        if match.phase == "hand_over":
            match.next_hand()
    while match.turn != HUMAN:
        legal = match.legal_plays()
        match.play(nth_card(legal, rng.randrange(legal.bit_count())))
    return match


Recorded = tuple[HeartsMatch, list[int], list[int]]


def recorded_hands(count: int, rng: random.Random) -> list[Recorded]:
    """``count`` hands as ``match_hands`` plays them: the match after the exchange, the cards
    then played and the legal cards each was picked from."""
    randrange = rng.randrange
    hands: list[Recorded] = []
    while len(hands) < count:
        match = HeartsMatch.new(f"HT1-N-{number_to_letters(randrange(26**7))}")
        while len(hands) < count:
            if match.phase == "passing":
                for seat in range(4):
                    match.choose_pass(seat, random_pass(match.state.hands[seat], rng))
            start, cards, legals = match.copy(), [], []
            while match.phase == "playing":
                legals.append(match.legal_plays())
                cards.append(nth_card(legals[-1], randrange(legals[-1].bit_count())))
                match.play(cards[-1])
            hands.append((start, cards, legals))
            if match.phase == "match_over":
                break
            match.next_hand()
    return hands


def breakdown(count: int) -> dict[str, float]:
    """CPU µs per hand of three parts of ``match_hands``: the deal, the 52 plays replayed
    through ``legal_plays()`` + ``play()`` (no random picks), and the random picks alone."""
    hands = recorded_hands(count, random.Random(9))
    rng = random.Random(9)
    randrange = rng.randrange

    def deals() -> None:
        for n in range(count):
            deal_hands(n * 7919, n % 4 + 1)

    def plays() -> None:
        for start, cards, _ in hands:
            match = start.copy()
            for card in cards:
                match.legal_plays()
                match.play(card)

    def picks() -> None:
        for _, _, legals in hands:
            for legal in legals:
                nth_card(legal, randrange(legal.bit_count()))

    parts = {"deal (shuffle + masks)": deals, "52 plays, replayed": plays, "52 random picks": picks}
    spent = {}
    for name, work in parts.items():
        cpu = time.process_time()
        work()
        spent[name] = (time.process_time() - cpu) / count * 1e6
    return spent


def rate(work: Callable[[int, random.Random], int], count: int, seed: int) -> tuple[float, float]:
    """Items per CPU second and per wall second."""
    rng = random.Random(seed)
    wall, cpu = time.perf_counter(), time.process_time()
    done = work(count, rng)
    return done / (time.process_time() - cpu), done / (time.perf_counter() - wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per engine per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    engines = {
        "openspiel": openspiel_hands,
        "ours (HeartsMatch)": match_hands,
        "ours (rules core)": core_hands,
    }
    cpu_rates: dict[str, list[float]] = {name: [] for name in engines}
    wall_rates: dict[str, list[float]] = {name: [] for name in engines}
    for r in range(args.rounds):
        for name, work in engines.items():
            cpu, wall = rate(work, args.hands, seed=r)
            cpu_rates[name].append(cpu)
            wall_rates[name].append(wall)

    match = mid_hand_match(random.Random(1))
    saved = match.to_json()

    def views(count: int, _: random.Random) -> int:
        for i in range(count):
            match.view(i & 3)
        return count

    def round_trips(count: int, _: random.Random) -> int:
        for _ in range(count):
            HeartsMatch.from_json(match.to_json())
        return count

    extras = {
        "view(seat)": rate(views, 50_000, 0),
        "to_json + from_json": rate(round_trips, 5_000, 0),
    }

    print(f"Python {platform.python_version()} {platform.machine()}, pyspiel {pyspiel.__version__}")
    print(f"{args.rounds} rounds of {args.hands} random hands per engine; medians of the rounds\n")
    base = statistics.median(cpu_rates["openspiel"])
    print("| engine | hands / CPU s | hands / wall s | ratio to OpenSpiel (CPU) |")
    print("|---|---|---|---|")
    for name in engines:
        cpu = statistics.median(cpu_rates[name])
        wall = statistics.median(wall_rates[name])
        print(f"| {name} | {cpu:,.0f} | {wall:,.0f} | {cpu / base:.2f} |")
    print(f"\nsave point: hand {match.hand_number}, {len(match.state.tricks)} tricks done, "
          f"{len(saved['undo'])} undo snapshots")  # fmt: skip
    for name, (cpu, wall) in extras.items():
        print(f"| {name} | {cpu:,.0f} / CPU s | {wall:,.0f} / wall s |")
    print(f"\nOne HeartsMatch hand: {1e6 / statistics.median(cpu_rates['ours (HeartsMatch)']):.0f} "
          f"CPU µs; OpenSpiel's {1e6 / base:.0f} µs. Parts of ours:")
    for name, micros in breakdown(args.hands).items():
        print(f"| {name} | {micros:.0f} µs |")


if __name__ == "__main__":
    main()
