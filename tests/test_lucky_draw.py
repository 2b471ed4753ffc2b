"""Lucky Draw Baccarat (exactodds.luckydraw and its game) against its published figures and a literal brute force.

The brute force shares nothing with the module but the entry points it checks. It is written
from the rules: cards are distinct objects and every permutation of a small shoe is walked;
the player gets the first two cards, the dealer the third (face up) and the fourth; a player
who draws takes the next card; the dealer then takes the next card on a two-card total of 4 or
less; totals are the last digit of the sum, 10/J/Q/K counting 0; the higher total wins and a tie
pushes both bets. Each walked order is dealt both ways (stand, and draw) and filed under what
the player saw (his two ranks and the upcard's), so that any chart can be priced from the
files, and each decision compared with the other one.

Counts are of ordered six-card draws: the walk over all N! orders of the shoe sees each
six-card start (N-6)! times, and dividing that out counts a coup that deals fewer than six
cards once per ordered completion to six, the convention the module states.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st
from profiles import examples, is_slow
from published_data import Printed, read_rows

from exactodds.cards import Shoe
from exactodds.errors import ExactOddsError
from exactodds.luckydraw import OUTCOMES
from exactodds.luckydraw.solver import Hand, cell, cells, decide, lucky_draw, price

VALUE = {"A": 1, **{str(n): n for n in range(2, 10)}, "T": 0, "J": 0, "Q": 0, "K": 0}

# The Draw bet's pays on a win, by the player's three-card total (9, 8, 7; anything else pays 1:1).
DRAW_PAYS = {1: {9: 3, 8: 2, 7: 2}, 2: {9: 3, 8: 2, 7: Fraction(3, 2)}}


def total(*ranks: str) -> int:
    """A baccarat total: the last digit of the sum of the cards' values."""
    return sum(VALUE[r] for r in ranks) % 10


def dealer_final(up: str, hole: str, nxt: str, draws_to: int = 4) -> int:
    """The dealer's final total: he takes ``nxt`` on a two-card total of 4 or less (``draws_to``: a mutant's rule)."""
    two = total(up, hole)
    return total(up, hole, nxt) if two <= draws_to else two


def net(outcome: str, pay_table: int) -> Fraction:
    """What an outcome pays per Enter bet, the Draw bet (equal to the Enter bet) included."""
    fixed = {"win-on-draw": 2, "lose-on-draw": -2, "tie-on-draw": 0, "win-on-stand": 1, "lose-on-stand": -1}
    if outcome.startswith("win-lucky-"):
        return Fraction(1 + DRAW_PAYS[pay_table][int(outcome[-1])])
    return Fraction(fixed.get(outcome, 0))


#: What the player saw (his two ranks, low first, and the upcard's), and the outcome counts by his choice.
Seen = tuple[tuple[str, str], str]
Files = dict[str, Counter[str]]


@cache
def brute_force(cards: tuple[str, ...], draws_to: int = 4) -> dict[Seen, Files]:
    """For each seen hand, the outcome counts of standing and of drawing."""
    files: dict[Seen, Files] = defaultdict(
        lambda: {"stand": Counter(), "draw": Counter()}
    )
    # itertools permutes the cards by their places: two kings are two different cards.
    for order in itertools.permutations(cards):
        p1, p2, up, hole = order[:4]
        seen = (tuple(sorted((p1, p2))), up)
        player, dealer = total(p1, p2), dealer_final(up, hole, order[4], draws_to)
        result = "win" if player > dealer else "lose" if player < dealer else "tie"
        files[seen]["stand"][f"{result}-on-stand"] += 1
        player, dealer = total(p1, p2, order[4]), dealer_final(up, hole, order[5], draws_to)
        if player > dealer:
            files[seen]["draw"][f"win-lucky-{player}" if player >= 7 else "win-on-draw"] += 1
        else:
            files[seen]["draw"]["lose-on-draw" if player < dealer else "tie-on-draw"] += 1
    repeats = math.factorial(len(cards) - 6)
    for choices in files.values():
        for counts in choices.values():
            assert all(n % repeats == 0 for n in counts.values())
            for outcome in counts:
                counts[outcome] //= repeats
    return dict(files)


