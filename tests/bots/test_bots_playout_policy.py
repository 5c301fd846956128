"""Expert's play-out policy (app/bots/playout_policy.py): the C core plays the Python model's
card, and Expert's play-outs play by it."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
from test_bots_search_core import CODES, decisions, legal, python_tally, sampled_worlds

from app.bots import _search, expert, hard, normal, playout_policy
from app.bots.model import from_view, step
from app.rules.hearts_rules import PRESETS, SEED_RULES
from bench import train_policy
from bench.playout_regret import position, record

POLICY = playout_policy.WEIGHTS
# Below this gap between the two best scores, Python's doubles and C's floats may rank apart.
TIE = 1e-4


@pytest.mark.parametrize(
    ("code", "rules"),
    [(CODES[0], "seed"), (CODES[1], "seed"), (CODES[2], "seed"), (CODES[0], "omnibus")],
)
def test_c_policy_plays_the_python_card(code, rules):
    # Under Omnibus the J♦ scores: neither side may group it with its neighbours.
    compared = departs = 0
    for view in decisions(code):
        for world in sampled_worlds(view, 2):
            world.rules = PRESETS[rules]
            while world.tricks_done < 13:
                seat = world.turn
                options = legal(world, seat)
                card = _search.policy_play(world, seat, options, POLICY)
                _, rows = playout_policy.features(world, seat, options)
                scores = sorted(playout_policy.scores(rows), reverse=True)
                if len(scores) == 1 or scores[0] - scores[1] > TIE:
                    assert card == playout_policy.choose_play(world, seat, options)
                    compared += 1
                departs += card != normal.choose_play(world, seat, options)
                step(world, card)
    assert compared > 300
    assert departs  # not Normal under another name


def test_expert_play_outs_play_by_the_policy():
    # With only the seat's own plays to read, every drawn deal weighs the same and the deals
    # played out are Hard's: the sums must be those of the same deals played out by the policy.
    view = next(v for v in decisions(CODES[3]) if v.tricks)
    pos = from_view(view)
    known, need, unseen = hard.knowledge(pos, view)
    cands = hard.candidates(pos, view.seat, view.legal)
    own = [(s, c) for s, c in hard.history(view) if s == view.seat]
    worlds = 12
    (points, _), _, _ = _search.weighted_rollouts(
        known, view.seat, need, unseen, cands, view.totals, 7, worlds, worlds, own,
        expert.READING.noise, False, 0.5, POLICY,
    )  # fmt: skip
    (normal_points, _), _, _ = _search.weighted_rollouts(
        known, view.seat, need, unseen, cands, view.totals, 7, worlds, worlds, own,
        expert.READING.noise, False, 0.5,
    )  # fmt: skip
    expected = [0] * len(cands)
    state = 7
    for _ in range(worlds):
        hands, state = _search.sample_hands(known, view.seat, need, unseen, state)
        for i, card in enumerate(cands):
            world = pos.copy()
            world.hands = list(hands)
            step(world, card)
            while world.tricks_done < 13:
                seat = world.turn
                step(world, _search.policy_play(world, seat, legal(world, seat), POLICY))
            expected[i] += python_tally(world, view.seat, view.totals)[0]
    assert points == expected
    assert points != normal_points


def test_expert_plays_out_by_normal_where_other_cards_score():
    seed = expert._seed_scoring
    assert seed(SEED_RULES) and seed(PRESETS["tournament"]) and seed(PRESETS["no_pass"])
    assert not seed(PRESETS["omnibus"]) and not seed(PRESETS["new_moon"])
    assert not seed(replace(SEED_RULES, no_tricks_bonus=-5))


def test_malformed_weights_are_refused():
    view = next(decisions(CODES[0]))
    world = next(sampled_worlds(view, 1))
    options = legal(world, world.turn)
    for weights in (b"", POLICY[:-4], POLICY + bytes(4), bytes(4 * 46 * 129)):
        with pytest.raises(ValueError):
            _search.policy_play(world, world.turn, options, weights)
        with pytest.raises(ValueError):
            playout_policy.hidden_units(weights)
    with pytest.raises(ValueError):
        _search.policy_play(world, world.turn, 1 << 60, POLICY)
    assert 1 <= playout_policy.hidden_units(POLICY) <= playout_policy.HIDDEN_LIMIT


def test_the_fit_learns_which_candidate_is_best(tmp_path):
    # Decisions of real hands whose values say the highest candidate is always a point better
    # than the others: bench/train_policy.py must learn to play it, from its features alone.
    dump = tmp_path / "decisions.jsonl"
    lines = []
    for index, code in enumerate(CODES):
        for view in decisions(code):
            pos = from_view(view)
            cands, normal_card = hard.play_choices(pos, view.seat, view.legal)
            top = max(cands)
            values = [0.0 if c == top else -1.0 for c in cands]
            ev = hard._Evaluation(cands, normal_card, values, [0] * len(cands), 1)
            lines.append(json.dumps(record(index, pos, view.seat, view.legal, ev, ev)))
    dump.write_text("\n".join(lines) + "\n")
    data = train_policy.load(str(dump))
    rows = np.arange(len(data["deal"]))
    net = train_policy.fit(data, rows, hidden=8, epochs=40, seed=0)
    gain, best = train_policy.recovered(net, data, rows)
    normal_best = np.mean([d["normal"] == max(d["choices"]) for d in map(json.loads, lines)])
    assert normal_best < 0.6  # Normal alone would often miss it
    assert best == pytest.approx(1 - normal_best)
    assert gain > 0.75 * best  # most of what choosing the best gains over Normal
    weights = net.weights()
    assert playout_policy.hidden_units(weights) == 8
    # The weights written play the same cards in the C core.
    for d in map(json.loads, lines[:50]):
        pos = position(d)
        played = _search.policy_play(pos, d["seat"], d["legal"], weights)
        assert played == playout_policy.choose_play(pos, d["seat"], d["legal"], weights)
