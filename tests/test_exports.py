"""Every exported CSV, read back by the standard ``csv`` reader, against the exact values.

The par-sheet CSVs once had their columns shifted (14 fields under a 15-field header, so
``return_decimal`` held "1 in N"); the old test compared two columns and ``tables --check``
compared the code's output with itself, so neither could see it. Here every CSV file of the
tables and of ``odds --format csv`` is read with :class:`csv.DictReader`: every row must have
exactly the header's fields, every exact column must equal the exact value (from the
analysis objects, or from the JSON file beside it, itself built by another path), and every
decimal column must be that exact value correctly rounded to the digits printed.
"""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from math import perm

from click.testing import CliRunner

from exactodds.cards import Shoe
from exactodds.cli import cli
from exactodds.games.punto_banco import GAME as PUNTO_BANCO_GAME
from exactodds.puntobanco.odds import analyze
from exactodds.puntobanco.rules import PUNTO_BANCO
from exactodds.tables import DATA_PLACES
from exactodds.tables.common import PAR_GAMES


def read_csv(data: bytes | str) -> list[dict[str, str]]:
    """Rows of a CSV file as dicts; fails if any row is not exactly as wide as the header."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    raw = list(csv.reader(io.StringIO(text)))
    header = raw[0]
    for number, row in enumerate(raw[1:], 2):
        assert len(row) == len(header), f"row {number} has {len(row)} fields under a {len(header)}-field header"
    return list(csv.DictReader(io.StringIO(text)))


def assert_rounded(text: str, exact: Fraction, places: int | None = None) -> None:
    """``text`` is ``exact`` rounded to the number of decimals it shows (half a unit in the last place)."""
    shown = len(text.split(".")[1]) if "." in text else 0
    if places is not None:
        assert shown == places, (text, places)
    assert abs(Fraction(text) - exact) <= Fraction(1, 2 * 10**shown), (text, exact)


def assert_sqrt_rounded(text: str, variance: Fraction) -> None:
    shown = len(text.split(".")[1])
    value = Fraction(text)
    half = Fraction(1, 2 * 10**shown)
    assert max(value - half, 0) ** 2 <= variance <= (value + half) ** 2, (text, variance)


def csv_paths(generated: dict[str, bytes], folder: str) -> list[str]:
    return sorted(p for p in generated if p.startswith(folder) and p.endswith(".csv"))


def test_every_generated_csv_is_a_rectangle(generated):
    paths = [p for p in generated if p.endswith(".csv")]
    assert len(paths) >= 30
    for path in paths:
        read_csv(generated[path])


def test_par_sheet_csvs_hold_the_exact_values_in_every_column(generated):
    own = tuple(f"par/{game.name}-" for game in PAR_GAMES)  # the games with a deal of their own: test_game_registry
    paths = [p for p in csv_paths(generated, "par/") if not p.startswith(own)]
    tables = PUNTO_BANCO_GAME.tables  # a par sheet per rule set and deck count, and the side bets' per deck count
    assert len(paths) == len(tables.par_decks) * (len(tables.rule_sets) + 1)
    rules = {r.name: r for r in tables.rule_sets}
    for path in paths:
        rows = read_csv(generated[path])
        stem = path.removeprefix("par/").removesuffix(".csv")
        if stem.startswith("side-bets"):
            rule_set, bets = PUNTO_BANCO, "side"
        else:
            rule_set, bets = next((r, None) for name, r in rules.items() if stem.startswith(name + "-"))
        decks = int(stem.split("-")[-2])
        if bets == "side":
            from exactodds.tables import side_bet_ids

            analysis = analyze(Shoe.standard(decks), rule_set, side_bet_ids())
        else:
            analysis = analyze(Shoe.standard(decks), rule_set)
        by_bet: dict[str, list[dict[str, str]]] = {}
        for row in rows:
            by_bet.setdefault(row["bet"], []).append(row)
        assert list(by_bet) == [f.bet.id for f in analysis.bets], path
        for figures in analysis.bets:
            outcome_rows, total = by_bet[figures.bet.id][:-1], by_bet[figures.bet.id][-1]
            assert [r["outcome"] for r in outcome_rows] == [o.outcome.id for o in figures.outcomes]
            for row, o in zip(outcome_rows, figures.outcomes):
                assert int(row["combinations"]) == o.count
                assert Fraction(row["pays"]) == o.outcome.net
                assert Fraction(row["probability"]) == o.probability
                assert_rounded(row["probability_decimal"], o.probability, DATA_PLACES)
                assert Fraction(row["return"]) == o.contribution, (path, row)
                assert_rounded(row["return_decimal"], o.contribution, DATA_PLACES)
                if o.probability:
                    assert_rounded(row["one_in"], 1 / o.probability, DATA_PLACES)
                else:
                    assert row["one_in"] == ""
                for column in ("house_edge", "house_edge_decimal", "variance", "variance_decimal", "sd_decimal"):
                    assert row[column] == ""
            assert total["outcome"] == "total"
            assert int(total["combinations"]) == analysis.orderings
            assert Fraction(total["return"]) == figures.ev
            assert_rounded(total["return_decimal"], figures.ev, DATA_PLACES)
            assert Fraction(total["house_edge"]) == figures.house_edge
            assert_rounded(total["house_edge_decimal"], figures.house_edge, DATA_PLACES)
            resolved = figures.house_edge_per_resolved_bet
            assert resolved is not None
            assert Fraction(total["house_edge_per_resolved_bet"]) == resolved
            assert_rounded(total["house_edge_per_resolved_bet_decimal"], resolved, DATA_PLACES)
            assert Fraction(total["variance"]) == figures.variance
            assert_rounded(total["variance_decimal"], figures.variance, DATA_PLACES)
            assert_sqrt_rounded(total["sd_decimal"], figures.variance)


def test_the_issue_example_reads_the_player_loss_return_under_its_own_header(generated):
    rows = read_csv(generated["par/punto-banco-8-decks.csv"])
    lose = rows[2]
    assert (lose["bet"], lose["outcome"]) == ("player", "lose")
    assert_rounded("-0.4586", Fraction(lose["return_decimal"]))  # not 2.18…, the old shifted "1 in N"
    assert_rounded("2.18", Fraction(lose["one_in"]))


def test_per_resolved_bet_excludes_ties(generated):
    """Banker 1.1692% and Player 1.3650% per resolved bet at 8 decks (1.0579% and 1.2351% per hand)."""
    rows = {(r["bet"], r["outcome"]): r for r in read_csv(generated["par/punto-banco-8-decks.csv"])}
    assert_rounded("0.011692", Fraction(rows[("banker", "total")]["house_edge_per_resolved_bet_decimal"]))
    assert_rounded("0.013650", Fraction(rows[("player", "total")]["house_edge_per_resolved_bet_decimal"]))
    assert_rounded("0.010579", Fraction(rows[("banker", "total")]["house_edge_decimal"]))
    md = generated["par/punto-banco-8-decks.md"].decode()
    assert "House edge per resolved bet (pushes excluded): 1.16915816" in md
    assert "per resolved bet (pushes excluded)" in generated["house-edge/punto-banco.md"].decode().lower()
    assert "pushes count as resolved bets" not in "".join(d.decode() for d in generated.values() if d)


def test_house_edge_csvs_agree_with_their_json(generated):
    paths = csv_paths(generated, "house-edge/")
    assert len(paths) == len(PUNTO_BANCO_GAME.tables.rule_sets) + 1  # each rule set's, and the side bets'
    for path in paths:
        rows = read_csv(generated[path])
        data = json.loads(generated[path.replace(".csv", ".json")])
        exact = {(r["decks"], bet): v for r in data["rows"] for bet, v in r["house_edge"].items() if v is not None}
        assert len(rows) == len(exact), path
        for row in rows:
            entry = exact[(row["decks"], row["bet"])]
            edge = Fraction(row["house_edge"])
            assert edge == Fraction(entry["exact"])
            assert_rounded(row["house_edge_decimal"], edge, DATA_PLACES)
            resolved = Fraction(row["house_edge_per_resolved_bet"])
            assert resolved == Fraction(entry["per_resolved_bet_exact"])
            assert resolved >= edge if edge > 0 else resolved <= edge
            assert_rounded(row["house_edge_per_resolved_bet_decimal"], resolved, DATA_PLACES)
            assert row["sd_decimal"] == entry["sd_decimal"]
            if row["decks"] != "infinite":
                assert int(row["cards"]) == 52 * int(row["decks"])


def test_eor_csvs_agree_with_their_json(generated):
    paths = csv_paths(generated, "eor/")
    assert len(paths) == len(PUNTO_BANCO_GAME.tables.rule_sets) * len(PUNTO_BANCO_GAME.tables.eor_decks)
    for path in paths:
        rows = read_csv(generated[path])
        data = json.loads(generated[path.replace(".csv", ".json")])
        checked = 0
        for row in rows:
            bet = data["bets"][row["bet"]]
            ev = Fraction(row["ev"])
            assert_rounded(row["ev_decimal"], ev)
            if row["removed"] == "":
                assert ev == Fraction(bet["ev"]) and int(row["hits"]) == int(bet["hits"])
                continue
            effect = next(e for e in bet["effects"] if e["removed"] == row["removed"])
            assert ev == Fraction(effect["ev"])
            eor = Fraction(row["eor"])
            assert eor == Fraction(effect["eor"])
            assert_rounded(row["eor_decimal"], eor)
            assert_rounded(row["eor_x1e7"], eor * 10**7)
            assert int(row["hits"]) == int(effect["hits"]) and int(row["orderings"]) == int(effect["orderings"])
            assert Fraction(int(row["orderings"])) == Shoe.standard(int(path.split("-")[-2])).remove(
                row["removed"]
            ).orderings()
            checked += 1
        assert checked >= 10 * len(data["bets"]), path


def test_coup_csvs_agree_with_their_json(generated):
    for name, key in (("cards-per-coup", "cards_per_coup"), ("winner-by-total", None)):
        rows = read_csv(generated[f"coups/{name}.csv"])
        data = json.loads(generated[f"coups/{name}.json"])
        by_decks = {r["decks"]: r for r in data["rows"]}
        for row in rows:
            entry = by_decks[row["decks"]]
            if key:
                count = int(entry["counts"][row[key]])
            else:
                count = int(entry["counts"][row["total"]][row["winner"]])
            assert int(row["count"]) == count
            assert row["orderings"] == entry["orderings"]
            p = Fraction(count, int(row["orderings"]))
            assert Fraction(row["probability"]) == p
            assert_rounded(row["probability_decimal"], p, DATA_PLACES)


def test_odds_csv_output_reads_back_to_the_exact_figures():
    result = CliRunner().invoke(cli, ["odds", "--decks", "6", "--bet", "all", "--format", "csv", "--precision", "12"])
    assert result.exit_code == 0, result.output
    rows = read_csv(result.output)
    analysis = analyze(Shoe.standard(6), PUNTO_BANCO, ["all"])
    expected = [(f, o) for f in analysis.bets for o in f.outcomes]
    assert len(rows) == len(expected)
    for row, (figures, o) in zip(rows, expected):
        assert (row["bet"], row["outcome"]) == (figures.bet.id, o.outcome.id)
        assert Fraction(row["net"]) == o.outcome.net
        assert int(row["count"]) == o.count
        assert Fraction(row["probability"]) == o.probability
        assert_rounded(row["probability_decimal"], o.probability, 12)
        assert_rounded(row["return_decimal"], o.contribution, 12)
        assert_rounded(row["ev_decimal"], figures.ev, 12)
        assert_rounded(row["house_edge_decimal"], figures.house_edge, 12)
        assert_sqrt_rounded(row["sd_decimal"], figures.variance)


def test_odds_csv_under_a_mixed_policy_says_its_counts_are_scaled():
    """Under --player-5 0.8 the counts are 5 times the weighted orderings: the CSV says so on every row.

    It once printed them with no word (the table and the JSON said it), so a count read from it
    was 5 times too large, larger than (N)P6.
    """
    orderings = perm(416, 6)
    shoe = Shoe.standard(8)
    draw, stand = (analyze(shoe, PUNTO_BANCO.with_player_five(p), ["tie"]).bets[0] for p in ("draw", "stand"))
    result = CliRunner().invoke(cli, ["odds", "--player-5", "0.8", "--bet", "tie", "--format", "csv"])
    rows = read_csv(result.output)
    assert [r["count_scale"] for r in rows] == ["5", "5"]
    for row, d, s in zip(rows, draw.outcomes, stand.outcomes):
        assert int(row["count"]) == 4 * d.count + s.count  # n·(drawing) + (d − n)·(standing), by hand
        assert Fraction(row["probability"]) == Fraction(int(row["count"]), int(row["count_scale"]) * orderings)
    assert sum(int(r["count"]) for r in rows) == 5 * orderings
    plain = CliRunner().invoke(cli, ["odds", "--bet", "tie", "--format", "csv"]).output
    assert "count_scale" not in plain.splitlines()[0]  # a plain shoe's CSV keeps its columns
