"""Chemin de fer solved exactly: checked against the published results and against computations of its own.

Nothing here reuses the solver's arithmetic: the infinite deck is priced by two-card totals
with its own tree walk, the tiny shoes are played card by card over every ordering and every
pair of pure strategies, and their matrix games are solved by a simplex method written here.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Callable, Mapping
from fractions import Fraction

import pytest
from profiles import slow_cases, sweep

from exactodds import ExactOddsError, Shoe
from exactodds.chemindefer.solution import fixed_policy_value, solution_json, solve

# ---------------------------------------------------------------- the infinite deck, by totals

#: Value weights out of 13 (four ranks are worth 0) and the two-card totals' weights out of 169.
WEIGHTS = (4, 1, 1, 1, 1, 1, 1, 1, 1, 1)
TWO_CARD = [sum(WEIGHTS[a] * WEIGHTS[(t - a) % 10] for a in range(10)) for t in range(10)]
Result = tuple[Fraction, Fraction]  # (Banker wins − Player wins) pieces kept apart: (Banker wins, Player wins)


def _wins(banker: int, player: int, weight: Fraction) -> Result:
    if banker > player:
        return weight, Fraction(0)
    if player > banker:
        return Fraction(0), weight
    return Fraction(0), Fraction(0)


def infinite_deck_cells(p: Fraction) -> tuple[Result, dict[tuple[int, str], tuple[Result, Result]]]:
    """(Banker wins, Player wins) of the naturals, and per Banker cell (total, column) under stand and draw."""
    naturals = (Fraction(0), Fraction(0))
    cells: dict[tuple[int, str], list[list[Fraction]]] = {}
    for tp, tb in itertools.product(range(10), range(10)):
        w = Fraction(TWO_CARD[tp] * TWO_CARD[tb], 169 * 169)
        if tp >= 8 or tb >= 8:
            bw, pw = _wins(tb, tp, w)
            naturals = (naturals[0] + bw, naturals[1] + pw)
            continue
        draw_p = Fraction(1) if tp <= 4 else p if tp == 5 else Fraction(0)
        branches: list[tuple[str, int, Fraction]] = []
        if draw_p != 1:
            branches.append(("stood", tp, w * (1 - draw_p)))
        if draw_p != 0:
            branches += [(str(y), (tp + y) % 10, w * draw_p * Fraction(WEIGHTS[y], 13)) for y in range(10)]
        for column, final_p, weight in branches:
            slot = cells.setdefault((tb, column), [[Fraction(0)] * 2, [Fraction(0)] * 2])
            for i, v in enumerate(_wins(tb, final_p, weight)):
                slot[0][i] += v
            for x in range(10):
                for i, v in enumerate(_wins((tb + x) % 10, final_p, weight * Fraction(WEIGHTS[x], 13))):
                    slot[1][i] += v
    return naturals, {cell: ((s[0], s[1]), (d[0], d[1])) for cell, (s, d) in cells.items()}


def infinite_deck_payoffs(p: Fraction, q: Mapping[tuple[int, str], Fraction], banker_win: Fraction) -> Result:
    """(Banker's payoff, Player's payoff) when the Player draws at 5 with p and the Banker draws with q[cell]."""
    (nb, np_), cells = infinite_deck_cells(p)
    bw, pw = nb, np_
    for cell, (stand, draw) in cells.items():
        qc = q[cell]
        bw += (1 - qc) * stand[0] + qc * draw[0]
        pw += (1 - qc) * stand[1] + qc * draw[1]
    return banker_win * bw - pw, pw - bw


def assert_equilibrium_a1(p: Fraction, q: Mapping[tuple[int, str], Fraction], banker_win: Fraction) -> None:
    """No Banker cell and no pure Player strategy improves on (p, q), by this module's own payoffs."""
    _, cells = infinite_deck_cells(p)
    for cell, (stand, draw) in cells.items():
        gain = banker_win * (draw[0] - stand[0]) - (draw[1] - stand[1])  # the Banker's gain from drawing there
        assert (gain <= 0 or q[cell] == 1) and (gain >= 0 or q[cell] == 0), cell
    player = infinite_deck_payoffs(p, q, banker_win)[1]
    for pure in (Fraction(0), Fraction(1)):
        assert infinite_deck_payoffs(pure, q, banker_win)[1] <= player


def banker_a1(solution_banker: Mapping[tuple[str, str], Fraction]) -> dict[tuple[int, str], Fraction]:
    return {(int(hand), column): v for (hand, column), v in solution_banker.items()}


