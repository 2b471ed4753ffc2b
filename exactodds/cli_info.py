"""The command about information: ``edge-sort`` (the value of knowing the High/Low class of the first cards)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click

from .bets import Bet
from .cli_options import WholeNumber, build_rules, build_shoe, shoe_and_rules
from .errors import ExactOddsError
from .exact import fraction_text, percent_text
from .given import POSITIONS
from .information import DEFAULT_HIGH, BestSort, EdgeSort, best_sort, edge_sort
from .layout import text_table
from .render import shoe_json, shoe_rules_header
from .rules import RuleSet

if TYPE_CHECKING:
    from .edgecount import Progress

_FORMATS = ("table", "json")
#: Splits listed by the table of --best-sort (the JSON lists them all).
_RANKING_SHOWN = 10


@contextmanager
def _progress() -> Iterator[Progress | None]:
    """A count of the passes over the six-card sequences on stderr when it is a terminal, wiped at the end."""
    if not sys.stderr.isatty():  # nothing in logs or pipes
        yield None
        return

    def show(done: int, total: int) -> None:
        click.echo(f"\rcounting: pass {done} of {total}", err=True, nl=False)

    try:
        yield show
    finally:
        click.echo("\r\x1b[K", err=True, nl=False)  # the result (or the one Error line) starts a clean line


def _json(sort: EdgeSort, best: BestSort | None) -> str:
    data: dict[str, Any] = {
        "shoe": shoe_json(sort.shoe),
        "rules": sort.rules.as_dict(),
        "high": sort.high_text,
        "cards": sort.cards,
        "positions": list(POSITIONS[: sort.cards]),
        "bets": [b.id for b in sort.bets],
        "edge": fraction_text(sort.edge),
        "states": [
            {
                "state": s.pattern,
                "probability": fraction_text(s.probability),
                "bet": sort.bet_of(s),
                "ev": None if s.ev is None else fraction_text(s.ev),
            }
            for s in sort.states
        ],
    }
    if best is not None:
        data["best_sort"] = [{"high": high, "edge": fraction_text(edge)} for high, edge in best.ranking]
    return json.dumps(data, indent=2) + "\n"


def _table(sort: EdgeSort, best: BestSort | None, places: int) -> str:
    lines = [shoe_rules_header(sort.shoe, sort.rules), ""]
    if best is not None:
        lines += [
            f"Best sort of the ten card values into High and Low (T, J, Q, K together; {len(best.ranking)} splits,"
            " each with its complement):",
            text_table(
                ["High", "edge per coup"],
                [[high, percent_text(edge, places)] for high, edge in best.ranking[:_RANKING_SHOWN]],
                "lr",
            ),
            "",
        ]
    known = " ".join(POSITIONS[: sort.cards])
    lines += [
        f"High: {sort.high_text} (Low: every other rank) · known cards: {known} · bets compared:"
        f" {', '.join(b.id for b in sort.bets)}",
        f"Edge per coup: {percent_text(sort.edge, places)} (exactly {fraction_text(sort.edge)})",
        "",
    ]
    rows = [
        [s.pattern, percent_text(s.probability, places), sort.bet_of(s) or "no bet",
         "" if s.ev is None else percent_text(s.ev, places), percent_text(s.value, places)]
        for s in sort.states
    ]
    lines.append(text_table(["state", "probability", "best bet", "EV given the state", "share of edge"], rows, "lrlrr"))
    return "\n".join(lines) + "\n"


@click.command(name="edge-sort")
@shoe_and_rules
@click.option(
    "--high", metavar="RANKS", default=None,
    help=f"The ranks that are High, e.g. 6789 or T,J (the rest are Low; default {DEFAULT_HIGH}).",
)
@click.option(
    "--cards", type=WholeNumber(1, len(POSITIONS)), required=True,
    help="Known cards in deal order: 1 (P1) to 6 (P1 B1 P2 B2, then the 5th and 6th cards out of the shoe).",
)
@click.option(
    "--bet", "bet_ids", multiple=True, metavar="ID",
    help="A bet to compare in each state (repeatable; default player, banker, tie; bets that read pairs are refused).",
)
@click.option(
    "--best-sort", "search", is_flag=True,
    help="Search every split of the ten card values (T, J, Q, K together) for the largest edge, instead of --high.",
)
@click.option("--format", "fmt", type=click.Choice(_FORMATS), default="table", show_default=True, help="Output format.")
@click.option("--precision", type=WholeNumber(0, 60), default=4, show_default=True, help="Decimal places of percents.")
def edge_sort_command(
    decks: int | None,
    shoe_text: str | None,
    remove: str | None,
    rules_name: str | RuleSet,
    commission: str | None,
    tie_pays: str | None,
    bet_ids: tuple[str | Bet, ...],
    high: str | None,
    cards: int,
    search: bool,
    fmt: str,
    precision: int,
) -> None:
    """Edge sorting: the best bet in each High/Low state of the first cards, and the edge per coup, exactly."""
    shoe = build_shoe(decks, shoe_text, remove)
    rules = build_rules(rules_name, commission, tie_pays)
    bets = bet_ids or None
    best: BestSort | None = None
    if search:
        if high is not None:
            raise ExactOddsError("give either --high or --best-sort (which searches every High set), not both")
        with _progress() as progress:
            best = best_sort(shoe, rules, bets, cards=cards, progress=progress)
        sort = best.best
    else:
        with _progress() as progress:
            sort = edge_sort(shoe, rules, bets, high=DEFAULT_HIGH if high is None else high, cards=cards,
                             progress=progress)
    click.echo(_json(sort, best) if fmt == "json" else _table(sort, best, precision), nl=False)
