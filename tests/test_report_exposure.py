"""The report's exposure to edge sorting: each bet's edge per coup seeing the class (High = 6789) of the first card and
of the first four, read back from the Markdown and the workbook, against a literal walk over every ordered draw of
the first six cards of a small shoe, dealt by a tableau written here; the bets edge sorting refuses are named, not
priced."""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction

import pytest
from click.testing import CliRunner

from exactodds.cards import Shoe
from exactodds.cli import cli
from exactodds.exact import percent_text
from exactodds.games.punto_banco import GAME as PB
from exactodds.puntobanco.information import READS_PAIRS
from exactodds.puntobanco.odds import resolve_bets
from exactodds.puntobanco.rules import PUNTO_BANCO
from exactodds.report.lab import exposure, sort_edges

#: Nine cards: High ones (6, 6, 8, 9) and Low ones (A, 2, 3, K, K).
SHOE = "A=1,2=1,3=1,6=2,8=1,9=1,K=2"
CARDS = ["A", "2", "3", "6", "6", "8", "9", "K", "K"]
VALUE = {"A": 1, "2": 2, "3": 3, "6": 6, "8": 8, "9": 9, "K": 0}
HIGH = {"6", "7", "8", "9"}
BETS = ("player", "banker", "tie", "dragon-7")
FIRST, FOUR = "edge per coup, 1st card's class seen", "edge per coup, first 4 cards' classes seen"


def _banker_draws(banker: int, third: int) -> bool:
    """The tableau: whether the Banker draws on his two-card total, against the value of the Player's third card."""
    return banker <= 2 or (banker == 3 and third != 8) or (banker == 4 and 2 <= third <= 7) or (
        banker == 5 and 4 <= third <= 7) or (banker == 6 and third in (6, 7))


def _coup(values: list[int]) -> tuple[int, int, int]:
    """The Player's total, the Banker's and his number of cards, dealing P1 B1 P2 B2 then the thirds."""
    player, banker = (values[0] + values[2]) % 10, (values[1] + values[3]) % 10
    if player >= 8 or banker >= 8:
        return player, banker, 2
    if player <= 5:
        third = values[4]
        player = (player + third) % 10
        if _banker_draws(banker, third):
            return player, (banker + values[5]) % 10, 3
        return player, banker, 2
    if banker <= 5:
        return player, (banker + values[4]) % 10, 3
    return player, banker, 2


def _nets(player: int, banker: int, banker_cards: int) -> tuple[int, ...]:
    """The net win of player, banker (5% commission), tie (8:1) and dragon-7 (40:1) on one coup, in twentieths of a
    unit (whole numbers: a Fraction per draw takes seconds)."""
    return (20 if player > banker else 0 if player == banker else -20,
            19 if banker > player else 0 if player == banker else -20,
            160 if player == banker else -20,
            800 if banker > player and banker == 7 and banker_cards == 3 else -20)


@pytest.fixture(scope="module")
def walked() -> dict[str, tuple[Fraction, Fraction, Fraction]]:
    """Each bet's unconditional EV and its edge per coup seeing the first card's class and the first four's: over
    every ordered draw of six of the nine cards, Σ over the states of max(0, Σ net) / the number of draws (that is
    Σ P(state) · max(0, EV | state))."""
    sums: dict[tuple[int, str], list[int]] = {}
    total = 0
    for order in itertools.permutations(range(len(CARDS)), 6):
        drawn = [CARDS[i] for i in order]
        nets = _nets(*_coup([VALUE[c] for c in drawn]))
        pattern = "".join("H" if c in HIGH else "L" for c in drawn)
        total += 1
        for known in (0, 1, 4):
            row = sums.setdefault((known, pattern[:known]), [0] * len(BETS))
            for i, net in enumerate(nets):
                row[i] += net
    assert total == 9 * 8 * 7 * 6 * 5 * 4

    def edge(known: int, i: int) -> Fraction:
        return Fraction(sum(max(0, row[i]) for (k, _), row in sums.items() if k == known), 20 * total)

    return {bet: (Fraction(sums[(0, "")][i], 20 * total), edge(1, i), edge(4, i)) for i, bet in enumerate(BETS)}


def _report(tmp_path, suffix: str, *bets: str):
    path = tmp_path / f"r.{suffix}"
    out = CliRunner().invoke(cli, ["report", "--shoe", SHOE, *(a for b in bets for a in ("--bet", b)),
                                   "--output", str(path)])
    assert out.exit_code == 0, out.output
    return path


def test_the_walk_tells_the_columns_apart(walked) -> None:
    """The figures are worth testing: every bet gains by seeing four cards over one, one card is worth something
    beyond betting blind, and a bet without a positive state is worth nothing."""
    for bet, (ev, first, four) in walked.items():
        assert 0 <= max(ev, Fraction(0)) <= first < four, bet
    assert any(first > max(ev, Fraction(0)) for ev, first, _ in walked.values())


