"""Speed of the lab's threshold scan against one run per threshold, measured in one run: medians and the ratio.

    python benchmarks/scan.py            # 2,000 shoes, 11 thresholds
    python benchmarks/scan.py --quick    # a small smoke run (CI)

The scan deals and prices each chunk once and only re-decides where the count bets at each
threshold; separate runs deal and price the same shoes once per threshold. Both give the
same totals (checked here too). No timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from collections.abc import Callable
from fractions import Fraction

import exactodds as xo
from exactodds.lab import SimulationPlan, SimulationResult, simulate
from exactodds.lab.counts import CountSystem
from exactodds.lab.scan import parse_scan, scan_thresholds

DRAGON = "0,0,0,-1,-1,-1,-1,2,2,0"


def median_seconds(func: Callable[[], object], repeats: int) -> float:
    """The median wall time of ``func`` over ``repeats`` calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    args = parser.parse_args()
    shoes, scan_text, repeats = (100, "2:6:2", 1) if args.quick else (2000, "0:10:1", 3)
    thresholds = parse_scan(scan_text)
    plan = SimulationPlan.from_options(xo.Shoe.standard(8), xo.find_rules("ez"), bets=["dragon-7"], shoes=shoes,
                                       seed=1, tags=[DRAGON], thresholds=["0"])  # fmt: skip

    def separate() -> list[SimulationResult]:
        runs = []
        for t in thresholds:
            counts = {"dragon-7": CountSystem(plan.counts["dragon-7"].tags, Fraction(t))}
            runs.append(simulate(dataclasses.replace(plan, counts=counts)))
        return runs

    scan = scan_thresholds(plan, thresholds)
    for t, run in zip(thresholds, separate()):
        assert scan.totals.cells[(f"count@{t}", "dragon-7")] == run.totals.cells[("count", "dragon-7")]
    one = median_seconds(lambda: scan_thresholds(plan, thresholds), repeats)
    many = median_seconds(separate, repeats)
    print(f"{shoes:,} shoes, {len(thresholds)} thresholds, one process, medians of {repeats}:")
    print(f"  scan (one pricing):            {one:8.2f} s")
    print(f"  one run per threshold:         {many:8.2f} s")
    print(f"  ratio (runs / scan):           {many / one:8.1f}x  (same totals, checked)")


if __name__ == "__main__":
    main()
