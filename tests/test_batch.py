"""exactodds batch: JSON lines in, one `odds --format json` object per line out."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import exactodds as xo
from exactodds.cli import cli


def run(args: list[str], text: str):
    return CliRunner().invoke(cli, args, input=text)


def odds_json(args: list[str]) -> dict:
    result = CliRunner().invoke(cli, ["odds", "--format", "json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_each_line_gives_the_odds_json_of_its_shoe_in_order() -> None:
    lines = [
        '{"decks": 8}',
        "",
        '{"decks": 8, "remove": "7,7,8"}',
        '{"counts": {"A": 3, "K": 3}}',
        '{"shoe": "A=2,9=2,T=2"}',
        '{"decks": 2, "remove": ["A", "10"]}',
    ]
    result = run(["batch", "--input", "-", "--bet", "tie", "--bet", "banker"], "\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    out = result.stdout.splitlines()
    assert len(out) == 5  # the blank line is skipped
    expected = [
        ["--decks", "8"],
        ["--decks", "8", "--remove", "7,7,8"],
        ["--shoe", "A=3,K=3"],
        ["--shoe", "A=2,9=2,T=2"],
        ["--decks", "2", "--remove", "A,T"],
    ]
    for line, args in zip(out, expected, strict=True):
        assert json.loads(line) == odds_json([*args, "--bet", "tie", "--bet", "banker"])


def test_rules_and_precision_apply_to_every_line(tmp_path) -> None:
    path = tmp_path / "shoes.jsonl"
    path.write_text('{"decks": 6}\n{"decks": 8}\n')
    result = run(["batch", "--input", str(path), "--rules", "ez", "--tie-pays", "9", "--precision", "4"], "")
    assert result.exit_code == 0, result.output
    first = json.loads(result.stdout.splitlines()[0])
    assert first == odds_json(["--decks", "6", "--rules", "ez", "--tie-pays", "9", "--precision", "4"])
    assert first["rules"]["tie_pays"] == "9" and first["bets"]["tie"]["ev_decimal"].count(".") == 1


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{decks: 8}", "not valid JSON"),
        ("[8]", "must be a JSON object"),
        ('{"decks": 0}', "at least 1"),
        ('{"deck": 8}', "unknown key 'deck'"),
        ('{"decks": 8, "counts": {"A": 6}}', "not counts and decks"),
        ('{"counts": {"X": 6}}', "unknown rank"),
        ('{"counts": {"A": 2}}', "at least 6 cards"),
        ('{"counts": [1, 2]}', '"counts" must be an object'),
        ('{"decks": 1, "remove": "A,A,A,A,A"}', "holds only 4"),
        ('{"decks": 1, "remove": 7}', '"remove" must be'),
    ],
)
def test_a_bad_line_stops_the_run_with_its_line_number(line: str, message: str) -> None:
    result = run(["batch", "--input", "-", "--bet", "tie"], '{"decks": 8}\n' + line + '\n{"decks": 1}\n')
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: line 2: ") and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert len(result.stdout.splitlines()) == 1  # the line before it was written, none after


def test_skip_bad_reports_and_goes_on() -> None:
    result = run(["batch", "--input", "-", "--skip-bad", "--bet", "tie"], '{"decks": 0}\n{"decks": 8}\n{"x": 1}\n')
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == 1
    assert "skipped line 1:" in result.stderr and "skipped line 3:" in result.stderr
    assert "2 bad lines skipped" in result.stderr


def test_a_missing_input_file_is_one_line_error(tmp_path) -> None:
    result = run(["batch", "--input", str(tmp_path / "nope.jsonl")], "")
    assert result.exit_code == 2 and result.stderr.startswith("Error:") and "Traceback" not in result.stderr


def test_price_lines_batches_across_chunks_in_order() -> None:
    lines = [f'{{"decks": 8, "remove": "{"A," * (i % 5)}K"}}' for i in range(50)]
    results = list(xo.price_lines(lines, bets=["player"], chunk=7))
    assert [n for n, _ in results] == list(range(1, 51))
    for (_, analysis), line in zip(results, lines, strict=True):
        shoe = xo.parse_shoe_line(line)
        assert analysis.shoe == shoe
        assert (
            analysis.bet("player").outcomes[0].count
            == xo.analyze(shoe, bets=["player"]).bet("player").outcomes[0].count
        )


def test_analyze_many_rows_match_single_analyses() -> None:
    shoes = [xo.Shoe.standard(d).remove(["9"] * (d % 3)) for d in range(1, 30)]
    batch = xo.analyze_many(shoes)
    assert len(batch) == len(shoes) and batch.counts.shape == (len(shoes), sum(len(b.outcomes) for b in batch.bets))
    for shoe, analysis in zip(shoes, batch, strict=True):
        single = xo.analyze(shoe)
        assert [[o.count for o in b.outcomes] for b in analysis.bets] == [
            [o.count for o in b.outcomes] for b in single.bets
        ]
    assert [a.shoe for a in batch[2:4]] == shoes[2:4]
    with pytest.raises(xo.ExactOddsError, match="was not priced"):
        batch.bet_counts("lucky-7")


@pytest.mark.parametrize("text", ["", "\n\n", '{"decks": 0}\n', '{"decks": 0}\n{"x": 1}\n'])
def test_input_with_no_good_line_is_not_a_crash(text: str) -> None:
    """A chunk of bad lines only (or no lines at all) has no shoe to price: that is no reason to crash."""
    skipped = run(["batch", "--input", "-", "--skip-bad"], text)
    assert skipped.exit_code == 0 and skipped.stdout == "" and "Traceback" not in skipped.stderr
    stopped = run(["batch", "--input", "-"], text)
    assert stopped.exit_code == (2 if text.strip() else 0) and stopped.stdout == ""
    assert "Traceback" not in stopped.stderr and len(stopped.stderr.splitlines()) == (1 if text.strip() else 0)
    empty = xo.analyze_many([], bets=["tie"])
    assert len(empty) == 0 and empty.bet_counts("tie").shape == (0, 2)


def test_a_number_with_too_many_digits_and_input_that_is_not_text_are_one_line_errors() -> None:
    result = run(["batch", "--input", "-"], '{"decks": ' + "9" * 5000 + "}\n")
    assert result.exit_code == 2 and result.stderr == "Error: line 1: not valid JSON (a number has too many digits)\n"
    result = CliRunner().invoke(cli, ["batch", "--input", "-"], input=b'{"decks": 8}\n\xff\xfe\n')
    assert result.exit_code == 2 and result.stderr == "Error: cannot read the input: it is not UTF-8 text\n"
