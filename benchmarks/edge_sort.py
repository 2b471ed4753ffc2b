"""`edge-sort --best-sort` by shoe size, old against new in one run: whole processes, in turns, medians and ratios.

    python benchmarks/edge_sort.py              # 3 rounds (the figures in docs/information.md)
    python benchmarks/edge_sort.py --quick      # 1 round of small cases (CI)
    python benchmarks/edge_sort.py --old REF    # compare with another commit (default: BASELINE)
    python benchmarks/edge_sort.py --old-slow   # also run the old code where it takes minutes

Each case runs ``python -m exactodds edge-sort --best-sort --cards K --decks D --format json``
with the old tree and with this one (``PYTHONPATH`` set to the tree, old and new in turns, so
both see the same load). The old code is the commit ``--old`` extracted with ``git archive``
to a temporary folder. Where both run, their outputs must be byte-identical. Printed: the
median wall time and CPU time (user + system of the child; on a loaded machine the wall time
also holds the waits for a core), old/new, and each case's CPU time over the same ``--cards``
at 8 decks (the target of issue 19: any shoe within a small factor, ≤ 3×, of 8 decks). The
old code priced shoes past 881 cards in Python integers: six known cards take it minutes
there (over 200 s at 30 decks), so those cases run only with ``--old-slow``. No timing is
asserted anywhere.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from trees import extract  # noqa: E402

#: The last commit before edge-sort counted big shoes in int64 limbs (issue 19).
BASELINE = "3d39794"
ROOT = Path(__file__).resolve().parent.parent
TARGET_FACTOR = 3.0
#: (known cards, decks, whether the old code runs it without --old-slow).
CASES = [(6, 8, True), (6, 30, False), (6, 1000, False), (4, 8, True), (4, 30, True), (4, 1000, True)]
QUICK_CASES = [(2, 8, True), (2, 30, True), (2, 1000, True), (6, 1000, False)]


def run(tree: Path, cards: int, decks: int, pycache: Path) -> tuple[float, float, bytes]:
    """One whole process of the command on ``tree``: wall seconds, CPU seconds, stdout."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONPYCACHEPREFIX=str(pycache))
    args = ["-m", "exactodds", "edge-sort", "--best-sort", "--cards", str(cards), "--decks", str(decks)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, *args, "--format", "json"], env=env, cwd=tempfile.gettempdir(),
                         capture_output=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out.stdout


def fmt(seconds: float | None) -> str:
    return "" if seconds is None else f"{seconds:.2f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one round of small cases (a smoke test)")
    parser.add_argument("--old", default=BASELINE, help=f"the commit to compare with (default {BASELINE})")
    parser.add_argument("--old-slow", action="store_true", help="also run the old code where it takes minutes")
    parser.add_argument("--rounds", type=int, default=None, help="old/new process pairs per case (default 3; 1 quick)")
    args = parser.parse_args(argv)
    rounds = args.rounds or (1 if args.quick else 3)
    cases = QUICK_CASES if args.quick else CASES

    sys.path.insert(0, str(ROOT))
    from exactodds.layout import text_table

    samples: dict[tuple[str, int, int], list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        old_tree, pycache = Path(folder) / "old", Path(folder) / "pycache"
        old_tree.mkdir()
        have_old = extract(args.old, old_tree)
        trees = {"new": ROOT, **({"old": old_tree} if have_old else {})}
        for tree in trees.values():
            run(tree, 1, 1, pycache)  # bytecode written, compiled tables cached: every timed run starts alike
        for cards, decks, old_runs in cases:
            outputs = {}
            for _ in range(rounds):
                for name, tree in sorted(trees.items()):  # "new" then "old", in turns
                    if name == "old" and not (old_runs or args.old_slow):
                        continue
                    wall, cpu, outputs[name] = run(tree, cards, decks, pycache)
                    samples.setdefault((name, cards, decks), []).append((wall, cpu))
            if len(set(outputs.values())) > 1:
                raise RuntimeError(f"old and new differ for --cards {cards} --decks {decks}")

    def median(name: str, cards: int, decks: int, which: int) -> float | None:
        runs = samples.get((name, cards, decks))
        return None if not runs else statistics.median(r[which] for r in runs)

    rows = []
    for cards, decks, _ in cases:
        new_cpu, old_cpu = median("new", cards, decks, 1), median("old", cards, decks, 1)
        base = median("new", cards, 8, 1)
        factor = ""
        if base and new_cpu is not None:
            factor = f"{new_cpu / base:.2f}×"
            if decks != 8:
                factor += f" (≤ {TARGET_FACTOR:g}×: {'met' if new_cpu / base <= TARGET_FACTOR else 'MISSED'})"
        rows.append([
            f"--cards {cards}, {decks:,} decks ({52 * decks:,} cards)",
            fmt(median("old", cards, decks, 0)), fmt(old_cpu),
            fmt(median("new", cards, decks, 0)), fmt(new_cpu),
            f"{old_cpu / new_cpu:,.1f}×" if old_cpu and new_cpu else "not run",
            factor,
        ])
    print(f"edge-sort --best-sort, whole processes, {rounds} round(s); old = {args.old if have_old else 'unavailable'}")
    print(f"{platform.machine()} · {os.cpu_count()} cores · Python {platform.python_version()} · load "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(text_table(
        ["case", "old wall", "old CPU", "new wall", "new CPU", "old/new (CPU)", "new CPU / 8 decks"], rows, "lrrrrrl"
    ))
    return 0


if __name__ == "__main__":
    sys.exit(main())