def test_kemeny_snell_infinite_deck_player_draws_at_5_with_9_11_and_it_is_a_saddle_point() -> None:
    solution = solve(model="A1")
    assert solution.player == {"5": Fraction(9, 11)}
    q = banker_a1(solution.banker)
    assert set(q) == set(infinite_deck_cells(Fraction(1, 2))[1])  # every reachable cell has a strategy
    assert_equilibrium_a1(Fraction(9, 11), q, Fraction(1))
    value = infinite_deck_payoffs(Fraction(9, 11), q, Fraction(1))[0]
    assert solution.value == value == solution.banker_ev == -solution.player_ev
    # The value lies strictly between what each side can force with pure play only: the Player's pure
    # strategies against the Banker's best reply cell by cell, and the Banker's strategies rounded to pure.
    for pure in (Fraction(0), Fraction(1)):
        naturals, cells = infinite_deck_cells(pure)
        best = naturals[0] - naturals[1] + sum(max(s[0] - s[1], d[0] - d[1]) for s, d in cells.values())
        assert best > value
    for cell, qc in q.items():
        if 0 < qc < 1:
            for rounded in (Fraction(0), Fraction(1)):
                pure_q = {**q, cell: rounded}
                assert min(infinite_deck_payoffs(x, pure_q, Fraction(1))[0] for x in (Fraction(0), Fraction(1))) < value
    assert solution.unique


def test_infinite_deck_with_commission_is_a_nash_equilibrium() -> None:
    solution = solve(model="A1", commission=Fraction(1, 20))
    assert solution.value is None and solution.equilibria
    for eq in solution.equilibria:
        assert_equilibrium_a1(eq.player["5"], banker_a1(eq.banker), Fraction(19, 20))
        assert (eq.banker_ev, eq.player_ev) == infinite_deck_payoffs(eq.player["5"], banker_a1(eq.banker),
                                                                     Fraction(19, 20))


def test_fixed_policy_punto_banco_gives_the_published_8_deck_counts() -> None:
    # Player draws at 5, the Banker follows the punto banco table: the published 8-deck counts.
    shoe = Shoe.standard(8)
    total = 4_998_398_275_503_360
    for model in ("B2", "B3"):
        v = fixed_policy_value(model, shoe, player=1)
        assert (v.banker_wins * total, v.player_wins * total, v.ties * total) == (
            2_292_252_566_437_888,
            2_230_518_282_592_256,
            475_627_426_473_216,
        )
    commission = fixed_policy_value("B2", shoe, commission="0.05")
    assert commission.banker_ev == Fraction(19, 20) * commission.banker_wins - commission.player_wins


# ---------------------------------------------------------------- tiny shoes, by brute force

VALUES = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 0, "J": 0, "Q": 0, "K": 0}


def six_card_draws(shoe: Shoe) -> Counter[tuple[int, ...]]:
    """Every ordered draw of six cards (the cards told apart), by its value sequence."""
    cards = [VALUES[rank] for rank, n in shoe.as_dict().items() for _ in range(n)]
    return Counter(itertools.permutations(cards, 6))


def play(seq: tuple[int, ...], player_draws_5: Callable[[tuple[int, int]], bool],
         banker_draws: Callable[[tuple[int, int], str], bool]) -> tuple[int, tuple[tuple[int, int], str] | None]:
    """Deal one coup from ``seq`` (P, B, P, B, then third cards): the Banker's result (+1, −1, 0) and his cell."""
    player, banker = sorted((seq[0], seq[2])), sorted((seq[1], seq[3]))
    tp, tb = sum(player) % 10, sum(banker) % 10
    if tp >= 8 or tb >= 8:
        return (tb > tp) - (tp > tb), None
    nxt = 4
    column = "stood"
    if tp <= 4 or (tp == 5 and player_draws_5((player[0], player[1]))):
        column = str(seq[4])
        tp = (tp + seq[4]) % 10
        nxt = 5
    cell = ((banker[0], banker[1]), column)
    if banker_draws(*cell):
        tb = (tb + seq[nxt]) % 10
    return (tb > tp) - (tp > tb), cell


