"""Speed of the card walk (bets on the dealt cards) and of the compiled path beside it, in one run.

    python benchmarks/cardwalk.py                     # 8 decks, 5 repeats
    python benchmarks/cardwalk.py --quick             # a smoke run (CI): 1 deck, 1 repeat
    python benchmarks/cardwalk.py --old /work/main    # also time the compiled path of another checkout

Beside the catalog's card bets it times three bets a bets file may hold: six named cards
(four suits, two kings), the Player's third card the K♠, and a bet of ten outcomes past the
walk's limit, timed to its refusal (the walk's memory is bounded: see docs/files.md).

The compiled path (bets that read only how the coup ended) must keep its speed: with --old
the same core-bet pricing is timed in a fresh interpreter of each checkout, alternately,
and the ratio new/old printed. No timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout, not an installed copy
import exactodds as xo  # noqa: E402

CARD_BETS = ("jackpot-baccarat", "3-giving-8", "lucky-nines", "all-red")
_WIDE = ["p1_suit S", "b1_suit H", "p2_suit D", "b2_suit C", "p1_rank K", "b1_rank Q", "p2_rank J", "b2_rank T"]
#: Bets on the cards as a bets file writes them: each outcome's facts (an otherwise outcome follows).
USER_BETS = {
    "six named cards": [
        {"p1_suit": "S", "b1_suit": "S", "p2_suit": "H", "b2_suit": "D", "b3_rank": "K", "p3_rank": "K"}
    ],
    "P3 the K of spades": [{"p3_rank": "K", "p3_suit": "S"}],
    "past the limit": [
        *({"p3_rank": rank, fact.split()[0]: fact.split()[1]} for rank, fact in zip("A2345678", _WIDE)),
        {"p3_rank": "9", "nines": 1},
        {"p3_rank": "K", "p3_suit": "S", "first_four_colour": "mixed"},
    ],
}
_COMPILED = """
import statistics, sys, time
sys.path.insert(0, {root!r})
import exactodds as xo
shoes = [xo.Shoe.standard({decks}).remove(c) for c in "A23456789T"]
xo.analyze(shoes[0])
times = []
for _ in range({repeats}):
    t = time.perf_counter()
    for shoe in shoes:
        xo.analyze(shoe)
    times.append(time.perf_counter() - t)
print(statistics.median(times))
"""


def median_seconds(func, repeats: int) -> float:
    """The median wall time of ``func`` over ``repeats`` calls, after one warm-up call."""
    func()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def user_bet(shoe: xo.Shoe, facts: list[dict[str, object]]) -> str:
    """Price one bet of USER_BETS by the card walk: "priced", or "refused" past the walk's limit."""
    from exactodds.errors import ExactOddsError
    from exactodds.puntobanco.cardwalk.walk import card_counts
    from exactodds.puntobanco.facts import condition
    from exactodds.puntobanco.rules import STANDARD_TABLEAU

    try:
        card_counts(shoe, STANDARD_TABLEAU, [*(condition(f) for f in facts), None])
    except ExactOddsError:
        return "refused"
    return "priced"


def compiled_seconds(root: Path, decks: int, repeats: int) -> float:
    """Seconds to price the core bets on ten depleted shoes with the checkout at ``root`` (fresh interpreter)."""
    code = _COMPILED.format(root=str(root), decks=decks, repeats=repeats)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    return float(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--old", type=Path, help="another checkout whose compiled path to time against this one")
    args = parser.parse_args()
    decks, repeats = (1, 1) if args.quick else (8, 5)
    shoe = xo.Shoe.standard(decks)
    print(f"card walk, {decks} deck(s), median of {repeats}:")
    for bet in CARD_BETS:
        seconds = median_seconds(lambda bet=bet: xo.analyze(shoe, bets=[bet]), repeats)
        print(f"  {bet:<18} {seconds:8.3f} s")
    for name, facts in USER_BETS.items():
        seconds = median_seconds(lambda facts=facts: user_bet(shoe, facts), repeats)
        print(f"  {name:<18} {seconds:8.3f} s  {user_bet(shoe, facts)}")
    here = Path(__file__).resolve().parents[1]
    if args.old is not None:
        new, old = [], []
        for _ in range(1 if args.quick else 3):  # alternate, so both see the same load
            new.append(compiled_seconds(here, decks, repeats))
            old.append(compiled_seconds(args.old.resolve(), decks, repeats))
        n, o = statistics.median(new), statistics.median(old)
        print(f"compiled path, core bets on 10 shoes: new {n:.4f} s, old {o:.4f} s, new/old {n / o:.3f}")


if __name__ == "__main__":
    main()
