"""Edge sorting: the High/Low states of the first cards, their best bets and the edge per coup, exactly."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from exactodds import information
from exactodds.analysis import analyze
from exactodds.bets import find_bet
from exactodds.cards import RANKS, Shoe
from exactodds.cli import cli
from exactodds.exact import percent_text
from exactodds.information import best_sort, edge_sort, parse_high
from exactodds.rules import EZ, PUNTO_BANCO, SUPER_6, deal_coup


# Jacobson, "Edge sorting at baccarat" (8 decks, High = 6789, Player / Banker with 5% commission / Tie 8:1,
# no bet when none is favourable): one known card, four known cards, and the best four-card sort (Roach).
@pytest.mark.parametrize(("cards", "published"), [(1, "6.765%"), (4, "20.928%")])
def test_jacobson_edge_sorting_figures(cards, published):
    assert percent_text(edge_sort(Shoe.standard(8), cards=cards).edge, 3) == published


def test_jacobson_four_card_states():
    """The details Jacobson prints for four known cards (tests/data/published.md, "Edge sorting")."""
    sort = edge_sort(Shoe.standard(8), cards=4)
    states = {s.pattern: s for s in sort.states}
    # Player HL against Banker LL: P1 B1 P2 B2 = H L L L or L L H L.
    player_hl = [states["HLLL"], states["LLHL"]]
    assert percent_text(sum(s.probability for s in player_hl), 3) == "20.502%"
    assert {sort.bet_of(s) for s in player_hl} == {"player"} and percent_text(player_hl[0].ev, 3) == "36.332%"
    assert percent_text(states["LLLL"].probability, 3) == "22.824%" and states["LLLL"].best is None
    tie_only = sum(s.probability for s in sort.states if sort.bet_of(s) == "tie")
    assert percent_text(tie_only, 3) == "19.075%"


def test_best_four_card_sort_is_the_published_30_291_percent():
    best = best_sort(Shoe.standard(8), cards=4)
    assert percent_text(best.best.edge, 3) == "30.291%"
    assert best.best.high_text == "456789"
    assert len(best.ranking) == 511 and best.ranking[0] == ("456789", best.best.edge)
    # Jacobson's own split is on the list, with his figure.
    assert percent_text(dict(best.ranking)["6789"], 3) == "20.928%"


@pytest.mark.parametrize(
    ("rules", "high", "cards"),
    [(PUNTO_BANCO, "6789", 2), (PUNTO_BANCO, "T,J", 3), (EZ, "A59K", 6), (SUPER_6, "6789", 5)],
)
def test_law_of_total_probability_exactly(rules, high, cards):
    """The states' probabilities sum to 1 and Σ P(state)·EV(bet | state) is each bet's unconditional EV."""
    shoe = Shoe.standard(1)
    sort = edge_sort(shoe, rules, ["player", "banker", "tie", "dragon-7"], high=high, cards=cards)
    assert sum(s.probability for s in sort.states) == 1
    assert len(sort.states) == 2**cards
    reference = analyze(shoe, rules, [b.id for b in sort.bets], method="reference")
    for i, bet in enumerate(sort.bets):
        assert sum(s.probability * s.evs[i] for s in sort.states) == reference.bet(bet.id).ev
    assert sort.edge == sum(s.probability * max(0, *s.evs) for s in sort.states)


def test_every_permutation_of_a_small_shoe():
    """A literal walk over every ordered six-card draw of eight cards, a ten High and the kings Low."""
    cards = ["A", "2", "6", "6", "9", "T", "K", "K"]
    shoe = Shoe.parse("A=1,2=1,6=2,9=1,T=1,K=2")
    high = {"6", "9", "T"}
    value = {"A": 1, "2": 2, "6": 6, "9": 9, "T": 0, "K": 0}
    bets = [find_bet(b, PUNTO_BANCO) for b in ("player", "banker", "tie")]
    by_state: dict[tuple[int, str], list[Fraction]] = {}
    for order in itertools.permutations(range(len(cards)), 6):
        drawn = [cards[i] for i in order]
        pt, bt, pn, bn = deal_coup([value[c] for c in drawn])
        net = [Fraction(1) if pt > bt else Fraction(0) if pt == bt else Fraction(-1),
               Fraction(19, 20) if bt > pt else Fraction(0) if pt == bt else Fraction(-1),
               Fraction(8) if pt == bt else Fraction(-1)]
        for k in range(1, 7):
            row = by_state.setdefault((k, "".join("H" if c in high else "L" for c in drawn[:k])), [Fraction(0)] * 4)
            row[0] += 1
            for i, x in enumerate(net):
                row[1 + i] += x
    total = 8 * 7 * 6 * 5 * 4 * 3
    for k in range(1, 7):
        sort = edge_sort(shoe, PUNTO_BANCO, bets, high="69T", cards=k)
        expected = {state: row for (kk, state), row in by_state.items() if kk == k}
        assert {s.pattern for s in sort.states} == set(expected)
        for s in sort.states:
            row = expected[s.pattern]
            assert s.probability == Fraction(row[0], total)
            assert s.evs == tuple(x / row[0] for x in row[1:])


def test_python_integers_when_int64_could_overflow(monkeypatch):
    """The shoes beyond the proved int64 bound are counted in Python integers, to the same figures."""
    shoe = Shoe.parse("A=3,5=2,9=3,T=2,K=3,3=1")
    fast = edge_sort(shoe, high="9T", cards=3)
    monkeypatch.setattr(information, "_INT64_LIMIT", 0)
    slow = edge_sort(shoe, high="9T", cards=3)
    assert slow.states == fast.states
    ranking = best_sort(shoe, cards=2).ranking
    monkeypatch.undo()
    assert ranking == best_sort(shoe, cards=2).ranking


def test_best_sort_regroups_to_the_direct_count():
    """Each split's edge from the shared sums equals a direct count with that High set, its complement alike."""
    shoe = Shoe.standard(2).remove("9,9,9,4")
    best = best_sort(shoe, cards=2)
    ranking = dict(best.ranking)
    for high in ("6789", "A", "23459", best.best.high_text):
        assert edge_sort(shoe, high=high, cards=2).edge == ranking[high]
        complement = "".join(r.value for r in RANKS if r not in parse_high(high))
        assert edge_sort(shoe, high=complement, cards=2).edge == ranking[high]
    assert best.best.edge == max(ranking.values())


