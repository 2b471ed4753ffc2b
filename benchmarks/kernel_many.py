"""The compiled kernel's batched walk: many 8-deck shoes priced at once against the same shoes priced one by one.

    python benchmarks/kernel_many.py            # 9 paired rounds of 1,000 shoes
    python benchmarks/kernel_many.py --quick    # 2 rounds of 100 shoes (CI: a smoke test)

In one process, warm (the flat table built and the kernel loaded first), each round prices the
same random depleted 8-deck shoes (``bench.depleted_shoes``, the core bets) by ``flat_counts_many`` (the narrow
shoes two at a time through the kernel's ``flat_sums_many``: what ``count_rows`` takes for a review or a
``batch``) and then by one ``flat_counts`` call per shoe (``flat_sums``), and the counts must be
equal. It prints the median per shoe of each way and the median of the paired ratios, with the
machine's load. No timing is asserted anywhere.
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
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import depleted_shoes  # noqa: E402

from exactodds.games import DEFAULT  # noqa: E402
from exactodds.puntobanco.compiled import native  # noqa: E402
from exactodds.puntobanco.compiled.flat import flat_counts, flat_counts_many  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 rounds of 100 shoes (a smoke test)")
    args = parser.parse_args(argv)
    rounds, count = (2, 100) if args.quick else (9, 1000)
    if not native.available():
        print("the compiled kernel is not built here (pip install . with a C compiler): nothing to compare")
        return 0
    settings = DEFAULT.settings_of({})
    bets = DEFAULT.resolve(None, settings, suits=False)
    tableau = DEFAULT.rules(settings).tableau
    shoes = depleted_shoes(count)
    together, alone, ratios = [], [], []
    for _ in range(rounds + 1):  # the first round warms both ways up and is not counted
        began = time.perf_counter()
        many = flat_counts_many(tableau, bets, shoes)
        middle = time.perf_counter()
        each = [flat_counts(tableau, bets, shoe) for shoe in shoes]
        ended = time.perf_counter()
        if many != each:
            raise AssertionError("flat_counts_many's counts differ from flat_counts'")
        together.append((middle - began) / count)
        alone.append((ended - middle) / count)
        ratios.append(alone[-1] / together[-1])
    fast, slow, ratio = (statistics.median(x[1:]) for x in (together, alone, ratios))
    print(f"{count} depleted 8-deck shoes, the {len(bets)} core bets: {rounds} paired rounds, medians per shoe")
    print(f"{platform.machine()} · {os.cpu_count()} cores · Python {platform.python_version()} · load "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'flat_counts_many':<20}{'flat_counts':>14}{'ratio':>9}")
    print(f"{fast * 1e6:>16.1f}µs{slow * 1e6:>12.1f}µs{ratio:>8.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
