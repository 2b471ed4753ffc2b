"""The tableau as data, the rule sets and their lookup, and the commission and pay parsers."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from exactodds import PUNTO_BANCO, RULE_SETS, ExactOddsError, find_rules, parse_commission, parse_pays
from exactodds.puntobanco.rules import EZ, STANDARD_TABLEAU, Tableau

# The Banker's table as the rule sheets print it (docs/rules.md): Banker total -> Player third cards it stands on.
BANKER_STANDS_AGAINST = {
    0: "",
    1: "",
    2: "",
    3: "8",
    4: "0 1 8 9",
    5: "0 1 2 3 8 9",
    6: "0 1 2 3 4 5 8 9",
    7: "0 1 2 3 4 5 6 7 8 9",
}


def test_the_tableau_is_the_printed_one():
    t = STANDARD_TABLEAU
    assert [total for total in range(10) if t.is_natural(total)] == [8, 9]
    assert [total for total in range(8) if t.player_draws(total)] == [0, 1, 2, 3, 4, 5]
    assert [total for total in range(8) if t.banker_draws(total, None)] == [0, 1, 2, 3, 4, 5]
    for banker, stands in BANKER_STANDS_AGAINST.items():
        stand_on = {int(v) for v in stands.split()}
        assert {v for v in range(10) if not t.banker_draws(banker, v)} == stand_on, banker


def test_tableau_key_is_stable_text():
    assert STANDARD_TABLEAU.key() == (
        "P:012345|S:012345|B:0123456789;0123456789;0123456789;012345679;234567;4567;67;|N:89"
    )
    rows = list(STANDARD_TABLEAU.banker_draws_against)
    rows[6] = rows[6] | {5}
    assert replace(STANDARD_TABLEAU, banker_draws_against=tuple(rows)).key() != STANDARD_TABLEAU.key()


def test_tableau_validates_itself():
    with pytest.raises(ExactOddsError, match="a row for each total 0 to 7"):
        replace(STANDARD_TABLEAU, banker_draws_against=STANDARD_TABLEAU.banker_draws_against[:7])
    with pytest.raises(ExactOddsError, match=r"Player draw totals must be values 0 to 9, not \[5, 10\]"):
        replace(STANDARD_TABLEAU, player_draws_on=frozenset({5, 10}))
    assert isinstance(STANDARD_TABLEAU, Tableau)


def test_the_rule_sets():
    assert RULE_SETS[:2] == (PUNTO_BANCO, EZ)
    names = [name for r in RULE_SETS for name in (r.name, *r.aliases)]
    assert len(names) == len(set(names))  # no name taken twice; each rule set found by its name and its aliases
    assert all(find_rules(r.name) is r and all(find_rules(a) is r for a in r.aliases) for r in RULE_SETS)
    assert (PUNTO_BANCO.commission, PUNTO_BANCO.tie_pays, PUNTO_BANCO.banker_pays) == (
        Fraction(1, 20),
        8,
        Fraction(19, 20),
    )
    assert not PUNTO_BANCO.banker_three_card_seven_pushes
    assert (EZ.commission, EZ.tie_pays, EZ.banker_pays, EZ.banker_three_card_seven_pushes) == (0, 8, 1, True)
    assert PUNTO_BANCO.tableau is EZ.tableau is STANDARD_TABLEAU


@pytest.mark.parametrize(
    ("name", "rules"),
    [
        ("punto-banco", PUNTO_BANCO),
        ("standard", PUNTO_BANCO),
        ("mini", PUNTO_BANCO),
        ("midi", PUNTO_BANCO),
        ("ez", EZ),
        ("ez-baccarat", EZ),
    ],
)
def test_find_rules_by_name_or_alias(name, rules):
    assert find_rules(name) is rules


@pytest.mark.parametrize(
    ("name", "closest"),
    [("Punto Banco", "punto-banco"), ("punto_banco", "punto-banco"), (" midi ", "midi"), ("super_6", "super-6")],
)  # fmt: skip
def test_a_rule_set_name_is_matched_exactly_and_a_near_miss_is_told_the_closest(name, closest):
    """Rule-set names were once read stripped, with _ or a space for -: now exactly, but for case."""
    with pytest.raises(ExactOddsError, match=f"^unknown rule set {name!r}: did you mean {closest}[,?]"):
        find_rules(name)


@pytest.mark.parametrize(("name", "rules"),
                         [("MINI", "punto-banco"), ("EZ-Baccarat", "ez"), ("Standard", "punto-banco")])
def test_a_rule_set_is_found_in_any_case(name, rules):
    assert find_rules(name).name == rules


@pytest.mark.parametrize(("choice", "closest"), [("Draw", "draw"), (" stand", "stand"), ("BEST", "best")])
def test_a_player_five_word_is_matched_exactly(choice, closest):
    message = rf"^unknown choice on the Player's 5 {choice!r}: did you mean {closest}\?"
    with pytest.raises(ExactOddsError, match=message):
        PUNTO_BANCO.with_player_five(choice)
    assert PUNTO_BANCO.with_player_five(" 0.8 ").player_five_draws == Fraction(4, 5)  # a number, not an identifier


def test_unknown_rules_list_the_valid_names():
    valid = ", ".join(r.name for r in RULE_SETS)
    with pytest.raises(ExactOddsError, match=rf"unknown rule set 'vegas': valid rule sets are {valid}$"):
        find_rules("vegas")


def test_headers_and_dicts():
    assert PUNTO_BANCO.header() == "punto-banco · banker 0.95:1 (5% commission) · tie 8:1 · EZ push: off"
    assert EZ.header() == "ez · banker 1:1 (no commission) · tie 8:1 · EZ push: on"
    custom = PUNTO_BANCO.with_commission(Fraction(1, 40)).with_tie_pays(Fraction(9))
    assert custom.header() == "punto-banco · banker 0.975:1 (2.5% commission) · tie 9:1 · EZ push: off"
    assert custom.as_dict() == {
        "name": "punto-banco",
        "commission": "1/40",
        "tie_pays": "9",
        "banker_pays": "39/40",
        "banker_three_card_seven_pushes": False,
        "tableau": STANDARD_TABLEAU.key(),
    }
    assert PUNTO_BANCO.commission == Fraction(1, 20)  # with_… returns a new rule set


def test_rule_sets_validate_themselves():
    with pytest.raises(ExactOddsError, match="at least 0% and below 100%"):
        PUNTO_BANCO.with_commission(Fraction(1))
    with pytest.raises(ExactOddsError, match="at least 0% and below 100%"):
        PUNTO_BANCO.with_commission(Fraction(-1, 20))
    with pytest.raises(ExactOddsError, match="the Tie must pay more than 0 to 1"):
        PUNTO_BANCO.with_tie_pays(Fraction(0))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("5%", Fraction(1, 20)),
        (" 4 % ", Fraction(1, 25)),
        ("2.5%", Fraction(1, 40)),
        ("0%", Fraction(0)),
        ("0.04", Fraction(1, 25)),
        ("0.05", Fraction(1, 20)),
        ("1/20", Fraction(1, 20)),
        ("0", Fraction(0)),
        ("0.0125", Fraction(1, 80)),
    ],
)
def test_parse_commission(text, value):
    assert parse_commission(text) == value


@pytest.mark.parametrize("text", ["", "%", "5%%", "five", "5 percent", "1/0", "0.05.1", "$5"])
def test_malformed_commission(text):
    with pytest.raises(ExactOddsError, match=r"malformed commission .*: write e\.g\. 5%, 2\.5% or 0\.05"):
        parse_commission(text)


@pytest.mark.parametrize("text", ["100%", "1", "-5%", "150%", "-0.01"])
def test_commission_out_of_range(text):
    with pytest.raises(ExactOddsError, match="the commission must be at least 0% and below 100%"):
        parse_commission(text)


@pytest.mark.parametrize("text", ["1e999999999", "1e-999999999%", "1e101", "9" * 4000])
def test_numbers_too_large_to_work_with_are_refused_at_once(text):
    with pytest.raises(ExactOddsError, match="malformed commission"):
        parse_commission(text)
    with pytest.raises(ExactOddsError, match="malformed tie pay"):
        parse_pays(text, "tie pay")


def test_parse_pays():
    assert parse_pays("9") == 9 and parse_pays(" 1/2 ") == Fraction(1, 2) and parse_pays("7.5") == Fraction(15, 2)
    with pytest.raises(ExactOddsError, match="malformed tie pay 'nine': write a number such as 8 or 9"):
        parse_pays("nine", "tie pay")
    with pytest.raises(ExactOddsError, match="the tie pay must be more than 0, not '0'"):
        parse_pays("0", "tie pay")
    with pytest.raises(ExactOddsError, match="must be more than 0"):
        parse_pays("-8")


@pytest.mark.parametrize("bad_id", ["Bad Id!", "", "-x", "UPPER", "a b"])
def test_pay_override_ids_are_checked_like_bet_ids(bad_id):
    from exactodds.puntobanco.facts import condition
    from exactodds.puntobanco.rules import PayOverride

    with pytest.raises(ExactOddsError, match=r"an override id is lower-case letters, digits and dashes, not "):
        PayOverride(bad_id, "a total of 6", condition({"banker_total": 6}), Fraction(1, 2))
    assert PayOverride("win-on-6", "a total of 6", condition({"banker_total": 6}), Fraction(1, 2)).id == "win-on-6"