def brute_force_value(shoe: Shoe, model: str) -> Fraction:
    """The zero-sum value by the matrix of every pure strategy pair, each priced by playing every draw."""
    draws = six_card_draws(shoe)
    fives: set[tuple[int, int]] = set()
    cells: set[tuple[tuple[int, int], str]] = set()
    for seq in draws:
        for choice in (False, True):
            _, cell = play(seq, lambda five, c=choice: fives.add(five) or c, lambda *_: False)
            if cell is not None:
                cells.add(cell)
    decisions = sorted(fives) if model == "B3" else (["5"] if fives else [])
    cell_list = sorted(cells)
    rows = []
    for player_bits in itertools.product((False, True), repeat=len(decisions)):
        chosen = dict(zip(decisions, player_bits))

        def rule(five: tuple[int, int], chosen: dict[object, bool] = chosen) -> bool:
            return chosen[five if model == "B3" else "5"]

        row = []
        for banker_bits in itertools.product((False, True), repeat=len(cell_list)):
            table = dict(zip(cell_list, banker_bits))

            def banker(hand: tuple[int, int], col: str, table: dict[object, bool] = table) -> bool:
                return table[(hand, col)]

            row.append(sum(n * play(seq, rule, banker)[0] for seq, n in draws.items()))
        rows.append(row)
    return matrix_game_value(rows) / sum(draws.values())


def matrix_game_value(payoff: list[list[int]]) -> Fraction:
    """The value of the zero-sum game where the row side minimises and the column side maximises ``payoff``.

    Shift every entry positive; the row side's mixed x with u = x / w, w its guaranteed ceiling,
    satisfies Σ_i u_i·A[i][j] ≤ 1 for every column j and Σ u = 1/w is maximal: a linear program
    solved here by the simplex method on a condensed (Tucker) tableau, with Bland's rule.
    """
    shift = 1 + max(abs(v) for row in payoff for v in row)
    n, m = len(payoff), len(payoff[0])
    # Constraint rows: one per column strategy j; tableau columns: the row strategies' u_i, then the right side.
    tableau = [[Fraction(payoff[i][j] + shift) for i in range(n)] + [Fraction(1)] for j in range(m)]
    objective = [Fraction(-1)] * n + [Fraction(0)]
    col_label, row_label = list(range(n)), list(range(n, n + m))
    while True:
        candidates = [c for c in range(n) if objective[c] < 0]
        if not candidates:
            return 1 / objective[-1] - shift
        col = min(candidates, key=lambda c: col_label[c])
        ratios = [(t[-1] / t[col], row_label[r], r) for r, t in enumerate(tableau) if t[col] > 0]
        _, _, row = min(ratios)
        pivot = tableau[row][col]
        pivot_row = tableau[row]
        for t in [*tableau, objective]:
            if t is pivot_row:
                continue
            factor = t[col] / pivot
            for c in range(n + 1):
                t[c] = t[c] - factor * pivot_row[c] if c != col else -factor
        tableau[row] = [v / pivot if c != col else 1 / pivot for c, v in enumerate(pivot_row)]
        col_label[col], row_label[row] = row_label[row], col_label[col]


def test_matrix_game_value_on_a_known_game() -> None:
    # Matching pennies shifted by 1/2-ish: value 0 for [[1, -1], [-1, 1]]; rock-paper-scissors value 0.
    assert matrix_game_value([[1, -1], [-1, 1]]) == 0
    assert matrix_game_value([[0, 1, -1], [-1, 0, 1], [1, -1, 0]]) == 0
    assert matrix_game_value([[3, 1], [2, 4]]) == Fraction(5, 2)  # minimiser mixes 1/2, maximiser 3/4 on col 0


# Tiny shoes whose Banker has few reachable cells (2^cells pure strategies): mixed play on both sides
# (A×4 7×5 8, 2 3×6 6×2), two two-card fives the B3 Player tells apart (A 4×7 5 T), a half-mixed cell.
TINY_SHOES = ["A=4,7=5,8=1", "2=1,3=6,6=2", "A=1,4=7,5=1,T=1", "6=6,9=2"]
MORE_TINY_SHOES = ["3=1,6=6,9=2", "A=4,7=1,8=5", "5=1,6=1,9=7,T=1", "A=1,4=3,7=6", "2=1,3=6,5=1,6=1"]


#: The quick run solves each tiny shoe under the model it was chosen for (the mixed play under B2, the two fives
#: under B3) and the cheap ones under both; the slow profile solves every shoe under both models.
TINY_CASES = [("A=4,7=5,8=1", "B2"), ("A=1,4=7,5=1,T=1", "B3")] + [
    (text, model) for text in TINY_SHOES[1::2] for model in ("B2", "B3")
] + slow_cases(("A=4,7=5,8=1", "B3"), ("A=1,4=7,5=1,T=1", "B2"), *[
    (text, model) for text in MORE_TINY_SHOES for model in ("B2", "B3")
])


@pytest.mark.parametrize(("text", "model"), sweep(TINY_CASES, 2, unpack=True))
def test_tiny_shoes_match_the_brute_force_matrix_game(text: str, model: str) -> None:
    shoe = Shoe.parse(text)
    solution = solve(model=model, shoe=shoe)
    assert solution.value == brute_force_value(shoe, model)