def hand_of(seen: Seen) -> Hand:
    """The module's name for what the player saw: card values."""
    (a, b), up = seen
    return Hand((VALUE[a], VALUE[b]), VALUE[up])


def worth(counts: Counter[str], pay_table: int) -> Fraction:
    """The total net of some counted coups."""
    return sum((net(o, pay_table) * n for o, n in counts.items()), Fraction(0))


def priced(cards: tuple[str, ...], draws: frozenset[Hand], draws_to: int = 4) -> Counter[str]:
    """The brute force's outcome counts when the player draws on the hands of ``draws``."""
    counts: Counter[str] = Counter()
    for seen, choices in brute_force(cards, draws_to).items():
        counts.update(choices["draw" if hand_of(seen) in draws else "stand"])
    return counts


def by_hand(cards: tuple[str, ...], draws_to: int = 4) -> dict[Hand, Files]:
    """The brute force's files gathered by the module's hands (ranks of one value are one hand to the module)."""
    hands: dict[Hand, Files] = defaultdict(lambda: {"stand": Counter(), "draw": Counter()})
    for seen, choices in brute_force(cards, draws_to).items():
        for choice, counts in choices.items():
            hands[hand_of(seen)][choice].update(counts)
    return dict(hands)


def differences(cards: tuple[str, ...], draws_to: int = 4) -> list[str]:
    """Every hand whose stand or draw counts differ between the module and the brute force."""
    brute = by_hand(cards, draws_to)
    module = {
        cell.hand: {choice: Counter({o: n for o, n in zip(OUTCOMES, counts) if n}) for choice, counts in
                    (("stand", cell.stand), ("draw", cell.draw))}
        for cell in cells(Shoe.from_counts(Counter(cards)).value_counts())
    }  # fmt: skip
    return [
        f"{hand}: module {module.get(hand)}, brute force {brute.get(hand)}"
        for hand in sorted(set(module) | set(brute))
        if module.get(hand) != brute.get(hand)
    ]


# Small shoes where the optimal and total charts differ and both choices are taken; 0-valued ranks side by side.
SHOES = ["2 2 3 6 8 J K", "2 2 3 5 6 9 J", "A 2 2 3 7 8 Q", "A 2 3 4 5 7 T K"]


@pytest.mark.parametrize("pay_table", [1, 2])
@pytest.mark.parametrize("cards", SHOES)
def test_both_strategies_match_the_brute_force(cards, pay_table):
    cards = tuple(cards.split())
    shoe = Shoe.from_counts(Counter(cards))
    for strategy in ("optimal", "total"):
        game = lucky_draw(shoe, pay_table, strategy)
        brute = priced(cards, game.draws)
        assert game.by_outcome() == {o: brute[o] for o in OUTCOMES}, strategy
        assert game.orderings == sum(brute.values()) == math.perm(len(cards), 6)
        assert game.ev == worth(brute, pay_table) / game.orderings


@pytest.mark.parametrize("pay_table", [1, 2])
@pytest.mark.parametrize("cards", SHOES)
def test_the_optimal_chart_is_optimal_hand_by_hand(cards, pay_table):
    """No single decision changes for the better; on equal terms the player stands."""
    cards = tuple(cards.split())
    draws = decide(Shoe.from_counts(Counter(cards)), pay_table)
    for seen, choices in brute_force(cards).items():
        gain = worth(choices["draw"], pay_table) - worth(choices["stand"], pay_table)
        assert (hand_of(seen) in draws) == (gain > 0), (seen, gain)


@pytest.mark.parametrize("pay_table", [1, 2])
@pytest.mark.parametrize("cards", SHOES)
def test_the_total_chart_is_the_best_by_total_and_never_beats_the_optimal_one(cards, pay_table):
    cards = tuple(cards.split())
    shoe = Shoe.from_counts(Counter(cards))
    draws = decide(shoe, pay_table, "total")
    gains: Counter[tuple[int, int]] = Counter()
    for seen, choices in brute_force(cards).items():
        (a, b), up = seen
        gains[total(a, b), VALUE[up]] += worth(choices["draw"], pay_table) - worth(choices["stand"], pay_table)
    for seen in brute_force(cards):
        (a, b), up = seen
        assert (hand_of(seen) in draws) == (gains[total(a, b), VALUE[up]] > 0), seen
    optimal, by_total = lucky_draw(shoe, pay_table), lucky_draw(shoe, pay_table, "total")
    assert by_total.ev <= optimal.ev