def test_the_markdown_s_edge_sorting_table_is_the_walk_s(tmp_path, walked) -> None:
    """Each row of the table reads the walk's edges as percents, the first card's then the first four's; the pair bet
    is named as left out, with the reason, and has no row."""
    text = _report(tmp_path, "md", *BETS, "player-pair").read_text(encoding="utf-8")
    section = text[text.index("## Advantage-play exposure"):text.index("## Rules")]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in section.splitlines()
            if line.startswith("|")]
    header = next(i for i, cells in enumerate(rows) if cells == ["bet", FIRST, FOUR])
    shown = {cells[0]: tuple(cells[1:]) for cells in rows[header + 2:header + 2 + len(BETS)]}
    assert shown == {bet: (percent_text(first, 4), percent_text(four, 4)) for bet, (_, first, four) in walked.items()}
    assert len(rows) == header + 2 + len(BETS)  # the last table: no row for player-pair
    assert ("Left out of edge sorting: player-pair: reads pairs (the ranks of the first cards), which the High/Low"
            " states do not follow.") in section
    assert "High cards (6, 7, 8, 9, the classic edge-sorting split)" in section
    assert "`exactodds edge-sort --best-sort`" in section.replace("\\`", "`")


def test_the_workbook_gives_each_edge_exactly(tmp_path, walked) -> None:
    """The workbook's exposure sheet gives each edge as a number and as its exact fraction, equal to the walk's; the
    pair bet has no row."""
    from openpyxl import load_workbook

    sheet = load_workbook(_report(tmp_path, "xlsx", *BETS, "player-pair"))["Exposure"]
    rows = [row for row in sheet.iter_rows(values_only=True) if any(v is not None for v in row)]
    header = rows.index(("bet", FIRST, f"{FIRST} exact", FOUR, f"{FOUR} exact", *rows[0][5:]))
    found = {row[0]: row[1:5] for row in rows[header + 1:header + 1 + len(BETS)]}
    assert set(found) == set(BETS)
    for bet, (_, first, four) in walked.items():
        number_first, exact_first, number_four, exact_four = found[bet]
        assert (Fraction(exact_first), Fraction(exact_four)) == (first, four), bet
        assert (number_first, number_four) == (float(first), float(four)), bet
    assert not any(row[0] == "player-pair" for row in rows[header:header + 1 + len(BETS)])
    assert any(str(row[0]).startswith("Left out of edge sorting: player-pair") for row in rows)


def test_a_game_or_a_rule_that_edge_sorting_refuses_gets_no_edge_and_no_crash() -> None:
    """A player choosing on 5 (the big table) is refused by edge sorting, which the exposure says instead of a table;
    a game without the capability edge-sort gets nothing from it; bets that read pairs alone give no sort."""
    shoe, bets = Shoe.parse(SHOE), resolve_bets(PUNTO_BANCO, ["player", "player-pair"])
    big = exposure(PB, PB.settings_of({"player-5": "best"}), shoe, bets)
    assert big is not None and big.sorting == () and big.counts
    assert big.sorting_note is not None and "--player-5 draw or stand" in big.sorting_note
    settings = PB.settings_of({})
    assert sort_edges(PB, settings, shoe, bets[1:]) == ((), (("player-pair", READS_PAIRS),), None)
    unsorted = replace(PB, capabilities=PB.capabilities - {"edge-sort"})
    assert sort_edges(unsorted, settings, shoe, bets) == ((), (), None)
    found = exposure(unsorted, settings, shoe, bets)
    assert found is not None and found.sorting == () and found.unsorted == () and found.effects


def test_the_docs_quote_dragon_7_s_perfect_play() -> None:
    """docs/report.md's perfect-play figures for Dragon 7 alone on 8 decks are the exposure's, rounded."""
    from pathlib import Path

    from exactodds.report.lab import perfect_play

    section = perfect_play(PB, PB.settings_of({}), Shoe.standard(8), resolve_bets(PUNTO_BANCO, ["dragon-7"]))
    assert section is not None
    got = section.values("perfect", "dragon-7")
    text = " ".join(Path(__file__).parent.parent.joinpath("docs", "report.md").read_text().split())
    bets, ev, se = (float(got[key]) for key in ("bets_per_100_coups", "ev_per_100_coups", "ev_per_100_coups_se"))
    assert f"Dragon 7 alone on 8 decks: {bets:.2f} bets and {ev:.2f} ± {se:.2f} units per 100 coups" in text


def test_a_shoe_too_small_to_deal_gives_no_perfect_play_and_says_where_it_is(tmp_path) -> None:
    """A 10-card shoe: the lab cannot deal it to a cut card, so the exposure has no perfect-play table and points to
    the lab instead of to a table below."""
    out = tmp_path / "small.md"
    result = CliRunner().invoke(cli, ["report", "--shoe", "A=2,2=2,3=2,4=2,5=2", "--bet", "banker",
                                      "--output", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "The value of perfect play is the lab's (--lab-shoes)" in text and "Perfect play:" not in text