def test_a_tiny_shoe_with_mixed_strategies_on_both_sides() -> None:
    # The 10-card shoe A×4, 7×5, 8: the Player mixes at 5, the Banker in one cell; the brute force agrees.
    solution = solve(model="B2", shoe=Shoe.parse("A=4,7=5,8=1"))
    assert 0 < solution.player["5"] < 1 and len(solution.mixed) == 1 and solution.unique


# ---------------------------------------------------------------- output and bad input


def test_solution_json_is_the_pinned_shape() -> None:
    doc = json.loads(json.dumps(solution_json(solve(model="B3", shoe=Shoe.parse("A=4,7=5,8=1")))))
    assert list(doc) == ["game", "model", "shoe", "commission", "value", "banker_ev", "player_ev", "player",
                         "banker", "unique"]
    assert doc["shoe"] == {"cards": 10, "counts": {"A": 4, "2": 0, "3": 0, "4": 0, "5": 0, "6": 0, "7": 5, "8": 1,
                                                   "9": 0, "T": 0, "J": 0, "Q": 0, "K": 0}}
    assert doc["player"] == {"draw_at_5": {"7,8": "2/5"}}
    assert doc["banker"]["mixed"] == [{"hand": "1,1", "player_third": "7", "draw": "1/5"}]
    assert doc["banker"]["deviations"] == [{"hand": "7,7", "player_third": "7", "action": "stand"}]
    with_commission = solution_json(solve(model="A1", commission="0.05"))
    assert "value" not in with_commission and with_commission["commission"] == "1/20"
    assert with_commission["equilibria"][0]["player"] == with_commission["player"]


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: solve(model="B9"), "unknown information model 'B9'"),
        (lambda: solve(model="B2", shoe=Shoe.parse("A=5")), "at least 6 cards"),
        (lambda: solve(model="A1", commission=1), "below 1"),
        (lambda: solve(model="A1", commission=Fraction(-1, 20)), "at least 0"),
        (lambda: solve(model="A1", commission="lots"), "rate such as 0.05"),
        (lambda: solve(model="A1", shoe=Shoe.standard(1)), "takes no shoe"),
        (lambda: solve(game="poker", model="A1"), "unknown game"),
    ],
)
def test_bad_input_is_one_whole_sentence(call: Callable[[], object], words: str) -> None:
    with pytest.raises(ExactOddsError) as info:
        call()
    message = str(info.value)
    assert words in message and len(message.split()) >= 5 and "\n" not in message


@pytest.mark.parametrize("commission", [Fraction(0), Fraction(1, 20)])
def test_the_float_search_finds_what_exact_enumeration_finds(monkeypatch: pytest.MonkeyPatch,
                                                             commission: Fraction) -> None:
    # Model B3 at real shoes searches its 5-dimensional arrangement in floats first; force that path
    # on small games and compare with the all-exact enumeration (and, without commission, the brute force).
    from exactodds.chemindefer import solver

    for text in TINY_SHOES[:3]:
        shoe = Shoe.parse(text)
        exact = solve(model="B3", shoe=shoe, commission=commission)
        monkeypatch.setattr(solver, "EXACT_VERTICES", 0)
        searched = solve(model="B3", shoe=shoe, commission=commission)
        monkeypatch.undo()
        assert searched == exact


@pytest.mark.parametrize("model", ["B2", "B3"])
def test_eight_deck_solution_beats_every_pure_player_strategy(model: str) -> None:
    shoe = Shoe.standard(8)
    solution = solve(model=model, shoe=shoe)
    assert solution.value is not None and solution.unique
    here = fixed_policy_value(model, shoe, player=solution.player, banker=solution.banker)
    assert here.banker_ev == solution.value
    for bits in itertools.product((0, 1), repeat=len(solution.player)):
        pure = fixed_policy_value(model, shoe, player=dict(zip(solution.player, bits)), banker=solution.banker)
        assert pure.player_ev <= here.player_ev


@pytest.mark.parametrize("text", ["A=3,2=2,3=4,5=1,9=5,K=7", "1 deck", "2 decks"])
def test_model_b2_merged_from_b3_equals_its_own_count(text: str) -> None:
    # B2 is built by merging B3's five Player decisions; counting B2 directly is the check.
    from exactodds.chemindefer.model import _build, _count

    shoe = (Shoe.standard(int(text[0])) if "deck" in text else Shoe.parse(text)).without_suits()
    assert _build("B2", shoe) == _count("B2", shoe)
