"""The lit-card games: a shoe's statistics, every bet's exact figures under a new law, and the fit of advertised RTPs.

    python benchmarks/lit.py            # 7 rounds
    python benchmarks/lit.py --quick    # 2 rounds (CI: a smoke test)

In one process: the tableau's walk of coup shapes (once a process), an 8-deck shoe's pattern counts
(once a shoe), then, warm, each preset's figures under a law not priced before (every bet, its laws
of pays: what ``odds --game … --multipliers …`` prices), each preset's RTPs alone from the moments,
and Prosperity Tree's fit of its four advertised RTPs. Medians per call, with the machine's load.
There is no old path or peer to pair with: nothing else prices these games exactly. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from exactodds.cards import Shoe  # noqa: E402
from exactodds.games import GAMES  # noqa: E402
from exactodds.games.lit import LitGame, _counts, expected_return  # noqa: E402
from exactodds.games.lit.inverse import fit_rtps  # noqa: E402
from exactodds.games.lit.law import read_multipliers  # noqa: E402
from exactodds.puntobanco import lit  # noqa: E402
from exactodds.puntobanco.rules import PUNTO_BANCO  # noqa: E402

#: Prosperity Tree's advertised RTPs (docs/lit.md, with their source).
ADVERTISED = {"player": "98.9%", "banker": "98.7%", "pair": "92.5%", "tie": "92.8%"}


def timed(work: object) -> float:
    began = time.perf_counter()
    work()  # type: ignore[operator]
    return time.perf_counter() - began


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 rounds (a smoke test)")
    rounds = 2 if parser.parse_args(argv).quick else 7
    shoe = Shoe.standard(8)
    games = [g for g in GAMES if isinstance(g, LitGame)]
    walk = timed(lambda: lit._terms(PUNTO_BANCO.tableau))
    patterns = statistics.median(timed(lambda: lit.pattern_counts(shoe, PUNTO_BANCO.tableau)) for _ in range(rounds))
    _counts(shoe)
    rows = []
    for game in games:
        figures, rtps = [], []
        for k in range(rounds):
            # The preset's values with its chances turned round by k + 1 places: a law not priced before.
            law = read_multipliers(game.multipliers)
            turned = [c for _, c in law[k + 1 :] + law[: k + 1]] if len(law) > 1 else [Fraction(1)]
            text = ",".join(f"{v}:{c}" for (v, _), c in zip(law, turned)) + (f",{k + 9}:0" if len(law) == 1 else "")
            settings = game.settings_of({"multipliers": text})
            figures.append(timed(lambda game=game, settings=settings: game.price(shoe, None, settings)))
            rules = game.rules(settings)
            rtps.append(timed(lambda rules=rules: [expected_return(_counts(shoe), rules, b) for b in
                                                    ("player", "banker", "tie", "player-pair")]))
        rows.append((game.name, statistics.median(figures), statistics.median(rtps)))
    tree = next(g for g in games if g.name == "prosperity-tree")
    fit_rtps(tree, shoe, None, "2:1-p,3:p", None, ADVERTISED)
    fit = statistics.median(timed(lambda: fit_rtps(tree, shoe, None, "2:1-p,3:p", None, ADVERTISED))
                            for _ in range(rounds))
    print(f"lit-card games, 8 decks: {rounds} rounds, medians")
    print(f"{platform.machine()} · {os.cpu_count()} cores · Python {platform.python_version()} · load "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"the tableau's walk of coup shapes (once a process)  {walk * 1e3:8.1f} ms")
    print(f"a shoe's pattern counts (once a shoe)               {patterns * 1e3:8.1f} ms")
    for name, figures, rtps in rows:
        print(f"{name:<18} every figure under a new law {figures * 1e3:8.1f} ms · the RTPs alone {rtps * 1e3:6.2f} ms")
    print(f"prosperity-tree: the fit of four advertised RTPs     {fit * 1e3:8.1f} ms (warm)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
