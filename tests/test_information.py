"""Edge sorting: the High/Low states of the first cards, their best bets and the edge per coup, exactly."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest
from click.testing import CliRunner
from profiles import is_slow, slow_cases

from exactodds.cards import RANKS, Rank, Shoe
from exactodds.cli import cli
from exactodds.exact import percent_text
from exactodds.puntobanco import edgecount
from exactodds.puntobanco.bets import find_bet
from exactodds.puntobanco.coup import CoupState
from exactodds.puntobanco.given import Given
from exactodds.puntobanco.information import best_sort, edge_sort, parse_high
from exactodds.puntobanco.odds import analyze
from exactodds.puntobanco.rules import EZ, PUNTO_BANCO, SUPER_6, deal_coup


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
    [(PUNTO_BANCO, "6789", 2), (EZ, "A59K", 6), *slow_cases((PUNTO_BANCO, "T,J", 3), (SUPER_6, "6789", 5))],
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
    by_state: dict[tuple[int, str], list[int]] = {}
    for order in itertools.permutations(range(len(cards)), 6):
        drawn = [cards[i] for i in order]
        pt, bt, pn, bn = deal_coup([value[c] for c in drawn])
        # Each bet's net in twentieths of a unit (the banker wins 19/20), summed in integers: a Fraction per draw
        # and per prefix took a second.
        net = [20 if pt > bt else 0 if pt == bt else -20,
               19 if bt > pt else 0 if pt == bt else -20,
               160 if pt == bt else -20]
        pattern = "".join("H" if c in high else "L" for c in drawn)
        for k in range(1, 7):
            row = by_state.setdefault((k, pattern[:k]), [0] * 4)
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
            assert s.evs == tuple(Fraction(x, 20 * row[0]) for x in row[1:])


def test_narrow_limbs_and_python_integers_give_the_same_figures(monkeypatch):
    """With a pretend int64 of 20 bits the weights are cut into many limbs; with one of 10 no limb fits."""
    shoe = Shoe.parse("A=3,5=2,9=3,T=2,K=3,3=1")
    fast, ranking = edge_sort(shoe, high="9T", cards=3), best_sort(shoe, cards=2).ranking
    passes: list[int] = []
    for int64_max in (2**20, 2**10):
        monkeypatch.setattr(edgecount, "INT64_MAX", int64_max)
        sort = edge_sort(shoe, high="9T", cards=3, progress=lambda done, total: passes.append(total))
        assert sort.states == fast.states
        assert best_sort(shoe, cards=2).ranking == ranking
    # Six kinds: limbs of 1 bit (20·(2^1 − 1)·6^6 < 2^20), 7 of them for 20·(14)_6 < 2^25.4; then Python integers.
    assert passes == [7 * 4] * (7 * 4) + [4] * 4


def plain_states(shoe, high, cards, bets):
    """The states by a literal walk over the sequences of distinct ranks, each weighed by its falling factorials."""
    present = [r for r in RANKS if shoe.count(r)]
    value = {r: min(RANKS.index(r) + 1, 10) % 10 for r in RANKS}
    rows: dict[str, list[Fraction]] = {}
    for ranks in itertools.product(present, repeat=6):
        weight, left = 1, {r: shoe.count(r) for r in present}
        for r in ranks:
            weight *= left[r]
            left[r] -= 1
        state = deal_coup([value[r] for r in ranks])
        row = rows.setdefault("".join("H" if r in high else "L" for r in ranks[:cards]), [Fraction(0)] * 4)
        row[0] += weight
        for i, bet in enumerate(bets):
            row[1 + i] += weight * bet.settle(CoupState(*state, False, False)).net
    return {pattern: (row[0] / shoe.orderings(), tuple(x / row[0] for x in row[1:])) for pattern, row in rows.items()}


# Three ranks in vast numbers, on one int64 limb up to 881 cards (A·(N)_6 < 2^63, A = 20 for the Banker's 19/20),
# then on 2, 3, 4 and 7 limbs of 49 bits (three kinds): each limb is one pass per row (orderings and 3 bets).
# The quick run takes the switch from one limb to two and the widest shoe; the slow profile every count of limbs.
@pytest.mark.parametrize(
    ("text", "limbs"),
    [("A=300,9=300,K=281", 1), ("A=300,9=300,K=282", 2), (f"A={10**15},9={10**15},K={10**15}", 7),
     *slow_cases(("A=20000,9=20000,K=12000", 2), ("A=2000000,9=1000000,K=999999", 3),
                 ("A=400000000,9=300000000,K=300000000", 4))],
)
def test_huge_shoes_of_few_ranks_against_a_literal_count(text, limbs):
    shoe = Shoe.parse(text)
    bets = [find_bet(b, PUNTO_BANCO) for b in ("player", "banker", "tie")]
    passes: list[int] = []
    for cards in (1, 3, 6):
        expected = plain_states(shoe, {Rank.NINE}, cards, bets)
        got = edge_sort(shoe, PUNTO_BANCO, bets, high="9", cards=cards, progress=lambda _, total: passes.append(total))
        assert {s.pattern: (s.probability, s.evs) for s in got.states} == expected
    assert passes == [4 * limbs] * (4 * limbs) * 3
    # Each split of the values is a regrouping of the same sums: the nine High, or the nine with the ace.
    ranking = dict(best_sort(shoe, cards=2).ranking)
    for high in ("9", "A9"):
        states = plain_states(shoe, set(parse_high(high)), 2, bets)
        assert ranking[high] == sum(p * max(0, *evs) for p, evs in states.values())


def _standard_plus(decks: int, extra: int) -> Shoe:
    """A standard shoe with ``extra`` more aces, twos, … in rank order: sizes between whole decks."""
    base = Shoe.standard(decks)
    return Shoe(tuple(c + extra // 13 + (i < extra % 13) for i, c in enumerate(base.counts)))


# The largest shoe on one limb (881 cards), the smallest on two, 30 and 1,000 decks: states priced by the reference
# walk under the matching --given event (Python integers, the plain path), and each bet's EV by the law of total
# probability against the compiled evaluator.
@pytest.mark.parametrize(
    ("shoe", "state"),
    [(_standard_plus(16, 49), "HL"), (_standard_plus(16, 50), "LH"), (Shoe.standard(30), "HH"),
     (Shoe.standard(1000), "HL")],
)
def test_big_shoes_against_the_reference_walk(shoe, state):
    sort = edge_sort(shoe, cards=2)
    states = {s.pattern: s for s in sort.states}
    patterns = sorted(states) if is_slow() else [state]
    for pattern in patterns:
        event = " and ".join(f"{pos} {'in' if c == 'H' else 'not in'} 6789" for pos, c in zip(("P1", "B1"), pattern))
        given = analyze(shoe, bets=["player", "banker", "tie"], given=Given.parse(event))
        assert (states[pattern].probability, states[pattern].evs) == (
            given.given_probability, tuple(given.bet(b).ev for b in ("player", "banker", "tie")))
    compiled = analyze(shoe, bets=["player", "banker", "tie"])
    assert sum(s.probability for s in sort.states) == 1
    for i, bet in enumerate(sort.bets):
        assert sum(s.probability * s.evs[i] for s in sort.states) == compiled.bet(bet.id).ev


@pytest.mark.skipif(not is_slow(), reason="every split of six known cards in Python integers: the slow profile")
@pytest.mark.parametrize("decks", [30, 1000])
def test_six_card_best_sort_of_big_shoes_equals_python_integers(decks, monkeypatch):
    shoe = Shoe.standard(decks)
    fast = best_sort(shoe, cards=6)
    monkeypatch.setattr(edgecount, "INT64_MAX", 0)  # no limb fits: every sum in Python integers
    slow = best_sort(shoe, cards=6)
    assert slow.ranking == fast.ranking and slow.best == fast.best


def test_a_thousand_decks_take_two_int64_passes_per_row():
    """Past 881 cards the weights are cut in two int64 limbs (not Python integers): 2 passes of 4 rows."""
    totals: list[int] = []
    edge_sort(Shoe.standard(1000), cards=1, progress=lambda done, total: totals.append(total))
    edge_sort(Shoe.standard(8), cards=1, progress=lambda done, total: totals.append(total))
    assert totals == [8] * 8 + [4] * 4


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
    # The best split's states, read with the others, are those of a count with that split alone.
    assert best.best.states == edge_sort(shoe, high=best.best.high_text, cards=2).states


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


def test_progress_on_a_terminal_and_nothing_in_a_pipe():
    """On a terminal stderr counts the passes, then wipes its line; elsewhere it stays empty, the figures the same."""
    import os
    import pty
    import subprocess
    import sys
    from pathlib import Path

    args = ["edge-sort", "--decks", "1", "--cards", "2", "--best-sort", "--format", "json"]
    main, side = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "exactodds", *args], cwd=Path(__file__).resolve().parent.parent,
                              stdout=subprocess.PIPE, stderr=side, timeout=60, check=False)
    finally:
        os.close(side)
    try:
        screen = b""
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # EIO: the writer is gone
                break
            if not chunk:
                break
            screen += chunk
    finally:
        os.close(main)
    assert done.returncode == 0
    assert screen == b"".join(b"\rcounting: pass %d of 4" % i for i in range(1, 5)) + b"\r\x1b[K"
    piped = run(*args)
    assert piped.exit_code == 0 and piped.stderr == "" and piped.stdout == done.stdout.decode()
