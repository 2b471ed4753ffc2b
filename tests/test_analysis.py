"""Exact figures per bet: the published house edges, SDs and hit frequencies, and the formulas on hand-worked cases."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest
from published_data import Printed

from exactodds import (
    PUNTO_BANCO,
    Analysis,
    BetFigures,
    ExactOddsError,
    Shoe,
    analyze,
    find_bet,
)
from exactodds.analysis import OutcomeFigures
from exactodds.puntobanco.published import PublishedFigure, published_figures, rules_from_spec


@cache
def analysis_of(spec: str, decks: int) -> Analysis:
    return analyze(Shoe.standard(decks), rules_from_spec(spec))


def _exact_figure(figures: BetFigures, figure: str) -> Fraction:
    win = next(o for o in figures.outcomes if o.outcome.id == "win")
    return {
        "probability": win.probability,
        "house_edge": figures.house_edge,
        "return": figures.ev,
        "hit_frequency": figures.hit_frequency,
    }[figure]


FIGURES = published_figures()


@pytest.mark.parametrize("figure", FIGURES, ids=lambda f: f"{f.rules}-{f.decks}-{f.bet}-{f.figure}-{f.printed}")
def test_published_figures(figure):
    """Each figure of exactodds/data/published.toml (the report's cross-checks cite the same file)."""
    figures = analysis_of(figure.rules, figure.decks).bet(figure.bet)
    where = f"{figure.bet} {figure.figure} ({figure.source})"
    if figure.figure == "count":
        win = next(o for o in figures.outcomes if o.outcome.id == "win")
        assert win.count == int(figure.printed), where
    elif figure.figure == "sd":
        # sqrt(variance) rounds to the printed SD exactly when (SD - h)^2 <= variance <= (SD + h)^2.
        printed = Printed.parse(figure.printed)
        low, high = printed.value - printed.half_unit, printed.value + printed.half_unit
        assert low >= 0 and low**2 <= figures.variance <= high**2, f"{where}: exact {figures.sd_text(8)}"
    else:
        printed = Printed.parse(figure.printed)
        exact = _exact_figure(figures, figure.figure)
        assert printed.matches(exact), f"{where}: exact {float(exact):.12g}, printed {figure.printed}"
    # The package's own check (used by the report) agrees with this independent one.
    assert figure.matches(figures), where


def test_published_figure_check_can_fail():
    banker = analysis_of("punto-banco", 8).bet("banker")
    for printed in ("1.0578%", "1.0580%"):
        assert not PublishedFigure("punto-banco", 8, "banker", "house_edge", printed, "x").matches(banker)
    assert not PublishedFigure("punto-banco", 8, "banker", "sd", "0.94", "x").matches(banker)


def test_published_figures_cover_every_bet():
    # "house edges, SDs and hit frequency for every bet to the printed precision" (issue 2).
    bets = {f.bet for f in FIGURES}
    assert bets == {"player", "banker", "tie", "player-pair", "banker-pair", "dragon-7", "panda-8"}


def test_printed_comparison_is_tight():
    """Half a unit of the last printed digit, no more: the neighbours of the exact edge do not match."""
    edge = analysis_of("punto-banco", 8).bet("banker").house_edge  # 1.05790578…%
    assert Printed.parse("1.0579%").matches(edge)
    assert not Printed.parse("1.0578%").matches(edge)
    assert not Printed.parse("1.0580%").matches(edge)
    assert Printed.parse("1.06%").matches(edge) and not Printed.parse("1.05%").matches(edge)


def test_pair_bets_have_the_closed_form_of_eight_decks():
    # The Player's cards 1 and 3 share a rank with probability (32 - 1) / 415: 31/415, so the
    # house edge of 11:1 is 1 - 12·31/415 = 43/415.
    for bet_id in ("player-pair", "banker-pair"):
        figures = analysis_of("punto-banco", 8).bet(bet_id)
        assert figures.hit_frequency == Fraction(31, 415)
        assert figures.house_edge == Fraction(43, 415)


def test_ez_banker_pushes_exactly_the_dragon_7_wins():
    ez = analysis_of("ez", 8)
    push = next(o for o in ez.bet("banker").outcomes if o.outcome.id == "push-three-card-7")
    assert push.count == 112_633_011_329_024
    assert ez.bet("dragon-7").outcomes[0].count == push.count
    assert ez.bet("banker").house_edge_percent(4) == "1.0183%"


def test_commission_and_tie_pay_move_only_their_bet():
    base, four = analysis_of("punto-banco", 8), analysis_of("punto-banco,commission=4%", 8)
    nine = analysis_of("punto-banco,tie-pays=9", 8)
    banker = base.bet("banker")
    win = banker.outcomes[0].probability
    # One point less commission adds 1/100 of the Banker's win probability to its EV.
    assert four.bet("banker").ev - banker.ev == win / 100
    assert nine.bet("tie").ev - base.bet("tie").ev == base.bet("tie").hit_frequency
    for bet_id in ("player", "player-pair", "dragon-7", "panda-8"):
        assert four.bet(bet_id).ev == nine.bet(bet_id).ev == base.bet(bet_id).ev


# ---------------------------------------------------------------------------------------------
# The formulas on hand-worked cases


def _figures(*outcomes: tuple[str, Fraction, int]) -> BetFigures:
    from exactodds.paytable import Outcome
    from exactodds.puntobanco.events import ANY

    orderings = sum(n for _, _, n in outcomes)
    return BetFigures(
        find_bet("banker", PUNTO_BANCO),
        tuple(OutcomeFigures(Outcome(i, ANY, net), n, orderings) for i, net, n in outcomes),
        orderings,
    )


def test_ev_variance_and_hit_frequency_by_hand():
    # 45 wins at 0.95, 10 pushes, 45 losses out of 100.
    figures = _figures(("win", Fraction(19, 20), 45), ("push", Fraction(0), 10), ("lose", Fraction(-1), 45))
    # EV = (45·0.95 - 45) / 100 = -2.25/100
    assert figures.ev == Fraction(-9, 400)
    assert figures.house_edge == Fraction(9, 400)
    # E[X^2] = (45·0.9025 + 45) / 100 = 0.856125; variance = 0.856125 - 0.0225^2 = 0.85561875
    assert figures.variance == Fraction(85561875, 10**8)
    assert figures.hit_frequency == Fraction(9, 20)
    assert figures.sd_text(6) == "0.924997"  # sqrt(0.85561875) = 0.92499662…
    assert figures.house_edge_percent(2) == "2.25%"
    assert [o.contribution for o in figures.outcomes] == [Fraction(171, 400), 0, Fraction(-45, 100)]


def test_a_shoe_of_two_zero_ranks_by_hand():
    # Three tens and three jacks: every coup is Player 0, Banker 0, both draw a 0: a 0-0 tie.
    analysis = analyze(Shoe.parse("T=3,J=3"))
    assert analysis.orderings == 720
    for bet_id in ("player", "banker"):
        figures = analysis.bet(bet_id)
        assert {o.outcome.id: o.count for o in figures.outcomes} == {"win": 0, "push": 720, "lose": 0}
        assert (figures.ev, figures.variance, figures.hit_frequency) == (0, 0, 0)
    tie = analysis.bet("tie")
    assert (tie.ev, tie.variance, tie.hit_frequency, tie.sd_text(4)) == (8, 0, 1, "0.0000")
    # Card 3 matches card 1's rank with probability 2/5 (two of the five cards left).
    pair = analysis.bet("player-pair")
    assert pair.hit_frequency == Fraction(2, 5)
    assert pair.ev == 11 * Fraction(2, 5) - Fraction(3, 5) == Fraction(19, 5)
    assert pair.variance == 121 * Fraction(2, 5) + Fraction(3, 5) - Fraction(19, 5) ** 2 == Fraction(864, 25)
    assert pair.sd_text(6) == "5.878775"  # sqrt(34.56)
    dragon = analysis.bet("dragon-7")
    assert (dragon.ev, dragon.variance, dragon.hit_frequency) == (-1, 0, 0)


def test_analysis_bet_lookup_and_selection():
    analysis = analyze(Shoe.standard(1), bets=["tie", "banker", "tie"])
    assert [b.bet.id for b in analysis.bets] == ["tie", "banker"]  # order kept, duplicates dropped
    with pytest.raises(ExactOddsError, match="'panda-8' was not analysed: have tie, banker"):
        analysis.bet("panda-8")
    with pytest.raises(ExactOddsError, match="unknown bet 'dragon-8': did you mean dragon-7"):
        analyze(Shoe.standard(1), bets=["dragon-8"])
    everything = analyze(Shoe.standard(1))
    assert [b.bet.id for b in everything.bets] == [
        "player",
        "banker",
        "tie",
        "player-pair",
        "banker-pair",
        "dragon-7",
        "panda-8",
    ]
    assert everything.rules is PUNTO_BANCO and everything.shoe == Shoe.standard(1)
