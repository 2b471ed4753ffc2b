"""The review's permutation test on bettors who bet blind: the share of their p-values at or below 0.05 and 0.001.

    python benchmarks/review_null.py            # 25 logs of 200 eight-deck shoes, 5,000 wagers each (some 3 minutes)
    python benchmarks/review_null.py --quick    # 2 logs

Each log is `benchmarks/review.py`'s (shoes dealt by the tableau, seven seats betting the core bets and the side bets
at random coups with random stakes), seeded 1, 2, …: every bettor bets blind, so under "stakes independent of EV" each
p-value is uniform, and about 5% of them (and 0.1%) should fall at or below 0.05 (0.001). Each log is reviewed by
`exactodds review LOG --format json` in its own process; the p-values of all logs are pooled (those of one log share
its shoes). Nothing is asserted: the shares are printed beside what a uniform p-value gives.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

from review import make_log

SHOES, WAGERS = 200, 5_000
LEVELS = (Fraction(1, 1000), Fraction(1, 100), Fraction(1, 20), Fraction(1, 10), Fraction(1, 2))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two logs")
    parser.add_argument("--logs", type=int, default=25)
    args = parser.parse_args(argv)
    logs = 2 if args.quick else args.logs
    pooled: list[Fraction] = []
    undefined = 0
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(1, logs + 1):
            path = Path(folder) / f"log{seed}.jsonl"
            make_log(path, SHOES, WAGERS, seed=seed)
            out = subprocess.run([sys.executable, "-m", "exactodds", "review", str(path), "--format", "json",
                                  "--workers", "1"], capture_output=True, text=True, check=True)
            for bettor in json.loads(out.stdout)["bettors"]:
                if bettor["p_value"] is None:
                    undefined += 1
                else:
                    pooled.append(Fraction(bettor["p_value"]))
            path.unlink()
    print(f"{logs} logs of {SHOES} shoes and {WAGERS:,} wagers: {len(pooled):,} p-values of bettors who bet blind"
          f" ({undefined} without one: no wager inside a shoe's run)")
    for level in LEVELS:
        share = sum(p <= level for p in pooled) / len(pooled)
        print(f"  p ≤ {float(level):<6g} {share:7.2%}   (uniform: {float(level):.2%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
