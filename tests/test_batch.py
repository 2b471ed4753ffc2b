"""exactodds batch: JSON lines in, one `odds --format json` object per line out."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from profiles import is_slow, slow

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
        ('{"deck": 8}', "unknown key 'deck': did you mean decks?"),
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


@pytest.mark.parametrize("nest", ["[" * 100_000, '{"counts": ' * 50_000])
def test_a_line_nested_too_deeply_is_a_one_line_error_not_a_traceback(nest: str) -> None:
    """json.loads raises RecursionError (no ValueError) on deep nesting: it used to end batch in a traceback."""
    result = run(["batch", "--input", "-"], '{"decks": 1}\n' + nest + "\n")
    assert result.exit_code == 2 and result.stderr == "Error: line 2: not valid JSON (nested too deeply)\n"
    assert len(result.stdout.splitlines()) == 1


@pytest.mark.parametrize("decks", ['"' + "9" * 5000 + '"', "-" + "9" * 4000])
def test_a_huge_bad_number_of_decks_is_named_not_copied(decks: str) -> None:
    result = run(["batch", "--input", "-"], '{"decks": ' + decks + "}\n")
    assert result.exit_code == 2 and result.stderr.startswith("Error: line 1: the number of decks must be a whole")
    assert len(result.stderr) < 200


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

    from exactodds.cli import cli
    from exactodds.puntobanco.bets import bet_catalog
    from exactodds.puntobanco.rules import PUNTO_BANCO

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


# --- The JSON written from integers is byte for byte the JSON written through Fractions -------------------

from fractions import Fraction  # noqa: E402

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from profiles import examples  # noqa: E402

from exactodds.exact import decimal_text, fraction_text  # noqa: E402
from exactodds.present.odds_json import FIELDS, JsonLayout  # noqa: E402
from exactodds.puntobanco.rules import find_rules  # noqa: E402


def fraction_json(analysis: xo.Analysis, places: int) -> str:
    """The JSON of an analysis as it was written before the integer renderer: from the Fraction figures."""

    def bet(figures):
        return {
            "description": figures.bet.description,
            "outcomes": [
                {
                    "outcome": o.outcome.id,
                    "event": o.outcome.event.name,
                    "net": fraction_text(o.outcome.net),
                    "count": str(o.count),
                    "probability": fraction_text(o.probability),
                    "probability_decimal": decimal_text(o.probability, places),
                    "return": fraction_text(o.contribution),
                    "return_decimal": decimal_text(o.contribution, places),
                }
                for o in figures.outcomes
            ],
            "ev": fraction_text(figures.ev),
            "house_edge": fraction_text(figures.house_edge),
            "variance": fraction_text(figures.variance),
            "hit_frequency": fraction_text(figures.hit_frequency),
            "ev_decimal": decimal_text(figures.ev, places),
            "house_edge_decimal": decimal_text(figures.house_edge, places),
            "variance_decimal": decimal_text(figures.variance, places),
            "sd_decimal": figures.sd_text(places),
            "hit_frequency_decimal": decimal_text(figures.hit_frequency, places),
        }

    data = {
        "rules": analysis.rules.as_dict(),
        "shoe": {"cards": analysis.shoe.size, "counts": analysis.shoe.as_dict(), "suited": analysis.shoe.suited},
        "orderings": str(analysis.orderings),
        "bets": {figures.bet.id: bet(figures) for figures in analysis.bets},
    }
    if analysis.rules.player_five:
        data["policy"] = {"player_5": analysis.rules.player_five}
    return json.dumps(data, separators=(",", ":"))


RULES = [
    xo.PUNTO_BANCO, find_rules("ez"), xo.PUNTO_BANCO.with_player_five("9/11"), xo.PUNTO_BANCO.with_player_five("stand")
]
BET_SETS = [None, ["all"], ["tie", "banker", "big", "dragon-bonus-banker"]]
# Tiny (6 cards), odd (one rank only, ranks missing), 8-deck, and huge (beyond 2^63 cards) shoes.
SHOE_COUNTS = st.one_of(
    st.lists(st.integers(0, 3), min_size=13, max_size=13),
    st.lists(st.integers(0, 40), min_size=13, max_size=13),
    st.lists(st.integers(0, 2**70), min_size=13, max_size=13),
).filter(lambda c: sum(c) >= 6)


@examples(200, 4)
@given(SHOE_COUNTS, st.sampled_from(RULES[:2]), st.sampled_from(BET_SETS), st.integers(0, 30))
def test_the_integer_json_is_the_fraction_json_byte_for_byte(counts, rules, bets, places):
    shoe = xo.Shoe(tuple(counts))
    analysis = xo.analyze(shoe, rules, bets)
    expected = fraction_json(analysis, places)
    layout = JsonLayout(rules, [f.bet for f in analysis.bets], places)
    row = [o.count for f in analysis.bets for o in f.outcomes]
    assert layout.line(shoe, row, analysis.orderings) == expected
    assert xo.render(analysis, "json", places) == json.dumps(json.loads(expected), indent=2) + "\n"


def test_mixed_and_chosen_policies_on_5_write_the_same_bytes():
    for rules in RULES[2:]:
        for shoe in (xo.Shoe.standard(1), xo.Shoe.parse("A=3,K=2,5=1")):
            analysis = xo.analyze(shoe, rules)
            row = [o.count for f in analysis.bets for o in f.outcomes]
            expected = fraction_json(analysis, 7)
            assert JsonLayout(rules, [f.bet for f in analysis.bets], 7).line(shoe, row, analysis.orderings) == expected


def random_lines(count: int, seed: int) -> list[str]:
    """{"counts": …} lines of depleted 8-deck, tiny, odd and huge shoes, with a few other kinds of line."""
    import random

    rng = random.Random(seed)
    lines = []
    for i in range(count):
        kind = i % 6
        if kind == 0:
            counts = {r: rng.randint(0, 32) for r in "A23456789TJQK"}
        elif kind == 1:
            counts = {r: rng.randint(0, 1) for r in "A23456789TJQK"} | {"9": 6}
        elif kind == 2:
            counts = {r: rng.randint(0, 2**80) for r in rng.sample("A23456789TJQK", 5)} | {"K": 2**64}
        elif kind == 3:
            lines.append(json.dumps({"decks": rng.randint(1, 9), "remove": rng.choice(["7,7", "A", "K,Q"])}))
            continue
        elif kind == 4:
            counts = {"a": 3, "10": 3, "k": rng.randint(0, 5)}  # other names of ranks
        else:
            counts = {r: 32 - rng.randint(0, 10) for r in "A23456789TJQK"}
        lines.append(json.dumps({"counts": counts}))
    return lines


@pytest.mark.parametrize(
    ("args", "places", "count"),
    [
        ([], 10, 120),
        (["--rules", "ez", "--precision", "4"], 4, 120),
        (["--bet", "all", "--precision", "0"], 0, 60),
        (["--player-5", "9/11", "--precision", "12"], 12, 12),
    ],
)
def test_batch_writes_the_fraction_json_of_every_line(args: list[str], places: int, count: int) -> None:
    if not is_slow():  # each line is priced again here: the quick run takes 24 (4 of each kind, past FLAT_SHOES)
        count = min(count, 24)
    lines = random_lines(count, seed=len(args))
    result = run(["batch", *args], "\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    out = result.stdout.splitlines()
    assert len(out) == len(lines)
    rules = find_rules("ez") if "ez" in args else xo.PUNTO_BANCO
    if "--player-5" in args:
        rules = rules.with_player_five(args[args.index("--player-5") + 1])
    bets = ["all"] if "all" in args else None
    for line, text in zip(lines, out, strict=True):
        shoe = parse_shoe_line(line)
        assert text == fraction_json(xo.analyze(shoe.without_suits() if bets else shoe, rules, bets), places)


# --- The {"counts": …} fast path reads every line as the full reader does ----------------------------------

CANONICAL = '{{"counts": {{' + ", ".join(f'"{r}": {{}}' for r in "A23456789TJQK") + "}}}}"


@pytest.mark.parametrize(
    "line",
    [
        '{"counts": {"A": 3, "K": 3}}',
        '{ "counts" : { "a" : 3 , "10" : 3 , "t": 0 } }',
        '{"counts": {"A": 3, "A": 3}}',  # a key given twice: the full reader refuses it
        '{"counts": {"A": 3, "K": {"x:y": 1}, "K": 3}}',
        '{"counts": {"A": 3, "a": 3}}',
        '{"counts": {"A": 3, "K": 3}, "counts": {"A": 6}}',
        '{"counts": {"A": 3.0, "K": 3}}',
        '{"counts": {"A": true, "K": 6}}',
        '{"counts": {"A": -1, "K": 7}}',
        '{"counts": {"A": 1, "K": 2}}',
        '{"counts": {"\\u0041": 3, "K": 3}}',
        '{"counts": {" A": 3, "K": 3}}',
        '{"counts": {"A": NaN, "K": 6}}',
        '{"counts": {"A": 1' + "0" * 100 + ', "K": 6}}',
        '{"counts": {}}',
        '{"counts": {"A": 6}, "remove": "A"}',
        # around the object: whitespace is JSON's, anything else is not (the quick path scans from the first byte)
        ' {"counts": {"A": 3, "K": 3}}',
        '{"counts": {"A": 3, "K": 3}} \t\n',
        '{"counts": {"A": 3, "K": 3}} x',
        '{"counts": {"A": 3, "K": 3}}{}',
        '{"counts": {"A": 3, "K": 3}}\u00a0',
        # every rank once, in order: the common line, read by its own quick test
        CANONICAL.format(*[32] * 13),
        CANONICAL.format(*[0] * 12, 6),
        CANONICAL.format(*[0] * 12, 5),
        CANONICAL.format(*[32] * 12, "true"),
        CANONICAL.format(*[32] * 12, -1),
        CANONICAL.format(*[32] * 12, "32.0"),
        CANONICAL.format(*[32] * 12, '"32"'),
        CANONICAL.format(*[32] * 12, "1" + "0" * 101),
        CANONICAL.format(*[32] * 13)[:-2] + ', "K": 5}}',  # K twice: the full reader refuses it
    ],
)
def test_the_counts_fast_path_agrees_with_the_full_reader(line: str) -> None:
    from exactodds import batch as module

    def full(text: str):
        fast, module._counts_line = module._counts_line, lambda text: None
        try:
            return module.parse_shoe_line(text)
        except xo.ExactOddsError as err:
            return str(err)
        finally:
            module._counts_line = fast

    try:
        got = parse_shoe_line(line)
    except xo.ExactOddsError as err:
        got = str(err)
    assert got == full(line)
    fast = module._counts_line(line)
    assert fast is None or fast == got


# --- --fields: the chosen keys of the same object --------------------------------------------------------


def pruned(data: dict, fields: set[str]) -> dict:
    """The full object without the keys not chosen; a bet keeps its id, an outcome row its id, empty levels go."""
    outcome_keys = set(FIELDS[FIELDS.index("outcome"):])
    rows = bool(fields & outcome_keys)
    out = {k: v for k, v in data.items() if k in fields}
    bets = {}
    for bet_id, bet in data["bets"].items():
        kept = {}
        for key, value in bet.items():
            if key == "outcomes":
                if rows:
                    kept[key] = [{k: v for k, v in o.items() if k in fields or k == "outcome"} for o in value]
            elif key in fields:
                kept[key] = value
        if kept:
            bets[bet_id] = kept
    if bets:
        out["bets"] = bets
    order = list(data)
    return dict(sorted(out.items(), key=lambda item: order.index(item[0])))


@examples(60, 8)
@given(st.sets(st.sampled_from(FIELDS), min_size=1), st.sampled_from(RULES[:3]))
def test_fields_write_the_full_object_without_the_other_keys(fields: set[str], rules) -> None:
    lines = random_lines(6, seed=len(fields))
    rules_args = ["--rules", "ez"] if rules.name == "ez" else []
    if rules.player_five:
        rules_args = ["--player-5", rules.player_five]
    if "rebate" in fields:  # a bet's rebate is a key of the full object with --rebate only
        rules_args += ["--rebate", "1/125", "--rebate-basis", "losing-only"]
    full = run(["batch", *rules_args], "\n".join(lines))
    cut = run(["batch", *rules_args, "--fields", ",".join(sorted(fields))], "\n".join(lines))
    assert full.exit_code == cut.exit_code == 0, cut.output
    for whole, part in zip(full.stdout.splitlines(), cut.stdout.splitlines(), strict=True):
        assert part == json.dumps(pruned(json.loads(whole), fields), separators=(",", ":"))


def test_fields_values_are_the_exact_analysis_values() -> None:
    lines = random_lines(24, seed=7)
    result = run(["batch", "--fields", "ev,house_edge,variance,hit_frequency,count,probability,return"],
                 "\n".join(lines))
    assert result.exit_code == 0, result.output
    for line, text in zip(lines, result.stdout.splitlines(), strict=True):
        analysis = xo.analyze(parse_shoe_line(line))
        got = json.loads(text)
        assert list(got) == ["bets"] and list(got["bets"]) == [f.bet.id for f in analysis.bets]
        for figures in analysis.bets:
            mine = got["bets"][figures.bet.id]
            assert Fraction(mine["ev"]) == figures.ev and Fraction(mine["house_edge"]) == figures.house_edge
            assert Fraction(mine["variance"]) == figures.variance
            assert Fraction(mine["hit_frequency"]) == figures.hit_frequency
            for row, o in zip(mine["outcomes"], figures.outcomes, strict=True):
                assert row["outcome"] == o.outcome.id and int(row["count"]) == o.count
                assert Fraction(row["probability"]) == o.probability and Fraction(row["return"]) == o.contribution


@pytest.mark.parametrize("rules", [[], ["--rules", "ez"], ["--player-5", "9/11"], ["--bet", "all"]])
def test_fields_ev_alone_is_each_bet_s_exact_ev(rules: list[str]) -> None:
    """``--fields ev`` has a path of its own (each bet's S1/(L·n), nothing else worked out): its EVs are the exact
    analysis', under a mixed policy on the Player's 5 too (counts scaled), for every bet of the catalog."""
    lines = random_lines(12, seed=5)
    result = run(["batch", "--fields", "ev", *rules], "\n".join(lines))
    assert result.exit_code == 0, result.output
    args = dict(zip(rules[::2], rules[1::2]))
    rule_set = find_rules(args.get("--rules", "punto-banco"))
    if "--player-5" in args:
        rule_set = rule_set.with_player_five(args["--player-5"])
    for line, text in zip(lines, result.stdout.splitlines(), strict=True):
        got = json.loads(text)["bets"]
        analysis = xo.analyze(parse_shoe_line(line), rule_set, ["all"] if "--bet" in args else None)
        assert list(got) == [f.bet.id for f in analysis.bets]
        assert all(got[f.bet.id] == {"ev": str(f.ev)} for f in analysis.bets)


@pytest.mark.parametrize("fields", ["edge", "", ",", "ev,bets", "ev,EV"])
def test_bad_fields_are_one_error_line(fields: str) -> None:
    result = run(["batch", "--fields", fields], '{"decks": 8}\n')
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("Error: ") and len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.stderr and "field" in result.stderr


def test_fields_of_the_top_level_only() -> None:
    result = run(["batch", "--fields", "orderings,shoe"], '{"decks": 1}\n')
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"shoe": {"cards": 52, "counts": xo.Shoe.standard(1).as_dict(), "suited": True},
                                         "orderings": str(xo.Shoe.standard(1).orderings())}


@slow
def test_the_odds_json_laid_out_from_its_layout_is_json_dumps_of_the_analysis_byte_for_byte() -> None:
    """``render_json`` writes the text from a cached layout; it must be what ``json.dumps`` writes of the same
    object, indented and compact, for every game, rebate or none, at every precision (and a layout kept from one
    shoe serves the next)."""
    import json
    import random

    from exactodds.cards import Shoe
    from exactodds.games import GAMES
    from exactodds.present.odds_json import analysis_json, render_json

    rng = random.Random(29)
    for game in GAMES:
        if not game.has("bets"):
            continue
        rebates = [None, "1%"] if any(s.name == "rebate" for s in game.settings) else [None]
        for rebate in rebates:
            settings = game.settings_of({} if rebate is None else {"rebate": rebate})
            for _ in range(3 if is_slow() else 2):  # two shoes: the second is laid out by the first's layout
                decks = rng.randint(1, 8)
                held = [rank + suit for rank in "A23456789TJQK" for suit in "SHDC" for _ in range(decks)]
                cards = rng.sample(held, rng.randint(0, 20))  # cards the shoe holds, by suit: suited bets priced too
                shoe = Shoe.standard(decks).remove(",".join(cards))
                analysis = game.price(shoe, None, settings)
                for places in (0, 4, 17):
                    data = analysis_json(analysis, places)
                    assert render_json(analysis, places) == json.dumps(data, indent=2), (game.name, places)
                    assert render_json(analysis, places, indent=None) == json.dumps(data, separators=(",", ":"))
