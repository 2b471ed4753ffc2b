"""Speed of the live shoe tracker (`exactodds track`): the update after each card, measured in one run.

    python benchmarks/track.py            # a whole 8-deck shoe dealt card by card, twice per bet set
    python benchmarks/track.py --quick    # the first 80 cards, once (CI)

A seeded shuffle of 8 decks is typed into a :class:`~exactodds.tracker.Tracker` one card at
a time, down to the cut card (14 cards left), for the 7 core bets and for the 48-bet catalog
(``--bet all``). Each card's update is timed: the step alone (parse, new state, exact EVs of
every bet on the cards left as exact fractions), then with the JSON line of ``--script`` or the
terminal's panel (the EVs written as decimals too).
The medians are printed beside the targets (≤ 1 ms core, ≤ 5 ms catalog), and beside the plain
reference walk pricing the same shoe (the ratio). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import exactodds as xo
from exactodds.cards import RANKS
from exactodds.layout import text_table
from exactodds.present.tracker import panel, step_json
from exactodds.tracker import Tracker

TARGETS = {"core": 1e-3, "all": 5e-3}
CUT_CARD = 14


def deal(seed: int = 2026) -> list[str]:
    """A shuffled 8-deck shoe, as the ranks typed one by one."""
    shoe = xo.Shoe.standard(8)
    cards = [rank.value for rank in RANKS for _ in range(shoe.count(rank))]
    random.Random(seed).shuffle(cards)
    return cards


def per_card(bets: list[str] | None, cards: list[str], extra: Callable[[Any], object]) -> list[float]:
    """Seconds of each card's update (the pricer built before the first card, as `track` does at start)."""
    tracker = Tracker(xo.Shoe.standard(8), bets=bets)
    tracker.figures()
    times = []
    for card in cards:
        start = time.perf_counter()
        step = tracker.step(card)
        assert step.error is None, step.error
        extra(step)
        times.append(time.perf_counter() - start)
    return times


def fmt(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="80 cards, one pass (a smoke test)")
    parser.add_argument("--json", action="store_true", help="print the measurements as JSON too")
    args = parser.parse_args(argv)
    cards = deal()[: 80 if args.quick else 416 - CUT_CARD]
    passes = 1 if args.quick else 2

    rows = []
    results = []
    for name, bets in (("core", None), ("all", ["all"])):
        start = time.perf_counter()
        Tracker(xo.Shoe.standard(8), bets=bets).figures()  # the session's one pricer build (in this process)
        build = time.perf_counter() - start
        shown = {
            "step + exact EVs": lambda step: [f.ev for f in step.analysis.bets],
            "step + JSON line": lambda step: json.dumps(step_json(step)),
            "step + screen panel": lambda step: panel(step, 4),
        }
        medians = {}
        for label, extra in shown.items():
            times = [t for _ in range(passes) for t in per_card(bets, cards, extra)]
            medians[label] = statistics.median(times)
        # The same pricing by the plain reference walk, on a few of the shoes the tracker priced.
        tracker = Tracker(xo.Shoe.standard(8), bets=bets)
        for card in cards[:10]:
            tracker.step(card)
        reference = min(
            _seconds(lambda tracker=tracker, bets=bets: xo.analyze(tracker.state.shoe, bets=bets, method="reference"))
            for _ in range(1 if args.quick else 3)
        )
        target = TARGETS[name]
        bet_count = len(tracker.bets)
        for label, median in medians.items():
            verdict = "met" if median <= target else "MISSED"
            rows.append([f"{name} ({bet_count} bets): {label}", str(len(cards) * passes), fmt(median),
                         f"{reference / median:,.0f}×", f"≤ {fmt(target)}: {verdict}"])
        rows.append([f"{name} ({bet_count} bets): pricer build, once per session", "1", fmt(build), "", ""])
        rows.append([f"{name} ({bet_count} bets): reference walk, one shoe", "1", fmt(reference), "1×", ""])
        results.append({"bets": name, "count": bet_count, "build_s": build, "reference_s": reference,
                        **{f"median_{k.replace(' ', '_').replace('+', 'and')}_s": v for k, v in medians.items()}})

    print(
        f"exactodds {xo.__version__} · Python {platform.python_version()} · {platform.machine()} · "
        f"{os.cpu_count()} cores · {len(cards)} cards × {passes} pass{'es' * (passes > 1)}"
        + (" · --quick" if args.quick else "")
    )
    print(text_table(["per-card update", "cards", "median", "vs reference", "target"], rows, header_margin=2))
    if args.json:
        print(json.dumps(results, indent=2))
    return 0


def _seconds(func: Callable[[], object]) -> float:
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


if __name__ == "__main__":
    raise SystemExit(main())
