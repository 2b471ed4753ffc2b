"""The worked examples of the report: each coup, dealt again by the test's own tableau (the rules text, written out
here), makes the hands shown and ends as said; and each settles the outcome it stands for, the core bets by the
rules text's pays (tests/test_review.py), every bet of the catalog by its pay table."""

from __future__ import annotations

from test_review import rules_text_net

from exactodds.games import DEFAULT
from exactodds.puntobanco.coup import CoupState

VALUE = {**{str(n): n for n in range(2, 10)}, "A": 1, "T": 0, "J": 0, "Q": 0, "K": 0}
#: The Banker's rule by his total when the Player drew, by the Player's third card's value (punto banco's tableau).
BANKER_DRAWS = {0: range(10), 1: range(10), 2: range(10), 3: [0, 1, 2, 3, 4, 5, 6, 7, 9], 4: range(2, 8),
                5: range(4, 8), 6: [6, 7], 7: []}


def deal(cards: list[str]) -> tuple[list[str], list[str]]:
    """The hands a shoe's cards make in order under the rules text: P B P B, then the third cards."""
    player, banker, rest = [cards[0], cards[2]], [cards[1], cards[3]], cards[4:]

    def total(hand: list[str]) -> int:
        return sum(VALUE[c[0]] for c in hand) % 10

    if total(player) >= 8 or total(banker) >= 8:
        return player, banker
    third = None
    if total(player) <= 5:
        player.append(rest.pop(0))
        third = VALUE[player[-1][0]]
    if (third is None and total(banker) <= 5) or (third is not None and third in BANKER_DRAWS[total(banker)]):
        banker.append(rest.pop(0))
    return player, banker


def test_every_example_deals_again_into_its_hands_and_settles_its_outcome() -> None:
    settings = DEFAULT.settings_of({})
    bets = DEFAULT.resolve(["all"], settings, suits=True, cards=True)
    examples = DEFAULT.worked_examples(bets, settings)
    assert examples and all(o.net is not None for b in bets for o in b.outcomes)
    for (bet_id, outcome_id), example in examples.items():
        shown_player, shown_banker = (part.split()[1:] for part in example.cards.split(" · "))
        order = [shown_player[0], shown_banker[0], shown_player[1], shown_banker[1], *shown_player[2:],
                 *shown_banker[2:]]
        player, banker = deal(order + ["KS", "KS"])  # cards after the coup's own are never drawn
        assert (player, banker) == (shown_player, shown_banker), example
        p, b = (sum(VALUE[c[0]] for c in hand) % 10 for hand in (player, banker))
        assert example.result.startswith(f"Player {p}, Banker {b}:"), example
        bet = next(x for x in bets if x.id == bet_id)
        state = CoupState(p, b, len(player), len(banker), player[0][0] == player[1][0], banker[0][0] == banker[1][0],
                          player[0] == player[1], banker[0] == banker[1])
        assert bet.settle(state).id == outcome_id, (bet_id, outcome_id, example)
        if bet_id in ("banker", "player", "tie", "player-pair", "banker-pair", "dragon-7", "panda-8"):
            net = next(o.net for o in bet.outcomes if o.id == outcome_id)
            assert rules_text_net(bet_id, player, banker) == net, (bet_id, outcome_id, example)
    core = {(b, o.id) for b in ("banker", "tie", "dragon-7", "panda-8", "player-pair")
            for o in next(x for x in bets if x.id == b).outcomes}
    assert core <= set(examples)


def test_the_report_s_definitions_give_each_card_the_rules_text_s_value(tmp_path) -> None:
    """The report's rules open with their terms, made from the data: each rank's value as the rules text says it
    (VALUE, above), and the naturals of the tableau."""
    import re

    from click.testing import CliRunner

    from exactodds.cli import cli

    path = tmp_path / "r.md"
    assert CliRunner().invoke(cli, ["report", "--bet", "tie", "--output", str(path)]).exit_code == 0
    text = path.read_text(encoding="utf-8")
    line = next(row for row in text.splitlines() if row.startswith("| card values"))
    stated = {rank: int(value) for ranks, value in re.findall(r"((?:[AT2-9JQK], )*[AT2-9JQK]): (\d)", line)
              for rank in ranks.split(", ")}
    assert stated == VALUE
    assert "| natural " in text and "totalling 8 or 9" in text
