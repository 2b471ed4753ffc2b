"""What a bets or rules file may not hold, refused when it is read, and how numbers are typed (issue 29).

- A user's bet may not take the id of one of the game's own bets (nor ``all``): ``--bet dragon-7``
  names the game's, so a file's ``[bets.dragon-7]`` was priced as either, depending on the command.
- Ids and rule names have at most 64 characters.
- A condition nothing can meet (``b1_rank = "K", b1_value = 5``) is a mistake in the file, not an
  outcome of count 0.
- Spaces around a number, before its ``%`` and around a range's ``:`` are read as without, everywhere.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactodds.betfile import ALL_BETS, MAX_ID, bet_specs_text
from exactodds.cards import RANKS, SUITS
from exactodds.cli import cli
from exactodds.design.request import parse_band
from exactodds.errors import ExactOddsError
from exactodds.exact import parse_commission, parse_percent, parse_rate
from exactodds.games import DEFAULT, find_game, with_capability
from exactodds.lab.advantage import parse_ror
from exactodds.puntobanco.facts import file_condition, never_holds
from exactodds.puntobanco.userdefs import parse_rules
from exactodds.report.sheet import Mix, parse_min_rtp
from exactodds.request import Toml, read_files
from exactodds.serve.endpoints import ENDPOINTS, answer
from exactodds.serve.tracks import Tracks

ODDS = next(e for e in ENDPOINTS if e.path == "/odds")

#: A bet of the default game paying a three-card 7 of the Banker's at 1 to 1, under an id of the catalog's.
DRAGON_7_AT_EVENS = """\
[bets.dragon-7]
description = "Dragon 7 paying 1:1"
[[bets.dragon-7.outcome]]
id = "win"
when = { winner = "banker", banker_cards = 3, banker_total = 7 }
pays = 1
[[bets.dragon-7.outcome]]
id = "lose"
otherwise = true
pays = -1
"""


def one_error(args: list[str]) -> str:
    result = CliRunner().invoke(cli, args)
    lines = result.stderr.splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error: "), (args, result.output)
    return lines[0]


# --- a user's bet under an id of the game's own --------------------------------------------------------------


@pytest.mark.parametrize("game", with_capability("bets-files"), ids=lambda game: game.name)
def test_no_bet_of_a_file_takes_an_id_of_the_games_own(game) -> None:
    """Every id of every game's bets (and ``all``), as the id of a bet otherwise valid in its notation."""
    spec = next(iter(game.bet_specs().values()))
    for bet_id in (*game.bets(game.settings_of({})), ALL_BETS):
        text = bet_specs_text([spec._replace(id=bet_id)])
        with pytest.raises(ExactOddsError) as refused:
            read_files(game, [Toml(text, "mine.toml")])
        message = str(refused.value)
        assert message.startswith(f"mine.toml:1: bet {bet_id!r}: the id {bet_id!r} is "), message
    assert read_files(game, [Toml(bet_specs_text([spec._replace(id="mine")]), "mine.toml")])[0].id == "mine"


@pytest.mark.parametrize("command", [["odds"], ["report", "--output", "r.md"], ["odds", "--bet", "dragon-7"],
                                     ["design", "--bet", "dragon-7", "--edge", "5%:9%"]])