@pytest.mark.parametrize("strategy", ["optimal", "total"])
def test_the_chart_shows_every_decision_and_only_the_hands_the_shoe_deals(strategy):
    cards = tuple(SHOES[1].split())
    game = lucky_draw(Shoe.from_counts(Counter(cards)), 1, strategy)
    shown = {}
    for label, letters in game.chart():
        assert len(letters) == 10, label
        for upcard, letter in enumerate(letters):
            shown[label, upcard] = letter
    dealt = set()
    for seen in brute_force(cards):
        hand = hand_of(seen)
        key = (str(hand.total) if strategy == "total" else f"{hand.cards[0]},{hand.cards[1]}", hand.upcard)
        assert shown.get(key) == ("D" if game.draws_on(hand) else "S"), seen
        dealt.add(key)
    assert {shown[key] for key in set(shown) - dealt} == {"-"}


def test_the_small_shoes_tell_the_strategies_and_the_rules_apart():
    """The shoes reach every outcome, both choices, a total chart worse than the optimal one, and a dealer who draws."""
    seen_outcomes: set[str] = set()
    worse = 0
    for cards in SHOES:
        shoe = Shoe.from_counts(Counter(cards.split()))
        for pay_table in (1, 2):
            optimal, by_total = lucky_draw(shoe, pay_table), lucky_draw(shoe, pay_table, "total")
            seen_outcomes |= {o for o, n in zip(OUTCOMES, optimal.counts) if n}
            worse += by_total.ev < optimal.ev
            assert 0 < len(optimal.draws) < len(brute_force(tuple(cards.split())))
    assert seen_outcomes == set(OUTCOMES)
    assert worse >= 4
    # A dealer who also drew on 5 gives other counts, hand by hand, on every shoe: the comparison can fail.
    for cards in SHOES:
        assert differences(tuple(cards.split()), draws_to=5), cards


@pytest.mark.parametrize("cards", SHOES)
def test_every_hand_s_counts_match_the_brute_force(cards):
    """Each seen hand's outcome counts, standing and drawing, before any chart is applied."""
    assert not differences(tuple(cards.split()))


@pytest.mark.skipif(not is_slow(), reason="nine cards: 362,880 orders a shoe (the slow profile)")
@pytest.mark.parametrize("cards", ["A 2 3 4 5 6 7 8 9", "T J Q K 2 3 7 8 9", "A A 2 2 3 4 6 9 K"])
def test_nine_card_shoes_match_the_brute_force(cards):
    cards = tuple(cards.split())
    shoe = Shoe.from_counts(Counter(cards))
    assert not differences(cards)
    for pay_table in (1, 2):
        for strategy in ("optimal", "total"):
            game = lucky_draw(shoe, pay_table, strategy)
            assert dict(zip(OUTCOMES, game.counts)) == {o: priced(cards, game.draws)[o] for o in OUTCOMES}


@examples(20)
@given(st.lists(st.sampled_from(sorted(VALUE)), min_size=6, max_size=7 if not is_slow() else 8))
def test_random_small_shoes_match_the_brute_force(cards):
    cards = tuple(sorted(cards))
    shoe = Shoe.from_counts(Counter(cards))
    assert not differences(cards)
    for pay_table in (1, 2):
        draws = decide(shoe, pay_table)
        assert dict(zip(OUTCOMES, price(shoe, draws, pay_table).counts)) == {
            o: priced(cards, draws)[o] for o in OUTCOMES
        }
        for seen, choices in brute_force(cards).items():
            gain = worth(choices["draw"], pay_table) - worth(choices["stand"], pay_table)
            assert (hand_of(seen) in draws) == (gain > 0), (seen, gain)


# ---------------------------------------------------------------------------------------------
# The published figures, 8 decks


PUBLISHED = read_rows("published_lucky_draw.txt")


