"""`--bet all` with exact figures against its counts alone, old against new in one run: medians, ratios, per bet.

    python benchmarks/allbets.py                   # the run quoted in docs/exactness.md
    python benchmarks/allbets.py --quick           # a smoke run (CI)
    python benchmarks/allbets.py --old REF         # compare with another commit (default: BASELINE)
    python benchmarks/allbets.py --peer 0.81,0.86  # print a peer's milliseconds (fresh, depleted) beside

Two suited 8-deck shoes: a fresh one, and a depleted one of 263 cards (card r of A…K, suit s of
S H D C, keeps 8 − ((r + 2s) mod 7) copies). For each, in one process and after a warm-up (so
the counts come from the numpy pricer, as for a loop of shoes), it times four sets of bets: the
bets of ``odds --bet all`` that the compiled and closed-form routes price; the same with bets
of a bets file added up to 80 (each on a side's final total and number of cards), while they
are fewer; the bets of the peer's 54 rows (:data:`PEER_BETS`: ours with the same events); and
every bet of ``odds --bet all``, the bets on the dealt cards included. For each set:

- (a) the counts alone: ``analyze(shoe, bets=…)``, every outcome's exact count;
- (b) the same with the exact EV, variance and hit frequency of every bet (Fractions), what
  ``odds --bet all --format json`` needs before its texts are written;

and prints the ratio (b)/(a) (the target: about 2× at most) and the cost per bet, in wall and in
CPU time, (a) and (b) timed in turns; with a peer's figure, (b) of the peer's rows beside it. For
context it also times the JSON's texts from the counts (every key of ``--format json``: reduced
fractions, decimals, the SD), the counts of the bets on the dealt cards alone, and the whole command
``python -m exactodds odds --bet all --format json`` (start-up included, a fresh process per call).

The old code is the commit ``--old`` extracted with ``git archive REF | tar -x`` into a
temporary folder; old and new each run in fresh processes (``PYTHONPATH`` set to their tree),
taken in turns, so both see the same machine load, which is printed before and after. Both
trees' figures are compared (they must be identical). A peer's figure (milliseconds per call
for its rows, fresh and depleted) is given by ``--peer`` or the environment variable
``EXACTODDS_PEER_MS``; the benchmark never builds or runs the peer. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from trees import extract, machinery, worker_output  # noqa: E402

#: The last commit before the opening-card bets' closed forms and the counts' overhead cut (issue 21, Speed).
BASELINE = "11000eb"
ROOT = Path(__file__).resolve().parent.parent
TARGET_RATIO = 2.0
#: The catalog is timed again with bets of a bets file added up to this many (issue 21 brings it to about 80).
AT_LEAST = 80
SHOES = ("fresh 8 decks", "depleted 8 decks")
RANKS = "A23456789TJQK"
SUITS = "SHDC"


def depleted_counts() -> dict[str, int]:
    """The depleted 8-deck shoe by card: card r (A…K), suit s (S H D C) keeps 8 − ((r + 2s) mod 7) copies."""
    return {f"{rank}{suit}": 8 - (r + 2 * s) % 7 for r, rank in enumerate(RANKS) for s, suit in enumerate(SUITS)}


def shoe_text(name: str) -> str | None:
    """The ``--shoe`` text of a shoe of :data:`SHOES` (``None``: the default, a fresh 8-deck shoe)."""
    if name == SHOES[0]:
        return None
    return ",".join(f"{card}={n}" for card, n in depleted_counts().items())


def paired_times(funcs: Sequence[Callable[[], object]], repeats: int, warmup: int) -> list[list[float]]:
    """Wall and CPU times of ``repeats`` calls of each of ``funcs``, called in turns, after ``warmup`` rounds.

    The lists are the wall times of each function, then the CPU times (of this process) of each.
    """
    for _ in range(warmup):
        for func in funcs:
            func()
    wall: list[list[float]] = [[] for _ in funcs]
    cpu: list[list[float]] = [[] for _ in funcs]
    for _ in range(repeats):
        for func, out, used in zip(funcs, wall, cpu):
            start, start_cpu = time.perf_counter(), time.process_time()
            func()
            out.append(time.perf_counter() - start)
            used.append(time.process_time() - start_cpu)
    return wall + cpu


def times_of(func: Callable[[], object], repeats: int, warmup: int) -> list[float]:
    """The wall times of ``repeats`` calls of ``func``, after ``warmup`` calls."""
    for _ in range(warmup):
        func()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return times


def filler_bets(count: int) -> str:
    """A bets file of ``count`` bets on a side's final total and number of cards (to bring the bets up to 80); a
    total of 0 never wins, and a bets file may not hold a condition nothing can meet."""
    text = ""
    for k, (side, total, cards) in enumerate(itertools.product(("player", "banker"), range(1, 10), (2, 3))):
        if k == count:
            break
        text += (
            f'[bets.filler-{k}]\ndescription = "{side} wins with a {cards}-card {total}"\n'
            f'[[bets.filler-{k}.outcome]]\nid = "win"\npays = {k + 3}\n'
            f'when = {{ winner = "{side}", {side}_total = {total}, {side}_cards = {cards} }}\n'
            f'[[bets.filler-{k}.outcome]]\nid = "lose"\notherwise = true\npays = -1\n'
        )
    return text


#: The bets of the peer's 54 rows (its public probability rows, in its order), one bet of ours each: the same
#: events (the pays may differ: its Perfect Pair is perfect-pair-v2's events, its Tiger the Banker's win with 6).
PEER_BETS = (
    "player", "banker", "tie", "either-pair", "player-pair", "banker-pair", "perfect-pair-v2", "monkey",
    "dragon-bonus-player", "dragon-bonus-banker", "banker-natural", "player-natural", "lucky-6", "lucky-6-23",
    "small-tiger", "big-tiger", "tiger-tie", "tiger-pair", "banker-4-fortune", "player-4-fortune",
    "banker-fortune-4-pair", "player-fortune-4-pair", "player-red", "banker-red", "player-black", "banker-black",
    "invincible-6", "big", "small", "banker-char-siu", "player-char-siu", "small-bull", "big-bull", "tiger-bull",
    "wu-da-lang", "dragon-7", "panda-8", *(f"egalite-{k}" for k in range(10)), "lucky-7", "big-lucky-7",
    "small-lucky-7", "super-lucky-7", "flame-7s", "heaven-9", "treasure-all",
)  # fmt: skip
#: The sets of bets timed, by key suffix: the routed bets, with bets-file bets up to 80, the peer's rows, --bet all.
SETS = ("", "+", " peer", " all")


def measure(shoe: object, repeats: int) -> tuple[dict[str, list[float]], list[int], str]:
    """The samples of one shoe (keys (a), (b), json, walk; then with a suffix of :data:`SETS`), its bets (routed,
    on the cards, filler, the peer's rows, every bet), and its figures as text."""
    # The tree's layout: exactodds/puntobanco/ and present/ since the restructure, the root and render/ before.
    JsonLayout, bets_from_text = machinery("odds_json").JsonLayout, machinery("bets").bets_from_text
    analyze, resolve_bets = machinery("odds").analyze, machinery("odds").resolve_bets
    PUNTO_BANCO = machinery("rules").PUNTO_BANCO

    every = resolve_bets(PUNTO_BANCO, ["all"], suits=True)
    routed = tuple(b for b in every if not getattr(b, "reads_cards", False))
    walked = tuple(b for b in every if getattr(b, "reads_cards", False))
    by_id = {b.id: b for b in every}
    peer = tuple(by_id[i] for i in PEER_BETS if i in by_id)  # an old tree may lack some
    filler = max(0, AT_LEAST - len(routed))
    samples: dict[str, list[float]] = {}
    text = ""
    sets = {"": routed, "+": routed + tuple(bets_from_text(filler_bets(filler))), " peer": peer, " all": every}
    for suffix, bets in sets.items():
        if suffix == "+" and not filler:
            continue

        def counts(bets: tuple[object, ...] = bets) -> object:
            return analyze(shoe, PUNTO_BANCO, bets)  # type: ignore[arg-type]

        def figures(bets: tuple[object, ...] = bets) -> list[object]:
            return [(f.ev, f.variance, f.hit_frequency) for f in analyze(shoe, PUNTO_BANCO, bets).bets]  # type: ignore[arg-type]

        text += repr(figures())
        # The warm-up takes the counts past the flat table's first shoes to the numpy pricer (a loop's route);
        # (a) and (b) are timed in turns, so that both see the same load. A tree that walks the bets on the
        # cards (tens of ms a call) times every bet fewer times.
        slow = _seconds(counts) > 0.005
        keys = (f"(a){suffix}", f"(b){suffix}", f"(a){suffix} cpu", f"(b){suffix} cpu")
        times = paired_times((counts, figures), max(5, repeats // 20) if slow else repeats, 5 if slow else 30)
        samples.update(zip(keys, times))
    analysis = analyze(shoe, PUNTO_BANCO, routed)  # type: ignore[arg-type]
    layout = JsonLayout(PUNTO_BANCO, routed, 4)
    flat = [o.count for f in analysis.bets for o in f.outcomes]
    texts = max(3, repeats // 4)
    samples["json"] = times_of(lambda: layout.values(analysis.shoe, flat, analysis.orderings), texts, 3)
    if walked:
        samples["walk"] = times_of(lambda: analyze(shoe, PUNTO_BANCO, walked), 5, 1)  # type: ignore[arg-type]
    return samples, [len(routed), len(walked), filler, len(peer), len(every)], text


def _seconds(func: Callable[[], object]) -> float:
    """The wall seconds of one call (after one untimed call)."""
    func()
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def worker(repeats: int) -> dict[str, object]:
    """Measure the tree on ``PYTHONPATH`` in this fresh process; returns the samples."""
    import exactodds
    from exactodds.cards import Shoe

    shoes = {SHOES[0]: Shoe.standard(8), SHOES[1]: Shoe.parse(shoe_text(SHOES[1]) or "")}
    samples: dict[str, list[float]] = {}
    bets_of: dict[str, list[int]] = {}
    digest = hashlib.sha256()
    for name, shoe in shoes.items():
        measured, bets_of[name], text = measure(shoe, repeats)
        samples.update((f"{name}: {key}", values) for key, values in measured.items())
        digest.update(text.encode())
    return {
        "package": str(Path(exactodds.__file__).parent),
        "bets": bets_of,
        "samples": samples,
        "figures_sha256": digest.hexdigest(),
    }


def run_worker(tree: Path, repeats: int) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    args = [sys.executable, str(Path(__file__).resolve()), "--worker", "--repeats", str(repeats)]
    result: dict[str, object] = json.loads(worker_output(args, env, tempfile.gettempdir()))
    if Path(str(result["package"])).resolve() != (tree / "exactodds").resolve():
        raise RuntimeError(f"the worker imported {result['package']}, not the tree {tree}")
    return result


def command_seconds(tree: Path, shoe: str, pycache: Path) -> float:
    """Wall seconds of ``python -m exactodds odds --bet all --format json`` in a fresh process (output discarded)."""
    text = shoe_text(shoe)
    args = [sys.executable, "-m", "exactodds", "odds", "--bet", "all", "--format", "json"]
    args += [] if text is None else ["--shoe", text]
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONPYCACHEPREFIX=str(pycache / tree.name))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode written once and reused, as an installed package has it
    start = time.perf_counter()
    subprocess.run(args, env=env, cwd=tempfile.gettempdir(), stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def fmt_time(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"


def peer_figures(text: str | None) -> list[float] | None:
    """The peer's milliseconds (fresh[, depleted]) from ``--peer`` or ``EXACTODDS_PEER_MS``, or ``None``."""
    if not text:
        return None
    try:
        values = [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise SystemExit(f"--peer takes milliseconds, fresh[,depleted], e.g. 0.81,0.86; not {text!r}") from None
    if not 1 <= len(values) <= 2:
        raise SystemExit(f"--peer takes one or two numbers (fresh[,depleted]), not {text!r}")
    return values if len(values) == 2 else values * 2


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one round, few repeats (a smoke test)")
    parser.add_argument("--old", default=BASELINE, help=f"the commit to compare with (default {BASELINE})")
    parser.add_argument("--rounds", type=int, default=None, help="old/new process pairs (default 3; 1 with --quick)")
    parser.add_argument("--commands", type=int, default=None, help="whole commands per tree and shoe (default 5)")
    parser.add_argument(
        "--peer",
        default=os.environ.get("EXACTODDS_PEER_MS"),
        help="the peer's median milliseconds per call for its rows, fresh[,depleted] (or EXACTODDS_PEER_MS)",
    )
    parser.add_argument("--json", action="store_true", help="print the samples as JSON too")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--repeats", type=int, default=None, help="timed calls per process (default 300; 20 quick)")
    args = parser.parse_args(argv)
    repeats = args.repeats or (20 if args.quick else 300)
    if args.worker:
        print(json.dumps(worker(repeats)))
        return 0
    rounds = args.rounds or (1 if args.quick else 3)
    commands = args.commands or (1 if args.quick else 5)
    peer = peer_figures(args.peer)
    load_before = load()

    from exactodds.layout import text_table

    with tempfile.TemporaryDirectory() as folder:
        old_tree = Path(folder) / "old"
        old_tree.mkdir()
        pycache = Path(folder) / "pycache"
        have_old = extract(args.old, old_tree)
        trees = {"new": ROOT, **({"old": old_tree} if have_old else {})}
        runs: dict[str, list[dict[str, object]]] = {name: [] for name in trees}
        run_worker(ROOT, 1)  # warm the disk cache of the compiled and flat tables (and the OS's file cache)
        whole: dict[str, dict[str, list[float]]] = {name: {shoe: [] for shoe in SHOES} for name in trees}
        for _ in range(rounds):
            for name, tree in sorted(trees.items()):  # "new" then "old", in turns
                runs[name].append(run_worker(tree, repeats))
        for shoe in SHOES:
            for tree in trees.values():
                command_seconds(tree, shoe, pycache)  # a warm-up: the flat table of the shoe's bets on disk
            for _ in range(commands):
                for name, tree in sorted(trees.items()):
                    whole[name][shoe].append(command_seconds(tree, shoe, pycache))

    def pooled(name: str, key: str) -> float:
        samples: list[float] = []
        for run in runs[name]:
            samples.extend(run["samples"].get(key, []))  # type: ignore[attr-defined]
        return statistics.median(samples) if samples else float("nan")

    names = ["new", *(["old"] if have_old else [])]
    rows, context, against = [], [], []
    for shoe in SHOES:
        for suffix in SETS:
            for name in names:
                routed, walked, filler, peers, every = runs[name][0]["bets"][shoe]  # type: ignore[index]
                if suffix == "+" and not filler:
                    continue
                n, label = {
                    "": (routed, f"{shoe}, {routed} bets"),
                    "+": (routed + filler, f"{shoe}, {routed} + {filler} bets-file bets"),
                    " peer": (peers, f"{shoe}, the peer's {peers} rows"),
                    " all": (every, f"{shoe}, --bet all: {every} bets"),
                }[suffix]
                for clock, cpu in (("wall", ""), ("CPU", " cpu")):
                    a, b = pooled(name, f"{shoe}: (a){suffix}{cpu}"), pooled(name, f"{shoe}: (b){suffix}{cpu}")
                    verdict = f"≤ {TARGET_RATIO:g}×: {'met' if b / a <= TARGET_RATIO else 'MISSED'}"
                    rows.append([label, name, clock, fmt_time(a), fmt_time(b), f"{b / a:.2f}×", verdict,
                                 fmt_time(b / n), fmt_time((b - a) / n)])  # fmt: skip
                    if suffix == " peer" and peer is not None:
                        ms = peer[SHOES.index(shoe)]
                        against.append([shoe, name, clock, fmt_time(b), f"{ms:.3f} ms", f"{b * 1e3 / ms:.2f}×",
                                        "below: met" if b * 1e3 < ms else "MISSED"])  # fmt: skip
        for name in names:
            walked = runs[name][0]["bets"][shoe][1]  # type: ignore[index]
            context.append(
                [shoe, name, fmt_time(pooled(name, f"{shoe}: json")),
                 f"{fmt_time(pooled(name, f'{shoe}: walk'))} ({walked} bets)" if walked else "none",
                 fmt_time(statistics.median(whole[name][shoe]))]
            )  # fmt: skip
    print(
        f"Python {platform.python_version()} · {platform.machine()} · {os.cpu_count()} cores · load "
        f"{load_before} before, {load()} after · {rounds} round(s) of old/new processes · {repeats} timed calls "
        f"each · {commands} whole command(s) per tree and shoe" + (" · --quick" if args.quick else "")
    )
    print(f"old: commit {args.old} (git archive)" if have_old else "old: not available (no git checkout or commit)")
    print(
        text_table(
            ["shoe, bets", "tree", "time", "(a) counts", "(b) + figures", "(b)/(a)", "target", "(b) per bet",
             "(b)−(a) per bet"],
            rows,
            header_margin=2,
        )
    )  # fmt: skip
    print(
        "(a) the counts alone of the bets the compiled and closed-form routes price (then with bets of a bets\n"
        "file added up to 80: a side's final total and cards), of the bets of the peer's rows, and of every bet\n"
        "of --bet all (the bets on the dealt cards included); (b) the same with the exact EV, variance and hit\n"
        "frequency of every bet (Fractions); medians of wall and of CPU time (this process's user + system: on a\n"
        "loaded machine the steadier figure). For context: the texts of --format json from the counts (json), the\n"
        "counts of the bets on the dealt cards alone, and the whole command python -m exactodds odds --bet all\n"
        "--format json (start-up included, every bet, a fresh process):"
    )
    print(text_table(["shoe", "tree", "json", "bets on the cards", "command"], context, header_margin=2))
    if peer is None:
        print("peer: not given")
    else:
        print(f"peer (given): {peer[0]:.3f} ms fresh, {peer[1]:.3f} ms depleted per call for its rows")
        print(text_table(["shoe", "tree", "time", "(b) the peer's rows", "peer", "ratio", "target"], against,
                         header_margin=2))  # fmt: skip
    if have_old:
        same = {run["figures_sha256"] for run in runs["new"] + runs["old"]}
        print("figures of old and new: " + ("identical" if len(same) == 1 else "DIFFERENT"))
    if args.json:
        print(json.dumps({"runs": runs, "commands": whole}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
