"""`make bench`: every benchmark once, with defaults sized to finish in minutes on two cores.

Each script also runs alone with its full options (`python -m bench.NAME --help`); the figures
in bench/README.md say which options produced them. Each runs in its own process so that one
benchmark's warm caches and threads do not colour the next.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

# The tournament appends to its results file, so a quick run gets a fresh one.
BOTS_RESULTS = Path(tempfile.gettempdir()) / "cardroom-bench-bots.jsonl"
DECISIONS = Path(tempfile.gettempdir()) / "cardroom-bench-decisions.jsonl"
# (module, arguments): smaller than the README's runs, the same measurements.
QUICK_RUNS = (
    ("bench.hh_solver", ["--count", "2000", "--repeats", "1", "--w-count", "200"]),
    ("bench.hearts_engine", ["--hands", "1000", "--rounds", "3"]),
    ("bench.store", ["--calls", "1000"]),
    ("bench.web", []),
    ("bench.instructions", []),
    ("bench.load", ["--players", "200", "--seconds", "10"]),
    ("bench.starve", ["--seconds", "10", "--baseline", "3"]),
    ("bench.assists", ["--h2h-deals", "20", "--hands", "20"]),
    ("bench.first_visits", ["--visits", "100"]),
    # Its decisions feed the policy's fit after it (which writes no weights here).
    ("bench.playout_regret", ["--deals", "20", "--workers", "2", "--dump", str(DECISIONS)]),
    ("bench.train_policy", [str(DECISIONS), "--epochs", "5"]),
)


def main() -> int:
    failed = []
    BOTS_RESULTS.unlink(missing_ok=True)
    bots = ("bench.bots", ["--pairing", "normal-easy", "--deals", "50", "--out", str(BOTS_RESULTS)])
    for module, args in (*QUICK_RUNS, bots):
        print(f"\n=== {module} {' '.join(args)}", flush=True)
        if subprocess.run([sys.executable, "-m", module, *args], check=False).returncode:
            failed.append(module)
    if failed:
        print(f"\nfailed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
