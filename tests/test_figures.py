"""The exact figures of a bet (figures.BetFigures, from integer pays) against Fractions summed outcome by outcome."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from profiles import examples, is_slow

from exactodds import PUNTO_BANCO, Shoe, analyze
from exactodds.analysis import BetFigures
from exactodds.cards import RANKS, SUITS
from exactodds.puntobanco.bets import bets_from_text
from exactodds.puntobanco.odds import resolve_bets

#: Bets of a bets file: a multiplier on the return (a ×0 turns a win into a loss, a ×1/2 a half loss into a
#: push), pays in twentieths, and a bet on the dealt cards.
BETS_FILE = """
[bets.lightning]
description = "Player, its return multiplied"
[[bets.lightning.outcome]]
id = "win"
when = { winner = "player" }
pays = "1/2"
multiplier = { values = [0, 1, 3], probabilities = ["1/4", "1/2", "1/4"], applies = "return" }
[[bets.lightning.outcome]]
id = "half"
when = { winner = "tie" }
pays = "-1/2"
multiplier = { values = ["1/2", 2], probabilities = ["2/3", "1/3"], applies = "return" }
[[bets.lightning.outcome]]
id = "lose"
otherwise = true
pays = -1

[bets.twentieths]
description = "Banker at 19/20 with two cards, 3/4 with three"
[[bets.twentieths.outcome]]
id = "three-cards"
when = { winner = "banker", banker_cards = 3 }
pays = "3/4"
[[bets.twentieths.outcome]]
id = "two-cards"
when = { winner = "banker", banker_cards = 2 }
pays = "19/20"
[[bets.twentieths.outcome]]
id = "push"
when = { winner = "tie" }
pays = 0
[[bets.twentieths.outcome]]
id = "lose"
otherwise = true
pays = -1