@pytest.mark.parametrize("row", PUBLISHED, ids=lambda row: "-".join(row.fields[:5]))
def test_published_figures(row):
    pay_table, strategy, decks, kind, outcome, printed = row.fields
    game = lucky_draw(Shoe.standard(int(decks)), int(pay_table), strategy)
    if kind == "half-count":
        exact = game.orderings if outcome == "total" else game.count(outcome)
        assert exact == 2 * int(printed), f"{row.where} ({row.source})"
        return
    value = {"prob": lambda: Fraction(game.count(outcome), game.orderings), "return": lambda: game.ev,
             "edge": lambda: -game.ev}[kind]()  # fmt: skip
    assert Printed.parse(printed).matches(value), f"{row.where} ({row.source}): exact {float(value)}"


def test_the_published_counts_are_not_those_of_the_total_chart():
    """The source's "optimal player decisions" are by the two cards: the total chart's counts differ."""
    by_total = lucky_draw(Shoe.standard(8), 1, "total")
    assert by_total.count("win-lucky-9") != 2 * 134129168192512
    assert not Printed.parse("-0.017931").matches(by_total.ev)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: lucky_draw(Shoe.standard(8), pay_table=3), "unknown pay table 3"),
        (lambda: lucky_draw(Shoe.standard(8), pay_table=True), "unknown pay table True"),
        (lambda: lucky_draw(Shoe.standard(8), strategy="best"), "unknown strategy 'best'"),
        (lambda: lucky_draw(Shoe.standard(8)).count("win"), "unknown outcome 'win'"),
        (lambda: Hand((10, 3), 2), "each 0-9"),
        (lambda: cell(Shoe.from_counts({"A": 5, "2": 1}), Hand((2, 2), 1)), "cannot deal 2,2 against 1"),
    ],
)
def test_bad_input_is_one_clear_error(call, message):
    with pytest.raises(ExactOddsError, match=message):
        call()


# ---------------------------------------------------------------------------------------------
# The game in the registry: its bets file, and the command line against the brute force


def _brute_chart(cards: tuple[str, ...], pay_table: int, strategy: str) -> frozenset[Hand]:
    """The hands the brute force draws on: each seen hand by its own gain, or each total and upcard by theirs."""
    files = brute_force(cards)
    gains: Counter[object] = Counter()
    for seen, choices in files.items():
        (a, b), up = seen
        key = seen if strategy == "optimal" else (total(a, b), up)
        gains[key] += worth(choices["draw"], pay_table) - worth(choices["stand"], pay_table)
    return frozenset(
        hand_of(seen) for seen in files
        if gains[seen if strategy == "optimal" else (total(*seen[0]), seen[1])] > 0
    )  # fmt: skip


def test_the_bets_file_pays_the_nets_of_each_pay_table():
    from exactodds.games.lucky_draw import GAME
    from exactodds.luckydraw import nets

    for table in (1, 2):
        bet = GAME.bets(GAME.settings_of({"pay-table": str(table)}))["lucky-draw"]
        assert [(o.id, o.net) for o in bet.outcomes] == list(zip(OUTCOMES, nets(table)))
    assert dict(zip(OUTCOMES, nets(2)))["win-lucky-7"] == Fraction(5, 2)


