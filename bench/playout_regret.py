"""Where Normal's play, the play-outs' policy, loses points to a search (issue 32; bench/README.md).

Hard and Expert judge every candidate by play-outs in which all four seats play Normal, so
Normal's mistakes are what their judgement is biased by. This measures those mistakes on
positions from hands Hard plays against itself: at each decision with a choice, Hard's search
values every candidate twice, on two independent sets of deals. The first set picks the best
candidate; the second values it and Normal's card, so the gain is not inflated by picking the
candidate that the first set's luck favoured. The gain is what one step of search would add to
Normal there, the rest of the hand played by Normal: the room a better play-out policy has.

The gains are summed by who holds the hand's points so far (no one; the seat itself alone; one
other seat alone; several) and by what the seat does (leads, follows, discards), and by tricks
played. With ``--dump``, each decision is also written as a line of JSON (the position as the
seat sees it, the candidates and their values on both sets of deals): bench/train_policy.py
fits the play-out policy (app/bots/playout_policy.py) on them.

    PYTHONPATH=$PWD nice .venv/bin/python -m bench.playout_regret --deals 500 --workers 2
"""

from __future__ import annotations

import argparse
import json
import os
from collections import defaultdict
from multiprocessing import Pool

from app.bots import choose_pass, decision_seed, hard, normal
from app.bots.model import Pos, from_view
from app.rules.cards import SUIT_MASKS, suit_of
from bench.bots import FIRST_DEAL, start_hand

# Its deals come after the tournament's, so that the two never share one.
DEALS_OFFSET = 50_000
# Each valuation: twice Hard's plays, at least 150 deals.
SEARCH = hard.PlaySearch(plays=160_000, min_deals=150, max_deals=2_000)
# XOR'd into the decision's seed for the second, independent set of deals.
SECOND_DEALS = 0x5A5A5A5A5A


def points_holder(pos: Pos, me: int) -> str:
    total = sum(pos.points)
    if total == 0:
        return "no points yet"
    if pos.points[me] == total:
        return "the seat alone"
    if max(pos.points) == total:
        return "another seat alone"
    return "several seats"


def action(pos: Pos, me: int) -> str:
    if not pos.trick:
        return "lead"
    if pos.hands[me] & SUIT_MASKS[suit_of(pos.trick[0])]:
        return "follow"
    return "discard"


def deal_decisions(index: int) -> list[dict]:
    """Each decision with a choice in one hand of four Hard seats: the position as the seat
    sees it, its candidates (``hard.play_choices``), Normal's card, and the candidates' values
    a deal (minus points; see ``hard._values``) on the first set of deals and on the second."""
    match = start_hand(FIRST_DEAL + DEALS_OFFSET + index, 1 + index % 4)
    if match.phase == "passing":
        for seat in range(4):
            view = match.view(seat)
            match.choose_pass(seat, choose_pass("hard", view, decision_seed(view, "pass")))
    decisions = []
    while match.phase == "playing":
        view = match.view(match.turn)
        pos, me = from_view(view), view.seat
        if len(hard.candidates(pos, me, view.legal)) > 1:
            seed = decision_seed(view)
            picking = hard._evaluate_play(view, pos, seed, SEARCH)
            valuing = hard._evaluate_play(view, pos, seed ^ SECOND_DEALS, SEARCH)
            decisions.append(record(index, pos, me, view.legal, picking, valuing))
            card = hard.choose_play(view, seed)
        else:
            card = normal.choose_play(pos, me, view.legal)
        match.play(card)
    return decisions


def record(
    deal: int, pos: Pos, me: int, legal: int, picking: hard._Evaluation, valuing: hard._Evaluation
) -> dict:
    """A decision as a line of the dump."""
    return {
        "deal": deal, "seat": me, "hand": pos.hands[me], "played": pos.played,
        "trick": pos.trick, "leader": pos.leader, "points": pos.points, "voids": pos.voids,
        "hearts_broken": pos.hearts_broken, "tricks_done": pos.tricks_done, "won": pos.won,
        "legal": legal, "choices": picking.choices, "normal": picking.default,
        "values": [v / picking.deals for v in picking.values],
        "check_values": [v / valuing.deals for v in valuing.values],
    }  # fmt: skip


def position(decision: dict) -> Pos:
    """The position of a decision as the seat saw it (the other hands empty)."""
    pos = Pos()
    me = decision["seat"]
    pos.hands[me] = decision["hand"]
    pos.turn = me
    for name in ("played", "trick", "leader", "points", "voids", "hearts_broken",
                 "tricks_done", "won"):  # fmt: skip
        setattr(pos, name, decision[name])
    return pos


def gain(decision: dict) -> tuple[str, str, int, float]:
    """(points holder, action, tricks played, what the first set's best candidate gains over
    Normal's card on the second set)."""
    pos, me = position(decision), decision["seat"]
    values, check = decision["values"], decision["check_values"]
    best = max(range(len(values)), key=lambda i: values[i])
    normal_card = decision["choices"].index(decision["normal"])
    gained = check[best] - check[normal_card]
    return points_holder(pos, me), action(pos, me), pos.tricks_done, gained


def report(gains: list[tuple[str, str, int, float]], hands: int) -> str:
    seat_hands = 4 * hands
    total = sum(g for *_, g in gains)
    lines = [
        f"{hands} hands, {len(gains)} decisions with a choice; one step of search gains "
        f"{total / seat_hands:.2f} points a seat a hand over Normal",
        "",
        "| points so far held by | the seat | decisions | gain a decision | share of the gain |",
        "|---|---|---:|---:|---:|",
    ]
    groups: dict[tuple[str, str], list[float]] = defaultdict(list)
    for holder, act, _, gain in gains:
        groups[(holder, act)].append(gain)
    for (holder, act), values in sorted(groups.items(), key=lambda kv: -sum(kv[1])):
        lines.append(
            f"| {holder} | {act}s | {len(values)} | {sum(values) / len(values):.2f} | "
            f"{sum(values) / total:.0%} |"
        )
    by_trick: dict[int, list[float]] = defaultdict(list)
    for *_, tricks, gain in gains:
        by_trick[tricks].append(gain)
    lines += ["", "| tricks played | " + " | ".join(map(str, sorted(by_trick))) + " |"]
    lines.append("|---" * (len(by_trick) + 1) + "|")
    lines.append(
        "| gain a decision | "
        + " | ".join(f"{sum(v) / len(v):.2f}" for _, v in sorted(by_trick.items()))
        + " |"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="hands of four Hard seats")
    parser.add_argument("--first", type=int, default=0, help="index of the first deal")
    parser.add_argument("--workers", type=int, default=1, help="processes (the machine has 2)")
    parser.add_argument("--dump", help="write each decision to this file, a line of JSON each")
    args = parser.parse_args(argv)
    indices = range(args.first, args.first + args.deals)
    decisions: list[dict] = []
    with Pool(args.workers) as pool, open(args.dump or os.devnull, "w") as dump:
        # In order, a hand at a time, so that a long run's dump is whole up to where it stops.
        for hand in pool.imap(deal_decisions, indices):
            decisions += hand
            dump.writelines(json.dumps(d) + "\n" for d in hand)
            dump.flush()
    print(report([gain(d) for d in decisions], args.deals))


if __name__ == "__main__":
    main()
