"""The lit-card games (Lightning and its kin) against a brute force written from the rules text (tests/litbrute.py):
every ordered draw of a small suited shoe, every lit subset of a small virtual deck, every multiplier assignment.

The engine counts each coup's identity pattern (:mod:`exactodds.puntobanco.lit`) and prices a pattern's multiplier by
its law (:mod:`exactodds.games.lit.law`); the brute force shares neither, only punto banco's deal."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

import pytest
from click.testing import CliRunner
from litbrute import brute_force, brute_laws
from profiles import is_slow, sweep

from exactodds.cards import RANKS, SUITS, Shoe
from exactodds.cli import cli
from exactodds.games import GAMES, find_game
from exactodds.games.lit import LitGame, LitRules, lit_bets, outcome_counts
from exactodds.games.lit.law import LitLaw
from exactodds.puntobanco.lit import pattern_counts
from exactodds.puntobanco.rules import PUNTO_BANCO

#: Each case: the physical cards (rank 0..12, suit 0..3), the virtual deck, the lit count's law, the multipliers'.
CASES = [
    # Copies of one identity, a deck that misses some cards of the shoe and holds some it lacks; n random.
    ([(0, 0), (0, 0), (6, 1), (12, 2), (12, 3), (4, 0), (8, 1)], [(0, 0), (12, 2), (6, 1), (5, 3)],
     {1: Fraction(1, 3), 2: Fraction(2, 3)}, {Fraction(2): Fraction(1, 2), Fraction(5): Fraction(1, 2)}),
    # Tens and faces (one value, four ranks): ties, and pairs that are of one value but not of one rank.
    ([(9, 0), (10, 0), (10, 0), (11, 1), (12, 2), (9, 1), (3, 3)], [(9, 0), (10, 0), (11, 1), (3, 3), (12, 2)],
     {2: Fraction(1)}, {Fraction(3): Fraction(1, 4), Fraction(2): Fraction(3, 4)}),
    # Every card of the shoe in the deck; a multiplier below 1.
    ([(1, 0), (1, 1), (7, 2), (5, 3), (5, 3), (9, 2), (11, 0)], [(1, 0), (1, 1), (7, 2), (5, 3), (9, 2), (11, 0)],
     {0: Fraction(1, 5), 3: Fraction(4, 5)}, {Fraction(1, 2): Fraction(1, 3), Fraction(4): Fraction(2, 3)}),
]


def _shoe(cards: list[tuple[int, int]]) -> Shoe:
    held = Counter((RANKS[r], SUITS[s]) for r, s in cards)
    return Shoe.from_card_counts(held)


@pytest.mark.parametrize("case", sweep(range(len(CASES))))
def test_every_bet_equals_the_brute_force_over_every_draw_lit_set_and_multiplier(case: int) -> None:
    cards, deck, counts, multipliers = CASES[case]
    expected = brute_force(cards, deck, counts, multipliers, tie=5, pair=9)
    shoe = _shoe(cards)
    statistics = pattern_counts(shoe, PUNTO_BANCO.tableau, [4 * r + s for r, s in deck])
    law = LitLaw(tuple(sorted(counts.items())), tuple(sorted(multipliers.items())), deck=len(deck))
    # With no fee the net pay per unit is the return less the stake: E[R] = 1 + EV, E[R²] = E[X²] + 2 EV + 1.
    bets = lit_bets(LitRules("test", Fraction(0), Fraction(5), Fraction(9), law))
    for bet_id, (mean, square) in expected.items():
        bet = bets[bet_id]
        from exactodds.analysis import BetFigures

        figures = BetFigures.of_counts(bet, outcome_counts(statistics, bet), statistics.orderings)
        assert 1 + figures.ev == mean, bet_id
        assert figures.variance + figures.ev**2 + 2 * figures.ev + 1 == square, bet_id


@pytest.mark.parametrize("case", sweep(range(len(CASES))))
def test_each_bet_s_whole_law_of_pays_and_share_of_lit_wins_equal_the_brute_force(case: int) -> None:
    from exactodds.analysis import BetFigures
    from exactodds.games.lit import lit_share

    cards, deck, counts, multipliers = CASES[case]
    expected = brute_laws(cards, deck, counts, multipliers, tie=5, pair=9)
    statistics = pattern_counts(_shoe(cards), PUNTO_BANCO.tableau, [4 * r + s for r, s in deck])
    law = LitLaw(tuple(sorted(counts.items())), tuple(sorted(multipliers.items())), deck=len(deck))
    bets = lit_bets(LitRules("test", Fraction(0), Fraction(5), Fraction(9), law))
    for bet_id, (returns, share) in expected.items():
        figures = BetFigures.of_counts(bets[bet_id], outcome_counts(statistics, bets[bet_id]), statistics.orderings)
        assert dict(figures.pay_law) == {r - 1: p for r, p in returns.items()}, bet_id  # no fee: net = return − 1
        assert lit_share(statistics, law, bet_id) == share, bet_id


def test_the_top_award_is_the_advertised_one_and_its_chance_sums_every_pattern_that_pays_it() -> None:
    # Lightning's advertised top, 1,310,720:1 on the Tie (5:1 × 8⁶), needs six cards lit ×8: a card six times, or
    # four times and another twice, ... every pattern of the tie; the note's chance is the sum over all of them.
    result = CliRunner().invoke(cli, ["odds", "--game", "lightning", "--bet", "tie", "--format", "json"])
    assert result.exit_code == 0, result.output
    tie = json.loads(result.output)["bets"]["tie"]
    award = tie["top_award"]
    assert award["stake_pays"] == "1310720"
    fee = Fraction(1, 5)
    assert Fraction(award["net"]) == (1 + 5 * 8**6) / (1 + fee) - 1
    by_hand = Fraction(0)
    for row in tie["outcomes"]:
        m = row.get("multiplier")
        if m:
            by_hand += sum((Fraction(row["probability"]) * Fraction(p) for v, p in zip(m["values"],
                            m["probabilities"]) if Fraction(v) == Fraction(award["net"])), Fraction(0))
    assert Fraction(award["probability"]) == by_hand > 0
    assert award["displayed_odds_needed"] is (by_hand * 10**8 < 1)
    values, chances = tie["pay_law"]["values"], tie["pay_law"]["probabilities"]
    assert sum(map(Fraction, chances)) == 1 and values[-1] == award["net"]
    assert sum(Fraction(v) * Fraction(p) for v, p in zip(values, chances)) == Fraction(tie["ev"])
    assert 0 < Fraction(tie["lit_share"]) < 1


def test_the_moments_of_a_pattern_are_those_of_its_law() -> None:
    law = LitLaw(((1, Fraction(1, 5)), (4, Fraction(4, 5))),
                 ((Fraction(2), Fraction(1, 3)), (Fraction(7), Fraction(2, 3))))
    for pattern in [(1,), (2,), (1, 1), (2, 1), (3,), (1, 1, 1, 1), (2, 2, 1, 1), (3, 2, 1)]:
        values = law.law(pattern)
        assert sum(values.values()) == 1
        for j in (1, 2):
            assert law.moment(pattern, j) == sum(p * v**j for v, p in values.items())


def test_the_patterns_of_a_fresh_shoe_add_up_to_its_coups() -> None:
    shoe = Shoe.standard(2)
    counts = pattern_counts(shoe, PUNTO_BANCO.tableau)
    assert counts.player_total + counts.banker_total + counts.ties == shoe.orderings()
    # A fresh shoe: 2 copies of each identity, so a pair is of one identity once in 2·13·... : (2)_2 per identity.
    assert counts.pair[(2,)] == 52 * 2 * 1 * (shoe.size - 2) * (shoe.size - 3) * (shoe.size - 4) * (shoe.size - 5)
    assert sum(counts.pair.values()) == 13 * 8 * 7 * (shoe.size - 2) * (shoe.size - 3) * (shoe.size - 4) * (
        shoe.size - 5)


def _lit_games() -> list[LitGame]:
    return [g for g in GAMES if isinstance(g, LitGame)]


def test_lit_games_are_in_the_registry() -> None:
    assert _lit_games(), "no lit-card game in the registry"


@pytest.mark.parametrize("game", [g.name for g in _lit_games()])
def test_odds_of_a_lit_game_in_json_are_the_exact_figures(game: str) -> None:
    result = CliRunner().invoke(cli, ["odds", "--game", game, "--decks", "1", "--lit-count", "3",
                                      "--multipliers", "2:1/2,3:1/2", "--fee", "20%", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    lit = find_game(game)
    analysis = lit.price(Shoe.standard(1), None, lit.settings_of({"lit-count": "3", "multipliers": "2:1/2,3:1/2",
                                                                  "fee": "20%"}))
    for figures in analysis.bets:
        assert Fraction(data["bets"][figures.bet.id]["ev"]) == figures.ev


@pytest.mark.parametrize(("option", "value", "words"), [
    ("--multipliers", "2:1/2,3:1/3", "add up to 5/6"),
    ("--multipliers", "0:1/2,2:1/2", "positive"),
    ("--multipliers", "2:forty", "malformed number"),
    ("--lit-count", "53", "from 0 to 52"),
    ("--lit-count", "2.5", "whole number"),
    ("--fee", "-5%", "fee"),
])
def test_a_bad_law_is_one_error_line(option: str, value: str, words: str) -> None:
    result = CliRunner().invoke(cli, ["odds", "--game", "lightning", "--decks", "1", option, value])
    assert result.exit_code == 2
    assert result.output.startswith("Error: ") and words in result.output and result.output.count("\n") == 1


def test_a_shoe_known_by_rank_is_refused_in_one_line() -> None:
    result = CliRunner().invoke(cli, ["odds", "--game", "lightning", "--shoe", "A=4,5=4,9=4,K=4"])
    assert result.exit_code == 2 and "suit" in result.output and result.output.startswith("Error: ")


def test_a_random_depleted_shoe_adds_up() -> None:
    rng = random.Random(7)
    grid = [[rng.randrange(0, 4) for _ in SUITS] for _ in RANKS]
    shoe = Shoe(tuple(map(sum, grid)), tuple(map(tuple, grid)))
    counts = pattern_counts(shoe, PUNTO_BANCO.tableau)
    assert counts.player_total + counts.banker_total + counts.ties == shoe.orderings()


# The inverse problem: fit-rtp.
ADVERTISED = {"player": "98.9%", "banker": "98.7%", "pair": "92.5%", "tie": "92.8%"}


def _rtps(game: LitGame, multipliers: str, shoe: Shoe) -> dict[str, Fraction]:
    analysis = game.price(shoe, None, game.settings_of({"multipliers": multipliers}))
    rtps = {f.bet.id: 1 + f.ev for f in analysis.bets}
    return {"player": rtps["player"], "banker": rtps["banker"], "pair": rtps["player-pair"], "tie": rtps["tie"]}


def test_the_fit_is_exactly_the_laws_that_round_to_every_advertised_rtp() -> None:
    from exactodds.fitting import band
    from exactodds.games.lit.inverse import fit_rtps

    game = find_game("prosperity-tree")
    shoe = Shoe.standard(8)
    found = fit_rtps(game, shoe, None, "2:1-p,3:p", None, ADVERTISED)
    (piece,) = found.pieces
    bands = {bet: band(text) for bet, text in ADVERTISED.items()}

    def fits(p: Fraction) -> bool:  # priced afresh by the game at that law, not by the fit's polynomials
        rtps = _rtps(game, f"2:{1 - p},3:{p}", shoe)
        return all(bands[bet][0] <= rtps[bet] <= bands[bet][1] for bet in ADVERTISED)

    inside = [piece.low[1] + (piece.high[0] - piece.low[1]) * Fraction(k, 4) for k in range(5)]
    assert all(fits(p) for p in inside)
    assert not fits(piece.low[0] - Fraction(1, 10**9)) and not fits(piece.high[1] + Fraction(1, 10**9))
    # Each bet's own set, at its ends: the figure's band is met just inside and missed just outside.
    for fitted in found.figures:
        (alone,) = fitted.alone
        for p, want in ((alone.low[1] + Fraction(1, 10**9), True), (alone.low[0] - Fraction(1, 10**9), False)):
            rtp = _rtps(game, f"2:{1 - p},3:{p}", shoe)[fitted.bet]
            assert (fitted.band[0] <= rtp <= fitted.band[1]) is want, fitted.bet


def test_each_rtp_polynomial_is_the_priced_rtp_at_other_laws() -> None:
    from exactodds.fitting import evaluate
    from exactodds.games.lit.inverse import fit_rtps

    game = find_game("prosperity-tree")
    shoe = Shoe.standard(1)
    found = fit_rtps(game, shoe, None, "2:1-p,3:p", None, ADVERTISED)
    for p in (Fraction(1, 7), Fraction(5, 11), Fraction(99, 100)):
        priced = _rtps(game, f"2:{1 - p},3:{p}", shoe)
        assert all(evaluate(f.poly, p) == priced[f.bet] for f in found.figures)


def test_advertised_rtps_no_law_of_the_family_meets_are_a_finding_not_an_error() -> None:
    result = CliRunner().invoke(cli, ["fit-rtp", "--game", "golden-wealth", "--decks", "1", "--lit-count", "5",
                                      "--multipliers", "2:1-3p,3:p,5:p,8:p", "--rtp", "player=98.9%",
                                      "--rtp", "tie=80.0%", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["consistent"] is False and data["p"] == [] and all(f["p"] for f in data["figures"][:1])


def test_sturm_isolates_every_root_of_a_polynomial_with_close_and_repeated_roots() -> None:
    from exactodds.fitting import TOLERANCE, roots

    rng = random.Random(3)
    for _ in range(20 if is_slow() else 5):
        chosen = sorted({Fraction(rng.randrange(1, 999), 1000) for _ in range(rng.randrange(1, 6))})
        chosen_with_doubles = chosen + chosen[:1] + [chosen[-1] + Fraction(1, 10**12)]
        poly = [Fraction(rng.choice([-3, 2, 5]))]
        for r in chosen_with_doubles:
            poly = [Fraction(0)] + poly
            for k in range(len(poly) - 1):
                poly[k] -= r * poly[k + 1]
        found = roots(poly, Fraction(0), Fraction(2))
        distinct = sorted(set(chosen_with_doubles))
        assert len(found) == len(distinct)
        assert all(a <= r <= b and b - a <= TOLERANCE for (a, b), r in zip(found, distinct))


@pytest.mark.parametrize(("args", "words"), [
    (["--multipliers", "2:1/2,3:1/2"], "no parameter"),
    (["--multipliers", "2:1-p,3:2p"], "add up to 1 + p"),
    (["--multipliers", "2:1-p,3:p^2"], "malformed probability"),
    (["--multipliers", "2:1-p,3:p", "--rtp", "player"], "BET=RTP"),
    (["--multipliers", "2:1-p,3:p", "--rtp", "dragon=98%"], "unknown bet"),
    (["--multipliers", "2:1-p,3:p", "--rtp", "player=about 98"], "as printed"),
    (["--multipliers", "2:p-1,3:1-p,5:1"], "no value of p"),
])
def test_a_bad_fit_is_one_error_line(args: list[str], words: str) -> None:
    rtp = [] if "--rtp" in args else ["--rtp", "player=98.9%"]
    result = CliRunner().invoke(cli, ["fit-rtp", "--game", "prosperity-tree", "--decks", "1", *args, *rtp])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error: ") and words in result.output and result.output.count("\n") == 1


def test_the_return_from_the_moments_is_the_return_from_the_laws_of_pays() -> None:
    from exactodds.games.lit import _counts, expected_return

    shoe = Shoe.standard(1)
    for game in _lit_games():
        settings = game.settings_of({"fee": "15%"})
        rules = game.rules(settings)
        for figures in game.price(shoe, None, settings).bets:
            assert expected_return(_counts(shoe), rules, figures.bet.id) == 1 + figures.ev


def test_the_top_award_bound_is_reached_by_the_law_all_on_the_top_multiplier_and_holds_for_others() -> None:
    from exactodds.games.lit.inverse import fit_rtps

    game, shoe = find_game("prosperity-tree"), Shoe.standard(1)
    found = fit_rtps(game, shoe, None, "2:1-p,3:p", None, {"player": "98.9%"})

    def chance_of_top(multipliers: str, bet_id: str) -> Fraction:  # from the laws of pays, outcome by outcome
        figures = game.price(shoe, [bet_id], game.settings_of({"multipliers": multipliers})).bets[0]
        top = max(max(o.outcome.multiplier.values) for o in figures.outcomes if o.outcome.multiplier)
        return sum((o.probability * sum((p for v, p in zip(o.outcome.multiplier.values, o.outcome.multiplier
                                                             .probabilities) if v == top), Fraction(0))
                    for o in figures.outcomes if o.outcome.multiplier), Fraction(0))

    for award in found.awards:
        assert chance_of_top("3:1", award.bet) == award.bound
        assert chance_of_top("2:1/2,3:1/2", award.bet) < award.bound
    tie = next(a for a in found.awards if a.bet == "tie")
    assert tie.pays == 5 * 3**6


def test_the_api_takes_the_game_and_its_law_and_answers_the_command_s_bytes() -> None:
    from test_every_game import _cli, _http

    law = {"lit_count": "1:1/2,5:1/2", "multipliers": "2:1/3,8:2/3", "fee": "1/5"}
    out = _cli(["odds", "--game", "lightning", "--decks", "1", "--lit-count", law["lit_count"], "--multipliers",
                law["multipliers"], "--fee", law["fee"], "--format", "json"])
    assert out[0] == 0
    assert _http("POST", "/odds", {"game": "lightning", "decks": 1, **law}) == (200, out[1])
    status, body = _http("POST", "/odds", {"game": "lightning", "decks": 1, "multipliers": "2:1/2"})
    assert status == 400 and "add up to 1/2" in json.loads(body)["error"]


def test_the_api_fits_advertised_rtps_with_the_command_s_bytes_and_refuses_as_it_does() -> None:
    from test_every_game import _cli, _http

    args = ["--game", "prosperity-tree", "--decks", "1", "--multipliers", "2:1-p,3:p"]
    out = _cli(["fit-rtp", *args, "--rtp", "player=98.9%", "--rtp", "tie=92.8%", "--format", "json"])
    assert out[0] == 0
    body = {"game": "prosperity-tree", "decks": 1, "multipliers": "2:1-p,3:p", "rtps": ["player=98.9%", "tie=92.8%"]}
    assert _http("POST", "/fit-rtp", body) == (200, out[1])
    grid = _cli(["fit-rtp", "--game", "prosperity-tree", "--decks", "1", "--lit-count", "8:1-q,7:q", "--multipliers",
                 "2:1-p,3:p", "--rtp", "player=98.9%", "--grid", "2", "--format", "json"])
    assert grid[0] == 0 and _http("POST", "/fit-rtp", {**body, "lit_count": "8:1-q,7:q", "grid": 2,
                                                       "rtps": ["player=98.9%"]}) == (200, grid[1])
    status, refused = _http("POST", "/fit-rtp", {**body, "rtps": ["player98.9%"]})
    assert status == 400 and "BET=RTP" in json.loads(refused)["error"]
    status, refused = _http("POST", "/fit-rtp", {"game": "prosperity-tree"})
    assert status == 400 and "rtps" in json.loads(refused)["error"]


def test_the_grid_s_bounds_are_the_range_of_each_line_s_and_its_json_says_which_q_have_a_law() -> None:
    from exactodds.games.lit.inverse import fit_grid

    game = find_game("prosperity-tree")
    grid = fit_grid(game, Shoe.standard(1), "8:1-q,7:q", "2:1-p,3:p", None, {"player": "98.9%"}, 2)
    found = [fit for _, fit in grid.lines if fit.pieces]
    assert found, "no line of the grid has a law"
    for name, (low, high) in grid.bounds().items():
        assert low == min(f.pinned[name][0] for f in found) and high == max(f.pinned[name][1] for f in found)
    data = grid.as_json()
    assert data["consistent"] is True and data["q"] == [str(min(q for q, f in grid.lines if f.pieces)),
                                                        str(max(q for q, f in grid.lines if f.pieces))]


def test_a_laws_file_prices_as_its_options_and_refuses_what_it_cannot_read(tmp_path) -> None:
    path = tmp_path / "laws.toml"
    path.write_text('lit_count = "1:1/2,3:1/2"\nmultipliers = "2:1/4,5:3/4"\nfee = "15%"\n', encoding="utf-8")
    by_file = CliRunner().invoke(cli, ["odds", "--game", "golden-wealth", "--decks", "1", "--laws-file", str(path),
                                       "--format", "json"])
    by_options = CliRunner().invoke(cli, ["odds", "--game", "golden-wealth", "--decks", "1", "--lit-count",
                                          "1:1/2,3:1/2", "--multipliers", "2:1/4,5:3/4", "--fee", "15%", "--format",
                                          "json"])
    assert by_file.exit_code == 0 and by_file.output == by_options.output
    for text, words in (("multipliers = 0.5\n", "exact"), ("odds = 1\n", "unknown key"), ("fee = [\n", "TOML")):
        path.write_text(text, encoding="utf-8")
        result = CliRunner().invoke(cli, ["odds", "--game", "golden-wealth", "--decks", "1", "--laws-file", str(path)])
        assert result.exit_code == 2 and words in result.output and result.output.count("\n") == 1


def test_a_grid_over_a_second_parameter_is_the_one_parameter_fit_on_each_line() -> None:
    from exactodds.games.lit.inverse import fit_grid, fit_rtps

    game, shoe = find_game("prosperity-tree"), Shoe.standard(1)
    one = fit_rtps(game, shoe, None, "2:1-p,3:p", None, ADVERTISED)
    grid = fit_grid(game, shoe, None, "2:1-p-q/10,3:p+q/10", None, ADVERTISED, steps=2)
    assert [q for q, _ in grid.lines] == [0, Fraction(1, 2), 1]
    for q, fit in grid.lines:  # the same laws, p shifted by q/10: each end exactly so
        assert [(p.low, p.high) for p in fit.pieces] == [
            (tuple(x - q / 10 for x in p.low), tuple(x - q / 10 for x in p.high)) for p in one.pieces]
