"""The compiled kernel against the paths without it: one shoe's exact core-bet counts, from 8 decks to 10^100 cards.

    python benchmarks/kernel.py            # 9 paired rounds of 200 calls (20 for the biggest shoes)
    python benchmarks/kernel.py --quick    # 2 rounds (CI: a smoke test)

In one process, warm (the flat table and the numpy pricer built first), each round prices the
same shoe by ``shoe_counts`` with the kernel and then with the kernel switched off (the route
a process without it takes: the numpy pricer past its first shoes, its int64, residue or
Python-integer arithmetic by the shoe's size), and the two counts must be equal. It prints the
median per call of each way and the median of the paired ratios, with the machine's load. No
timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from exactodds.cards import Shoe, falling_factorial  # noqa: E402
from exactodds.games import DEFAULT  # noqa: E402
from exactodds.puntobanco.compiled import native  # noqa: E402
from exactodds.puntobanco.compiled.flat import expect_many, flat_pricer, shoe_counts  # noqa: E402

#: The shoes: sizes at every arithmetic switch of either path (int64 to 1,004 cards, 64-bit words to 1,356,
#: 128-bit to 2,200,156, residues beyond).
SHOES = {
    "8 decks, 60 cards dealt": Shoe.standard(8).remove(",".join("A23456789TJQK"[i * 7 % 13] for i in range(60))),
    "1,004 cards": Shoe((78,) * 12 + (68,)),
    "1,005 cards": Shoe((78,) * 12 + (69,)),
    "1,357 cards": Shoe((104,) * 12 + (109,)),
    "10,000 decks": Shoe.standard(10_000),
    "2,200,157 cards": Shoe((169_243,) * 12 + (169_241,)),
    "10^18 cards": Shoe((10**18 // 13,) * 13),
    "10^100 cards": Shoe((10**100 // 13,) * 13),
}


def per_call(work: object, calls: int) -> float:
    """Seconds per call of ``work()``, over ``calls`` calls."""
    began = time.perf_counter()
    for _ in range(calls):
        work()  # type: ignore[operator]
    return (time.perf_counter() - began) / calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 rounds (a smoke test)")
    args = parser.parse_args(argv)
    rounds = 2 if args.quick else 9
    if not native.available():
        print("the compiled kernel is not built here (pip install . with a C compiler): nothing to compare")
        return 0
    settings = DEFAULT.settings_of({})
    bets = DEFAULT.resolve(None, settings, suits=False)
    tableau = DEFAULT.rules(settings).tableau
    expect_many(tableau, bets)  # without the kernel: the numpy pricer from the first shoe, as a long run has it
    kernel = native._kernel, native._residues
    rows = []
    for name, shoe in SHOES.items():
        calls = 20 if shoe.size > 10**7 else 200
        with_kernel, without, ratios = [], [], []
        for _ in range(rounds + 1):  # the first round warms both ways up and is not counted
            native._kernel, native._residues = kernel
            a = shoe_counts(tableau, bets, shoe)
            fast = per_call(lambda shoe=shoe: shoe_counts(tableau, bets, shoe), calls)
            native._kernel = native._residues = None
            b = shoe_counts(tableau, bets, shoe)
            slow = per_call(lambda shoe=shoe: shoe_counts(tableau, bets, shoe), calls)
            if a != b:
                raise AssertionError(f"{name}: the kernel's counts differ from the counts without it")
            with_kernel.append(fast)
            without.append(slow)
            ratios.append(slow / fast)
        native._kernel, native._residues = kernel
        rows.append((name, statistics.median(with_kernel[1:]), statistics.median(without[1:]),
                     statistics.median(ratios[1:])))
    print(f"one shoe's exact counts, the {len(bets)} core bets: {rounds} paired rounds, medians per call")
    print(f"{platform.machine()} · {os.cpu_count()} cores · Python {platform.python_version()} · load "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'shoe':<26}{'kernel':>12}{'without':>12}{'ratio':>9}")
    for name, fast, slow, ratio in rows:
        print(f"{name:<26}{fast * 1e6:>10.1f}µs{slow * 1e6:>10.1f}µs{ratio:>8.1f}×")
    print()
    print("the kernel's steps at its arithmetic switches up to 10^18 cards (issue 30: none above 1.5×),")
    print("paired rounds of the shoes either side, medians per call and of the paired ratios")
    print(f"{'switch':<44}{'below':>11}{'above':>11}{'step':>8}")
    table = flat_pricer(tableau, bets).table
    for name, below, above in switches(table):
        times: list[tuple[float, float]] = []
        for _ in range(rounds + 1):
            pair = tuple(per_call(lambda shoe=shoe: shoe_counts(tableau, bets, shoe), 100) for shoe in (below, above))
            times.append(pair)  # type: ignore[arg-type]
        low = statistics.median(t[0] for t in times[1:])
        high = statistics.median(t[1] for t in times[1:])
        step = statistics.median(t[1] / t[0] for t in times[1:])
        print(f"{name:<44}{low * 1e6:>9.1f}µs{high * 1e6:>9.1f}µs{step:>7.2f}×")
    return 0


def _even(cards: int) -> Shoe:
    """A shoe of ``cards`` cards, its ranks as even as they can be."""
    return Shoe(tuple(cards // 13 + (r < cards % 13) for r in range(13)))


def switches(table: object) -> list[tuple[str, Shoe, Shoe]]:
    """The shoes either side of each switch of the kernel's arithmetic up to 10^18 cards: 64-bit words to 128-bit,
    128-bit to residues (with 2^128 among the moduli), and each further prime, found by bisection on the rules the
    kernel is run by (``native.narrow``, ``native.fits``, the primes a count's bound needs)."""

    def last(holds, low: int, high: int) -> int:  # the last n in [low, high) with holds(n), holds monotone
        while high - low > 1:
            mid = (low + high) // 2
            low, high = (mid, high) if holds(mid) else (low, mid)
        return low

    def moduli_for(cards: int) -> float:  # the primes beside 2^128: 0.5 for the one below 2^32
        native.packed(table)  # type: ignore[arg-type]
        bound = 3 * native._SPREAD[table] * falling_factorial(cards, 6)
        chosen = native._plan(bound, cards < 1 << 64)[0]
        return 0.5 if chosen == (native.SMALL_PRIME,) else len(chosen)

    def named(k: float) -> str:
        return "2^128 and a 32-bit prime" if k == 0.5 else f"2^128 and {k:g} prime{'s' if k != 1 else ''}"

    found = []
    narrow = last(native.narrow, 1, 10**4)
    found.append(("64-bit words → 128-bit", _even(narrow), _even(narrow + 1)))
    wide = last(native.fits, 1, 10**7)
    found.append((f"128-bit → {named(moduli_for(wide + 1))}", _even(wide), _even(wide + 1)))
    # Inside the band of 2^128 and a 32-bit prime, the kernel's weights modulo 2^128 take four multiplications up to
    # the last shoe whose factors of at most 3 cards fit 64 bits (N^3 < 2^64: flatkernel.c, small_weights), six beyond.
    factors = last(lambda n: n**3 < 1 << 64, 1, 10**7)
    if moduli_for(factors) == moduli_for(factors + 1) == 0.5:
        found.append(("32-bit prime: factors of 64 → 128 bits", _even(factors), _even(factors + 1)))
    cards = wide + 1
    while cards < 10**18:
        k = moduli_for(cards)
        nxt = last(lambda n, k=k: moduli_for(n) <= k, cards, 10**18 + 1) + 1
        if nxt > 10**18:
            break
        found.append((f"{named(k)} → {named(moduli_for(nxt))[len('2^128 and '):]}", _even(nxt - 1), _even(nxt)))
        cards = nxt
    return found


if __name__ == "__main__":
    sys.exit(main())
