"""The engine against published exact counts, and against a literal brute force over card permutations.

The brute force here shares nothing with the library but the public entry points it checks:
cards are distinct objects, every permutation of them is walked, each coup is dealt by a
textbook ``if`` chain written out below (not the library's ``Tableau``), and each bet is
settled by its own rule from docs/rules.md.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st
from profiles import examples, is_slow
from published_data import Printed, read_rows

from exactodds import PUNTO_BANCO, CoupState, RuleSet, Shoe, analyze, bet_catalog, enumerate_coups
from exactodds.cards import falling_factorial
from exactodds.puntobanco.rules import EZ, STANDARD_TABLEAU, deal_coup

# ---------------------------------------------------------------------------------------------
# Published exact counts


COUNT_ROWS = read_rows("published_counts.txt")


def _count_id(row):
    return f"{row.fields[0]}-decks"


#: The reference walks of the deck counts other tests walk too (the analyze rows below take every count);
#: the slow profile walks the other counts as well, a fifth of a second each.
WALKED_COUNT_ROWS = [row for row in COUNT_ROWS if is_slow() or int(row.fields[0]) in (1, 2, 3, 6, 8)]


@pytest.mark.parametrize("row", WALKED_COUNT_ROWS, ids=_count_id)
def test_published_counts_by_enumerate_coups(row, standard_coups):
    decks, banker, player, tie, total = map(int, row.fields)
    dist = standard_coups(decks)
    got = (
        dist.count(lambda s: s.winner == "banker"),
        dist.count(lambda s: s.winner == "player"),
        dist.count(lambda s: s.winner == "tie"),
        dist.orderings,
        dist.total,
    )
    assert got == (banker, player, tie, total, total), f"{row.where} ({row.source})"


@pytest.mark.parametrize("row", COUNT_ROWS, ids=_count_id)
def test_published_counts_by_analyze(row):
    decks, banker, player, tie, total = map(int, row.fields)
    analysis = analyze(Shoe.standard(decks), bets=["banker", "player", "tie"])
    got = {fig.bet.id: {o.outcome.id: o.count for o in fig.outcomes} for fig in analysis.bets}
    assert got == {
        "banker": {"win": banker, "push": tie, "lose": player},
        "player": {"win": player, "push": tie, "lose": banker},
        "tie": {"win": tie, "lose": total - tie},
    }, f"{row.where} ({row.source})"
    assert analysis.orderings == total == falling_factorial(52 * decks, 6)


def test_published_ez_counts_by_enumerate_coups(standard_coups):
    # WoO "EZ Baccarat": Banker wins with a three-card 7 (the push of EZ, the win of Dragon 7);
    # Panda 8: Player wins with a three-card 8.
    dist = standard_coups(8)
    assert dist.count(lambda s: s.winner == "banker" and s.banker_cards == 3 and s.banker_total == 7) == (
        112_633_011_329_024
    )
    assert dist.count(lambda s: s.winner == "player" and s.player_cards == 3 and s.player_total == 8) == (
        172_660_763_262_976
    )


# How coups end (totals, margins, naturals, cards): the distribution is rich enough for later side bets.

_FILTERS: dict[str, Callable[[CoupState, str], bool]] = {
    "winner": lambda s, v: s.winner == v,
    "player_total": lambda s, v: s.player_total == int(v),
    "banker_total": lambda s, v: s.banker_total == int(v),
    "margin": lambda s, v: s.margin == int(v),
    "cards": lambda s, v: s.cards == int(v),
    "player_cards": lambda s, v: s.player_cards == int(v),
    "banker_cards": lambda s, v: s.banker_cards == int(v),
    "natural": lambda s, v: s.natural == _yes(v),
    "player_natural": lambda s, v: s.player_natural == _yes(v),
    "banker_natural": lambda s, v: s.banker_natural == _yes(v),
}


def _yes(text: str) -> bool:
    if text not in ("yes", "no"):
        raise ValueError(f"expected yes or no, not {text!r}")
    return text == "yes"


#: Every published coup count; the quick run takes one shoe of eight decks less one card (a 0-valued one, as
#: the Panda's table does), the slow profile the three others, each a reference walk of its own.
COUP_ROWS = [row for row in read_rows("published_coups.txt") if is_slow() or row.fields[1] not in (
    "remove=A", "remove=2", "remove=3")]


@pytest.mark.parametrize("row", COUP_ROWS, ids=lambda r: r.where)
def test_published_coup_counts(row, standard_coups):
    *filters, printed = row.fields
    shoe: dict[str, str] = {}
    tests: list[Callable[[CoupState], bool]] = []
    for item in filters:
        key, _, value = item.partition("=")
        if key in ("decks", "remove"):
            shoe[key] = value
        else:
            test = _FILTERS[key]
            tests.append(lambda s, test=test, value=value: test(s, value))
    dist = standard_coups(int(shoe["decks"]), shoe.get("remove", ""))
    count = dist.count(lambda s: all(t(s) for t in tests))
    where = f"{row.where}: {' '.join(filters)} ({row.source})"
    if "." in printed:
        exact = Fraction(count, dist.orderings)
        assert Printed.parse(printed).matches(exact), f"{where}: exact {float(exact):.9f}, printed {printed}"
    else:
        assert count == int(printed), where


def test_thousand_decks_stay_exact():
    shoe = Shoe.standard(1000)
    dist = enumerate_coups(shoe)
    assert dist.orderings == falling_factorial(52_000, 6) == 52000 * 51999 * 51998 * 51997 * 51996 * 51995
    assert dist.total == dist.orderings
    assert all(isinstance(n, int) and n >= 0 for n in dist.counts.values())
    # More decks raise the Banker's edge (1.0558% at 6 decks, 1.0579% at 8) towards about 1.06%.
    banker = analyze(shoe, bets=["banker"]).bet("banker").house_edge
    assert analyze(Shoe.standard(8), bets=["banker"]).bet("banker").house_edge < banker < Fraction(107, 10_000)


# ---------------------------------------------------------------------------------------------
# A textbook dealer and settler, written out independently of the library


VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 0, "J": 0, "Q": 0, "K": 0}


def textbook_coup(values: Sequence[int]) -> tuple[int, int, int, int]:
    """Deal one coup from card values in order, the way a croupier learns the third-card rule.

    Returns (Player total, Banker total, Player cards, Banker cards).
    """
    player = (values[0] + values[2]) % 10
    banker = (values[1] + values[3]) % 10
    if player >= 8 or banker >= 8:  # a natural: nobody draws
        return player, banker, 2, 2
    if player <= 5:  # the Player draws card 5
        third = values[4]
        player = (player + third) % 10
        if banker <= 2:
            banker_draws = True
        elif banker == 3:
            banker_draws = third != 8
        elif banker == 4:
            banker_draws = 2 <= third <= 7
        elif banker == 5:
            banker_draws = 4 <= third <= 7
        elif banker == 6:
            banker_draws = third == 6 or third == 7
        else:
            banker_draws = False
        if banker_draws:
            return player, (banker + values[5]) % 10, 3, 3
        return player, banker, 3, 2
    # The Player stands on 6 or 7; the Banker then draws card 5 on 0-5.
    if banker <= 5:
        return player, (banker + values[4]) % 10, 2, 3
    return player, banker, 2, 2


def textbook_settle(coup: tuple[int, int, int, int], player_pair: bool, banker_pair: bool, ez: bool) -> dict[str, str]:
    """Every bet's outcome id for one coup."""
    player, banker, player_cards, banker_cards = coup
    three_card_seven = banker > player and banker_cards == 3 and banker == 7
    if banker > player:
        banker_bet = "push-three-card-7" if ez and three_card_seven else "win"
    else:
        banker_bet = "push" if banker == player else "lose"
    return {
        "player": "win" if player > banker else "push" if player == banker else "lose",
        "banker": banker_bet,
        "tie": "win" if player == banker else "lose",
        "player-pair": "win" if player_pair else "lose",
        "banker-pair": "win" if banker_pair else "lose",
        "dragon-7": "win" if three_card_seven else "lose",
        "panda-8": "win" if player > banker and player_cards == 3 and player == 8 else "lose",
    }


