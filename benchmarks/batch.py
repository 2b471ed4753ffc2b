"""Speed of `exactodds batch`, end to end: the old renderer and this checkout's, side by side in one run.

    python benchmarks/batch.py            # 10,000 random depleted 8-deck shoes, 5 paired repeats
    python benchmarks/batch.py --quick    # 200 shoes, 2 repeats (a smoke run for CI)

Each measurement is a whole process (`python -m exactodds batch`) reading a file of
``{"counts": …}`` lines and writing JSON lines. The per-shoe cost is
(time for N shoes − time for 1 shoe) / (N − 1): start-up and the pricer's load cancel out.
The old path is the code at ``--old`` (default: the last commit before the integer renderer),
unpacked from git into a temporary folder; old and new runs alternate, and the medians are
compared. The full JSON of old and new is compared byte for byte. Nothing is asserted on time;
the targets of issue 30 (≤ 80 µs per shoe for the full JSON, ≤ 25 µs for --fields) are printed beside.
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

from bench import depleted_shoes, fmt_time  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
#: The last commit whose `batch` wrote its JSON through Fraction objects.
OLD_REF = "1611aa8"
TARGET_FULL = 80e-6
TARGET_FIELDS = 25e-6


def old_checkout(ref: str, into: Path) -> Path | None:
    """The package at ``ref`` unpacked into ``into`` (None when git or the commit is not there)."""
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", ref, "exactodds"], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return into


def run(where: Path, args: list[str], source: Path, out: Path | None = None) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, every thread) of one whole `python -m exactodds batch` in ``where``."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    with open(source, "rb") as stdin, open(out or os.devnull, "wb") as stdout:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "exactodds", "batch", *args], cwd=where, stdin=stdin, stdout=stdout, env=env,
            check=True,
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 shoes, 2 repeats (a smoke run)")
    parser.add_argument("--shoes", type=int, default=None, help="shoes per run (default 10,000; 200 with --quick)")
    parser.add_argument("--repeats", type=int, default=None, help="paired repeats (default 5; 2 with --quick)")
    parser.add_argument("--old", default=OLD_REF, help=f"the git commit of the old path (default {OLD_REF})")
    args = parser.parse_args(argv)
    # 10,000 shoes: a run's start-up varies by a few ms, which 2,000 shoes spread as some 1 µs a shoe (a quarter of
    # the margin under the --fields target), 10,000 as 0.2 µs.
    shoes = args.shoes or (200 if args.quick else 10_000)
    repeats = args.repeats or (2 if args.quick else 5)

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        many, one = folder / "many.jsonl", folder / "one.jsonl"
        lines = [
            '{"counts": {' + ", ".join(f'"{k}": {n}' for k, n in shoe.as_dict().items()) + "}}\n"
            for shoe in depleted_shoes(shoes)
        ]
        many.write_text("".join(lines))
        one.write_text(lines[0])
        (folder / "old").mkdir()
        old = old_checkout(args.old, folder / "old")
        cases = [
            ("full JSON", [], old),
            ("--fields ev", ["--fields", "ev"], None),
            ("--fields count", ["--fields", "count"], None),
            # No figure at all (a bet's description is written once per run): reading and pricing alone.
            ("floor", ["--fields", "description"], None),
        ]
        # Same bytes: the old and new full JSON of every shoe.
        same = "no old checkout"
        if old is not None:
            run(old, [], many, folder / "old.out")
            run(ROOT, [], many, folder / "new.out")
            same = "yes" if (folder / "old.out").read_bytes() == (folder / "new.out").read_bytes() else "NO"
        times: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for _ in range(repeats):
            for name, extra, old_where in cases:
                for label, where in (("old", old_where), ("new", ROOT)):
                    if where is None:
                        continue
                    (wall_many, cpu_many), (wall_one, cpu_one) = run(where, extra, many), run(where, extra, one)
                    per_shoe = ((wall_many - wall_one) / (shoes - 1), (cpu_many - cpu_one) / (shoes - 1))
                    times.setdefault((name, label), []).append(per_shoe)

    print(
        f"exactodds batch · Python {platform.python_version()} · {platform.machine()} · {os.cpu_count()} cores · "
        f"{shoes:,} depleted 8-deck shoes, {repeats} paired repeats" + (" · --quick" if args.quick else "")
    )
    print(f"full JSON byte-identical to the old path ({args.old}): {same}")
    print("per shoe, medians: wall time (the target's measure) and CPU time (user + system, all threads);")
    print("floor = --fields description: reading and pricing each line, writing no figure")
    for name, _, _ in cases:
        target = TARGET_FULL if name == "full JSON" else TARGET_FIELDS if name != "floor" else None
        for k, what in enumerate(("wall", "CPU")):
            new = statistics.median(t[k] for t in times[(name, "new")])
            line = f"{name:15} {what:4} new {fmt_time(new):>10}"
            if (name, "old") in times:
                before = statistics.median(t[k] for t in times[(name, "old")])
                line += f" · old {fmt_time(before):>10} · {before / new:.1f}× faster"
            if what == "wall" and target is not None:
                line += f" · target ≤ {fmt_time(target)}: {'met' if new <= target else 'MISSED'}"
            print(line)
    return 0 if same != "NO" else 1


if __name__ == "__main__":
    raise SystemExit(main())
