"""`exactodds design`: the band search over 3 free outcomes with pays up to 1000 (the target: under a second).

    python benchmarks/design.py            # 7 rounds of each case
    python benchmarks/design.py --quick    # 2 rounds (CI)

Cases, each the search alone (the bet's counts priced once before, as the command does), in
this process, medians of wall and CPU time (``time.process_time``) over the rounds:

- ``dragon-panda``: the three winning outcomes of ``examples/dragon-panda.toml`` (8 decks),
  pays 1 to 1000 by 1, a band of 5% to 6%, the top 20 (the example of docs/design.md);
- ``rare``: three outcomes of 1 in 1,000, 1 in 2,000 and 1 in 3,000 (counts made up, out
  of about 10^15 orderings), so that every pay up to 1000 keeps the edge in reach: the
  1000 × 1000 rows are all walked and 24 million tables lie in the band (the worst case of the
  grid);

then the whole ``python -m exactodds design`` process on ``dragon-panda`` (start-up, pricing,
search, figures and countability of 20 tables), wall and CPU (of the child). The machine's
load average is printed beside them; no timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from exactodds.cards import Shoe  # noqa: E402
from exactodds.design.search import Grid, Problem, search  # noqa: E402
from exactodds.puntobanco.odds import analyze  # noqa: E402
from exactodds.puntobanco.rules import PUNTO_BANCO  # noqa: E402
from exactodds.puntobanco.userdefs import load_bets  # noqa: E402

EXAMPLE = ROOT / "examples" / "dragon-panda.toml"
GRID = Grid(Fraction(1), Fraction(1), Fraction(1000))


def dragon_panda() -> Problem:
    """The example bet's search: its counts on 8 decks, its three winning outcomes free."""
    (bet,) = load_bets(EXAMPLE)
    figures = analyze(Shoe.standard(8), PUNTO_BANCO, [bet]).bets[0]
    counts = tuple(o.count for o in figures.outcomes)
    means = tuple(o.mean for o in bet.outcomes)
    return Problem(counts, figures.orderings, means, (0, 1, 2), (0, 1, 2), GRID, Fraction(5, 100), Fraction(6, 100))


def rare() -> Problem:
    """Three rare outcomes: every pay of the grid keeps the edge reachable."""
    n = 4_998_398_275_503_360
    counts = (n // 1_000, n // 2_000, n // 3_000)
    counts += (n - sum(counts),)
    means = (Fraction(0), Fraction(0), Fraction(0), Fraction(-1))
    return Problem(counts, n, means, (0, 1, 2), (0, 1, 2), GRID, Fraction(5, 100), Fraction(6, 100))


def timed(problem: Problem, rounds: int) -> tuple[float, float, int]:
    """Median wall and CPU seconds of the search, and the tables in the band."""
    walls, cpus, found = [], [], 0
    for _ in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        found = search(problem, 20).searched
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), found


def whole(rounds: int) -> tuple[float, float]:
    """Median wall and CPU seconds of the whole command on the example."""
    walls, cpus = [], []
    args = [sys.executable, "-m", "exactodds", "design", "--bets-file", str(EXAMPLE), "--bet", "dragon-panda",
            "--edge", "5%:6%", "--format", "json"]
    for _ in range(rounds):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(args, cwd=ROOT, capture_output=True, check=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    """Run the cases and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 rounds of each case")
    rounds = 2 if parser.parse_args().quick else 7
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {rounds} rounds, medians")
    print(f"{'case':<28} {'wall':>8} {'CPU':>8} {'tables in band':>15}  target")
    for name, problem in (("search: dragon-panda", dragon_panda()), ("search: rare (worst case)", rare())):
        wall, cpu, found = timed(problem, rounds)
        print(f"{name:<28} {wall:>7.3f}s {cpu:>7.3f}s {found:>15,}  < 1 s")
    wall, cpu = whole(rounds)
    print(f"{'whole command: dragon-panda':<28} {wall:>7.3f}s {cpu:>7.3f}s {'':>15}")


if __name__ == "__main__":
    main()
