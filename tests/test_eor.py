"""Effect of removal and suggested count tags: exact identities, the published figures, the ``eor`` command."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from profiles import examples, is_slow
from published_data import read_rows

import exactodds as xo
from exactodds.cli import cli
from exactodds.eor import count_tags
from exactodds.puntobanco.odds import price
from exactodds.puntobanco.rules import EZ

PUBLISHED_EOR = {
    int(r.fields[2]): tuple(int(x) for x in r.fields[3:])
    for r in read_rows("published_tables.txt")
    if r.fields[0] == "eor"
}


@pytest.fixture(scope="module")
def eight() -> xo.EffectOfRemoval:
    return xo.effect_of_removal(xo.Shoe.standard(8))


def invoke(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


# ---------------------------------------------------------------------------------------------
# Exact values


def test_published_eight_deck_eor_with_corrected_labels(eight):
    for value, printed in PUBLISHED_EOR.items():
        for bet, text in zip(("player", "banker", "tie"), printed):
            scaled = eight.bet(bet).scaled()[value - 1 if value else 9]  # rows A, 2, …, 9, then T
            assert abs(scaled - text) <= Fraction(1, 2), (value, bet, float(scaled), text)


def test_each_effect_is_the_difference_of_two_reference_enumerations(eight, standard_coups):
    shoe = xo.Shoe.standard(8)
    full = standard_coups(8)  # the reference walk of the full shoe
    for removal in eight.removals[:: 3 if is_slow() else 9]:  # the quick run: a ten and a nine, each a walk
        less = xo.enumerate_coups(shoe.remove([removal.rank]))
        for effects in eight.bets:
            expected = price(less, effects.bet).ev - price(full, effects.bet).ev
            assert effects.effects[eight.removals.index(removal)] == expected


def test_pair_bets_are_unchanged_by_removing_any_one_card_from_whole_decks(eight):
    for bet in ("player-pair", "banker-pair"):
        assert set(eight.bet(bet).effects) == {0}
        assert eight.tags(bet, 2) is None


def test_value_rows_remove_a_ten_for_zero_and_weigh_every_zero_card(eight):
    assert [r.label for r in eight.removals] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"]
    assert [r.cards for r in eight.removals] == [32] * 9 + [128]
    assert [r.deck_cards for r in eight.removals] == [4] * 9 + [16]


def test_effects_weighted_by_the_cards_sum_to_zero_in_a_full_shoe(eight):
    # Burning one random card does not change the odds, so the average EOR over the cards is 0.
    weights = [r.cards for r in eight.removals]
    for effects in eight.bets:
        assert sum(w * e for w, e in zip(weights, effects.effects)) == 0, effects.bet.id


@examples(12)
@given(st.lists(st.integers(0, 5), min_size=13, max_size=13).filter(lambda c: sum(c) >= 8))
def test_by_rank_effects_average_to_zero_for_any_shoe(counts):
    shoe = xo.Shoe(tuple(counts))
    eor = xo.effect_of_removal(shoe, by="rank")
    weights = [r.cards for r in eor.removals]
    for effects in eor.bets:
        total = sum(w * e for w, e in zip(weights, effects.effects) if e is not None)
        assert total == 0, effects.bet.id


def test_a_shoe_without_tens_removes_the_next_zero_rank_and_a_missing_value_has_no_row():
    shoe = xo.Shoe.parse("A=4,2=4,3=4,J=2,K=2")
    eor = xo.effect_of_removal(shoe, bets=["banker"])
    assert eor.removals[-1].label == "J" and eor.removals[-1].cards == 4
    assert eor.removals[3].rank is None and eor.bet("banker").effects[3] is None  # no 4
    assert "—" in xo.render_eor(eor)


def test_too_small_a_shoe_is_refused():
    with pytest.raises(xo.ExactOddsError, match="at least 7 cards"):
        xo.effect_of_removal(xo.Shoe.parse("A=6"))


# ---------------------------------------------------------------------------------------------
# Count tags


def test_tags_reach_exactly_the_level_and_correlate_positively(eight):
    for effects in eight.bets:
        for level in (1, 2, 3, 4, 5):
            tags = eight.tags(effects.bet.id, level)
            if effects.bet.id.endswith("-pair"):
                assert tags is None
                continue
            assert max(abs(t) for t in tags.tags) == level
            assert 0 < tags.signed_correlation_squared <= 1
            for e, t in zip(effects.effects, tags.tags):
                assert abs(e / tags.unit - t) <= Fraction(1, 2)


def test_jacobsons_published_tags_are_reproduced():
    eor = xo.effect_of_removal(xo.Shoe.standard(8), EZ, ["dragon-7", "panda-8"])
    # Jacobson lists A..9 then T/J/Q/K: the order of the rows and of the tags here too.
    for row in read_rows("published_tables.txt"):
        if row.fields[0] != "tags":
            continue
        bet, level, *published = row.fields[1:]
        tags = eor.tags(bet, int(level))
        assert list(tags.tags) == [int(t) for t in published], row.source
        assert tags.balanced


def test_count_tags_prefers_a_balanced_count_to_a_better_correlated_one():
    effects = [Fraction(-2), Fraction(1), Fraction(7, 5)]
    tags = count_tags(effects, [1, 1, 1], [1, 1, 1], 1)
    # (-1, 1, 1) tracks the effects more closely (correlation 0.995) but a deck would count +1.
    assert tags.tags == (-1, 0, 1) and tags.balanced
    assert tags.correlation_text(3) == "0.915"


def test_count_tags_rejects_a_level_below_one():
    with pytest.raises(xo.ExactOddsError):
        count_tags([Fraction(1)], [1], [1], 0)


# ---------------------------------------------------------------------------------------------
# Rendering and the command


def test_render_formats(eight):
    data = json.loads(xo.render_eor(eight, "json"))
    assert data["scale"] == "10000000" and data["by"] == "value"
    assert list(data["bets"]) == [b.bet.id for b in eight.bets]
    first = data["bets"]["tie"]["effects"][0]
    assert first["removed"] == "A" and Fraction(first["eor"]) == eight.bet("tie").effects[0]
    rows = list(csv.DictReader(io.StringIO(xo.render_eor(eight, "csv"))))
    assert len(rows) == len(eight.bets) * 11
    markdown = xo.render_eor(eight, "markdown")
    assert markdown.startswith("# 8 decks (416 cards) · punto-banco")
    assert "| less one 4 " in markdown
    with pytest.raises(xo.ExactOddsError):
        xo.render_eor(eight, "xml")


def test_cli_eor_banker_eight_decks():
    result = invoke("eor", "--decks", "8", "--bet", "banker")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "8 decks (416 cards) · punto-banco · banker 0.95:1 (5% commission) · tie 8:1 · EZ push: off"
    assert any(line.split() == ["less", "one", "4", "1157.2"] for line in lines)
    assert any(line.split()[:2] == ["banker", "4"] for line in lines)


def test_cli_eor_json_depleted_shoe_by_rank_and_levels():
    result = invoke(
        "eor", "--remove", "K,K,Q", "--by", "rank", "--bet", "player-pair", "--level", "2", "--format", "json"
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["shoe"]["cards"] == 413 and data["by"] == "rank"
    effects = data["bets"]["player-pair"]["effects"]
    assert [e["removed"] for e in effects][-4:] == ["T", "J", "Q", "K"]
    assert len({e["eor"] for e in effects}) > 1  # a depleted shoe: pairs now depend on the rank removed
    assert list(data["bets"]["player-pair"]["tags"]) == ["2"]


def test_cli_eor_csv_with_ez_rules():
    result = invoke("eor", "--decks", "6", "--rules", "ez", "--bet", "banker", "--format", "csv")
    assert result.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["removed"] for r in rows] == ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "T"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bet", "nope"], "unknown bet"),
        (["--shoe", "A=6"], "at least 7 cards"),
        (["--decks", "0"], "number of decks"),
        (["--level", "0"], "0"),
        (["--by", "suit"], "suit"),
    ],
)
def test_cli_eor_bad_input(args, message):
    result = invoke("eor", *args)
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ") and message in result.stderr
    assert len(result.stderr.splitlines()) == 1
