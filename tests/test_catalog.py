"""The side-bet catalog and super-6: every bet reproduces its published figures; pays and structure."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb
from pathlib import Path

import pytest
from profiles import slow_cases
from published_data import Printed, read_rows

import exactodds as xo
from exactodds.cards import falling_factorial
from exactodds.exact import fraction_text
from exactodds.puntobanco.bets import side_catalog
from exactodds.puntobanco.coup import ALL_STATES
from exactodds.puntobanco.odds import resolve_bets
from exactodds.puntobanco.rules import EZ, STANDARD_TABLEAU, Tableau
from exactodds.tables import winner_by_total

ROWS = read_rows("published_side_bets.txt")
#: Pays to 1 as published (WoO): Egalite by tied total, Dragon Bonus by winning margin (not a natural).
EGALITE_PAYS = {0: 150, 1: 215, 2: 225, 3: 200, 4: 120, 5: 110, 6: 45, 7: 45, 8: 80, 9: 80}
DRAGON_BONUS_PAYS = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}
ROOT = Path(__file__).resolve().parents[1]


@cache
def figures(rules: str, decks: int, bet: str) -> xo.BetFigures:
    analysis = xo.analyze(xo.Shoe.standard(decks), xo.find_rules(rules), [bet])
    return analysis.bet(bet)


@pytest.mark.parametrize("row", ROWS, ids=lambda r: " ".join(r.fields[:5]))
def test_published_side_bet_figures(row):
    rules, decks, bet, kind, outcome, printed, *ours = row.fields
    assert len(ours) == (kind == "erratum"), row.where
    f = figures(rules, int(decks), bet)
    by_id = {o.outcome.id: o for o in f.outcomes}
    where = f"{row.where} ({row.source})"
    if kind == "count":
        assert by_id[outcome].count == int(printed), where
    elif kind == "pairs":
        hits, base = printed.split("/")
        assert by_id[outcome].probability == Fraction(int(hits), int(base)), where
    elif kind == "prob":
        assert Printed.parse(printed).matches(by_id[outcome].probability), where
    elif kind == "return":
        assert Printed.parse(printed).matches(f.ev), where
    elif kind == "edge":
        assert Printed.parse(printed).matches(f.house_edge), where
    elif kind == "erratum" and outcome == "-":  # an edge printed wrong: ours, not the printed one, matches
        assert Printed.parse(ours[0]).matches(f.house_edge) and not Printed.parse(printed).matches(f.house_edge), where
    elif kind == "erratum":  # a count printed wrong: ours is exact, the printed one differs
        assert by_id[outcome].probability == Fraction(ours[0]) != Fraction(printed), where
    else:  # pragma: no cover
        raise AssertionError(f"unknown kind {kind!r} at {row.where}")


def test_woo_binions_lucky_nines_table_moves_21504_hands_from_one_row_to_another():
    """WoO's two wrong rows differ from ours by the same 21,504 hands, and its 19.46% is its table's own edge."""
    base = comb(416, 4)
    woo, ours = {}, {}
    for row in ROWS:
        rules, decks, bet, kind, outcome, printed, *exact = row.fields
        if bet == "lucky-nines" and kind in ("pairs", "erratum") and outcome != "-":
            woo[outcome] = Fraction(printed) * base
            ours[outcome] = Fraction(exact[0] if exact else printed) * base
    moved = {o: woo[o] - ours[o] for o in woo if woo[o] != ours[o]}
    assert moved == {"three-suited-nines": -21504, "three-nines": 21504}
    pays = {o.outcome.id: o.outcome.net for o in figures("punto-banco", 8, "lucky-nines").outcomes}
    assert set(woo) == set(pays) and sum(woo.values()) == base
    printed_ev = sum(woo[o] * pays[o] for o in woo) / base  # WoO's return −0.194605 (published.md)
    assert printed_ev == Fraction(-1994584, 10249421) and Printed.parse("19.46%").matches(-printed_ev)
    assert figures("punto-banco", 8, "lucky-nines").ev - printed_ev == Fraction(21504 * (250 - 20), base)


def test_the_side_bets_page_states_each_wrong_row_of_the_binions_table():
    """docs/side-bets.md once said that apart from the three suited nines "the other rows agree to the digit"."""
    page = " ".join((ROOT / "docs" / "side-bets.md").read_text(encoding="utf-8").split())
    base = comb(416, 4)
    for row in ROWS:
        rules, decks, bet, kind, outcome, printed, *ours = row.fields
        if bet == "lucky-nines" and kind == "erratum":
            for figure in (printed, ours[0]):
                shown = figure if outcome == "-" else f"{int(Fraction(figure) * base):,}"
                assert shown in page, (row.where, shown)
    assert "the other six rows agree to the digit" in page


def test_every_catalog_bet_is_checked_against_a_published_figure_or_an_identity():
    # The bets of the Asian floor (issue 21) are checked against the peer library's printed figures
    # (tests/data/published_peer.txt, tests/test_asian_bets.py).
    published = {row.fields[2] for row in ROWS} | {row.fields[1] for row in read_rows("published_peer.txt")}
    # Either Pair (5:1) has no published exact figure that we could find; it is checked by identity below,
    # and the Banker totals 2, 1, 0 are cut from the stored WoO page.
    unpublished = {"either-pair", "banker-total-2", "banker-total-1", "banker-total-0"}
    assert {b.id for b in side_catalog()} - published == unpublished


def test_all_red_and_black_against_the_closed_form():
    """No pay table is published for All Red/Black: the probability is C(26d,4)/C(52d,4) at every shoe size."""
    from math import comb

    for decks in (1, 6):
        for bet in ("all-red", "all-black"):
            win = figures("punto-banco", decks, bet).outcomes[0]
            assert win.probability == Fraction(comb(26 * decks, 4), comb(52 * decks, 4))


def test_either_pair_is_the_union_of_the_two_pair_bets(standard_coups):
    dist = standard_coups(8)
    either = figures("punto-banco", 8, "either-pair")
    both = dist.count(lambda s: s.player_pair and s.banker_pair)
    pairs = dist.count(lambda s: s.player_pair)  # the same for the Banker, by symmetry
    assert either.outcomes[0].count == 2 * pairs - both
    assert either.outcomes[0].outcome.net == 5
    assert either.house_edge_percent(4) == "13.7099%"


def test_banker_totals_without_a_published_count_still_sum_with_the_rest(standard_coups):
    total = sum(figures("punto-banco", 8, f"banker-total-{t}").outcomes[0].count for t in range(10))
    assert total == falling_factorial(416, 6)
    by_total = winner_by_total(standard_coups(8).counts)
    assert figures("punto-banco", 8, "player-total-0").outcomes[0].count > by_total[0]["tie"]


def test_pay_tables():
    catalog = xo.bet_catalog(xo.PUNTO_BANCO, full=True)
    assert [(o.id, o.net) for o in catalog["dragon-bonus-banker"].outcomes] == [
        *((f"win-by-{m}", Fraction(p)) for m, p in DRAGON_BONUS_PAYS.items()),
        ("natural-win", 1), ("natural-tie", 0), ("lose", -1),
    ]  # fmt: skip
    assert {t: catalog[f"egalite-{t}"].outcomes[0].net for t in range(10)} == EGALITE_PAYS
    assert catalog["big"].outcomes[0].net == Fraction(27, 50) and catalog["small"].outcomes[0].net == Fraction(3, 2)
    assert [o.net for o in catalog["perfect-pair-v2"].outcomes] == [250, 25, -1]
    assert [o.net for o in catalog["lucky-6"].outcomes] == [12, 20, -1]
    assert [o.net for o in catalog["lucky-6-23"].outcomes] == [12, 23, -1]
    assert catalog["player-total-5"].outcomes[0].net == Fraction(19, 2)
    assert catalog["banker-total-5"].outcomes[0].net == Fraction(15, 2)
    assert {b.id for b in catalog.values() if b.needs_suits} == {
        "perfect-pair", "perfect-pair-26", "perfect-pair-v2",
        "jackpot-baccarat", "lucky-nines", "lucky-nines-red-rock", "all-red", "all-black",
        "tiger-pair", "banker-fortune-4-pair", "player-fortune-4-pair",
        "player-red", "banker-red", "player-black", "banker-black",
    }  # fmt: skip
    assert [o.net for o in catalog["lucky-nines-red-rock"].outcomes] == [1000, 500, 35, 16, 5, 2, 1, -1]
    assert [o.net for o in catalog["jackpot-baccarat"].outcomes] == [250, 75, 50, 15, 10, 5, 4, 2, 0, -1]


def test_default_bets_are_the_core_seven_and_all_is_the_catalog():
    core = ["player", "banker", "tie", "player-pair", "banker-pair", "dragon-7", "panda-8"]
    assert list(xo.bet_catalog(xo.PUNTO_BANCO)) == core
    assert [b.id for b in resolve_bets(xo.PUNTO_BANCO, None)] == core
    everything = resolve_bets(xo.PUNTO_BANCO, ["all"])  # every bet, the side-bet catalog after the core bets
    assert [b.id for b in everything] == core + [b.id for b in side_catalog()]


def test_compiled_and_reference_agree_on_the_whole_catalog():
    shoe = xo.Shoe.standard(2).remove("7h,7s,Kd,2c")
    # Super 6 (its own bets): the slow profile; test_compiled compares the catalog of random rule sets too.
    for rules in (xo.PUNTO_BANCO, *slow_cases(xo.find_rules("super-6"))):
        compiled = xo.analyze(shoe, rules, ["all"])
        reference = xo.analyze(shoe, rules, ["all"], method="reference")
        assert [[o.count for o in f.outcomes] for f in compiled.bets] == [
            [o.count for o in f.outcomes] for f in reference.bets
        ]


def test_analyze_many_falls_back_per_shoe_for_suited_bets():
    shoes = [xo.Shoe.standard(1).remove(card) for card in ("AS", "KH", "7D")]
    batch = xo.analyze_many(shoes, xo.PUNTO_BANCO, ["tie", "perfect-pair", "dragon-7"])
    for shoe, analysis in zip(shoes, batch):
        single = xo.analyze(shoe, xo.PUNTO_BANCO, ["tie", "perfect-pair", "dragon-7"], method="reference")
        assert [[o.count for o in f.outcomes] for f in analysis.bets] == [
            [o.count for o in f.outcomes] for f in single.bets
        ]
    with pytest.raises(xo.ExactOddsError, match="bet perfect-pair needs a shoe with suits"):
        xo.analyze_many([xo.Shoe.standard(1).remove("7")], xo.PUNTO_BANCO, ["perfect-pair"])


# ---------------------------------------------------------------------------------------------
# Super 6 and the rules header


def test_super_six_rules_and_header():
    super6 = xo.find_rules("super6")
    assert super6.name == "super-6" and super6.commission == 0
    assert super6.header() == (
        "super-6 · banker 1:1 (no commission) · tie 8:1 · EZ push: off · banker win with a total of 6 pays 0.5:1"
    )
    banker = xo.bet_catalog(super6)["banker"]
    assert [(o.id, o.net) for o in banker.outcomes] == [("win", 1), ("win-on-6", Fraction(1, 2)), ("push", 0),
                                                         ("lose", -1)]  # fmt: skip
    assert super6.as_dict()["banker_win_overrides"] == [
        {"id": "win-on-6", "event": "Banker wins with a total of 6", "when": "banker_total = 6", "net": "1/2"}
    ]
    # Only the Banker bet changes.
    assert (
        xo.analyze(xo.Shoe.standard(8), super6, ["player"]).bet("player").ev
        == xo.analyze(xo.Shoe.standard(8), bets=["player"]).bet("player").ev
    )


def test_headers_list_every_difference_from_punto_banco():
    assert xo.PUNTO_BANCO.differences() == [] and EZ.differences() == []
    rows = list(STANDARD_TABLEAU.banker_draws_against)
    rows[3], rows[6] = rows[3] - {9}, rows[6] | {5}
    tableau = Tableau(frozenset({0, 1, 2, 3, 4}), STANDARD_TABLEAU.banker_draws_when_player_stood, tuple(rows))
    rules = xo.RuleSet("house", "house rules", tableau=tableau)
    assert rules.header().split(" · ")[4:] == [
        "Player stands on 5",
        "Banker 3 stands on a Player third card 9",
        "Banker 6 draws on a Player third card 5",
    ]


# ---------------------------------------------------------------------------------------------
# The catalog as data: the TOML files settle every coup as the Python catalog they replaced


def _reference() -> tuple[dict[str, tuple[bool, str]], dict[str, list[tuple[str, str, str, set[int]]]]]:
    """tests/data/bet_reference.tsv: per bet (needs suits, description) and its outcomes, made by the old code."""
    bets: dict[str, tuple[bool, str]] = {}
    outcomes: dict[str, list[tuple[str, str, str, set[int]]]] = {}
    for line in (ROOT / "tests/data/bet_reference.tsv").read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        kind, key, *rest = line.split("\t")
        if kind == "bet":
            bets[key] = (rest[0] == "1", rest[1])
            continue
        oid, net, event, ranges = rest
        states: set[int] = set()
        for part in ranges.split(","):
            if part != "-":
                first, _, last = part.partition("-")
                states.update(range(int(first), int(last or first) + 1))
        outcomes.setdefault(key, []).append((oid, net, event, states))
    return bets, outcomes


def test_every_bet_settles_every_coup_as_the_python_catalog_did():
    """Outcome by outcome and state by state, against a reference written by the lambda catalog (see its header)."""
    from exactodds.puntobanco.userdefs import load_bets

    bets, outcomes = _reference()
    now = {}
    for rules in xo.RULE_SETS[:3]:  # the rule sets of the reference (big-table settles as punto-banco)
        for bet in xo.bet_catalog(rules, full=True).values():
            if bet.reads_cards:  # bets on the dealt cards are new: tests/test_cardwalk.py checks them
                continue
            key = f"{rules.name}:{bet.id}" if bet.id in ("player", "banker", "tie") else bet.id
            now[key] = bet
    for name in ("dragon-7.toml", "tiger-bets.toml"):
        now.update((f"examples/{name}:{bet.id}", bet) for bet in load_bets(ROOT / "examples" / name))
    # Every bet of the reference, in its order; a bet added to the catalog since has no line there (the reference
    # is frozen) and is checked against its published figures instead (test_every_catalog_bet_is_checked_…).
    assert [key for key in now if key in bets] == list(bets)
    for key in bets:
        bet = now[key]
        assert (bet.needs_suits, bet.description) == bets[key], key
        got = [
            (o.id, fraction_text(o.net), o.event.name, {i for i, s in enumerate(ALL_STATES) if o.event(s)})
            for o in bet.outcomes
        ]
        assert got == outcomes[key], key
        assert [bet.settle(s).id for s in ALL_STATES] == [
            next(oid for oid, _, _, states in outcomes[key] if i in states) for i in range(len(ALL_STATES))
        ], key


def test_the_catalog_files_are_bets_files():
    """The shipped catalog is read by the bets-file reader: loading the files as a user would gives the same bets."""
    from exactodds.puntobanco.bets import core_side_bets
    from exactodds.puntobanco.userdefs import load_bets

    data = ROOT / "exactodds" / "data"
    assert load_bets(data / "core-bets.toml") == core_side_bets()
    assert load_bets(data / "side-bets.toml") == side_catalog()


def test_the_package_ships_what_it_reads():
    """Every file the package reads at run time is inside the package and listed as package data (a wheel has it)."""
    import fnmatch
    import re
    import tomllib

    shipped = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    patterns = shipped["package-data"]["exactodds"]
    package = ROOT / "exactodds"
    for path in (package / "data").iterdir():
        assert any(fnmatch.fnmatch(str(path.relative_to(package)), p) for p in patterns), path
    for source in package.rglob("*.py"):  # nothing reads files next to the package (not there once installed)
        text = source.read_text(encoding="utf-8")
        assert not re.search(r"parents\[\d\]|\.parent\.parent|\"examples\"", text), source
