"""Throughput of the card-counting lab: shoes per second, exact pricings per second, and the 1M-shoe projection.

    python benchmarks/simulate.py            # 40,000 shoes, the run quoted in docs/lab.md
    python benchmarks/simulate.py --quick    # 4,000 shoes, a smoke run (CI)
    python benchmarks/simulate.py --compare main [--quick]   # old (git ref) vs new kernel, one core each

With ``--compare REF`` the code of git ref REF is extracted with ``git archive`` into a
temporary folder and the same run (one worker: shoes per second per core) is made by old and
new code alternately in subprocesses (PYTHONPATH = that folder, or this checkout), three
times each (once with --quick); the medians and their ratio are printed.

The workload is the issue's target: perfect play on Dragon 7 + Panda 8 (the exact EV of
both bets before every coup), 8 decks, cut card 14, on every local core. Nothing is
asserted; the target (1,000,000 shoes in at most 15 minutes) is printed beside the result.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import exactodds as xo
from exactodds.lab import Session, SimulationPlan

TARGET_SHOES = 1_000_000
TARGET_SECONDS = 15 * 60


def measure(shoes: int, workers: int, seed: int = 2026) -> dict[str, float]:
    """Run ``shoes`` shoes of perfect play and time it (process start-up included)."""
    plan = SimulationPlan.from_options(
        xo.Shoe.standard(8), xo.find_rules("ez"), bets=("dragon-7", "panda-8"), shoes=shoes, seed=seed
    )
    start = time.perf_counter()
    result = Session(plan, workers=workers).run()
    seconds = time.perf_counter() - start
    return {
        "shoes": shoes,
        "workers": workers,
        "seconds": seconds,
        "shoes_per_second": shoes / seconds,
        "pricings_per_second": result.totals.coups / seconds,
        "coups_per_shoe": result.totals.coups / shoes,
    }


def compare(ref: str, shoes: int, repeats: int) -> int:
    """Old (git ``ref``) against new, one worker each, alternating in subprocesses; print medians and the ratio."""
    root = Path(__file__).resolve().parent.parent
    folder = Path(tempfile.mkdtemp(prefix="exactodds-old-"))
    try:
        archive = subprocess.run(["git", "-C", str(root), "archive", ref], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
        rates: dict[str, list[float]] = {"old": [], "new": []}
        for _ in range(repeats):
            for side, where in (("old", folder), ("new", root)):
                env = {**os.environ, "PYTHONPATH": str(where)}
                args = [sys.executable, __file__, "--measure-only", "--shoes", str(shoes), "--workers", "1"]
                done = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
                rates[side].append(json.loads(done.stdout)["shoes_per_second"])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    old, new = statistics.median(rates["old"]), statistics.median(rates["new"])
    print(
        f"perfect play, dragon-7 + panda-8, 8 decks, cut card 14, {shoes:,} shoes, 1 worker, {repeats} paired run(s):"
    )
    print(
        f"old ({ref}): {old:,.1f} shoes/s per core; new: {new:,.1f} shoes/s per core;"
        f" new/old = {new / old:.2f}× (target ≥ 2×)"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small run (a smoke test)")
    parser.add_argument("--shoes", type=int, default=None, help="shoes to deal (default 40,000; 4,000 with --quick)")
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="worker processes (default: every core)"
    )
    parser.add_argument("--json", action="store_true", help="print the measurement as JSON too")
    parser.add_argument("--compare", metavar="REF", help="old (git ref REF) against new, one worker each")
    parser.add_argument("--measure-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.compare:
        return compare(args.compare, args.shoes or (300 if args.quick else 2_000), 1 if args.quick else 3)
    shoes = args.shoes or (4_000 if args.quick else 40_000)
    if args.measure_only:  # one run, JSON only (the subprocess of --compare; warms the table cache first)
        xo.analyze(xo.Shoe.standard(8), xo.find_rules("ez"), ["dragon-7"])
        print(json.dumps(measure(shoes, args.workers)))
        return 0

    # Warm the compiled table's disk cache so the run measures simulation, not a one-off build.
    xo.analyze(xo.Shoe.standard(8), xo.find_rules("ez"), ["dragon-7"])
    row = measure(shoes, args.workers)
    projected = TARGET_SHOES / row["shoes_per_second"]
    print(
        f"exactodds {xo.__version__} · Python {platform.python_version()} · {platform.machine()} · "
        f"{os.cpu_count()} cores · {platform.processor() or platform.platform()}" + (" · --quick" if args.quick else "")
    )
    print(
        f"perfect play, dragon-7 + panda-8, 8 decks, cut card 14: {shoes:,} shoes on {args.workers} worker(s) in "
        f"{row['seconds']:.1f} s = {row['shoes_per_second']:,.0f} shoes/s, "
        f"{row['pricings_per_second']:,.0f} exact pricings/s ({row['coups_per_shoe']:.2f} coups per shoe)"
    )
    verdict = "met" if projected <= TARGET_SECONDS else "MISSED"
    print(
        f"projected {TARGET_SHOES:,} shoes: {projected / 60:.1f} min (target ≤ {TARGET_SECONDS // 60} min: {verdict})"
    )
    if args.json:
        print(json.dumps({**row, "projected_1m_seconds": projected}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
