r"""Fits Expert's play-out policy (app/bots/playout_policy.py) on decisions valued by Hard's search.

The decisions come from bench/playout_regret.py ``--dump``: positions from hands of four Hard
seats, each candidate valued on two independent sets of deals. The policy scores each
candidate with one hidden layer of ReLU units over its features; training lowers the points
its choice expects to lose to the best candidate, the softmax of the scores standing for the
choice (the expected regret, on the first set's values). Adam, a fixed seed: the same dump
gives the same weights.

The deals of the last ``--held-out`` share of the dump are kept out of a first fit, which is
judged on them with the second set's values (the first set picked the best, so judging on it
would reward its luck): the share of one step of search's gain over Normal that the policy
recovers. Then the weights are fitted on every decision and written.

    PYTHONPATH=$PWD nice .venv/bin/python -m bench.playout_regret --deals 3000 --workers 2 \
        --dump decisions.jsonl
    PYTHONPATH=$PWD .venv/bin/python -m bench.train_policy decisions.jsonl \
        --out app/bots/playout_policy.f32
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from app.bots import playout_policy
from bench.playout_regret import position

MAX_CHOICES = 13


def load(path: str) -> dict[str, np.ndarray]:
    """The dump as arrays, one row per decision: features (decisions x 13 x 44, padded),
    which candidates exist, both sets' values, Normal's candidate, the deal."""
    rows = []
    with open(path) as f:
        for line in f:
            d = json.loads(line)
            cands, features = playout_policy.features(position(d), d["seat"], d["legal"])
            if cands != d["choices"]:
                raise ValueError(f"deal {d['deal']}: the candidates are not the dump's")
            rows.append((features, d["values"], d["check_values"], cands.index(d["normal"]),
                         d["deal"]))  # fmt: skip
    n = len(rows)
    x = np.zeros((n, MAX_CHOICES, playout_policy.FEATURES), np.float32)
    exists = np.zeros((n, MAX_CHOICES), bool)
    values = np.zeros((n, MAX_CHOICES), np.float32)
    check = np.zeros((n, MAX_CHOICES), np.float32)
    for i, (features, v, c, _, _) in enumerate(rows):
        k = len(features)
        x[i, :k], exists[i, :k], values[i, :k], check[i, :k] = features, True, v, c
    normal = np.array([r[3] for r in rows])
    deal = np.array([r[4] for r in rows])
    return {"x": x, "exists": exists, "values": values, "check": check, "normal": normal,
            "deal": deal}  # fmt: skip


class Network:
    """Scores of candidates: w2 · relu(x W1 + b1)."""

    def __init__(self, hidden: int, rng: np.random.Generator) -> None:
        features = playout_policy.FEATURES
        self.w1 = rng.normal(0, features**-0.5, (features, hidden)).astype(np.float32)
        self.b1 = np.zeros(hidden, np.float32)
        self.w2 = rng.normal(0, hidden**-0.5, hidden).astype(np.float32)

    def params(self) -> list[np.ndarray]:
        return [self.w1, self.b1, self.w2]

    def scores(self, x: np.ndarray) -> np.ndarray:
        self._x = x
        self._pre = x @ self.w1 + self.b1
        self._units = np.maximum(self._pre, 0)
        return self._units @ self.w2

    def gradients(self, d_scores: np.ndarray) -> list[np.ndarray]:
        """Of the last :meth:`scores` call's inputs, given the loss's gradient in the scores."""
        d_pre = d_scores[..., None] * self.w2 * (self._pre > 0)
        return [
            np.einsum("bkf,bkh->fh", self._x, d_pre),
            d_pre.sum((0, 1)),
            np.einsum("bkh,bk->h", self._units, d_scores),
        ]

    def weights(self) -> bytes:
        return np.concatenate([self.w1.ravel(), self.b1, self.w2]).astype("<f4").tobytes()


def fit(data: dict[str, np.ndarray], rows: np.ndarray, hidden: int, epochs: int, seed: int,
        rate: float = 1e-2, batch: int = 512, decay: float = 1e-5) -> Network:  # fmt: skip
    rng = np.random.default_rng(seed)
    net = Network(hidden, rng)
    x, exists, values = data["x"][rows], data["exists"][rows], data["values"][rows]
    best = np.where(exists, values, -np.inf).max(1, keepdims=True)
    regret = np.where(exists, best - values, 0).astype(np.float32)
    params = net.params()
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    steps = 0
    for _ in range(epochs):
        order = rng.permutation(len(x))
        for start in range(0, len(x), batch):
            b = order[start : start + batch]
            s = np.where(exists[b], net.scores(x[b]), -np.inf)
            p = np.exp(s - s.max(1, keepdims=True))
            p /= p.sum(1, keepdims=True)
            expected = (p * regret[b]).sum(1, keepdims=True)
            grads = net.gradients(p * (regret[b] - expected) / len(b))
            steps += 1
            for param, g, m, v in zip(params, grads, first, second, strict=True):
                g = g + decay * param
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                param -= rate * (m / (1 - 0.9**steps)) / (np.sqrt(v / (1 - 0.999**steps)) + 1e-8)
    return net


def recovered(net: Network, data: dict[str, np.ndarray], rows: np.ndarray) -> tuple[float, float]:
    """What the policy's choice gains over Normal's card a decision, on the second set's
    values, and what the first set's best candidate gains there."""
    exists, check = data["exists"][rows], data["check"][rows]
    at = np.arange(len(rows))
    normal = check[at, data["normal"][rows]]
    chosen = np.where(exists, net.scores(data["x"][rows]), -np.inf).argmax(1)
    best = np.where(exists, data["values"][rows], -np.inf).argmax(1)
    return float((check[at, chosen] - normal).mean()), float((check[at, best] - normal).mean())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dump", help="bench.playout_regret --dump's file")
    parser.add_argument("--out", help="where to write the weights (float32s)")
    parser.add_argument("--hidden", type=int, default=32, help="hidden units")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--held-out", type=float, default=0.15, help="share of the deals")
    args = parser.parse_args(argv)
    data = load(args.dump)
    deals = np.unique(data["deal"])
    cut = deals[int(len(deals) * (1 - args.held_out))]
    train, test = np.flatnonzero(data["deal"] < cut), np.flatnonzero(data["deal"] >= cut)
    net = fit(data, train, args.hidden, args.epochs, args.seed)
    gain, oracle = recovered(net, data, test)
    print(f"{len(train)} decisions to fit, {len(test)} held out ({args.held_out:.0%} of the "
          f"deals): the policy gains {gain:.3f} points a decision over Normal there, one step of "
          f"search {oracle:.3f}: {gain / oracle:.0%} recovered")  # fmt: skip
    if args.out:
        net = fit(data, np.arange(len(data["deal"])), args.hidden, args.epochs, args.seed)
        with open(args.out, "wb") as f:
            f.write(net.weights())
        print(f"{len(data['deal'])} decisions: weights written to {args.out}")


if __name__ == "__main__":
    main()
