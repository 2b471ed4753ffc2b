"""Speed of `exactodds tables --check` and `exactodds eor --decks 8`, old (a git ref) against new, in one run.

    python benchmarks/tables.py                 # 3 paired runs of each command (medians), old = main
    python benchmarks/tables.py --quick         # CI: one run each of `eor --decks 8` only
    python benchmarks/tables.py --old REF --repeats 5

The old code is the git ref ``--old`` (default ``main``) extracted with ``git archive`` into a
temporary folder and run from there (PYTHONPATH=that folder, its own ``tables/``); the new
code is this checkout. Each command is a whole process, old and new alternating, so both see
the same machine load. Start-up is ``python -c "import exactodds.cli"`` (the CLI's imports):
"beyond start-up" is a command's median minus that. Wall and CPU (user + system of the
child) seconds are both printed: on a loaded machine CPU time is the steadier figure.
Nothing is asserted; the targets are printed beside the figures.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = {
    "tables --check": (["-m", "exactodds", "tables", "--check"], "≤ 5 s"),
    "eor --decks 8": (["-m", "exactodds", "eor", "--decks", "8"], "≤ 0.2 s beyond start-up"),
    "start-up (import exactodds.cli)": (["-c", "import exactodds.cli"], ""),
}


def extract(ref: str, folder: Path) -> None:
    """Write the tree of git ``ref`` into ``folder``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)


def run(args: list[str], where: Path) -> tuple[float, float]:
    """Run ``python args`` in ``where`` with PYTHONPATH=where: (wall seconds, CPU seconds of the child)."""
    # Bytecode written and reused, as an installed package has it (else each run compiles every module).
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PYTHONPATH": str(where)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *args], cwd=where, env=env, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed in {where}:\n{done.stderr.decode()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run each of `eor --decks 8` only (CI)")
    parser.add_argument("--old", default="main", help="the git ref of the old code (default: main)")
    parser.add_argument("--repeats", type=int, default=3, help="paired runs per command (default 3)")
    args = parser.parse_args(argv)
    repeats = 1 if args.quick else args.repeats
    names = [n for n in COMMANDS if not (args.quick and n == "tables --check")]
    folder = Path(tempfile.mkdtemp(prefix="exactodds-old-"))
    try:
        sides = {"old": folder, "new": ROOT}
        try:
            extract(args.old, folder)
        except subprocess.CalledProcessError:  # e.g. a CI checkout without that ref: time the new code alone
            print(f"(no git ref {args.old!r} here: the old column repeats the new code)")
            sides["old"] = ROOT
        for where in sides.values():  # warm: byte-compile, and the compiled table's disk cache
            run(["-m", "exactodds", "eor", "--decks", "1"], where)
        times: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for _ in range(repeats):
            for name in names:
                for side, where in sides.items():
                    times.setdefault((name, side), []).append(run(COMMANDS[name][0], where))
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    def med(name: str, side: str, kind: int) -> float:
        return statistics.median(t[kind] for t in times[(name, side)])

    python = sys.version.split()[0]
    print(f"old = {args.old} (git archive), new = {ROOT}; {repeats} paired run(s), medians; Python {python}")
    walls = f"{'old wall':>9} {'new wall':>9} {'ratio':>6}"
    print(f"{'command':34} {walls}   {'old CPU':>8} {'new CPU':>8} {'ratio':>6}  target")
    start = "start-up (import exactodds.cli)"
    for name in names:
        ow, nw, oc, nc = med(name, "old", 0), med(name, "new", 0), med(name, "old", 1), med(name, "new", 1)
        walls = f"{ow:8.2f}s {nw:8.2f}s {ow / nw:5.1f}×"
        print(f"{name:34} {walls}   {oc:7.2f}s {nc:7.2f}s {oc / nc:5.1f}×  {COMMANDS[name][1]}")
    if "eor --decks 8" in names:
        beyond = {side: med("eor --decks 8", side, 1) - med(start, side, 1) for side in ("old", "new")}
        print(
            f"eor --decks 8 beyond start-up (CPU): old {beyond['old']:.3f} s, new {beyond['new']:.3f} s"
            " (target ≤ 0.2 s)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
