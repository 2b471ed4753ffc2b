"""Peek Baccarat against a brute force over every ordered draw of small shoes: the cards a pattern shows, the best
raise by enumeration (the conditional expectation counted draw by draw), the RTP and the share raised."""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from fractions import Fraction

import pytest
from click.testing import CliRunner
from profiles import sweep

from exactodds.cards import RANK_VALUES, Shoe
from exactodds.cli import cli
from exactodds.puntobanco.peek import PATTERNS, mixed, pattern_figures, read_reveal_law
from exactodds.puntobanco.rules import PUNTO_BANCO, deal_coup

#: Each bet's return per unit by outcome, from the rules text: a Player win pays 1:1, a Banker win 0.95:1, a tie
#: returns the stake.
RETURN = {"player": {"player": Fraction(2), "banker": Fraction(0), "tie": Fraction(1)},
          "banker": {"player": Fraction(0), "banker": Fraction(39, 20), "tie": Fraction(1)}}
SHOES = [(2, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0, 0, 0), (0, 1, 0, 0, 1, 0, 2, 0, 0, 1, 1, 0, 1)]


def brute(counts: tuple[int, ...], pattern: tuple[str, ...], bet: str, fee: Fraction,
          banker_pays: Fraction = Fraction(19, 20)) -> tuple[Fraction, ...]:
    """(return, paid, share raised) per original unit: every ordered draw of six of the shoe's cards, grouped by
    what the pattern shows, each group raised to 3 when its mean return beats 1 (a Banker win paying
    ``banker_pays`` to 1)."""
    returns_of = {**RETURN[bet], **({"banker": 1 + banker_pays} if bet == "banker" else {})}
    cards = [RANK_VALUES[r] for r, n in enumerate(counts) for _ in range(n)]
    where = [("P1", "B1", "P2", "B2").index(p) for p in pattern]
    groups: dict[tuple[int, ...], list[Fraction]] = defaultdict(list)
    for draw in itertools.permutations(range(len(cards)), 6):
        values = [cards[i] for i in draw]
        p, b, _, _ = deal_coup(values, PUNTO_BANCO.tableau)
        winner = "player" if p > b else "banker" if b > p else "tie"
        groups[tuple(values[i] for i in where)].append(returns_of[winner])
    total = sum(len(g) for g in groups.values())
    ret = paid = raised = Fraction(0)
    for returns in groups.values():
        mean = sum(returns, Fraction(0)) / len(returns)
        k = 3 if mean > 1 else 1
        ret += k * sum(returns, Fraction(0))
        paid += (k + fee) * len(returns)
        raised += len(returns) if k == 3 else 0
    return ret / total, paid / total, raised / total


@pytest.mark.parametrize("counts", sweep(SHOES))
@pytest.mark.parametrize("bet", ["player", "banker"])
def test_every_pattern_with_the_best_raise_equals_the_brute_force(counts: tuple[int, ...], bet: str) -> None:
    shoe = Shoe(counts)
    for pattern in PATTERNS:
        f = pattern_figures(shoe, PUNTO_BANCO.tableau, pattern, bet, Fraction(1, 5))
        assert (f.expected_return, f.expected_cost, f.raised_share) == brute(counts, pattern, bet, Fraction(1, 5))


def test_the_banker_is_paid_as_the_rule_set_says_and_a_rule_set_paying_by_the_cards_is_refused() -> None:
    counts = SHOES[0]
    for pattern in (("P1",), ("P1", "B1", "P2")):
        f = pattern_figures(Shoe(counts), PUNTO_BANCO.tableau, pattern, "banker", Fraction(1, 5), Fraction(1, 25))
        assert (f.expected_return, f.expected_cost, f.raised_share) == brute(counts, pattern, "banker",
                                                                             Fraction(1, 5), Fraction(24, 25))
    four = CliRunner().invoke(cli, ["peek", "--decks", "1", "--commission", "4%", "--format", "json"])
    assert four.exit_code == 0, four.output
    data = json.loads(four.output)
    one = pattern_figures(Shoe.standard(1), PUNTO_BANCO.tableau, ("P1",), "banker", Fraction(1, 5), Fraction(1, 25))
    assert data["commission"] == "1/25" and Fraction(data["patterns"]["P1"]["banker"]["rtp"]) == one.rtp
    for rules in ("ez", "super-6"):
        refused = CliRunner().invoke(cli, ["peek", "--decks", "1", "--rules", rules])
        assert refused.exit_code == 2 and refused.output.startswith("Error: Peek prices") and \
            refused.output.count("\n") == 1


