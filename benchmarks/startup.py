"""Cold start of the command line, old against new in one run: whole processes, paired, medians.

    python benchmarks/startup.py            # 20 rounds (the figures in docs/development.md)
    python benchmarks/startup.py --quick    # 3 rounds (CI)
    python benchmarks/startup.py --old DIR  # compare with another checkout instead of `main`
    python benchmarks/startup.py --old REF  # or with another git ref (a commit, a branch), extracted
    python benchmarks/startup.py --new DIR  # measure another checkout than this one

Each round runs, in a shuffled order, ``python -c pass`` and, with the old and the new code,
``python -m exactodds odds --format json``, ``python -m exactodds`` (the default report) and
``python -m exactodds --help`` (which lists every command, from their summaries: it loads none of their families).
The old code is the ``main`` branch (or ``--old``: a folder, or a git ref extracted with
``git archive``) in a temporary folder; each is put first on ``PYTHONPATH``. Both write their
bytecode to one temporary folder (as an installed package has its ``.pyc`` files) and share
one cache of compiled tables, filled by a warm-up run that also checks that old and new print
the same bytes (but for ``--help``, whose commands' summaries may differ). The targets (issue 30),
the median of the paired differences from ``python -c pass``: ``odds --format json`` at most 70 ms,
the default report 90 ms, ``--help`` 60 ms (:data:`TARGETS_MS`, printed in the heading). CPU time (user +
system, of the child process) is printed beside the wall time: on a loaded machine the wall time also holds
the time spent waiting for a core; the load average is printed before and after. No timing
is asserted anywhere.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from trees import extract  # noqa: E402

HERE = Path(__file__).resolve().parent.parent
#: Each command's target (issue 30): at most this many ms over ``python -c pass``.
TARGETS_MS = {"odds --format json": 70, "exactodds (default report)": 90, "exactodds --help": 60}
COMMANDS = {
    "odds --format json": ["-m", "exactodds", "odds", "--format", "json"],
    "exactodds (default report)": ["-m", "exactodds"],
    "exactodds --help": ["-m", "exactodds", "--help"],
}
#: The commands whose output may differ between old and new code (the warm-up compares the others' bytes).
ANY_OUTPUT = {"exactodds --help"}


def old_code(old: str, into: Path) -> Path | None:
    """The old code's folder: ``old`` if it is a folder, else the git ref ``old`` extracted into ``into`` (or None)."""
    if Path(old).is_dir():
        return Path(old).resolve()
    return into if extract(old, into) else None


def environment(code: Path, pycache: Path, cache: Path) -> dict[str, str]:
    """The environment of a run: ``code`` first on the path, bytecode written and reused, a shared table cache."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update(PYTHONPATH=str(code), PYTHONPYCACHEPREFIX=str(pycache), EXACTODDS_CACHE=str(cache))
    return env


def _children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far (0 where unknown)."""
    try:
        import resource
    except ImportError:  # not on Windows
        return 0.0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(args: list[str], env: dict[str, str] | None, cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one whole process, output discarded."""
    cpu, start = _children_cpu(), time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start, _children_cpu() - cpu


def load() -> str:
    """The load averages (1, 5, 15 minutes)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds: a smoke run for CI")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--old", default="main", help="the old code: a folder, or a git ref to extract (default: main)")
    parser.add_argument("--new", type=Path, default=HERE, help="the new code's folder (default: this checkout)")
    args = parser.parse_args()
    rounds = 3 if args.quick else args.rounds
    load_before = load()
    new = args.new.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        old = old_code(args.old, Path(tempfile.mkdtemp(dir=root)))
        if old is None:  # no git, or no such ref here (`main` in a CI checkout): the new code alone
            print(f"no folder or git ref {args.old!r} to compare with: the new code alone")
        pycache, cache, cwd = root / "pycache", root / "cache", root / "cwd"
        for folder in (pycache, cache, cwd):
            folder.mkdir(mode=0o700)
        envs = {"new": environment(new, pycache, cache)}
        if old is not None:
            envs = {"old": environment(old, pycache, cache), **envs}
        # Warm-up: bytecode, compiled tables; old and new must print the same bytes, from the code asked for.
        for name, argv in COMMANDS.items():
            outputs = {}
            for side, env in envs.items():
                where = subprocess.run(
                    [sys.executable, "-c", "import exactodds; print(exactodds.__file__)"],
                    env=env, cwd=cwd, check=True, capture_output=True, text=True,
                ).stdout.strip()  # fmt: skip
                expected = new if side == "new" else old
                if not Path(where).resolve().is_relative_to(expected):
                    raise SystemExit(f"{side} code imported from {where}, not {expected}")
                outputs[side] = subprocess.run([sys.executable, *argv], env=env, cwd=cwd, check=True,
                                               capture_output=True).stdout  # fmt: skip
                run(argv, env, cwd)
            if name not in ANY_OUTPUT and len(set(outputs.values())) > 1:
                raise SystemExit(f"{name}: old and new print different bytes")
        jobs = [("python -c pass", None, ["-c", "pass"])]
        jobs += [(f"{side}: {name}", side, argv) for name, argv in COMMANDS.items() for side in envs]
        times: dict[str, list[tuple[float, float]]] = {label: [] for label, _, _ in jobs}
        rng = random.Random(13)
        for _ in range(rounds):
            rng.shuffle(jobs)
            for label, side, argv in jobs:
                env = envs[side] if side else environment(new, pycache, cache)
                times[label].append(run(argv, env, cwd))
    base = times["python -c pass"]
    print(f"old = {old or 'none'} ({args.old}), new = {new}; {os.cpu_count()} cores, load {load_before} before, "
          f"{load()} after")  # fmt: skip
    print(f"cold start, {rounds} paired rounds: medians of wall and CPU (user + system) seconds; overhead = the"
          " median of the paired differences from `python -c pass` (targets: "
          + ", ".join(f"{name} <= {ms} ms" for name, ms in TARGETS_MS.items()) + ")")  # fmt: skip
    print(f"  {'':34} {'wall':>8} {'overhead':>9} {'CPU':>8} {'overhead':>9}")
    wall, cpu = zip(*base)
    print(f"  {'python -c pass':34} {statistics.median(wall):7.3f}s {'':9} {statistics.median(cpu):7.3f}s")
    for name in COMMANDS:
        medians = {}
        for side in envs:
            label = f"{side}: {name}"
            over = [statistics.median(t[k] - b[k] for t, b in zip(times[label], base)) for k in (0, 1)]
            medians[side] = [statistics.median(t[k] for t in times[label]) for k in (0, 1)]
            print(f"  {label:34} {medians[side][0]:7.3f}s {1000 * over[0]:6.0f} ms {medians[side][1]:7.3f}s"
                  f" {1000 * over[1]:6.0f} ms")  # fmt: skip
        if "old" in medians:
            ratios = [medians["old"][k] / medians["new"][k] if medians["new"][k] else float("nan") for k in (0, 1)]
            print(f"  {'':34} old / new: wall {ratios[0]:.2f}x, CPU {ratios[1]:.2f}x")


if __name__ == "__main__":
    main()