def test_a_class_the_shoe_lacks_leaves_states_of_probability_zero_out():
    sort = edge_sort(Shoe.parse("A=6,2=4"), high="9", cards=2)
    assert [(s.pattern, s.probability) for s in sort.states] == [("LL", 1)]


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_cli_json_is_exact_and_complete():
    result = run("edge-sort", "--decks", "8", "--cards", "4", "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["high"] == "6789" and data["cards"] == 4 and len(data["states"]) == 16
    assert sum(Fraction(s["probability"]) for s in data["states"]) == 1
    edge = sum(Fraction(s["probability"]) * Fraction(s["ev"]) for s in data["states"] if s["bet"] is not None)
    assert Fraction(data["edge"]) == edge and percent_text(edge, 3) == "20.928%"
    assert {s["state"]: s["bet"] for s in data["states"]}["LLLL"] is None
    assert {s["state"]: s["ev"] for s in data["states"]}["LLLL"] is None


def test_cli_table_is_sorted_by_probability_and_best_sort_names_the_split():
    result = run("edge-sort", "--decks", "8", "--cards", "4", "--best-sort")
    assert result.exit_code == 0, result.stderr
    assert "High: 456789" in result.stdout and "Edge per coup: 30.2912%" in result.stdout
    rows = [line.split() for line in result.stdout.splitlines() if line[:1] in "HL" and len(line.split()) >= 4
            and set(line.split()[0]) <= {"H", "L"} and not line.startswith("High")]
    probabilities = [float(r[1].rstrip("%")) for r in rows]
    assert len(rows) == 16 and probabilities == sorted(probabilities, reverse=True)


@pytest.mark.parametrize(
    "args",
    [
        ["--cards", "7"],
        ["--cards", "0"],
        ["--cards", "2", "--high", ""],
        ["--cards", "2", "--high", "A23456789TJQK"],
        ["--cards", "2", "--high", "6X"],
        ["--cards", "2", "--high", "99"],
        ["--cards", "2", "--high", "9", "--best-sort"],
        ["--cards", "2", "--bet", "player-pair"],
        ["--cards", "2", "--bet", "nonsense"],
        ["--cards", "2", "--rules", "big-table"],
    ],
)
def test_bad_input_is_one_error_line(args):
    result = run("edge-sort", "--decks", "1", *args)
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")