def test_the_json_is_the_exact_figures_and_the_law_mixes_them() -> None:
    result = CliRunner().invoke(cli, ["peek", "--decks", "1", "--reveal", "P1B1:1/3,P1P2B2:2/3", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    shoe = Shoe.standard(1)
    law = read_reveal_law("P1B1:1/3,P1P2B2:2/3")
    for bet in ("player", "banker"):
        ret, cost, raised = mixed([(c, pattern_figures(shoe, PUNTO_BANCO.tableau, p, bet)) for p, c in law])
        assert Fraction(data[bet]["rtp"]) == ret / cost and Fraction(data[bet]["raised"]) == raised
        one = pattern_figures(shoe, PUNTO_BANCO.tableau, ("P1", "B1"), bet)
        assert Fraction(data["patterns"]["P1B1"][bet]["rtp"]) == one.rtp


@pytest.mark.parametrize(("reveal", "words"), [
    ("P1B1:1/2", "add up to 1/2"),
    ("P1P3:1", "positions of P1 B1 P2 B2"),
    ("cards=5:1", "1 to 4"),
    ("P1:1/2,P1:1/2", "twice"),
])
def test_a_bad_reveal_law_is_one_error_line(reveal: str, words: str) -> None:
    result = CliRunner().invoke(cli, ["peek", "--decks", "1", "--reveal", reveal])
    assert result.exit_code == 2 and result.output.startswith("Error: ") and words in result.output
    assert result.output.count("\n") == 1


def test_the_fit_of_reveal_laws_is_exactly_the_laws_that_round_to_the_advertised_rtps() -> None:
    from exactodds.fitting import band

    result = CliRunner().invoke(cli, ["peek", "--decks", "8", "--reveal", "P1:1-p,P1P2:p", "--rtp", "player=98.8%",
                                      "--rtp", "banker=98.8%", "--precision", "10"])
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("all at once"))
    low, high = (Fraction(x) for x in line.removeprefix("all at once: p ").split(" to "))
    shoe, (lo, hi) = Shoe.standard(8), band("98.8%")

    def fits(p: Fraction) -> bool:  # mixed afresh, not by the fit's conditions
        law = ((("P1",), 1 - p), (("P1", "P2"), p))
        rtps = [mixed([(c, pattern_figures(shoe, PUNTO_BANCO.tableau, s, bet)) for s, c in law]) for bet in
                ("player", "banker")]
        return all(lo <= r / c <= hi for r, c, _ in rtps)

    step = Fraction(1, 10**10)  # the printed ends are rounded to 10 places (outward or not): look just inside
    assert fits(low + step) and fits(high - step) and fits((low + high) / 2)
    assert not fits(low - 2 * step) and not fits(high + 2 * step)


def test_a_family_by_numbers_of_cards_is_one_error_line_not_a_traceback() -> None:
    result = CliRunner().invoke(cli, ["peek", "--decks", "1", "--reveal", "cards=1:1-p,cards=4:p", "--rtp",
                                      "player=98.8%"])
    assert result.exit_code == 2 and result.output.startswith("Error: ") and result.output.count("\n") == 1


def test_the_api_prices_peek_with_the_command_s_bytes() -> None:
    from test_every_game import _cli, _http

    for args, body in (
        (["--reveal", "P1B1:1/3,P1P2B2:2/3"], {"reveal": "P1B1:1/3,P1P2B2:2/3"}),
        (["--reveal", "P1:1-p,P1P2:p", "--rtp", "player=98.8%", "--commission", "4%"],
         {"reveal": "P1:1-p,P1P2:p", "rtps": ["player=98.8%"], "commission": "4%"}),
    ):
        out = _cli(["peek", "--decks", "1", *args, "--format", "json"])
        assert out[0] == 0, out
        assert _http("POST", "/peek", {"decks": 1, **body}) == (200, out[1])
    status, refused = _http("POST", "/peek", {"decks": 1, "rules": "ez"})
    assert status == 400 and json.loads(refused)["error"].startswith("Peek prices")
