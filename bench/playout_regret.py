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
played.

    PYTHONPATH=$PWD nice .venv/bin/python -m bench.playout_regret --deals 500 --workers 2
"""

from __future__ import annotations

import argparse
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


def deal_gains(index: int) -> list[tuple[str, str, int, float]]:
    """(points holder, action, tricks played, gain in points) of each decision with a choice in
    one hand of four Hard seats."""
    match = start_hand(FIRST_DEAL + DEALS_OFFSET + index, 1 + index % 4)
    if match.phase == "passing":
        for seat in range(4):
            view = match.view(seat)
            match.choose_pass(seat, choose_pass("hard", view, decision_seed(view, "pass")))
    gains = []
    while match.phase == "playing":
        view = match.view(match.turn)
        pos, me = from_view(view), view.seat
        if len(hard.candidates(pos, me, view.legal)) > 1:
            seed = decision_seed(view)
            picking = hard._evaluate_play(view, pos, seed, SEARCH)
            valuing = hard._evaluate_play(view, pos, seed ^ SECOND_DEALS, SEARCH)
            best = max(range(len(picking.choices)), key=lambda i: picking.values[i])
            normal_card = picking.choices.index(picking.default)
            gain = (valuing.values[best] - valuing.values[normal_card]) / valuing.deals
            gains.append((points_holder(pos, me), action(pos, me), len(view.tricks), gain))
            card = hard.choose_play(view, seed)
        else:
            card = normal.choose_play(pos, me, view.legal)
        match.play(card)
    return gains


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
    args = parser.parse_args(argv)
    indices = range(args.first, args.first + args.deals)
    if args.workers > 1:
        with Pool(args.workers) as pool:
            per_deal = pool.map(deal_gains, indices)
    else:
        per_deal = [deal_gains(i) for i in indices]
    print(report([g for gains in per_deal for g in gains], args.deals))


if __name__ == "__main__":
    main()
