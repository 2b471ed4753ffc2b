"""exactodds batch: JSON lines in, one `odds --format json` object per line out."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import exactodds as xo
from exactodds.batch import BadLine, parse_shoe_line, price_lines
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
        # One rank under two names, or a key given twice, would otherwise be added up or overwritten.
        ('{"counts": {"A": 3, "a": 3}}', 'rank A is given twice in "counts"'),
        ('{"counts": {"10": 3, "T": 3}}', 'rank T is given twice in "counts"'),
        ('{"counts": {"K": 3, "K": 3}}', "key 'K' is given twice"),
        ('{"decks": 8, "decks": 7}', "key 'decks' is given twice"),
        # Every number must be a JSON integer, of a size a shoe can have.
        ('{"decks": 8.0}', "whole number"),
        ('{"decks": true}', "whole number"),
        ('{"decks": 1e400}', "whole number"),
        ('{"decks": NaN}', "NaN is not a JSON number"),
        ('{"decks": -Infinity}', "-Infinity is not a JSON number"),
        ('{"counts": {"A": 8.0, "K": 6}}', "the count of A must be a whole number"),
        ('{"counts": {"A": false, "K": 6}}', "the count of A must be a whole number"),
        ('{"decks": 1' + "0" * 99 + "}", "at most 10^100 cards"),
        ('{"counts": {"A": 1' + "0" * 100 + ', "K": 6}}', "at most 10^100 cards"),
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
    results = list(price_lines(lines, bets=["player"], chunk=7))
    assert [n for n, _ in results] == list(range(1, 51))
    for (_, analysis), line in zip(results, lines, strict=True):
        shoe = parse_shoe_line(line)
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


def test_a_number_with_too_many_digits_is_a_one_line_error() -> None:
    result = run(["batch", "--input", "-"], '{"decks": ' + "9" * 5000 + "}\n")
    assert result.exit_code == 2 and result.stderr == "Error: line 1: not valid JSON (a number has too many digits)\n"


GOOD = [f'{{"decks": 8, "remove": "{"9," * i}K"}}'.encode() for i in range(4)]


@pytest.mark.parametrize("where", ["-", "file"])
def test_a_line_that_is_not_utf8_stops_at_its_number_after_every_earlier_result(tmp_path, where: str) -> None:
    data = b"\n".join([*GOOD, b'{"decks": 8\xff}', b'{"decks": 7}']) + b"\n"
    path = tmp_path / "shoes.jsonl"
    path.write_bytes(data)
    source = "-" if where == "-" else str(path)
    result = CliRunner().invoke(cli, ["batch", "--input", source, "--bet", "tie"], input=data)
    assert result.exit_code == 2 and result.stderr == "Error: line 5: not UTF-8 text\n"
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["shoe"]["cards"] for o in out] == [415, 414, 413, 412]  # lines 1-4, written before the error
    skipped = CliRunner().invoke(cli, ["batch", "--input", source, "--bet", "tie", "--skip-bad"], input=data)
    assert skipped.exit_code == 0 and skipped.stderr == "skipped line 5: not UTF-8 text\n1 bad line skipped\n"
    assert [json.loads(line)["shoe"]["cards"] for line in skipped.stdout.splitlines()] == [415, 414, 413, 412, 364]


def test_a_bad_line_is_reported_without_reading_further() -> None:
    """Stopping at a bad line yields the results before it at once, not after a whole chunk of lines."""

    def lines():
        yield from GOOD
        yield b"\xff"
        raise AssertionError("read past the bad line")

    results = list(price_lines(lines(), bets=["tie"], stop_at_bad=True))
    assert [(n, type(r).__name__) for n, r in results] == [(n, "Analysis") for n in range(1, 5)] + [(5, "BadLine")]
    assert results[-1][1] == BadLine(5, "not UTF-8 text")
    skipping = list(price_lines([*GOOD[:2], b"\xfe", "", GOOD[3].decode()], bets=["tie"]))
    assert [(n, type(r).__name__) for n, r in skipping] == [
        (1, "Analysis"), (2, "Analysis"), (3, "BadLine"), (5, "Analysis")
    ]


def test_a_closed_stdin_is_a_one_line_error() -> None:
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        ["sh", "-c", f'exec "{sys.executable}" -m exactodds batch --input - --bet tie <&-'],
        cwd=root, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "Error: cannot read the standard input: it is closed\n"


HUGE = [
    {"A": 2**63 - 6, "K": 6},  # 2^63 cards: the example
    {"A": 9223372036854775802, "K": 6, "9": 1},
    {"A": 10**99, "K": 10**99, "T": 10**99, "5": 7 * 10**99 - 3, "9": 3},  # exactly 10^100 cards
    {"A": 10**40, "2": 7, "3": 1},
]


@pytest.mark.parametrize("small", [0, 3, 20])  # small chunks go one by one, big ones through the batch kernel
def test_shoes_up_to_a_googol_cards_are_priced_exactly_in_batch(small: int) -> None:
    shoes = [xo.Shoe.from_counts(c) for c in HUGE] + [xo.Shoe.standard(8).remove(["9"] * i) for i in range(small)]
    shoes = shoes[::2] + shoes[1::2]  # huge and small mixed in one chunk
    assert max(s.size for s in shoes) == 10**100
    bets = ["banker", "player", "tie", "player-pair", "either-pair", "dragon-bonus-banker", "big"]
    batch = xo.analyze_many(shoes, bets=bets)
    for shoe, analysis in zip(shoes, batch, strict=True):
        single = xo.analyze(shoe, bets=bets)
        assert [[(o.count, o.probability) for o in b.outcomes] for b in analysis.bets] == [
            [(o.count, o.probability) for o in b.outcomes] for b in single.bets
        ]
        assert analysis.bet("banker").ev == single.bet("banker").ev and analysis.shoe == shoe


def test_batch_prints_a_shoe_of_two_to_the_63_cards_and_the_rest_of_its_chunk() -> None:
    lines = [json.dumps({"counts": HUGE[0]}), '{"decks": 8}', json.dumps({"counts": HUGE[2]})]
    result = run(["batch", "--input", "-", "--bet", "tie"], "\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    out = [json.loads(line) for line in result.stdout.splitlines()]
    shoes = [",".join(f"{k}={v}" for k, v in HUGE[0].items()), None, ",".join(f"{k}={v}" for k, v in HUGE[2].items())]
    for got, shoe in zip(out, shoes, strict=True):
        args = ["--decks", "8"] if shoe is None else ["--shoe", shoe]
        assert got == odds_json([*args, "--bet", "tie"])
    assert out[0]["shoe"]["cards"] == 2**63 and out[2]["shoe"]["cards"] == 10**100


def test_bet_all_in_batch_prices_every_bet_a_line_known_by_rank_can_take():
    """`batch --bet all` once included the suited bets, so every line known by rank only failed."""
    from click.testing import CliRunner

    from exactodds.bets import bet_catalog
    from exactodds.cli import cli
    from exactodds.rules import PUNTO_BANCO

    lines = '{"decks": 1, "remove": "7"}\n{"counts": {"A": 4, "K": 8}}\n{"decks": 2}\n'
    result = CliRunner().invoke(cli, ["batch", "--bet", "all"], input=lines)  # --input defaults to stdin
    assert result.exit_code == 0, result.output
    plain = [b.id for b in bet_catalog(PUNTO_BANCO, full=True).values() if not b.needs_suits]
    outputs = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(outputs) == 3 and all(list(o["bets"]) == plain for o in outputs)


def test_a_suited_bet_on_a_line_known_by_rank_is_that_line_only():
    """`batch --bet perfect-pair` once failed the whole run, with no line number, on one rank-only line."""
    from click.testing import CliRunner

    from exactodds.cli import cli

    lines = '{"decks": 1}\n{"counts": {"A": 4, "K": 8}}\n{"decks": 2}\n'
    result = CliRunner().invoke(cli, ["batch", "--bet", "perfect-pair", "--skip-bad"], input=lines)
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == 2
    assert "skipped line 2: bet perfect-pair needs a shoe with suits" in result.stderr
    stopped = CliRunner().invoke(cli, ["batch", "--bet", "perfect-pair"], input=lines)
    assert stopped.exit_code == 2 and len(stopped.stdout.splitlines()) == 1
    assert stopped.stderr.startswith("Error: line 2: bet perfect-pair needs a shoe with suits")
