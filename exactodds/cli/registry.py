"""Every command of ``exactodds``, by name: the family module that defines it, imported when it runs or is listed.

A family module is loaded only when one of its commands runs or is listed (``--help``), so
start-up loads this registry, the group and one family, whatever the others import: where a
command goes is decided by its concept, not by its imports. Each loader is a plain
``from . import family``, which import-linter sees (pyproject's CLI contract: this registry
above the families, above the option bundles and the group).

To add a command: define it in its family module (a ``@click.command(name=...)`` taking the
bundles of :mod:`.options`), name it in :data:`COMMANDS`, give its smallest invocation to
``BASE`` in ``tests/test_hostile.py`` (and, unless it writes a file, one to the lists of
``tests/test_writes.py``), and regenerate ``docs/cli.md`` (``python docs/gen_docs.py``). A new
family also gets a loader here and its place in pyproject's CLI contract.
"""

from __future__ import annotations

from types import ModuleType

import click

from ..version import __version__
from .group import CommandEntry, OneLineErrors


def _odds() -> ModuleType:
    from . import odds

    return odds


def _batch() -> ModuleType:
    from . import batch

    return batch


def _listings() -> ModuleType:
    from . import listings

    return listings


def _tables() -> ModuleType:
    from . import tables

    return tables


def _lab() -> ModuleType:
    from . import lab

    return lab


def _decisions() -> ModuleType:
    from . import decisions

    return decisions


def _information() -> ModuleType:
    from . import information

    return information


def _report() -> ModuleType:
    from . import report

    return report


def _design() -> ModuleType:
    from . import design

    return design


def _tracker() -> ModuleType:
    from . import tracker

    return tracker


def _review() -> ModuleType:
    from . import review

    return review


def _serve() -> ModuleType:
    from . import serve

    return serve


#: Every command: its name, the loader of the family module that defines it, and the command's name there.
COMMANDS: dict[str, CommandEntry] = {
    # exact prices: one shoe, many shoes
    "odds": (_odds, "odds"),
    "fit-rtp": (_information, "fit_rtp"),
    "batch": (_batch, "batch"),
    # the listings of what can be priced
    "bets": (_listings, "list_bets"),
    "facts": (_listings, "list_facts"),
    "rules": (_listings, "list_rules"),
    "games": (_listings, "list_games"),
    # the reference tables
    "tables": (_tables, "tables"),
    # the card-counting lab: effects of removal, count tags, simulated shoes
    "eor": (_lab, "eor"),
    "tags": (_lab, "tags"),
    "simulate": (_lab, "simulate"),
    # decisions: games solved, the big table's option on 5
    "solve": (_decisions, "solve_command"),
    "big-table": (_decisions, "big_table_command"),
    # information: edge sorting
    "edge-sort": (_information, "edge_sort_command"),
    "peek": (_information, "peek_command"),
    # files for people: the math report, plots
    "report": (_report, "report_command"),
    "plot": (_report, "plot_command"),
    # a bet designed: pay tables for a target house edge
    "design": (_design, "design_command"),
    # a live shoe
    "track": (_tracker, "track_command"),
    # a table's log reviewed, wager by wager
    "review": (_review, "review_command"),
    # the odds over HTTP
    "serve": (_serve, "serve_command"),
}


@click.group(cls=OneLineErrors, invoke_without_command=True, commands_of=COMMANDS)
@click.version_option(__version__, prog_name="exactodds")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Exact baccarat (punto banco) odds from any finite shoe.

    With no command, prints the full report for 8 fresh decks of punto banco.
    """
    if ctx.invoked_subcommand is None:
        odds = cli.get_command(ctx, "odds")
        assert odds is not None
        ctx.invoke(odds)


def main() -> None:
    """The command line alone: the ``exactodds`` command runs :func:`exactodds.__main__.main`, which checks more."""
    cli(prog_name="exactodds")