_SIDE_PAYS = {
    "tie": {"win": 8, "lose": -1},
    "player-pair": {"win": 11, "lose": -1},
    "banker-pair": {"win": 11, "lose": -1},
    "dragon-7": {"win": 40, "lose": -1},
    "panda-8": {"win": 25, "lose": -1},
    "player": {"win": 1, "push": 0, "lose": -1},
}
TEXTBOOK_PAYS = {
    "punto-banco": {**_SIDE_PAYS, "banker": {"win": Fraction(95, 100), "push": 0, "lose": -1}},
    "ez": {**_SIDE_PAYS, "banker": {"win": 1, "push-three-card-7": 0, "push": 0, "lose": -1}},
}
RULES = {"punto-banco": PUNTO_BANCO, "ez": EZ}


@cache
def walk_permutations(cards: tuple[str, ...], whole_shoe: bool) -> Counter[tuple[str, ...]]:
    """Walk every permutation of the cards as distinct objects; count the first six cards' ranks.

    With ``whole_shoe`` every ordering of all N cards is walked, and each six-card start (seen
    (N-6)! times) is divided back out; otherwise every ordered draw of six distinct cards is walked.
    """
    # itertools permutes the cards by their places, not their ranks: two kings are two different cards.
    if whole_shoe:
        starts = Counter(order[:6] for order in itertools.permutations(cards))
        repeats = math.factorial(len(cards) - 6)
        assert all(n % repeats == 0 for n in starts.values())
        return Counter({start: n // repeats for start, n in starts.items()})
    return Counter(itertools.permutations(cards, 6))


def textbook_counts(starts: Counter[tuple[str, ...]], ez: bool) -> dict[str, Counter[str]]:
    """Outcome counts per bet over the walked orderings, by the textbook dealer and settler."""
    # The textbook deals by the cards' values and settles the pairs by their ranks: orderings alike in both are
    # dealt and settled once, with their number (ten-valued ranks make many of them).
    alike: Counter[tuple[tuple[int, ...], bool, bool]] = Counter()
    for ranks, n in starts.items():
        alike[tuple(VALUE[r] for r in ranks), ranks[0] == ranks[2], ranks[1] == ranks[3]] += n
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for (values, player_pair, banker_pair), n in alike.items():
        for bet_id, outcome in textbook_settle(textbook_coup(list(values)), player_pair, banker_pair, ez).items():
            counts[bet_id][outcome] += n
    return counts


def breakdown(starts: Counter[tuple[str, ...]], rules: RuleSet, bet_id: str, limit: int = 12) -> str:
    """Where the textbook and the library part ways for one bet, by the first two cards of each hand.

    The library side deals each walked ordering with ``deal_coup`` and settles it with the bet's
    pay table; if that agrees everywhere, the difference is in the enumerator's counting.
    """
    bet = bet_catalog(rules)[bet_id]
    ours: dict[str, Counter[str]] = defaultdict(Counter)
    theirs: dict[str, Counter[str]] = defaultdict(Counter)
    for ranks, n in starts.items():
        values = [VALUE[r] for r in ranks]
        pairs = (ranks[0] == ranks[2], ranks[1] == ranks[3])
        hands = f"Player {ranks[0]}{ranks[2]} Banker {ranks[1]}{ranks[3]}"
        ours[hands][textbook_settle(textbook_coup(values), *pairs, rules.banker_three_card_seven_pushes)[bet_id]] += n
        theirs[hands][bet.settle(CoupState(*deal_coup(values, rules.tableau), *pairs)).id] += n
    differing = [h for h in sorted(ours) if ours[h] != theirs[h]]
    if not differing:
        return "  every ordering is dealt and settled alike one by one: the enumerator's counting differs"
    lines = [f"  {h}: brute force {dict(ours[h])}, library deal_coup {dict(theirs[h])}" for h in differing[:limit]]
    if len(differing) > limit:
        lines.append(f"  … and {len(differing) - limit} more starting hands")
    return "\n".join(lines)


def compare_with_engine(cards: tuple[str, ...], rules_name: str, rules: RuleSet, whole_shoe: bool) -> list[str]:
    """Every disagreement between the brute force and ``analyze`` on this shoe, bet by bet."""
    starts = walk_permutations(cards, whole_shoe)
    expected = textbook_counts(starts, rules.banker_three_card_seven_pushes)
    total = falling_factorial(len(cards), 6)
    assert sum(starts.values()) == total
    problems = []
    shoe = Shoe.from_counts(Counter(cards))
    # The public default, and the plain reference walk behind it.
    analyses = (("default", analyze(shoe, rules)), ("reference", analyze(shoe, rules, method="reference")))
    for method, analysis in analyses:
        assert analysis.orderings == total
        for figures in analysis.bets:
            bet_id = figures.bet.id
            engine = {o.outcome.id: o.count for o in figures.outcomes}
            brute = expected[bet_id]
            pays = TEXTBOOK_PAYS[rules_name][bet_id]
            assert set(brute) <= set(engine) == set(pays), f"{bet_id}: outcome ids {sorted(engine)}"
            ev = Fraction(sum(pays[o] * n for o, n in brute.items()), total)
            if any(engine[o] != brute[o] for o in engine) or figures.ev != ev:
                problems.append(
                    f"{' '.join(cards)} · {rules_name} · {bet_id} ({method} method): engine {engine} "
                    f"(EV {figures.ev}), brute force {dict(brute)} (EV {ev})\n{breakdown(starts, rules, bet_id)}"
                )
    return problems


# Small shoes of mixed ranks: 0-valued T/J/Q/K side by side (a J-K is no pair), naturals,
# every Player decision, and Banker totals 0-7 against many Player third cards.
BRUTE_FORCE_SHOES = [
    ("K Q 5 5 9 9", True),
    ("T J K K 3 4 6", True),
    ("T T J 3 3 6 7 8", True),
    ("A A 2 3 5 6 7 9 J", False),
    ("T J Q K 2 3 4 5 6 7", False),
    ("K K Q 3 3 4 5 6 8 9", False),
]


#: Every shoe under both rule sets; the quick run walks each ten-card shoe (a quarter of a second) under one.
BRUTE_FORCE_CASES = [
    pytest.param(cards, whole_shoe, rules_name, id=f"{cards}-{rules_name}")
    for cards, whole_shoe in BRUTE_FORCE_SHOES
    for rules_name in ("punto-banco", "ez")
    if is_slow() or len(cards.split()) < 10 or (cards.startswith("T") == (rules_name == "punto-banco"))
]


@pytest.mark.parametrize(("cards", "whole_shoe", "rules_name"), BRUTE_FORCE_CASES)
def test_engine_matches_literal_brute_force(cards, whole_shoe, rules_name):
    problems = compare_with_engine(tuple(cards.split()), rules_name, RULES[rules_name], whole_shoe)
    assert not problems, "\n".join(problems)


def test_brute_force_shoes_exercise_the_whole_tableau():
    """The shoes above reach every kind of decision, so the comparison means something."""
    decisions = set()
    pairs = Counter()
    for cards, whole_shoe in BRUTE_FORCE_SHOES:
        for ranks in walk_permutations(tuple(cards.split()), whole_shoe):
            v = [VALUE[r] for r in ranks]
            player, banker = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
            pairs[ranks[0] == ranks[2], VALUE[ranks[0]] == VALUE[ranks[2]]] += 1
            if player >= 8 or banker >= 8:
                decisions.add("natural")
            elif player <= 5:
                decisions.add((banker, textbook_coup(v)[3] == 3))
            else:
                decisions.add(("player stands", banker <= 5))
    assert "natural" in decisions
    assert {("player stands", True), ("player stands", False)} <= decisions
    # Banker totals 3-6 both draw and stand after a Player third card; 0-2 always draw, 7 never.
    assert {(b, d) for b in (3, 4, 5, 6) for d in (True, False)} <= decisions
    assert {(b, True) for b in (0, 1, 2)} <= decisions and (7, False) in decisions
    # Same value but different rank (J-K) happens, and is not a pair.
    assert pairs[False, True] > 0 and pairs[True, True] > 0


def test_brute_force_catches_a_wrong_tableau():
    """A mutant tableau (Banker 6 also draws on a Player third card 5) must be caught and located."""
    rows = list(STANDARD_TABLEAU.banker_draws_against)
    rows[6] = rows[6] | {5}
    mutant = replace(PUNTO_BANCO, tableau=replace(STANDARD_TABLEAU, banker_draws_against=tuple(rows)))
    problems = compare_with_engine(tuple("T J 2 3 3 4 5 6".split()), "punto-banco", mutant, False)
    assert problems
    # The breakdown names the starting hands that differ: all of them a Banker 6 facing a Player who draws.
    hands = re.findall(r"Player (\w)(\w) Banker (\w)(\w): brute force", "\n".join(problems))
    assert hands
    for p1, p2, b1, b2 in hands:
        assert (VALUE[b1] + VALUE[b2]) % 10 == 6 and (VALUE[p1] + VALUE[p2]) % 10 <= 5, (p1, p2, b1, b2)


@examples(25)
@given(st.lists(st.sampled_from(list(VALUE)), min_size=6, max_size=8), st.sampled_from(sorted(RULES)))
def test_engine_matches_brute_force_on_random_small_shoes(cards, rules_name):
    problems = compare_with_engine(tuple(cards), rules_name, RULES[rules_name], False)
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# deal_coup, the library's one-coup dealer, against the textbook


def test_deal_coup_matches_textbook_on_every_four_card_start():
    mismatches = []
    for start in itertools.product(range(10), repeat=4):
        for fifth in range(10):
            sixth = (3 * fifth + start[0] + 7) % 10  # vary the sixth card with the rest
            values = (*start, fifth, sixth)
            if deal_coup(values) != textbook_coup(values):
                mismatches.append((values, deal_coup(values), textbook_coup(values)))
    assert not mismatches, f"{len(mismatches)} mismatches, e.g. (values, deal_coup, textbook): {mismatches[:5]}"


def test_deal_coup_matches_textbook_on_random_sequences():
    rng = random.Random(20240601)
    for _ in range(20_000):
        values = [rng.randrange(10) for _ in range(6)]
        assert deal_coup(values) == textbook_coup(values), values


def test_deal_coup_reads_only_the_cards_it_uses():
    # Naturals use four cards, a Player standing on 6-7 facing a Banker 6-7 uses four.
    assert deal_coup([9, 0, 0, 0]) == (9, 0, 2, 2)
    assert deal_coup([3, 3, 3, 4]) == (6, 7, 2, 2)
    assert deal_coup([3, 3, 3, 0, 5]) == (6, 8, 2, 3)  # Player stands on 6; Banker 3 draws card 5
    assert deal_coup([0, 7, 0, 0, 4]) == (4, 7, 3, 2)  # Banker 7 never draws


def test_engine_states_are_consistent_with_the_rules(standard_coups):
    for state in standard_coups(8).counts:
        if state.player_cards == 2 and state.banker_cards == 2 and not state.natural:
            assert state.player_total in (6, 7) and state.banker_total in (6, 7), state
        if state.player_cards == 2 and state.banker_cards == 3:
            assert state.player_total in (6, 7), state  # the Player stood
