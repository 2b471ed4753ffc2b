"""Edge sorting as text or JSON: the best bet in each High/Low state of the first cards, and the edge per coup."""

from __future__ import annotations

import json
from typing import Any

from ..exact import fraction_text, percent_text
from ..layout import text_table
from ..puntobanco.given import POSITIONS
from ..puntobanco.information import BestSort, EdgeSort
from . import shoe_json, shoe_rules_header
from .formats import write_format

#: Splits listed by the table of a best sort (the JSON lists them all).
RANKING_SHOWN = 10


def render_edge_sort(sort: EdgeSort, best: BestSort | None, fmt: str, places: int = 4) -> str:
    """An edge sort (after ``best``, the search it is the best of) as ``table`` or ``json`` text; percents to
    ``places`` decimals.

    >>> from exactodds.cards import Shoe
    >>> from exactodds.puntobanco.information import edge_sort
    >>> text = render_edge_sort(edge_sort(Shoe.standard(1), cards=1), None, "table", 2)
    >>> text.splitlines()[2].startswith("High: 6789")
    True
    """
    return write_format("game", fmt, {"table": lambda: _table(sort, best, places), "json": lambda: _json(sort, best)})


def _json(sort: EdgeSort, best: BestSort | None) -> str:
    """The JSON document of an edge sort: every state with its exact probability, best bet and EV."""
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
    """The text of an edge sort: the best splits (after a search), the edge, and a table of the states."""
    lines = [shoe_rules_header(sort.shoe, sort.rules), ""]
    if best is not None:
        lines += [
            f"Best sort of the ten card values into High and Low (T, J, Q, K together; {len(best.ranking)} splits,"
            " each with its complement):",
            text_table(
                ["High", "edge per coup"],
                [[high, percent_text(edge, places)] for high, edge in best.ranking[:RANKING_SHOWN]],
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
