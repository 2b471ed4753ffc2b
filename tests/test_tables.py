"""The reference tables: the committed tables/ folder is current, writing is atomic, --check catches drift,
and the tables reproduce the published figures."""

from __future__ import annotations

import csv
import io
import json
import os
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import QUICK_SKIPPED_TABLES
from profiles import is_slow
from published_data import Printed, read_rows

import exactodds as xo
from exactodds.cards import falling_factorial
from exactodds.cli import cli
from exactodds.cli.tables import find_tables_dir
from exactodds.puntobanco.bets import side_catalog
from exactodds.puntobanco.rules import EZ
from exactodds.tables import INDEX_TITLE, check_tables, winner_by_total, write_tables

REPO = Path(__file__).resolve().parents[1]
COMMITTED = REPO / "tables"
ROWS = read_rows("published_tables.txt")


def rows(kind: str) -> list[tuple[str, ...]]:
    return [row.fields[1:] for row in ROWS if row.fields[0] == kind]


def load(generated: dict[str, bytes], path: str) -> dict:
    return json.loads(generated[path].decode("utf-8"))


def invoke(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


# ---------------------------------------------------------------------------------------------
# The committed folder, determinism, atomic writing, --check


def test_committed_tables_match_the_code_byte_for_byte(generated):
    status = check_tables(COMMITTED, generated)
    skipped = () if is_slow() else QUICK_SKIPPED_TABLES  # model B3's solutions: checked by the slow profile
    assert not status.stale and not status.missing and set(status.extra) == set(skipped), (
        "tables/ is stale; run `exactodds tables`:\n" + "\n".join(status.lines())
    )


def test_every_file_is_utf8_text_ending_in_one_newline(generated):
    for path, data in generated.items():
        text = data.decode("utf-8")
        assert text.endswith("\n") and not text.endswith("\n\n"), path
        assert "\r" not in text, path
        assert not any(line != line.rstrip() for line in text.splitlines() if not path.endswith(".csv")), path


def test_layout_covers_every_rule_set_deck_count_and_format(generated):
    for rules in ("punto-banco", "ez"):
        for decks in ("1-deck", "2-decks", "4-decks", "6-decks", "8-decks"):
            for ext in ("md", "csv", "json"):
                assert f"par/{rules}-{decks}.{ext}" in generated
        for decks in ("6-decks", "8-decks"):
            for ext in ("md", "csv", "json"):
                assert f"eor/{rules}-{decks}.{ext}" in generated
        for ext in ("md", "csv", "json"):
            assert f"house-edge/{rules}.{ext}" in generated
    assert {"README.md", "closed-forms.md", "closed-forms.json"} <= set(generated)


def test_index_lists_every_file_and_says_how_to_regenerate(generated):
    index = generated["README.md"].decode()
    assert index.startswith(INDEX_TITLE)
    assert "exactodds tables" in index and "exactodds tables --check" in index
    assert "ordered six-card draws" in index
    for path in generated:
        if path != "README.md":
            assert f"({path})" in index, path


def test_write_check_and_repair(tmp_path, generated):
    folder = tmp_path / "tables"
    before = write_tables(folder, generated)
    assert sorted(before.missing) == sorted(generated) and not before.stale
    assert check_tables(folder, generated).ok
    assert not list(folder.rglob("*.tmp"))

    (folder / "par/punto-banco-8-decks.md").write_text("tampered\n", encoding="utf-8")
    (folder / "house-edge/ez.csv").unlink()
    (folder / "par/old-sheet.json").write_text("{}\n", encoding="utf-8")
    (folder / "notes.txt").write_text("mine\n", encoding="utf-8")
    status = check_tables(folder, generated)
    assert status.stale == ("par/punto-banco-8-decks.md",)
    assert status.missing == ("house-edge/ez.csv",)
    assert status.extra == ("notes.txt", "par/old-sheet.json")
    assert not status.ok and status.summary() == "1 stale, 1 missing, 2 extra"

    messages: list[str] = []
    write_tables(folder, generated, messages.append)
    after = check_tables(folder, generated)
    assert after.extra == ("notes.txt",)  # not a kind of file the tables writer owns: left alone
    assert not after.stale and not after.missing
    assert any("left alone" in m for m in messages)
    assert not (folder / "par/old-sheet.json").exists()


def test_an_unchanged_file_is_not_rewritten(tmp_path, generated):
    folder = tmp_path / "tables"
    write_tables(folder, generated)
    target = folder / "closed-forms.md"
    os.utime(target, (1_000_000, 1_000_000))
    write_tables(folder, generated)
    assert target.stat().st_mtime == 1_000_000


def test_an_interrupted_write_leaves_the_old_file_and_no_temporary(tmp_path, generated, monkeypatch):
    folder = tmp_path / "tables"
    write_tables(folder, generated)
    target = folder / "par/ez-8-decks.md"
    target.write_text("old\n", encoding="utf-8")

    def fail(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(KeyboardInterrupt):
        write_tables(folder, generated)
    assert target.read_text(encoding="utf-8") == "old\n"
    assert not [p for p in folder.rglob("*") if p.name.endswith(".tmp")]


def test_refuses_to_write_into_a_folder_that_is_not_a_tables_folder(tmp_path, generated):
    (tmp_path / "precious.md").write_text("keep me\n", encoding="utf-8")
    with pytest.raises(xo.ExactOddsError, match="does not look like an exactodds tables folder"):
        write_tables(tmp_path, generated)
    assert (tmp_path / "precious.md").read_text(encoding="utf-8") == "keep me\n"


def test_find_tables_dir_walks_up_to_the_checkout(tmp_path):
    assert find_tables_dir(REPO / "exactodds") == REPO / "tables"
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "something-else"\n', encoding="utf-8")
    with pytest.raises(xo.ExactOddsError, match="--output"):
        find_tables_dir(tmp_path)


def test_cli_writes_the_folder_then_check_catches_a_modified_and_a_missing_file(tmp_path, generated, monkeypatch):
    folder = tmp_path / "tables"
    # The generation itself is checked against the committed folder (test_committed_…); the CLI
    # is given the session's tables, with the progress of a real run.
    from exactodds.tables import generate_tables as real

    def given(progress=None, parallel=False):
        if progress is not None:
            progress("[ 1/1] par sheet: punto-banco, 8 decks")
        return generated

    monkeypatch.setattr("exactodds.tables.generate_tables", given)
    result = invoke("tables", "--output", str(folder))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert "par sheet: punto-banco, 8 decks" in result.stderr and "wrote" in result.stderr
    assert check_tables(folder, generated).ok
    assert real is not given
    result = invoke("tables", "--check", "--output", str(folder))
    assert result.exit_code == 0 and result.stderr == "" and result.stdout == ""

    (folder / "eor/punto-banco-8-decks.csv").write_text("bet\n", encoding="utf-8")
    (folder / "closed-forms.md").unlink()
    result = invoke("tables", "--check", "--output", str(folder))
    assert result.exit_code == 1
    assert f"stale: {folder / 'eor/punto-banco-8-decks.csv'}" in result.stderr
    assert f"missing: {folder / 'closed-forms.md'}" in result.stderr
    assert result.stderr.splitlines()[-1].startswith("Error: ")
    assert "1 stale, 1 missing" in result.stderr and "exactodds tables" in result.stderr


def test_cli_refuses_a_foreign_folder_before_any_work(tmp_path, monkeypatch):
    (tmp_path / "keep.txt").write_text("mine\n", encoding="utf-8")

    def never(progress=None):
        raise AssertionError("generated tables for a folder it must refuse")

    monkeypatch.setattr("exactodds.tables.generate_tables", never)
    result = invoke("tables", "--output", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ") and "does not look like an exactodds tables folder" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_cli_tables_without_a_checkout_asks_for_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("tables", "--check")
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ") and "--output" in result.stderr


# ---------------------------------------------------------------------------------------------
# Par sheets


def test_par_sheet_totals_and_footer(generated):
    sheet = load(generated, "par/punto-banco-8-decks.json")
    orderings = falling_factorial(416, 6)
    assert sheet["orderings"] == str(orderings) and sheet["decks"] == 8
    assert sheet["header"] == "8 decks (416 cards) · " + xo.PUNTO_BANCO.header()
    assert list(sheet["bets"]) == list(xo.bet_catalog(xo.PUNTO_BANCO))
    for bet_id, bet in sheet["bets"].items():
        assert sum(int(o["count"]) for o in bet["outcomes"]) == orderings, bet_id
        assert bet["totals"] == {
            "count": str(orderings),
            "probability": "1",
            "return": bet["ev"],
            "return_decimal": bet["ev_decimal"],
        }
        ev = sum(Fraction(o["net"]) * Fraction(int(o["count"]), orderings) for o in bet["outcomes"])
        assert Fraction(bet["ev"]) == ev
    banker = sheet["bets"]["banker"]
    assert banker["outcomes"][0]["count"] == "2292252566437888"
    assert Printed.parse("1.0579%").matches(Fraction(banker["house_edge"]))


def test_par_sheet_markdown_and_csv_agree_with_the_json(generated):
    sheet = load(generated, "par/ez-6-decks.json")
    table = list(csv.DictReader(io.StringIO(generated["par/ez-6-decks.csv"].decode())))
    markdown = generated["par/ez-6-decks.md"].decode()
    assert markdown.startswith("# Par sheet: ez, 6 decks\n")
    assert markdown.count("- Rules: 6 decks (312 cards) · " + EZ.header()) == len(sheet["bets"])
    for bet_id, bet in sheet["bets"].items():
        lines = [r for r in table if r["bet"] == bet_id]
        assert [r["outcome"] for r in lines] == [o["outcome"] for o in bet["outcomes"]] + ["total"]
        for line, outcome in zip(lines, bet["outcomes"]):
            assert line["combinations"] == outcome["count"]
            assert line["probability"] == outcome["probability"]
            assert f" {int(outcome['count']):,} |" in markdown
        assert lines[-1]["house_edge"] == bet["house_edge"]
        assert lines[-1]["combinations"] == sheet["orderings"]
        assert f"## {bet_id}: " in markdown
    banker = sheet["bets"]["banker"]
    assert [o["outcome"] for o in banker["outcomes"]] == ["win", "push-three-card-7", "push", "lose"]


def test_one_in_n_is_the_reciprocal_of_the_probability(generated):
    sheet = load(generated, "par/punto-banco-1-deck.json")
    for bet in sheet["bets"].values():
        for o in bet["outcomes"]:
            p = Fraction(o["probability"])
            assert abs(Fraction(o["one_in_decimal"]) - 1 / p) <= Fraction(1, 2 * 10**16)


# ---------------------------------------------------------------------------------------------
# House edge by decks


def test_house_edge_table_rows_and_the_infinite_shoe(generated):
    table = load(generated, "house-edge/punto-banco.json")
    assert [r["decks"] for r in table["rows"]] == [str(d) for d in range(1, 13)] + ["infinite"]
    for row in table["rows"][:-1]:
        analysis = xo.analyze(xo.Shoe.standard(int(row["decks"])), xo.PUNTO_BANCO)
        for figures in analysis.bets:
            assert Fraction(row["house_edge"][figures.bet.id]["exact"]) == figures.house_edge
    infinite = table["rows"][-1]
    assert infinite["cards"] is None
    assert Fraction(infinite["house_edge"]["player-pair"]["exact"]) == 1 - 12 * Fraction(1, 13)
    markdown = generated["house-edge/punto-banco.md"].decode()
    assert "|     ∞ |" in markdown and "|     8 | 1.2351% | 1.0579% | 14.3596% |" in markdown


def test_pair_house_edges_by_decks_match_the_published_ones(generated):
    table = {r["decks"]: r["house_edge"] for r in load(generated, "house-edge/punto-banco.json")["rows"]}
    for decks, printed in rows("pair-edge"):
        for bet in ("player-pair", "banker-pair"):
            exact = Fraction(table[decks][bet]["exact"])
            assert Printed.parse(printed).matches(exact), (decks, bet, printed)


def test_ez_table_differs_from_punto_banco_only_in_the_banker_column(generated):
    pb = load(generated, "house-edge/punto-banco.json")["rows"]
    ez = load(generated, "house-edge/ez.json")["rows"]
    for a, b in zip(pb, ez):
        assert {k for k in a["house_edge"] if a["house_edge"][k] != b["house_edge"][k]} == {"banker"}
    assert Printed.parse("1.0183%").matches(Fraction(ez[7]["house_edge"]["banker"]["exact"]))


# ---------------------------------------------------------------------------------------------
# Coup breakdowns


def test_winning_side_and_total_for_eight_decks_is_the_published_table(generated):
    table = next(r for r in load(generated, "coups/winner-by-total.json")["rows"] if r["decks"] == "8")
    for decks, total, player, banker, tie in rows("winner-total"):
        assert decks == "8"
        assert table["counts"][total] == {"player": player, "banker": banker, "tie": tie}, total
    assert sum(int(n) for t in table["counts"].values() for n in t.values()) == int(table["orderings"])


def test_winner_by_total_matches_the_reference_enumerator_directly(standard_coups):
    published = {int(r[1]): tuple(int(x) for x in r[2:]) for r in rows("winner-total")}
    table = winner_by_total(standard_coups(8).counts)
    assert {t: (c["player"], c["banker"], c["tie"]) for t, c in table.items()} == published


def test_coup_sources_from_the_compiled_evaluator_equal_the_reference_walk(standard_coups):
    # The coup tables count every state with the compiled evaluator; the plain walk is the check.
    # (The reference walk of a suited shoe also splits pairs by suit, which these tables ignore.)
    from exactodds.puntobanco.engine import enumerate_coups
    from exactodds.tables.coups import _coup_sources, cards_per_coup

    sources = {label: counts for label, _, counts, _ in _coup_sources()}
    for decks in (1, 2, 8):
        reference = standard_coups(decks).counts
        assert winner_by_total(sources[str(decks)]) == winner_by_total(reference), decks
        assert cards_per_coup(sources[str(decks)]) == cards_per_coup(reference), decks
    by_rank = enumerate_coups(xo.Shoe.standard(3).without_suits()).counts
    assert dict(sources["3"]) == {s: n for s, n in by_rank.items() if n}


def test_number_of_cards_matches_the_published_distribution(generated):
    table = {r["decks"]: r for r in load(generated, "coups/cards-per-coup.json")["rows"]}
    for decks, *printed in rows("cards"):
        entry = table[decks]
        orderings = int(entry["orderings"])
        assert sum(int(n) for n in entry["counts"].values()) == orderings
        for cards, text in zip(("4", "5", "6"), printed):
            assert Printed.parse(text).matches(Fraction(int(entry["counts"][cards]), orderings)), (decks, cards)


def test_infinite_shoe_breakdowns_are_out_of_thirteen_to_the_sixth(generated):
    table = load(generated, "coups/cards-per-coup.json")["rows"][-1]
    assert table["decks"] == "infinite" and table["orderings"] == str(13**6)
    assert sum(int(n) for n in table["counts"].values()) == 13**6


# ---------------------------------------------------------------------------------------------
# Effect of removal tables


def test_eor_table_reproduces_the_published_values_with_corrected_labels(generated):
    table = load(generated, "eor/punto-banco-8-decks.json")["bets"]
    for decks, value, *printed in rows("eor"):
        assert decks == "8"
        for bet, text in zip(("player", "banker", "tie"), printed):
            row = int(value) - 1 if int(value) else 9  # rows A, 2, …, 9, T
            effect = Fraction(table[bet]["effects"][row]["eor"])
            scaled = effect * 10**7
            assert abs(scaled - int(text)) <= Fraction(1, 2), (value, bet, float(scaled), text)
            assert abs(Fraction(table[bet]["effects"][row]["eor_x1e7"]) - scaled) <= Fraction(1, 20)


def test_panda_eight_wins_with_one_card_removed_are_the_published_counts(generated):
    effects = load(generated, "eor/punto-banco-8-decks.json")["bets"]["panda-8"]["effects"]
    by_card = {e["removed"]: e for e in effects}
    for decks, rank, count in rows("panda-less"):
        assert decks == "8"
        assert by_card[rank]["hits"] == count
        assert by_card[rank]["orderings"] == str(falling_factorial(415, 6))


def test_suggested_tags_reproduce_jacobsons_dragon_and_panda_counts(generated):
    table = load(generated, "eor/ez-8-decks.json")["bets"]
    for bet, level, *tags in rows("tags"):
        suggested = table[bet]["tags"][level]
        # Published in rank order A..9, T; the tables list value 0 (T) first.
        published = dict(zip(["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"], map(int, tags)))
        assert suggested["tags"] == {k: published[k] for k in suggested["tags"]}
        assert suggested["balanced"] is True


# ---------------------------------------------------------------------------------------------
# Super 6 and the side-bet catalog


def test_super_six_and_side_bet_tables_are_written(generated):
    for decks in ("1-deck", "2-decks", "4-decks", "6-decks", "8-decks"):
        for ext in ("md", "csv", "json"):
            assert f"par/super-6-{decks}.{ext}" in generated
            assert f"par/side-bets-{decks}.{ext}" in generated
    for ext in ("md", "csv", "json"):
        assert f"house-edge/super-6.{ext}" in generated and f"house-edge/side-bets.{ext}" in generated
    super6 = load(generated, "par/super-6-8-decks.json")
    assert super6["header"].endswith("banker win with a total of 6 pays 0.5:1")
    banker = super6["bets"]["banker"]
    assert [o["outcome"] for o in banker["outcomes"]] == ["win", "win-on-6", "push", "lose"]
    assert banker["outcomes"][1]["count"] == "269232304455680"
    assert Printed.parse("-0.014581").matches(Fraction(banker["ev"]))


def test_side_bet_par_sheets_carry_the_whole_catalog_with_published_figures(generated):
    sheet = load(generated, "par/side-bets-8-decks.json")
    assert list(sheet["bets"]) == [b.id for b in side_catalog()]
    assert sheet["shoe"]["suited"] is True
    perfect = sheet["bets"]["perfect-pair"]
    assert Fraction(perfect["outcomes"][0]["probability"]) == Fraction(246848784, 7379583120)
    assert Printed.parse("-0.093731").matches(Fraction(sheet["bets"]["dragon-bonus-banker"]["ev"]))
    assert "Perfect Pairs counts published over unordered two-card hands" in generated[
        "par/side-bets-8-decks.md"
    ].decode()


def test_side_bet_house_edge_table(generated):
    table = load(generated, "house-edge/side-bets.json")
    rows = {r["decks"]: r["house_edge"] for r in table["rows"]}
    assert list(rows) == [str(d) for d in range(1, 13)] + ["infinite"]
    assert Printed.parse("13.0294%").matches(Fraction(rows["8"]["perfect-pair"]["exact"]))
    assert Printed.parse("17.0716%").matches(Fraction(rows["6"]["perfect-pair"]["exact"]))
    assert Printed.parse("2.67%").matches(Fraction(rows["6"]["dragon-bonus-player"]["exact"]))
    assert rows["infinite"]["perfect-pair"] is None and rows["infinite"]["either-pair"] is not None
    markdown = generated["house-edge/side-bets.md"].decode()
    assert "| perfect-pair " in markdown and "—" in markdown


def test_refuses_to_write_through_a_symlinked_subfolder(tmp_path, generated):
    """`tables/eor -> elsewhere` once made the generator write outside the tables folder."""
    target = tmp_path / "tables"
    write_tables(target, generated)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (target / "eor" / "punto-banco-8-decks.md").unlink()
    for path in (target / "eor").iterdir():
        path.rename(elsewhere / path.name)
    (target / "eor").rmdir()
    (target / "eor").symlink_to(elsewhere, target_is_directory=True)
    before = sorted(p.name for p in elsewhere.iterdir())
    with pytest.raises(xo.ExactOddsError, match="symbolic link"):
        write_tables(target, generated)
    assert sorted(p.name for p in elsewhere.iterdir()) == before  # nothing written or removed through the link
    result = CliRunner().invoke(cli, ["tables", "--output", str(target)])  # refused before any work
    assert result.exit_code == 2 and "symbolic link" in result.output


def test_refuses_to_write_through_a_symlinked_file(tmp_path, generated):
    target = tmp_path / "tables"
    write_tables(target, generated)
    outside = tmp_path / "outside.md"
    outside.write_text("mine\n")
    (target / "par" / "ez-8-decks.md").unlink()
    (target / "par" / "ez-8-decks.md").symlink_to(outside)
    with pytest.raises(xo.ExactOddsError, match="symbolic link"):
        write_tables(target, generated)
    assert outside.read_text() == "mine\n"


def test_the_game_worker_process_makes_the_same_files_as_this_process(generated):
    # `exactodds tables` solves the chemin de fer models in a forked worker (when there are 2 cores); the
    # session's tables (``generated``) were all made in one process, by the same functions.
    from exactodds.tables import _game_worker

    background = _game_worker(("A1", "B2"), frozenset({"A1"}))
    if background is None:
        pytest.skip("one core or no fork here: the tables are made in one process")
    pool, futures = background

    def made_here(folder: str) -> dict[str, str]:
        return {path: data.decode() for path, data in generated.items() if path.startswith(folder)}

    try:
        assert futures["A1"].result() == made_here("games/chemin-de-fer-a1.")
        assert "B2" not in futures  # made in this process
        assert futures["option 6"].result() == made_here("games/big-table-6-decks.")
    finally:
        pool.shutdown()