@pytest.mark.parametrize(("pay_table", "strategy"), [(1, "optimal"), (2, "optimal"), (1, "total")])
def test_odds_json_and_csv_read_back_the_brute_force(pay_table, strategy):
    import csv
    import io
    import json

    from click.testing import CliRunner

    from exactodds.cli import cli

    cards = tuple(SHOES[0].split())
    shoe_text = ",".join(f"{rank}={n}" for rank, n in sorted(Counter(cards).items()))
    draws = _brute_chart(cards, pay_table, strategy)
    brute = priced(cards, draws)
    args = ["odds", "--game", "lucky-draw", "--shoe", shoe_text, "--pay-table", str(pay_table), "--strategy", strategy]
    out = CliRunner().invoke(cli, [*args, "--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["game"] == "lucky-draw" and data["counting"]["cards"] == 6
    assert data["rules"] == {"name": "lucky-draw", "pay_table": str(pay_table), "strategy": strategy}
    assert int(data["orderings"]) == math.perm(len(cards), 6)
    bet = data["bets"]["lucky-draw"]
    assert [(o["outcome"], int(o["count"])) for o in bet["outcomes"]] == [(o, brute[o]) for o in OUTCOMES]
    assert Fraction(bet["ev"]) == worth(brute, pay_table) / math.perm(len(cards), 6)
    chart = data["chart"]
    assert chart["rows"] == ("cards" if strategy == "optimal" else "total") and len(chart["columns"]) == 10
    for seen in brute_force(cards):
        hand = hand_of(seen)
        label = f"{hand.cards[0]},{hand.cards[1]}" if strategy == "optimal" else str(hand.total)
        assert chart["cells"][label][hand.upcard] == ("D" if hand in draws else "S"), seen
    rows = list(csv.DictReader(io.StringIO(CliRunner().invoke(cli, [*args, "--format", "csv"]).output)))
    assert [(r["outcome"], Fraction(r["net"]), int(r["count"])) for r in rows] == [
        (o, net(o, pay_table), brute[o]) for o in OUTCOMES]


def test_the_table_prints_the_chart_after_the_bet():
    from click.testing import CliRunner

    from exactodds.cli import cli

    out = CliRunner().invoke(cli, ["odds", "--game", "lucky-draw", "--strategy", "total", "--format", "markdown"])
    assert out.exit_code == 0, out.output
    chart = out.output[out.output.index("## Strategy chart (total, pay table 1)"):]
    rows = {line.split("|")[1].strip(): "".join(c.strip() for c in line.split("|")[2:-1])
            for line in chart.splitlines()[2:] if line.startswith("|")}  # fmt: skip
    assert rows["total"] == "0123456789" and rows["6"] == "DSSSSSSSSS" and rows["8"] == "SSSSSSSSSS"
    assert out.output.index("lucky-draw: Lucky Draw") < out.output.index("## Strategy chart")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["odds", "--game", "lucky-draw", "--pay-table", "3"],
         "Error: unknown pay table '3': valid pay tables are 1, 2"),
        (["odds", "--game", "lucky-draw", "--strategy", "best"], "Error: unknown strategy 'best'"),
        (["bets", "--game", "lucky-draw", "--strategy", "Optimal"], "Error: unknown strategy 'Optimal': did you mean"),
        (["odds", "--game", "dragon-tiger", "--pay-table", "2"], "Error: dragon-tiger has no --pay-table"),
        (["odds", "--game", "three-card", "--strategy", "total"], "Error: three-card-baccarat has no --strategy"),
        (["odds", "--pay-table", "2"], "Error: punto-banco has no --pay-table: its settings are"),
        (["odds", "--game", "lucky-draw", "--tie-pays", "9"], "Error: lucky-draw has no --tie-pays"),
        (["report", "--game", "lucky-draw", "--strategy", "total", "--strategy", "optimal", "--output", "x.md"],
         "Error: lucky-draw plays one --strategy, not 2"),
        (["report", "--game", "lucky-draw", "--strategy", "perfect", "--output", "x.md"],
         "Error: unknown strategy 'perfect'"),
    ],
)  # fmt: skip
def test_bad_settings_are_one_error_line(args, message, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from exactodds.cli import cli

    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert result.output.startswith(message) and result.output.count("\n") == 1, result.output
    assert not (tmp_path / "x.md").exists()


def test_report_takes_the_game_s_strategy_and_batch_lines_carry_the_chart(tmp_path):
    import json

    from click.testing import CliRunner

    from exactodds.cli import cli

    out = tmp_path / "ld.md"
    result = CliRunner().invoke(cli, ["report", "--game", "lucky-draw", "--strategy", "total", "--decks", "1",
                                      "--output", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    game = lucky_draw(Shoe.standard(1), 1, "total")
    assert "pay table 1 · strategy total" in text and f"{game.count('win-lucky-9'):,}" in text
    assert "## Strategy chart (total, pay table 1)" in text
    line = CliRunner().invoke(cli, ["batch"], input='{"game": "lucky-draw-baccarat", "decks": 1}\n').output
    data, game = json.loads(line), lucky_draw(Shoe.standard(1))
    assert [int(o["count"]) for o in data["bets"]["lucky-draw"]["outcomes"]] == list(game.counts)
    assert list(data["chart"]["cells"].items()) == list(game.chart())