def test_a_catalog_id_in_a_bets_file_is_one_error_naming_the_id_and_the_file(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.toml").write_text(DRAGON_7_AT_EVENS, encoding="utf-8")
    line = one_error([*command, "--bets-file", "mine.toml"])
    assert line == ("Error: mine.toml:1: bet 'dragon-7': the id 'dragon-7' is a bet of the game's own (--bet dragon-7"
                    " prices it): give yours another id")
    assert not (tmp_path / "r.md").exists()


def test_a_catalog_id_in_a_requests_bets_file_is_refused_with_the_same_words() -> None:
    with pytest.raises(ExactOddsError, match=r"^bets_toml:1: bet 'dragon-7': the id 'dragon-7' is a bet of the game"):
        answer(ODDS, {"bets_toml": DRAGON_7_AT_EVENS}, {}, Tracks())


# --- ids and names: at most 64 characters --------------------------------------------------------------------


def test_ids_and_rule_names_have_at_most_64_characters() -> None:
    bet, longer = "b" * MAX_ID, "b" * (MAX_ID + 1)
    assert DEFAULT.read_bets(DRAGON_7_AT_EVENS.replace("dragon-7", bet), "f.toml")[0].id == bet
    with pytest.raises(ExactOddsError, match=rf"^f\.toml:1: bet '{'b' * 40}…': a bet id has at most 64 characters"):
        DEFAULT.read_bets(DRAGON_7_AT_EVENS.replace("dragon-7", longer), "f.toml")
    with pytest.raises(ExactOddsError, match=r"^f\.toml:4: bet 'mine', outcome 'w{40}…': an outcome id has at"):
        DEFAULT.read_bets(DRAGON_7_AT_EVENS.replace("dragon-7", "mine").replace('"win"', f'"{"w" * 65}"'), "f.toml")
    assert parse_rules(f'name = "{"r" * MAX_ID}"\n', "x.toml").name == "r" * MAX_ID
    with pytest.raises(ExactOddsError, match=r"^x\.toml:1: name: the name has at most 64 characters, not 65"):
        parse_rules(f'name = "{"r" * 65}"\n', "x.toml")
    with pytest.raises(ExactOddsError, match=r"the name has at most 64 characters, not 70 \(a rules file without"):
        parse_rules("tie_pays = 9\n", "/tmp/" + "r" * 70 + ".toml")  # named after its file
    override = '[[banker_override]]\nid = "{}"\nname = "six"\nwhen = {{ banker_total = 6 }}\npays = 0.5\n'
    assert parse_rules(override.format("o" * MAX_ID), "x.toml").banker_win_overrides[0].id == "o" * MAX_ID
    with pytest.raises(ExactOddsError, match=r"an override id is lower-case letters, digits and dashes, at most 64"):
        parse_rules(override.format("o" * 65), "x.toml")


# --- a condition nothing can meet ----------------------------------------------------------------------------


def test_a_condition_no_card_can_meet_is_refused_naming_the_bet_and_the_condition(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(DRAGON_7_AT_EVENS.replace("dragon-7", "king-five").replace(
        'winner = "banker", banker_cards = 3, banker_total = 7', 'b1_rank = "K", b1_value = 5'), encoding="utf-8")
    assert one_error(["odds", "--bets-file", str(bad)]) == (
        f"Error: {bad}:5: bet 'king-five', outcome 'win': the condition b1_rank = K, b1_value = 5 can never hold: no"
        " card is all of b1_rank = K, b1_value = 5")
    bad.write_text(DRAGON_7_AT_EVENS.replace("dragon-7", "tie-by-3").replace(
        'winner = "banker", banker_cards = 3, banker_total = 7', 'winner = "tie", margin = 3'), encoding="utf-8")
    assert one_error(["odds", "--bets-file", str(bad)]).endswith(
        "the condition winner = tie, margin = 3 can never hold: no coup ends with winner = tie, margin = 3")


def test_a_rules_files_override_that_nothing_meets_is_refused() -> None:
    with pytest.raises(ExactOddsError, match=r"^x\.toml:1: banker_override 1: the condition banker_total = 6, "
                                             r"banker_natural = true can never hold"):
        parse_rules('[[banker_override]]\nid = "six"\nname = "six"\nwhen = { banker_total = 6, banker_natural = true'
                    ' }\npays = 0.5\n', "x.toml")


def test_the_facts_of_one_card_are_refused_exactly_when_no_card_has_them_all() -> None:
    """Every rank with every value, suit with colour, of a first card and of a third (which may be "none"): refused
    exactly when no card (nor the card not dealt) has both, told by the cards themselves."""
    for position in ("b1", "p3"):
        none = ["none"] if position == "p3" else []
        for rank in [*RANKS, *none]:
            for value in [*range(10), *none]:
                met = rank == value == "none" or (rank != "none" and rank.points == value)
                text = rank if rank == "none" else rank.value
                condition = ((f"{position}_rank", (text,)), (f"{position}_value", (value,)))
                assert (never_holds(condition) is None) == met, condition
        for suit in [*SUITS, *none]:
            for colour in ["red", "black", *none]:
                met = suit == colour == "none" or (suit != "none" and colour == ("red" if suit in "HD" else "black"))
                condition = ((f"{position}_suit", (str(suit),)), (f"{position}_colour", (colour,)))
                assert (never_holds(condition) is None) == met, condition
    with pytest.raises(ExactOddsError, match="can never hold"):
        file_condition({"p3_rank": "none", "p3_suit": "H"})
    assert file_condition({"p3_rank": "none", "p3_value": "none", "winner": "tie"})  # a Player who stands: met


def test_a_condition_no_deal_of_a_dealt_game_meets_is_refused() -> None:
    game = find_game("dragon-tiger")
    text = DRAGON_7_AT_EVENS.replace("dragon-7", "ace-wins").replace(
        'winner = "banker", banker_cards = 3, banker_total = 7', 'winner = "dragon", dragon_rank = "A"')
    with pytest.raises(ExactOddsError, match=r"^mine\.toml:5: bet 'ace-wins', outcome 'win': the condition winner ="
                                             r" dragon, dragon_rank = A can never hold: no deal of dragon-tiger meets"):
        game.read_bets(text, "mine.toml")  # an ace is the lowest card: a Dragon of an ace never wins
    assert game.read_bets(text.replace('"A"', '"K"'), "mine.toml")[0].id == "ace-wins"


# --- spaces around numbers -----------------------------------------------------------------------------------


def test_every_rate_and_edge_reads_spaces_around_its_number_and_its_percent_as_without() -> None:
    for spaced, plain in ((" 1 % ", "1%"), ("0.8 %", "0.8%"), (" 1/125 ", "1/125"), ("5 %", "5%")):
        assert parse_percent(spaced) == parse_percent(plain)
        assert parse_rate(spaced, "rebate", "") == parse_rate(plain, "rebate", "")
        assert parse_commission(spaced) == parse_commission(plain)
        assert parse_ror(spaced) == parse_ror(plain)
        assert parse_min_rtp(spaced) == parse_min_rtp(plain)
        assert parse_band(f"{spaced}:{spaced}") == parse_band(f"{plain}:{plain}")
    assert Mix.parse("banker = 45 % , player = 0.55").weights == (("banker", Fraction(9, 20)),
                                                                    ("player", Fraction(11, 20)))
    for inside in ("1 / 2", "0. 5", "5 0%", "1 %%"):
        with pytest.raises((ValueError, ZeroDivisionError)):
            parse_percent(inside)


def test_spaces_mean_the_same_on_the_command_line_and_in_a_request() -> None:
    plain = CliRunner().invoke(cli, ["odds", "--decks", "1", "--bet", "banker", "--rebate", "1%", "--format", "json"])
    spaced = CliRunner().invoke(cli, ["odds", "--decks", "1", "--bet", "banker", "--rebate", " 1 % ", "--format",
                                      "json"])
    assert plain.exit_code == spaced.exit_code == 0 and plain.stdout == spaced.stdout
    reply = answer(ODDS, {"decks": 1, "bets": ["banker"], "rebate": " 1 % "}, {}, Tracks())
    assert json.loads(reply.body) == json.loads(plain.stdout)
    assert "malformed tie pay '1 / 2'" in one_error(["odds", "--tie-pays", "1 / 2"])


# --- the packaged files made ahead (exactodds/parsed.py) -----------------------------------------------------------


def test_a_file_made_ahead_reads_as_tomllib_parses_it_and_only_for_its_very_text() -> None:
    """Each file of exactodds/parsed.py (current: tests/test_docs.py) gives what tomllib makes of its text, in its
    order, anew at each read; a text that differs by a byte is parsed."""
    import tomllib

    from exactodds.betfile import packaged_text
    from exactodds.parsed import PARSED
    from exactodds.tomldata import TomlFloat, load_toml

    assert PARSED
    for file, (text, _) in PARSED.items():
        assert text == packaged_text(file)
        made = load_toml(text, file)
        assert repr(made) == repr(tomllib.loads(text, parse_float=TomlFloat))
        assert made is not load_toml(text, file) and made == load_toml(text, file)
        changed = text + "\n[bets.changed]\n"
        assert "changed" in load_toml(changed, file)["bets"]
