"""Speed of exactodds, measured in one run on one machine: medians over repeats, and ratios.

    python benchmarks/bench.py            # the full run quoted in docs/exactness.md
    python benchmarks/bench.py --quick    # a small smoke run (CI)

No timing is asserted anywhere; this prints what it measured, with the targets beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import exactodds as xo
from exactodds.cards import RANKS


def median_seconds(func: Callable[[], object], repeats: int, warmup: int = 1) -> float:
    """The median wall time of ``func`` over ``repeats`` calls, after ``warmup`` calls."""
    for _ in range(warmup):
        func()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def depleted_shoes(count: int, seed: int = 2026) -> list[xo.Shoe]:
    """8-deck shoes with a random 0-400 cards dealt, reproducibly."""
    rng = random.Random(seed)
    full = xo.Shoe.standard(8)
    deck = [rank for rank in RANKS for _ in range(full.count(rank))]
    shoes = []
    for _ in range(count):
        rng.shuffle(deck)
        left = list(full.counts)
        for rank in deck[: rng.randrange(0, 401)]:
            left[RANKS.index(rank)] -= 1
        shoes.append(xo.Shoe(tuple(left)))
    return shoes


def cold_call(cache_dir: str | None) -> float:
    """Seconds for the first analysis in a fresh interpreter (imports excluded)."""
    code = (
        "import time, exactodds as xo\n"
        "shoe = xo.Shoe.standard(8)\n"
        "t = time.perf_counter(); xo.analyze(shoe); print(time.perf_counter() - t)\n"
    )
    env = dict(os.environ)
    if cache_dir is not None:
        env["EXACTODDS_CACHE"] = cache_dir
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def cli_command() -> list[str]:
    found = shutil.which("exactodds")
    return [found] if found else [sys.executable, "-m", "exactodds"]


def cli_seconds() -> float:
    start = time.perf_counter()
    subprocess.run([*cli_command(), "odds", "--format", "json"], capture_output=True, check=True)
    return time.perf_counter() - start


def fmt_time(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"


def _verdict(value: float, target: float) -> str:
    return "met" if value <= target else "MISSED"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes and few repeats (a smoke test)")
    parser.add_argument("--json", action="store_true", help="print the measurements as JSON too")
    args = parser.parse_args(argv)
    quick = args.quick
    reps = 3 if quick else 11
    big_batch = 1_000 if quick else 10_000

    shoe = xo.Shoe.standard(8)
    rows: list[dict[str, object]] = []

    def record(
        name: str, seconds: float, repeats: int, shoes: int = 1, target: float | None = None, pricing: bool = True
    ) -> None:
        """One measurement; ``target`` is per shoe; ``pricing`` rows get a ratio to the reference."""
        rows.append(
            {
                "name": name,
                "median_s": seconds,
                "repeats": repeats,
                "shoes": shoes,
                "target_s": target,
                "pricing": pricing,
            }
        )

    # Make sure the compiled table is on disk, so "cold" means a fresh process reading it.
    xo.analyze(shoe)

    # The ratios use the reference walk on the shoe known by rank, the same facts the compiled
    # evaluator counts; on a suited shoe the walk also splits every pair by suit, which is slower.
    by_rank = shoe.without_suits()
    reference = median_seconds(lambda: xo.analyze(by_rank, method="reference"), max(3, reps // 2))
    record("reference enumerator, one 8-deck shoe by rank, every bet", reference, max(3, reps // 2))
    suited = median_seconds(lambda: xo.analyze(shoe, method="reference"), max(3, reps // 2))
    record("reference enumerator, the same shoe with suits", suited, max(3, reps // 2), pricing=False)

    cold_runs = 3 if quick else 5
    record(
        "compiled, one shoe, cold (fresh process, table from disk)",
        statistics.median(cold_call(None) for _ in range(cold_runs)),
        cold_runs,
        pricing=False,
    )
    with tempfile.TemporaryDirectory() as empty:
        record("compiled, one shoe, cold (fresh process, table built)", cold_call(empty), 1, pricing=False)

    warm_repeats = 200 if quick else 2000
    warm = median_seconds(lambda: xo.analyze(shoe), warm_repeats, warmup=20)
    record("compiled, one shoe, warm (exact counts)", warm, warm_repeats, target=0.2e-3)

    def with_figures() -> None:
        for figures in xo.analyze(shoe).bets:
            _ = figures.ev, figures.variance

    record(
        "compiled, one shoe, warm (+ exact EV and variance)",
        median_seconds(with_figures, warm_repeats // 4),
        warm_repeats // 4,
    )

    for size in (1, 100, big_batch):
        shoes = depleted_shoes(size)
        repeats = reps if size < big_batch else max(3, reps // 3)
        seconds = median_seconds(lambda shoes=shoes: xo.analyze_many(shoes), repeats)
        target = 30e-6 if size == 10_000 else None
        record(f"batch of {size:,} depleted shoes, every bet", seconds, repeats, shoes=size, target=target)

    eor = median_seconds(lambda: xo.effect_of_removal(shoe, by="rank"), reps)
    record("full EOR table, 8 decks, 13 ranks × every bet", eor, reps, target=5e-3, pricing=False)

    cli_runs = 5 if quick else 15
    cli_seconds()  # warm the OS file cache
    record(
        "CLI start-up: exactodds odds --format json",
        statistics.median(cli_seconds() for _ in range(cli_runs)),
        cli_runs,
        target=0.3,
        pricing=False,
    )

    from exactodds.layout import text_table

    table = []
    for row in rows:
        median = float(row["median_s"])  # type: ignore[arg-type]
        shoes = int(row["shoes"])  # type: ignore[call-overload]
        per_shoe = median / shoes
        target = row["target_s"]
        table.append(
            [
                row["name"],
                row["repeats"],
                fmt_time(median),
                fmt_time(per_shoe),
                f"{reference / per_shoe:,.0f}×" if row["pricing"] else "",
                "" if target is None else f"≤ {fmt_time(float(target))}: {_verdict(per_shoe, float(target))}",
            ]
        )
    print(
        f"exactodds {xo.__version__} · Python {platform.python_version()} · {platform.machine()} · "  # noqa: E501
        f"{os.cpu_count()} cores · {platform.processor() or platform.platform()}" + (" · --quick" if quick else "")
    )
    print(
        text_table(
            ["measurement", "repeats", "median", "per shoe", "vs reference", "target"],
            [[str(cell) for cell in row] for row in table],
            header_margin=2,
        )
    )
    warm_ratio = reference / warm
    batch_ratio = reference / (float(rows[-3]["median_s"]) / big_batch)  # type: ignore[arg-type]
    print(
        f"vs reference (target ≥ 1,000×): one shoe warm {warm_ratio:,.0f}×, "
        f"batch of {big_batch:,} {batch_ratio:,.0f}× per shoe"
    )
    if args.json:
        print(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
