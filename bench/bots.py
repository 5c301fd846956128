"""Duplicate-deal tournament of the Hearts bots (issue 4; results in bench/README.md).

A pairing puts player A against player B at a table of one A and three B (``1v3``) or three A
and one B (``3v1``). Every deal is played four times, the odd seat moving round the table, so
both sides hold every hand equally often and the luck of the deal cancels out. Each deal is a
single hand (totals at 0) of the real engine; the deals cycle through hand numbers 1–4, so all
four pass directions (left, right, across, none) occur equally.

Players: ``easy``, ``normal``, ``hard``, ``expert`` (ours, as the web layer calls them) and
``ismcts``: OpenSpiel's ``ISMCTSBot``, 1,000 simulations, random rollouts, for card play only;
it passes with our Normal policy (its own pass-phase resampling is broken). Two more measure
Hard against
itself: ``hardnp`` plays as Hard and passes as Normal (what passing by search gains), and
``hardref`` is the Hard of before issue 17: Normal's pass and the search size of the time,
12,000 simulated plays per decision (``REFERENCE_SEARCH``; its decisions are the old ones, the
C core playing exactly what the Python rollouts played). ``expertnr`` is Expert without
reading the others' plays (its deals uniform, as Hard's; its pass is Expert's), so that
``expert-expertnr`` measures what the reading alone gains; ``expertnp`` is the Expert of before
the learned play-outs: Normal plays them out, with more simulated plays a decision
(``expert.NORMAL_PLAY_OUTS_SEARCH``), its pass Expert's; ``expertnl`` reads the others' plays
as Normal's instead of the learned policy's (``expert-expertnl``: what the learned model gives
the reading). Two players cheat, to bound what
any reading could gain: ``seesq`` is Hard told which hand holds the Q♠, ``seesall`` sees every
hand and plays each candidate out once on the true deal (both pass as Hard).

    nice .venv/bin/python -m bench.bots --pairing hard-normal --table 1v3 --deals 500

``--rules NAME`` plays the deals under one of the house-rule presets
(app/rules/hearts_rules.py, ``PRESETS``; ``ismcts`` plays the seed's rules only). A moon shot
under the shooter's choice is chosen by the bots' rule (every seat is a bot here).

A run writes its raw hands as JSON lines (``--out``) and prints a summary; ``--summarize`` prints
the markdown table from one or more such files, a row per rule set, pairing and table.
``--think hard --deals 50`` times one level's decisions on fixed positions instead (see
:func:`think`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import replace
from multiprocessing import Pool

from app.bots import (
    _search,
    choose_moon,
    choose_pass,
    choose_play,
    decision_seed,
    expert,
    hard,
)
from app.bots.model import from_view
from app.rules.cards import JACK_OF_DIAMONDS, QUEEN_OF_SPADES, cards_in
from app.rules.deal_codes import number_to_letters, seed_from
from app.rules.hearts import HeartsMatch, deal_hands, pass_direction
from app.rules.hearts_rules import PRESETS

ISMCTS_SIMULATIONS = 1000
ISMCTS_UCT_C = 2.0
OURS = ("easy", "normal", "hard", "expert")
PLAYERS = (
    *OURS, "hardnp", "hardref", "expertnr", "expertnp", "expertnl", "ismcts", "seesq", "seesall"
)
# hard.PlaySearch of ``hardref``; a plain dict so that ``--think`` also runs on older trees.
REFERENCE_SEARCH = {"plays": 12_000, "min_deals": 6, "max_deals": 120}
# The level whose pass each player makes (players not listed pass as their level).
PASSES_AS = {
    "hardnp": "normal",
    "hardref": "normal",
    "ismcts": "normal",
    "expertnr": "expert",
    "expertnp": "expert",
    "expertnl": "expert",
    "seesq": "hard",
    "seesall": "hard",
}
# OpenSpiel's pass directions (its players are our seats, play also runs 0→1→2→3).
_OS_PASS = {"none": 0, "left": 1, "across": 2, "right": 3}
# Deal numbers of the tournament start here, away from small numbers used by tests.
FIRST_DEAL = 1_000_000
# A moon attempt: one seat has taken every point so far, and at least this many.
MOON_ATTEMPT = 13


def _os_card(card: int) -> int:
    # OpenSpiel cards are rank * 4 + suit; ours suit * 13 + rank (same suit order C D H S).
    return (card % 13) * 4 + card // 13


def _our_card(action: int) -> int:
    return (action % 4) * 13 + action // 4


class IsmctsSeat:
    """Mirrors one hand into an OpenSpiel state and asks ISMCTS for card plays."""

    def __init__(self, seed: int) -> None:
        import pyspiel  # only the ISMCTS pairing needs OpenSpiel

        self.game = pyspiel.load_game("hearts", {"qs_breaks_hearts": False})
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed % 2**31)
        self.bot = pyspiel.ISMCTSBot(
            seed % 2**31,
            evaluator,
            ISMCTS_UCT_C,
            ISMCTS_SIMULATIONS,
            -1,
            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            False,
            False,
        )
        self.state = None

    def start(self, hands: tuple[int, ...], direction: str) -> None:
        state = self.game.new_initial_state()
        state.apply_action(_OS_PASS[direction])
        dealt = [cards_in(h) for h in hands]
        # OpenSpiel deals the k-th card to player k % 4.
        for i in range(13):
            for seat in range(4):
                state.apply_action(_os_card(dealt[seat][i]))
        self.state = state

    def passed(self, passes: tuple[int, ...]) -> None:
        for seat in range(4):
            for c in cards_in(passes[seat]):
                self.state.apply_action(_os_card(c))

    def played(self, card: int) -> None:
        self.state.apply_action(_os_card(card))

    def choose(self, legal: int) -> int:
        os_legal = sum(1 << _our_card(a) for a in self.state.legal_actions())
        if os_legal != legal:
            raise AssertionError("OpenSpiel and the engine disagree on the legal cards")
        return _our_card(self.bot.step(self.state))


def cheating_play(view, hands: tuple[int, ...], sees_all: bool) -> int:
    """Hard's search told where the Q♠ is (or, ``sees_all``, every card: one play-out of each
    candidate on the true deal is then the whole search)."""
    pos = from_view(view)
    cands, default = hard.play_choices(pos, view.seat, view.legal)
    if len(cands) == 1:
        return default
    known, need, unseen = hard.knowledge(pos, view)
    told = unseen if sees_all else unseen & (1 << QUEEN_OF_SPADES)
    for seat in range(4):
        known.hands[seat] |= hands[seat] & told
        need[seat] -= (hands[seat] & told).bit_count()
    unseen &= ~told
    deals = 1 if sees_all else hard.PLAY_SEARCH.deals(len(cands), sum(view.cards_left))
    seed = decision_seed(view) & ((1 << 64) - 1)
    (points, results), _ = _search.play_rollouts(
        known, view.seat, need, unseen, cands, view.totals, seed, deals
    )
    return hard._Evaluation(cands, default, hard._values(points, results), points, deals).best()


def start_hand(number: int, hand_number: int, rules: str = "seed") -> HeartsMatch:
    """A match positioned at the start of hand ``hand_number`` (totals 0), under the preset
    ``rules``."""
    match = HeartsMatch.new(f"HT1-N-{number_to_letters(number)}", rules=PRESETS[rules])
    hands = deal_hands(number, hand_number)
    state = match.state._replace(hand_number=hand_number, hands=hands)
    if pass_direction(hand_number, match.rules) == "none":
        state = state._replace(phase="playing", turn=next(s for s in range(4) if hands[s] & 1))
    return HeartsMatch(match.code, state, [])


def play_hand(players: tuple[str, ...], number: int, hand_number: int, rules: str = "seed") -> dict:
    """One hand with ``players[seat]`` at each seat; scores, Q♠ and J♦ takers, the seat that
    tried for the moon (if any) and think times."""
    match = start_hand(number, hand_number, rules)
    direction = match.pass_direction
    hands = match.state.hands
    ismcts = None
    if "ismcts" in players:
        ismcts = IsmctsSeat(seed_from("bench", number, hand_number, *players))
        ismcts.start(hands, direction)
    if match.phase == "passing":
        for seat in range(4):
            view = match.view(seat)
            level = PASSES_AS.get(players[seat], players[seat])
            match.choose_pass(seat, choose_pass(level, view, decision_seed(view, "pass")))
        if ismcts is not None:
            ismcts.passed(match.state.passed)
    # Think times of decisions with a choice: CPU seconds of this process (what a decision
    # costs, whatever else the shared machine runs) and wall seconds.
    think: dict[str, list[float]] = {}
    wall: dict[str, list[float]] = {}
    attempt = None
    while match.phase == "playing":
        seat = match.turn
        view = match.view(seat)
        player = players[seat]
        start, start_wall = time.process_time(), time.perf_counter()
        if player == "ismcts":
            card = ismcts.choose(view.legal)
        elif player == "hardref":
            card = hard.choose_play(view, decision_seed(view), hard.PlaySearch(**REFERENCE_SEARCH))
        elif player in ("seesq", "seesall"):
            card = cheating_play(view, match.state.hands, player == "seesall")
        elif player == "expertnr":
            card = expert.choose_play(view, decision_seed(view), reading=None)
        elif player == "expertnp":
            card = expert.choose_play(view, decision_seed(view), learned_play_outs=False)
        elif player == "expertnl":
            reading = replace(expert.READING, learned=False)
            card = expert.choose_play(view, decision_seed(view), reading=reading)
        elif player == "hardnp":
            card = choose_play("hard", view, decision_seed(view))
        else:
            card = choose_play(player, view, decision_seed(view))
        if view.legal.bit_count() > 1:
            think.setdefault(player, []).append(time.process_time() - start)
            wall.setdefault(player, []).append(time.perf_counter() - start_wall)
        match.play(card)
        if ismcts is not None:
            ismcts.played(card)
        points = match.state.hand_points
        if attempt is None and sum(points) >= MOON_ATTEMPT and max(points) == sum(points):
            attempt = points.index(max(points))
    st = match.state
    if match.phase == "moon":
        match.choose_moon(st.moon, choose_moon(match.view(st.moon)))
        st = match.state

    def taker(card: int) -> int:
        return next(t.winner for t in st.tricks if any(p.card == card for p in t.cards))

    return {
        "deal": number,
        "hand": hand_number,
        "rules": rules,
        "players": list(players),
        "scores": list(st.hand_scores[-1]),
        "points": list(st.hand_points),
        "queen": taker(QUEEN_OF_SPADES),
        "jack": taker(JACK_OF_DIAMONDS),
        "attempt": attempt,
        "think": think,
        "wall": wall,
    }


def play_deal(args: tuple[str, str, str, int, str]) -> list[dict]:
    """The ``index``-th deal of a tournament of A against B at ``table`` ("1v3" or "3v1"), played
    four times with the odd seat moving round the table (``args``: A, B, table, index, rules)."""
    a, b, table, index, rules = args
    number = FIRST_DEAL + index
    hand_number = 1 + index % 4
    out = []
    for odd in range(4):
        if table == "1v3":
            players = tuple(a if s == odd else b for s in range(4))
        else:
            players = tuple(b if s == odd else a for s in range(4))
        out.append(play_hand(players, number, hand_number, rules))
    return out


def run(
    a: str, b: str, table: str, deals: int, first: int, workers: int, out_path: str,
    rules: str = "seed",
) -> None:  # fmt: skip
    jobs = [(a, b, table, first + i, rules) for i in range(deals)]
    done = 0
    with open(out_path, "a") as out:
        if workers > 1:
            with Pool(workers) as pool:
                for hands in pool.imap(play_deal, jobs):
                    done += _write(out, hands, a, b, table, done, deals)
        else:
            for job in jobs:
                done += _write(out, play_deal(job), a, b, table, done, deals)


def _write(out, hands: list[dict], a: str, b: str, table: str, done: int, total: int) -> int:
    for hand in hands:
        hand["pairing"] = f"{a}-{b}"
        hand["table"] = table
        out.write(json.dumps(hand) + "\n")
    out.flush()
    if (done + 1) % 25 == 0:
        print(f"{a}-{b} {table}: {done + 1}/{total} deals", file=sys.stderr, flush=True)
    return 1


# --- summary -------------------------------------------------------------------------------


def _mean_ci(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def _times(cpu: list[float], wall: list[float]) -> str:
    if not cpu:
        return "–"
    text = f"{_pct(cpu, 0.5):.0f} / {_pct(cpu, 0.95):.0f}"
    return text + (f" ({_pct(wall, 0.5):.0f} / {_pct(wall, 0.95):.0f})" if wall else "")


def summarize(paths: list[str]) -> str:
    groups: dict[tuple[str, str, str], list[dict]] = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                hand = json.loads(line)
                key = (hand.get("rules", "seed"), hand["pairing"], hand["table"])
                groups.setdefault(key, []).append(hand)
    rows = [
        "| rules | pairing (A-B) | table | deals | hands | A pts/hand | B pts/hand"
        " | B−A per hand (95% CI) | moon A / B | moon tries stopped A / B | Q♠ taken A / B"
        " | J♦ taken A / B | think A p50/p95 ms CPU (wall) | think B p50/p95 ms CPU (wall) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for (rules, pairing, table), hands in sorted(groups.items()):
        a, b = pairing.split("-")
        by_deal: dict[int, list[dict]] = {}
        for hand in hands:
            by_deal.setdefault(hand["deal"], []).append(hand)
        a_pts, b_pts, diffs = [], [], []
        seats = {a: 0, b: 0}
        moons = {a: 0, b: 0}
        tries = {a: 0, b: 0}
        stopped = {a: 0, b: 0}
        queens = {a: 0, b: 0}
        jacks = {a: 0, b: 0}
        think: dict[str, list[float]] = {a: [], b: []}
        wall: dict[str, list[float]] = {a: [], b: []}
        for deal_hands_ in by_deal.values():
            sa, sb = [], []
            for hand in deal_hands_:
                for seat, player in enumerate(hand["players"]):
                    score = hand["scores"][seat]
                    (sa if player == a else sb).append(score)
                    seats[player] += 1
                    moons[player] += hand["points"][seat] == 26
                    queens[player] += hand["queen"] == seat
                    jacks[player] += hand.get("jack") == seat
                    if hand.get("attempt") == seat:
                        tries[player] += 1
                        stopped[player] += hand["points"][seat] != 26
                for player, times in hand["think"].items():
                    think[player].extend(times)
                for player, times in hand.get("wall", {}).items():
                    wall[player].extend(times)
            a_pts.append(sum(sa) / len(sa))
            b_pts.append(sum(sb) / len(sb))
            diffs.append(b_pts[-1] - a_pts[-1])
        ma, ca = _mean_ci(a_pts)
        mb, cb = _mean_ci(b_pts)
        md, cd = _mean_ci(diffs)

        moon = " / ".join(f"{100 * moons[p] / seats[p]:.1f}%" for p in (a, b))
        queen = " / ".join(f"{100 * queens[p] / seats[p]:.1f}%" for p in (a, b))
        jack = " / ".join(f"{100 * jacks[p] / seats[p]:.1f}%" for p in (a, b))
        tried = " / ".join(f"{stopped[p]} of {tries[p]}" for p in (a, b))
        rows.append(
            f"| {rules} | {a}-{b} | {table} | {len(by_deal)} | {len(hands)} | {ma:.2f} ± {ca:.2f}"
            f" | {mb:.2f} ± {cb:.2f} | {md:+.2f} ± {cd:.2f} | {moon} | {tried} | {queen} | {jack}"
            f" | {_times(think[a], wall[a])} | {_times(think[b], wall[b])} |"
        )
    return "\n".join(rows)


# --- think time on fixed positions --------------------------------------------------------


def think(level: str, deals: int, first: int) -> str:
    """CPU time of ``level``'s decisions on the positions of ``deals`` deals played by Normal at
    every seat: each play with more than one legal card, and each pass. Only the public
    interface of app.bots is used, so an older tree runs this too (``PYTHONPATH``)."""
    plays: list[float] = []
    passes: list[float] = []
    for index in range(first, first + deals):
        match = start_hand(FIRST_DEAL + index, 1 + index % 4)
        if match.phase == "passing":
            for seat in range(4):
                view = match.view(seat)
                seed = decision_seed(view, "pass")
                start = time.process_time()
                choose_pass(level, view, seed)
                passes.append(time.process_time() - start)
                match.choose_pass(seat, choose_pass("normal", view, seed))
        while match.phase == "playing":
            view = match.view(match.turn)
            seed = decision_seed(view)
            if view.legal.bit_count() > 1:
                start = time.process_time()
                choose_play(level, view, seed)
                plays.append(time.process_time() - start)
            match.play(choose_play("normal", view, seed))
    return (
        f"{level}: {len(plays)} plays, CPU p50 {_pct(plays, 0.5):.2f} ms, p95"
        f" {_pct(plays, 0.95):.2f} ms, mean {1000 * sum(plays) / len(plays):.2f} ms;"
        f" {len(passes)} passes, p50 {_pct(passes, 0.5):.2f} ms, p95 {_pct(passes, 0.95):.2f} ms"
    )


def reading(deals: int, first: int, worlds: int = 300) -> str:
    """How well Expert's reading places the cards a seat cannot see. Hands are played by Hard
    at every seat; at each decision with a choice after the first trick, ``worlds`` deals are
    sampled as Hard samples them and weighed as Expert weighs them. For each unseen card, the
    share of the weight that puts it in the hand that really holds it: uniform (Hard) against
    weighted (Expert), over all unseen cards and for the Q♠ alone while it is unseen."""
    from app.bots import _search
    from app.bots.model import from_view

    noise = expert.READING.noise
    sums = {"uniform": 0.0, "weighted": 0.0, "queen uniform": 0.0, "queen weighted": 0.0}
    cards = queens = 0
    for index in range(first, first + deals):
        match = start_hand(FIRST_DEAL + index, 1 + index % 4)
        if match.phase == "passing":
            for seat in range(4):
                view = match.view(seat)
                match.choose_pass(seat, choose_pass("hard", view, decision_seed(view, "pass")))
        while match.phase == "playing":
            seat = match.turn
            view = match.view(seat)
            if view.legal.bit_count() > 1 and view.tricks:
                pos = from_view(view)
                known, need, unseen = hard.knowledge(pos, view)
                plays = hard.history(view)
                truth = match.state.hands
                state = decision_seed(view)
                right: list[list[bool]] = []
                weights: list[float] = []
                for _ in range(worlds):
                    hands, state = _search.sample_hands(known, seat, need, unseen, state)
                    log_w = _search.plays_likelihood(view.rules, seat, hands, plays, noise)
                    weights.append(math.exp(log_w))
                    right.append([bool(hands[owner(truth, c)] >> c & 1) for c in cards_in(unseen)])
                total = sum(weights)
                for i, c in enumerate(cards_in(unseen)):
                    uniform = sum(r[i] for r in right) / worlds
                    weighted = sum(w for r, w in zip(right, weights, strict=True) if r[i]) / total
                    sums["uniform"] += uniform
                    sums["weighted"] += weighted
                    cards += 1
                    if c == QUEEN_OF_SPADES:
                        sums["queen uniform"] += uniform
                        sums["queen weighted"] += weighted
                        queens += 1
            match.play(choose_play("hard", view, decision_seed(view)))
    return (
        f"{cards} unseen cards in the decisions of {deals} deals: the weight on each card's"
        f" true hand, uniform {sums['uniform'] / cards:.3f}, read {sums['weighted'] / cards:.3f};"
        f" the Q♠ ({queens} times) uniform {sums['queen uniform'] / queens:.3f}, read"
        f" {sums['queen weighted'] / queens:.3f}"
    )


def owner(hands: tuple[int, ...], card: int) -> int:
    return next(s for s in range(4) if hands[s] >> card & 1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairing", default="normal-easy", help="A-B, e.g. hard-ismcts")
    parser.add_argument("--table", choices=("1v3", "3v1"), default="1v3")
    parser.add_argument("--deals", type=int, default=500, help="deals; each is played 4 times")
    parser.add_argument("--first", type=int, default=0, help="index of the first deal")
    parser.add_argument("--workers", type=int, default=1, help="processes (the machine has 2)")
    parser.add_argument("--out", default="bench/bots-results.jsonl")
    parser.add_argument("--summarize", nargs="*", metavar="FILE", help="print the table only")
    parser.add_argument("--think", choices=OURS, help="time this level's decisions instead")
    parser.add_argument("--rules", choices=tuple(PRESETS), default="seed", help="house rules")
    parser.add_argument(
        "--reading", action="store_true", help="how well Expert's reading places hidden cards"
    )
    args = parser.parse_args(argv)
    if args.reading:
        print(reading(args.deals, args.first))
        return
    if args.think:
        print(think(args.think, args.deals, args.first))
        return
    if args.summarize is not None:
        print(summarize(args.summarize or [args.out]))
        return
    a, b = args.pairing.split("-")
    for player in (a, b):
        if player not in PLAYERS:
            parser.error(f"unknown player {player!r}")
    if "ismcts" in (a, b) and args.rules != "seed":
        parser.error("ismcts plays the seed's rules only")
    run(a, b, args.table, args.deals, args.first, args.workers, args.out, args.rules)
    print(summarize([args.out]))


if __name__ == "__main__":
    main()
