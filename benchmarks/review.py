"""Speed of `exactodds review`: one million wagers over 10,000 shoes, the whole command timed.

    python benchmarks/review.py            # 10,000 eight-deck shoes, 1,000,000 wagers (target: under 60 s)
    python benchmarks/review.py --quick    # 100 shoes, 10,000 wagers (CI)

The log is made first, seeded: shoes dealt by the tableau from shuffled 8-deck shoes down to the cut card (14 cards
left), ten tables' shoes interleaved, and on each coup wagers by seven seats on the core bets (some stakes random),
each settled as its cards say, until the wagers are placed. Then `exactodds review LOG --format json` runs as a user
runs it, in its own process, and its wall and CPU time are printed with the machine's load, beside the target. The
review prices each shoe state once, through the compiled kernel, and by default reviews a log of more than 4 MB on
every core (`--workers`; the verdict is the same whatever the number). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from exactodds.cards import RANK_POINTS, RANKS, SUITS
from exactodds.puntobanco.bets import find_bet
from exactodds.puntobanco.rules import PUNTO_BANCO, deal_coup
from exactodds.review.shoes import coup_state

TARGET_SECONDS = 60
BETS = ("banker", "player", "tie", "player-pair", "banker-pair", "dragon-7", "panda-8")
SEATS = tuple(f"seat-{n}" for n in range(1, 8))
TABLES = 10
CUT_CARD = 14


def money(x: object) -> str:
    from decimal import Decimal
    from fractions import Fraction

    f = Fraction(x)  # type: ignore[arg-type]
    return str(Decimal(f.numerator) / Decimal(f.denominator))


def make_log(path: Path, shoes: int, wagers: int, seed: int = 2026) -> tuple[int, int]:
    """Write the log; return (lines, wagers written)."""
    rng = random.Random(seed)
    per_shoe = wagers // shoes
    bets = {b: find_bet(b, PUNTO_BANCO) for b in BETS}
    deck = [r.value + s.value for r in RANKS for s in SUITS for _ in range(8)]
    values = {card: RANK_POINTS[RANKS[[r.value for r in RANKS].index(card[0])]] for card in set(deck)}
    written = lines = 0
    with path.open("w", encoding="utf-8") as out:
        for block in range(0, shoes, TABLES):
            dealt = []
            for t in range(min(TABLES, shoes - block)):
                shoe_id = f"T{t}-{block // TABLES:05d}"
                cards = deck[:]
                rng.shuffle(cards)
                records = [{"shoe": shoe_id, "decks": 8, "table": f"T{t}"}]
                i, coup, coups = 0, 0, []
                while len(cards) - i > CUT_CARD:
                    coup += 1
                    _, _, pc, bc = deal_coup([values[c] for c in cards[i:i + 6]], PUNTO_BANCO.tableau)
                    player = [cards[i], cards[i + 2]] + ([cards[i + 4]] if pc == 3 else [])
                    banker = [cards[i + 1], cards[i + 3]] + ([cards[i + 4 + (pc == 3)]] if bc == 3 else [])
                    i += pc + bc
                    coups.append((coup, player, banker))
                spread = [rng.randrange(len(coups)) for _ in range(per_shoe)]
                placed: dict[int, int] = {}
                for k in spread:
                    placed[k] = placed.get(k, 0) + 1
                for k, (number, player, banker) in enumerate(coups):
                    records.append({"shoe": shoe_id, "coup": number, "player": player, "banker": banker})
                    state = coup_state(player, banker)
                    for _ in range(placed.get(k, 0)):
                        bet = rng.choice(BETS)
                        stake = rng.choice((5, 10, 25, 100))
                        net = stake * bets[bet].settle(state).net
                        records.append({"shoe": shoe_id, "coup": number, "who": rng.choice(SEATS), "bet": bet,
                                        "stake": str(stake), "net": money(net)})
                        written += 1
                records.append({"shoe": shoe_id, "end": True})
                dealt.append(records)
            # The tables' lines interleaved, each shoe's in order.
            while any(dealt):
                for records in dealt:
                    for record in records[:3]:
                        out.write(json.dumps(record) + "\n")
                        lines += 1
                    del records[:3]
    return lines, written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 shoes, 10,000 wagers (a smoke test)")
    parser.add_argument("--shoes", type=int, default=None)
    parser.add_argument("--wagers", type=int, default=None)
    args = parser.parse_args(argv)
    shoes = args.shoes or (100 if args.quick else 10_000)
    wagers = args.wagers or (10_000 if args.quick else 1_000_000)
    print(f"review: {wagers:,} wagers over {shoes:,} eight-deck shoes, {TABLES} tables interleaved")
    print(f"{platform.machine()} · {os.cpu_count()} cores · Python {platform.python_version()} · load"
          f" {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.jsonl"
        start = time.perf_counter()
        lines, written = make_log(path, shoes, wagers)
        print(f"the log: {lines:,} lines, {written:,} wagers, {path.stat().st_size / 1e6:.1f} MB, made in"
              f" {time.perf_counter() - start:.1f} s")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "exactodds", "review", str(path), "--format", "json"],
                              capture_output=True, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return 1
        verdict = json.loads(done.stdout)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        print(f"exactodds review: {wall:.1f} s wall, {cpu:.1f} s CPU ({written / wall:,.0f} wagers/s;"
              f" {verdict['log']['coups']:,} coups priced) · target under {TARGET_SECONDS} s for 1,000,000 wagers"
              f" over 10,000 shoes")
        print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
