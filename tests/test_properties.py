"""Properties that hold for every shoe, checked on random compositions (hypothesis)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st
from profiles import examples

from exactodds import PUNTO_BANCO, Rank, Shoe, analysis_json, analyze, enumerate_coups
from exactodds.cards import RANKS, falling_factorial
from exactodds.puntobanco.rules import EZ

# 13 rank counts, 6 to 60 cards: small enough to enumerate in milliseconds, small enough that
# the shoe runs short of some ranks (where a counting slip would show).
compositions = st.lists(st.integers(0, 5), min_size=13, max_size=13).filter(lambda c: 6 <= sum(c) <= 60)
rule_sets = st.sampled_from([PUNTO_BANCO, EZ, PUNTO_BANCO.with_commission(Fraction(1, 25)).with_tie_pays(Fraction(9))])
SETTINGS = examples(40)


@SETTINGS
@given(compositions)
def test_counts_sum_to_ordered_six_card_draws(counts):
    shoe = Shoe(tuple(counts))
    dist = enumerate_coups(shoe)
    n = shoe.size
    assert dist.total == dist.orderings == n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    assert all(isinstance(c, int) and c > 0 for c in dist.counts.values())


@SETTINGS
@given(compositions, rule_sets)
def test_every_bet_is_a_probability_distribution_with_consistent_figures(counts, rules):
    analysis = analyze(Shoe(tuple(counts)), rules)
    for figures in analysis.bets:
        probabilities = [o.probability for o in figures.outcomes]
        assert sum(probabilities) == 1
        assert sum(o.count for o in figures.outcomes) == analysis.orderings
        assert figures.ev == sum(o.outcome.net * o.probability for o in figures.outcomes)
        assert figures.house_edge == -figures.ev
        second_moment = sum(o.outcome.net**2 * o.probability for o in figures.outcomes)
        assert figures.variance == second_moment - figures.ev**2 >= 0
        assert figures.hit_frequency == sum(o.probability for o in figures.outcomes if o.outcome.net > 0)
        assert 0 <= figures.hit_frequency <= 1


@SETTINGS
@given(compositions, rule_sets, st.data())
def test_removing_a_card_keeps_the_output_shape(counts, rules, data):
    shoe = Shoe(tuple(counts))
    present = [rank for rank in RANKS if shoe.count(rank)]
    rank = data.draw(st.sampled_from(present))
    if shoe.size == 6:  # a 6-card shoe cannot lose a card and still deal a coup
        return
    smaller = shoe.remove([rank])
    assert smaller.size == shoe.size - 1 and smaller.count(rank) == shoe.count(rank) - 1

    def shape(s: Shoe):
        a = analyze(s, rules)
        return [(f.bet.id, [(o.outcome.id, o.outcome.net) for o in f.outcomes]) for f in a.bets]

    assert shape(smaller) == shape(shoe)

    def keys(value):
        if isinstance(value, dict):
            return {k: keys(v) for k, v in value.items()}
        if isinstance(value, list):
            return [keys(v) for v in value]
        return type(value).__name__

    assert keys(analysis_json(analyze(smaller, rules))) == keys(analysis_json(analyze(shoe, rules)))


@SETTINGS
@given(compositions)
def test_pair_bets_match_their_closed_form(counts):
    # Cards 1 and 3 (Player) and cards 2 and 4 (Banker) are both just two distinct positions of a
    # shuffled shoe, so by exchangeability each pair has probability sum c(c-1) / N(N-1).
    shoe = Shoe(tuple(counts))
    analysis = analyze(shoe, bets=["player-pair", "banker-pair"])
    player, banker = (f.outcomes[0] for f in analysis.bets)
    expected = sum(c * (c - 1) for c in counts) * falling_factorial(shoe.size - 2, 4)
    assert player.count == banker.count == expected


def _all_counts(counts):
    return [[o.count for o in f.outcomes] for f in analyze(Shoe(tuple(counts))).bets]


@examples(25, 2)
@given(compositions)
def test_main_bets_depend_on_values_not_ranks(counts):
    # T, J, Q and K are all worth 0: moving cards between them changes pairs, never who wins.
    ten, king = RANKS.index(Rank.TEN), RANKS.index(Rank.KING)
    moved = list(counts)
    moved[ten], moved[king] = 0, counts[ten] + counts[king]
    main = ["player", "banker", "tie", "dragon-7", "panda-8"]

    def main_counts(c):
        # The reference walk deals ranks one by one, so this is where rank-vs-value could go wrong.
        return [[o.count for o in f.outcomes] for f in analyze(Shoe(tuple(c)), bets=main, method="reference").bets]

    assert main_counts(moved) == main_counts(counts)
    # Swapping the counts of two 0-valued ranks is only a relabelling: the whole distribution stays put.
    jack, queen = RANKS.index(Rank.JACK), RANKS.index(Rank.QUEEN)
    swapped = list(counts)
    swapped[jack], swapped[queen] = counts[queen], counts[jack]
    assert _all_counts(swapped) == _all_counts(counts)


def _table(figures):
    return [(o.outcome.id, o.outcome.net, o.count) for o in figures.outcomes]


@SETTINGS
@given(compositions)
def test_rule_sets_agree_where_they_should(counts):
    shoe = Shoe(tuple(counts))
    standard, ez = analyze(shoe, PUNTO_BANCO), analyze(shoe, EZ)
    for bet_id in ("player", "tie", "player-pair", "banker-pair", "dragon-7", "panda-8"):
        assert _table(standard.bet(bet_id)) == _table(ez.bet(bet_id))
    # EZ Banker: the standard Banker's wins, split into paid wins and three-card-7 pushes.
    s = {o.outcome.id: o.count for o in standard.bet("banker").outcomes}
    e = {o.outcome.id: o.count for o in ez.bet("banker").outcomes}
    assert e["win"] + e["push-three-card-7"] == s["win"]
    assert e["push-three-card-7"] == ez.bet("dragon-7").outcomes[0].count
    assert (e["push"], e["lose"]) == (s["push"], s["lose"])
    # Player and Banker win counts partition the non-ties.
    player = {o.outcome.id: o.count for o in standard.bet("player").outcomes}
    assert (player["win"], player["push"], player["lose"]) == (s["lose"], s["push"], s["win"])
