"""Pricer builds and huge shoes, old against new in one run: medians, peak memory and ratios.

    python benchmarks/pricer.py              # the run quoted in docs/exactness.md
    python benchmarks/pricer.py --quick      # a smoke run (CI)
    python benchmarks/pricer.py --old REF    # compare with another commit (default: BASELINE)

The old code is the commit ``--old`` extracted with ``git archive REF | tar -x`` into a
temporary folder; old and new each run in fresh processes (``PYTHONPATH`` set to their
tree), taken in turns, so both see the same machine load. Each process measures:

- building the pricer of ``--bet all`` (every bet of the catalog a shoe by rank can
  price) once the compiled table is loaded: the time (median of repeated builds, the
  first in the process included), the peak of traced memory (tracemalloc) and the rise
  of the peak resident size (ru_maxrss) over the first build; and the time to build the
  pricer of the core bets (the default of ``odds``);
- pricing one warm shoe exactly, past the int64 bound: 10,000 decks (520,000 cards) and
  1,005 cards, for the core bets and for ``--bet all``.

Both trees' counts are compared (they must be identical). Nothing is asserted; the
targets (a build in at most 0.2 s and 50 MB, a huge shoe in at most 1.5 ms) are printed beside.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from trees import extract, is_from, machinery, worker_output  # noqa: E402

#: The last commit before the pricer work of issue 13 (projection by slices, multi-modular huge shoes).
BASELINE = "1611aa8"
ROOT = Path(__file__).resolve().parent.parent
TARGET_BUILD_S = 0.2
TARGET_BUILD_BYTES = 50 << 20
TARGET_HUGE_S = 1.5e-3


def _shoes() -> dict[str, tuple[int, ...]]:
    return {
        "10,000 decks (520,000 cards)": (40_000,) * 13,
        "1,005 cards (20 decks less 35)": (77,) * 9 + (78,) * 4,
    }


def worker(repeats: int, bet_ids: list[str] | None = None) -> dict[str, object]:
    """Measure the tree on ``PYTHONPATH`` in this fresh process; returns the samples."""
    import gc
    import resource
    import tracemalloc

    from exactodds.cards import Shoe

    package = machinery("compiled")  # the tree's layout: exactodds/puntobanco/compiled, or exactodds/compiled
    BetPricer, compiled = package.BetPricer, package.compiled
    resolve_bets, PUNTO_BANCO = machinery("odds").resolve_bets, machinery("rules").PUNTO_BANCO

    tableau = PUNTO_BANCO.tableau
    compiled(tableau)  # the table from the disk cache (or built): not part of a pricer's build
    # The bets on coup states (the card walk prices the bets on the dealt cards, which older commits lack).
    every = tuple(b for b in resolve_bets(PUNTO_BANCO, ["all"], suits=False) if not getattr(b, "reads_cards", False))
    if bet_ids is not None:  # the bets both trees have (the catalog grows), so that both price the same columns
        every = tuple(b for b in every if b.id in bet_ids)
    if repeats == 0:
        return {"bet_ids": [b.id for b in every]}
    core = resolve_bets(PUNTO_BANCO, None)
    gc.collect()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    first = BetPricer(tableau, every)
    first_s = time.perf_counter() - start
    rss_rise = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024  # kB on Linux
    del first
    gc.collect()
    tracemalloc.start()
    BetPricer(tableau, every)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    builds = [first_s]
    for _ in range(max(2, repeats // 10)):
        start = time.perf_counter()
        BetPricer(tableau, every)
        builds.append(time.perf_counter() - start)

    core_builds = []
    for _ in range(max(2, repeats // 10)):
        start = time.perf_counter()
        BetPricer(tableau, core)
        core_builds.append(time.perf_counter() - start)

    pricers = {"core bets": BetPricer(tableau, core), "--bet all": BetPricer(tableau, every)}
    prices: dict[str, list[float]] = {}
    digest = hashlib.sha256()
    for shoe_name, counts in _shoes().items():
        shoe = Shoe(counts)
        for bets_name, pricer in pricers.items():
            digest.update(repr(pricer.counts(shoe)).encode())  # also the warm-up
            samples = []
            for _ in range(repeats):
                start = time.perf_counter()
                pricer.counts(shoe)
                samples.append(time.perf_counter() - start)
            prices[f"{shoe_name}, {bets_name}"] = samples

    return {
        "package": str(package.__file__),
        "bets": len(every),
        "build_s": builds,
        "core_build_s": core_builds,
        "build_peak_bytes": peak,
        "build_rss_rise_bytes": rss_rise,
        "price_s": prices,
        "counts_sha256": digest.hexdigest(),
    }


def run_worker(tree: Path, repeats: int, bet_ids: list[str] | None = None) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    chosen = [] if bet_ids is None else ["--bets", ",".join(bet_ids)]
    args = [sys.executable, str(Path(__file__).resolve()), "--worker", "--repeats", str(repeats), *chosen]
    result: dict[str, object] = json.loads(worker_output(args, env, tempfile.gettempdir()))
    if repeats == 0:
        return result
    if not is_from(str(result["package"]), tree, "compiled"):  # either layout, but from this tree
        raise RuntimeError(f"the worker imported {result['package']}, not the compiled package of the tree {tree}")
    return result


def fmt_time(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.0f} µs"


def fmt_bytes(n: float) -> str:
    return f"{n / (1 << 20):.1f} MB"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one round, few repeats (a smoke test)")
    parser.add_argument("--old", default=BASELINE, help=f"the commit to compare with (default {BASELINE})")
    parser.add_argument("--rounds", type=int, default=None, help="old/new process pairs (default 5; 1 with --quick)")
    parser.add_argument("--json", action="store_true", help="print the samples as JSON too")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--bets", default=None, help=argparse.SUPPRESS)  # a worker's bet ids, comma-separated
    parser.add_argument("--repeats", type=int, default=None, help="timed calls per process (default 60; 10 quick)")
    args = parser.parse_args(argv)
    repeats = args.repeats if args.repeats is not None else (10 if args.quick else 60)
    if args.worker:
        print(json.dumps(worker(repeats, None if args.bets is None else args.bets.split(","))))
        return 0
    rounds = args.rounds or (1 if args.quick else 5)

    from exactodds.layout import text_table

    with tempfile.TemporaryDirectory() as folder:
        old_tree = Path(folder)
        have_old = extract(args.old, old_tree)
        trees = {"new": ROOT, **({"old": old_tree} if have_old else {})}
        runs: dict[str, list[dict[str, object]]] = {name: [] for name in trees}
        run_worker(ROOT, 1)  # warm the disk cache of the compiled table (and the OS's file cache)
        # The bets of --bet all that both trees have: the catalog has grown since the old commit.
        listed = [run_worker(tree, 0)["bet_ids"] for tree in trees.values()]
        common = [i for i in listed[0] if all(i in ids for ids in listed[1:])]  # type: ignore[union-attr]
        for _ in range(rounds):
            for name, tree in sorted(trees.items()):  # "new" then "old", in turns
                runs[name].append(run_worker(tree, repeats, common))

    def pooled(name: str, key: str, sub: str | None = None) -> float:
        samples: list[float] = []
        for run in runs[name]:
            value = run[key] if sub is None else run[key][sub]  # type: ignore[index]
            samples.extend(value if isinstance(value, list) else [value])
        return statistics.median(samples)

    rows = []

    def row(
        label: str, key: str, sub: str | None, target: float | None, fmt: Callable[[float], str] = fmt_time
    ) -> None:
        new = pooled("new", key, sub)
        old = pooled("old", key, sub) if have_old else None
        verdict = "" if target is None else f"≤ {fmt(target)}: {'met' if new <= target else 'MISSED'}"
        ratio = f"{old / new:,.1f}×" if old else ""
        rows.append([label, fmt(old) if old is not None else "n/a", fmt(new), ratio, verdict])

    bets = runs["new"][0]["bets"]
    row(f"build the --bet all pricer ({bets} bets, those of both trees): time", "build_s", None, TARGET_BUILD_S)
    row("  peak traced memory (tracemalloc)", "build_peak_bytes", None, TARGET_BUILD_BYTES, fmt_bytes)
    row("  rise of peak RSS (ru_maxrss), first build", "build_rss_rise_bytes", None, TARGET_BUILD_BYTES, fmt_bytes)
    row("build the pricer of the core bets (the default): time", "core_build_s", None, TARGET_BUILD_S)
    for label in runs["new"][0]["price_s"]:  # type: ignore[attr-defined]
        row(f"price one warm shoe: {label}", "price_s", label, TARGET_HUGE_S)

    print(
        f"Python {platform.python_version()} · {platform.machine()} · {os.cpu_count()} cores · "
        f"{rounds} round(s) of old/new processes · {repeats} timed calls each" + (" · --quick" if args.quick else "")
    )
    print(f"old: commit {args.old} (git archive)" if have_old else "old: not available (no git checkout or commit)")
    print(text_table(["measurement", "old", "new", "old/new", "target"], rows, header_margin=2))
    if have_old:
        same = {run["counts_sha256"] for run in runs["new"] + runs["old"]}
        print("counts of old and new: " + ("identical" if len(same) == 1 else "DIFFERENT"))
    if args.json:
        print(json.dumps(runs, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
