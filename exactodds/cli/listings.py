"""The listings of what the commands price, for every game: ``games`` (the registry), and a game's ``bets``,
``facts`` and ``rules`` (its rule sets), as text or JSON (the JSON the API's listings answer)."""

from __future__ import annotations

from typing import Any

import click

from ..present.formats import LISTING_FORMATS
from ..present.listings import render_bets, render_facts, render_games, render_rule_sets
from ..request import Setup
from .options import game_setup, output_options


def _listing_format(func: Any) -> Any:
    return output_options(LISTING_FORMATS, places=None)(func)


@click.command(name="bets")
@game_setup(shoe=False)
@_listing_format
def list_bets(setup: Setup, fmt: str) -> None:
    """List a game's bets with their ids: its default bets, then the rest (punto banco: the side-bet catalog), then
    those of --bets-file."""
    click.echo(render_bets(setup.game, setup.settings, setup.file_bets, fmt), nl=False)


@click.command(name="facts")
@game_setup(shoe=False, need="bets-files")
@_listing_format
def list_facts(setup: Setup, fmt: str) -> None:
    """List the facts that the conditions of a game's bets are written in (a --bets-file's, a --rules-file's)."""
    click.echo(render_facts(setup.game, fmt), nl=False)


@click.command(name="rules")
@game_setup(shoe=False, need="rule-sets")
@_listing_format
def list_rules(setup: Setup, fmt: str) -> None:
    """List the rule sets of a game that has them (punto banco's), with their aliases."""
    click.echo(render_rule_sets(setup.game, fmt), nl=False)


@click.command(name="games")
@_listing_format
def list_games(fmt: str) -> None:
    """List the games (the registry): their aliases, what they are, their settings and bets, what each can do."""
    from ..games import GAMES

    click.echo(render_games(GAMES, fmt), nl=False)
