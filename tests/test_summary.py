"""``odds --summary``: one line a bet, each figure equal to one made in the test from the outcomes' exact counts of
``odds --format json`` (the full view), read back by the csv module."""

from __future__ import annotations

import csv
import io
import json
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

from click.testing import CliRunner

from exactodds.cli import cli


def run(args: list[str]) -> str:
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    return out.stdout


def percent(x: Fraction, places: int) -> str:
    """x as a percentage rounded half to even at ``places`` decimals, as the tables print it."""
    value = Decimal(x.numerator) * 100 / Decimal(x.denominator)
    return f"{value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)}%"


def test_the_summary_has_a_row_per_bet_with_the_full_view_s_figures() -> None:
    setup = ["--bet", "all", "--decks", "6", "--rules", "ez"]
    full = json.loads(run(["odds", *setup, "--format", "json"]))
    rows = list(csv.DictReader(io.StringIO(run(["odds", *setup, "--summary", "--format", "csv", "--precision", "8"]))))
    assert [row["bet"] for row in rows] == list(full["bets"])
    orderings = int(full["orderings"])
    for row in rows:
        outcomes = full["bets"][row["bet"]]["outcomes"]
        law = [(Fraction(o["net"]), Fraction(int(o["count"]), orderings)) for o in outcomes if "net" in o]
        if len(law) != len(outcomes):
            continue  # a bet paid by a multiplier: its law of pays is not its outcomes' nets
        ev = sum(net * p for net, p in law)
        pushed = sum(p for net, p in law if net == 0)
        hit = sum(p for net, p in law if net > 0)
        assert row["house edge/hand"] == percent(-ev, 6), row["bet"]
        assert row["per resolved bet"] == ("—" if pushed == 1 else percent(-ev / (1 - pushed), 6)), row["bet"]
        assert row["RTP"] == percent(1 + ev, 6) and row["hit frequency"] == percent(hit, 6), row["bet"]
        top = max(net for net, _ in law)
        chance = sum(p for net, p in law if net == top)
        assert row["GLI-11 1 in 10⁸"] == ("yes" if chance * 10**8 >= 1 else "NO")


def test_the_summary_is_short_and_its_json_is_refused_in_one_line() -> None:
    text = run(["odds", "--bet", "all", "--summary"])
    full = run(["odds", "--bet", "all"])
    assert len(text.splitlines()) < len(full.splitlines()) / 5
    refused = CliRunner().invoke(cli, ["odds", "--summary", "--format", "json"])
    assert refused.exit_code == 2 and refused.stderr.startswith("Error: --summary") and refused.stderr.count("\n") == 1
