"""The registry of output formats: every command writes every format of its kind, and a format added to the registry
fails every writer of its kind until each writes it (never falls through to another format)."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from exactodds.cli import cli
from exactodds.present import formats

#: A small invocation of each command with a --format, to which each format is added in turn.
SMALL = {
    "odds": ["odds", "--decks", "1", "--bet", "tie"],
    "fit-rtp": ["fit-rtp", "--game", "prosperity-tree", "--decks", "1", "--multipliers", "2:1-p,3:p", "--rtp",
                "player=98.9%"],
    "games": ["games"],
    "bets": ["bets"],
    "facts": ["facts"],
    "rules": ["rules"],
    "eor": ["eor", "--decks", "1", "--bet", "tie"],
    "simulate": ["simulate", "--decks", "1", "--shoes", "2", "--seed", "1", "--quiet", "--workers", "1"],
    "tags": ["tags", "--decks", "1", "--bet", "tie"],
    "solve": ["solve", "--model", "A1"],
    "big-table": ["big-table", "--decks", "1"],
    "edge-sort": ["edge-sort", "--decks", "1", "--cards", "1"],
    "peek": ["peek", "--decks", "1", "--reveal", "P1B1:1"],
    "design": ["design", "--decks", "1", "--bet", "dragon-7", "--edge", "5%:9%", "--max-pay", "50"],
    "review": ["review", "-"],  # an empty log: the verdict, its JSON and the CSV's header differ
}


def _format_choices() -> dict[str, tuple[str, ...]]:
    found = {}
    for name, command in cli.all_commands().items():
        for param in command.params:
            if param.name == "fmt" and isinstance(param.type, click.Choice):
                found[name] = tuple(param.type.choices)
    return found


def test_every_command_with_a_format_is_tried_here():
    assert set(_format_choices()) == set(SMALL)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_every_format_of_a_command_is_written_and_each_differently(name):
    outputs = {}
    for fmt in _format_choices()[name]:
        result = CliRunner().invoke(cli, [*SMALL[name], "--format", fmt])
        assert result.exit_code == 0, (fmt, result.output)
        outputs[fmt] = result.stdout
    assert len(set(outputs.values())) == len(outputs), f"{name}: two formats wrote the same bytes"


def test_a_format_added_to_the_registry_fails_its_writers_until_each_writes_it(monkeypatch):
    """The step of the recipe "add an output format" that fails until every writer of the kind is done."""
    monkeypatch.setitem(formats.OUTPUT_FORMATS, "analysis", (*formats.FORMATS, "tsv"))
    monkeypatch.setitem(formats.OUTPUT_FORMATS, "document", (*formats.REPORT_FORMATS, "odt"))
    from exactodds import Shoe, analyze, effect_of_removal, render, render_eor
    from exactodds.report import render_report

    analysis = analyze(Shoe.parse("A=2,2=2,3=2,K=2"), bets=["tie"])
    for write in (lambda: render(analysis, "table"), lambda: render_eor(effect_of_removal(analysis.shoe), "json"),
                  lambda: render_report(None, "md")):  # type: ignore[arg-type]
        with pytest.raises(NotImplementedError, match="this writer writes"):
            write()