[bets.first-king]
description = "The Player's first card a king"
[[bets.first-king.outcome]]
id = "win"
when = { p1_rank = "K" }
pays = 11
[[bets.first-king.outcome]]
id = "lose"
otherwise = true
pays = -1
"""
FILE_BETS = tuple(bets_from_text(BETS_FILE))


def depleted_8_decks() -> Shoe:
    """The depleted shoe of benchmarks/allbets.py: card r (A…K), suit s (S H D C) keeps 8 − ((r + 2s) mod 7)."""
    counts = {(r, s): 8 - (i + 2 * j) % 7 for i, r in enumerate(RANKS) for j, s in enumerate(SUITS)}
    return Shoe.from_card_counts(counts)


#: Fresh and depleted 8-deck shoes, tiny suited and by-rank shoes, and a mixed policy on the Player's 5 (its
#: orderings scaled by 11): each priced for every bet of the catalog it can price and the bets file's bets.
CASES = {
    "fresh 8 decks": (Shoe.standard(8), PUNTO_BANCO),
    "depleted 8 decks": (depleted_8_decks(), PUNTO_BANCO),
    "tiny, suited": (Shoe.parse("AS=1,2H=1,3D=2,5C=1,8S=1,9H=1,KD=2,KS=1"), PUNTO_BANCO),
    "tiny, by rank": (Shoe.parse("A=1,2=1,3=1,5=1,8=1,9=1,K=2"), PUNTO_BANCO),
    "tiny, the Player's 5 drawn 9 in 11": (Shoe.parse("AS=1,4H=1,5D=2,6C=1,9S=1,KH=2"),
                                           PUNTO_BANCO.with_player_five("9/11")),
}  # fmt: skip


def plain_figures(figures: BetFigures) -> tuple[Fraction, Fraction, Fraction, Fraction, Fraction | None]:
    """EV, variance, hit frequency, push probability and the edge per resolved bet, each a sum of Fractions over
    the outcomes (every outcome's probability times its expected net pay, squared net pay, chance of a win or push)."""
    n = figures.orderings
    chances = [(Fraction(o.count, n), o.outcome) for o in figures.outcomes]
    ev = sum((p * o.mean for p, o in chances), Fraction(0))
    second = sum((p * o.square for p, o in chances), Fraction(0))
    hit = sum((p * o.chance(1) for p, o in chances), Fraction(0))
    push = sum((p * o.chance(0) for p, o in chances), Fraction(0))
    return ev, second - ev * ev, hit, push, None if push == 1 else -ev / (1 - push)


def fast_figures(figures: BetFigures) -> tuple[Fraction, Fraction, Fraction, Fraction, Fraction | None]:
    return (figures.ev, figures.variance, figures.hit_frequency, figures.push_probability,
            figures.house_edge_per_resolved_bet)  # fmt: skip


@pytest.mark.parametrize("case", CASES)
def test_every_bet_of_the_catalog_and_a_bets_file(case):
    """Every bet ``--bet all`` prices on the shoe, and the bets file's, figure by figure, exactly.

    The bets on the dealt cards (the card walk, a second or so to set up at 8 decks) are in the
    8-deck cases under the slow profile only: the tiny shoes take them through the same figures.
    """
    shoe, rules = CASES[case]
    cards = shoe.size < 100 or is_slow()
    file_bets = [bet for bet in FILE_BETS if cards or not bet.reads_cards]
    analysis = analyze(shoe, rules, [*resolve_bets(rules, ["all"], suits=shoe.suited, cards=cards), *file_bets])
    ids = {figures.bet.id for figures in analysis.bets}
    assert {"lightning", "twentieths", "dragon-bonus-banker"} <= ids
    assert ("first-king" in ids, "jackpot-baccarat" in ids) == (cards, cards and shoe.suited)
    assert ("perfect-pair" in ids) == shoe.suited  # the suited bets where the shoe has suits
    assert analysis.orderings == shoe.orderings() * (11 if rules.player_five_draws else 1)
    for figures in analysis.bets:
        assert fast_figures(figures) == plain_figures(figures), figures.bet.id
        assert all(type(x) is Fraction for x in fast_figures(figures) if x is not None), figures.bet.id


@given(removed=st.lists(st.tuples(st.sampled_from(RANKS), st.sampled_from(SUITS)), max_size=300))
@examples(60, 4)
def test_depleted_8_deck_shoes(removed):
    """Random depleted 8-deck shoes: every bet the compiled and closed-form routes price, exactly."""
    left = {(r, s): 8 for r in RANKS for s in SUITS}
    for card in removed:
        left[card] -= left[card] > 0
    shoe = Shoe.from_card_counts(left)
    analysis = analyze(shoe, PUNTO_BANCO, [*resolve_bets(PUNTO_BANCO, ["all"], cards=False), *FILE_BETS[:2]])
    for figures in analysis.bets:
        assert fast_figures(figures) == plain_figures(figures), figures.bet.id


def test_the_integer_pays_are_worked_out_once_per_bet(monkeypatch):
    """A bet's pays in integers are made on its first figures and kept: a loop of shoes re-derives nothing per bet."""
    from exactodds.paytable import IntegerPays

    made = []
    of = IntegerPays.of

    def counted(outcomes):
        made.append(outcomes)
        return of(outcomes)

    monkeypatch.setattr(IntegerPays, "of", staticmethod(counted))
    bets = bets_from_text(BETS_FILE)[:2]  # fresh bet objects: none has its pays yet
    for shoe in (Shoe.standard(1), Shoe.standard(2)):
        for figures in analyze(shoe, PUNTO_BANCO, bets).bets:
            _ = fast_figures(figures)
    assert len(made) == 2


def test_figures_made_from_counts_are_the_dataclass_s():
    """BetFigures.of_counts (analyze's maker: no per-field setters, the outcomes made on first read) makes the
    figures the dataclass makes: equal, same hash, pickled and copied alike; the figures are kept once read, and
    no lock is taken (functools.cached_property takes one on Python 3.11)."""
    import copy
    import functools
    import pickle

    from exactodds.analysis import OutcomeFigures

    bets = resolve_bets(PUNTO_BANCO, ["all"])
    shoe = Shoe.standard(1)
    analysis = analyze(shoe, PUNTO_BANCO, bets)
    for made in analysis.bets:
        plain = BetFigures(made.bet, tuple(OutcomeFigures(o.outcome, o.count, o.orderings) for o in made.outcomes),
                           made.orderings)  # fmt: skip
        assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
        assert (made.ev, made.variance, made.hit_frequency) == (plain.ev, plain.variance, plain.hit_frequency)
    lazy = BetFigures.of_counts(bets[0], [o.count for o in analysis.bets[0].outcomes], analysis.orderings)
    assert "outcomes" not in vars(lazy)
    for again in (pickle.loads(pickle.dumps(lazy)), copy.deepcopy(lazy)):
        assert again == lazy == analysis.bets[0]
    with pytest.raises(AttributeError, match="no attribute 'evv'"):
        lazy.evv  # noqa: B018 (an unknown attribute is still an error)

    # Python 3.11's functools.cached_property takes a lock on each first read: the figures' descriptors are not it.
    for name in ("ev", "variance", "hit_frequency", "push_probability", "_moments"):
        assert not isinstance(vars(BetFigures)[name], functools.cached_property), name
    fresh = BetFigures.of_counts(bets[1], [o.count for o in analysis.bets[1].outcomes], analysis.orderings)
    assert fresh.ev == analysis.bets[1].ev and vars(fresh)["ev"] == fresh.ev
