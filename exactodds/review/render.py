"""The verdict as people read it (a table), as JSON, and each wager as a row of CSV (written as its shoe closes).

Text from the log (who, the shoe's and table's ids) is data everywhere: a CSV cell is never a formula
(:func:`~exactodds.present.csv_text`), and a line of the table holds no line break of the log's.
"""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from typing import Any

from ..exact import decimal_text, fraction_text, grouped
from ..layout import one_line, text_table
from ..present import csv_text
from .tally import ShoeTally
from .verdict import FLAG_MIN, FLAG_P, Verdict, worst_shoes

#: The findings the table lists (the JSON lists every one).
SHOWN_FINDINGS = 20
#: The columns of a wager's CSV row.
WAGER_COLUMNS = ("line", "shoe", "table", "coup", "who", "bet", "stake", "net", "ev", "ev_decimal", "expected_net",
                 "settled", "difference", "irregular_coup")


def verdict_text(verdict: Verdict) -> str:
    """The verdict for people: what was read, the findings, each bettor's figures and flags, each table's hold."""
    kinds: dict[str, int] = {}
    for f in verdict.findings:
        kinds[f.kind] = kinds.get(f.kind, 0) + 1
    lines = [f"review: {grouped(verdict.shoes)} shoes · {grouped(verdict.coups)} coups · {grouped(verdict.wagers)}"
             f" wagers · {grouped(verdict.bad_lines)} bad lines skipped"]
    if verdict.findings:
        lines.append("findings: " + " · ".join(f"{n:,} {kind}" for kind, n in sorted(kinds.items())))
        for f in verdict.findings[:SHOWN_FINDINGS]:
            where = f"shoe {f.shoe}" + (f" coup {f.coup}" if f.coup is not None else "") if f.shoe else ""
            lines.append(one_line(f"  line {f.line:,}{' ' + where if where else ''}: {f.kind}: {f.reason}"))
        if len(verdict.findings) > SHOWN_FINDINGS:
            lines.append(f"  … {len(verdict.findings) - SHOWN_FINDINGS:,} more (--format json lists every one)")
    else:
        lines.append("findings: none (every coup dealt by the tableau from cards the shoe held, every wager paid as"
                     " its coup's cards say)")
    bettors = verdict.bettors()
    if bettors:
        lines += ["", f"bettors ({BETTORS_NOTE})"]
        rows = [[one_line(row[0])[:24], *row[1:]] for row in map(bettor_row, bettors)]
        lines.append(text_table(BETTOR_COLUMNS, rows, BETTOR_ALIGN))
        lines += [one_line(f"flagged: {flag_text(b)}") for b in bettors if b["flagged"]]
        lines.append(f"({FLAG_RULE})")
        if verdict.rebate is not None:
            rows = [[one_line(row[0])[:24], *row[1:]] for row in map(rebate_row, bettors)]
            lines += ["", f"{rebate_note(verdict)}", text_table(REBATE_COLUMNS, rows, REBATE_ALIGN)]
    if verdict.tables:
        tables = verdict.as_json()["tables"]
        rows = [[one_line(row[0])[:24], *row[1:]] for row in map(table_row, tables)]
        lines += ["", f"tables ({TABLES_NOTE})", text_table(TABLE_COLUMNS, rows, TABLE_ALIGN)]
        if verdict.rebate is not None:
            rows = [[one_line(row[0])[:24], *row[1:]] for row in map(rebate_table_row, tables)]
            lines += [text_table(REBATE_TABLE_COLUMNS, rows, REBATE_TABLE_ALIGN)]
    worst = worst_shoes(verdict, SHOWN_SHOES)
    if worst:
        rows = [[one_line(row[0])[:24], one_line(row[1])[:24], *row[2:]] for row in map(shoe_row, worst)]
        lines += ["", f"shoes ({shoes_note(len(verdict.shoe_results))})", text_table(SHOE_COLUMNS, rows, SHOE_ALIGN)]
    return "\n".join(lines) + "\n"


#: The shoes the table for people shows: those whose hold fell furthest below theory.
SHOWN_SHOES = 5
#: The columns of the shoes' table, and their alignment.
SHOE_COLUMNS = ("shoe", "table", "wagers", "stake", "hold", "theory")
SHOE_ALIGN = "llrrrr"


def shoes_note(shoes: int) -> str:
    """What the shoes' table shows, of ``shoes`` shoes with wagers."""
    shown = min(shoes, SHOWN_SHOES)
    return (f"the {shown} of {grouped(shoes)} whose hold fell furthest below the theoretical hold, worst first; every"
            " shoe's in --format json")


#: The columns of the bettors' table, and their alignment (the table for people, and the documents' table).
BETTOR_COLUMNS = ("who", "bet", "wagers", "stake", "net", "expected", "luck", "z", "edge", "+EV stake", "corr", "p", "")
BETTOR_ALIGN = "llrrrrrrrrrrl"
BETTORS_NOTE = ("exact expected net; luck = net − expected, z = luck / its exact SD; p: the permutation test of the"
                " stakes against the EV")
#: When a bet is flagged, in words.
FLAG_RULE = (f"a bet is flagged at p ≤ {fraction_text(FLAG_P)} over at least {FLAG_MIN} wagers: one flag in a thousand"
             " bettors who bet blind")
#: The columns of the tables' table, and their alignment.
TABLE_COLUMNS = ("table", "shoes", "wagers", "stake", "hold", "theory")
TABLE_ALIGN = "lrrrrr"
TABLES_NOTE = "hold: the casino's net over the stakes; theory: its expected net, the wagers made"


#: With a rebate: each bettor's rebate and his figures with it, and each table's hold with it.
REBATE_COLUMNS = ("who", "bet", "rebate due", "expected rebate", "expected net with rebate", "edge with rebate")
REBATE_ALIGN = "llrrrr"
REBATE_TABLE_COLUMNS = ("table", "rebate due", "hold with rebate", "theory with rebate")
REBATE_TABLE_ALIGN = "lrrr"
#: The columns a wager's CSV row adds with a rebate.
REBATE_WAGER_COLUMNS = ("rebate_due", "expected_rebate")


def rebate_note(verdict: Verdict) -> str:
    """What the rebate tables give, in words.

    >>> from exactodds.rebate import Rebate
    >>> rebate_note(Verdict(rebate=Rebate(Fraction(1, 100))))[:44]
    'with the rebate 1% (standard basis), paid ap'
    """
    assert verdict.rebate is not None
    return (f"with the {verdict.rebate.text()}, paid apart from the nets: due, as the coups settled; expected, on the"
            " cards left before each coup (exact)")


def rebate_row(b: dict[str, Any]) -> list[str]:
    """A bettor's row of the rebate table, from his entry of :meth:`Verdict.bettors` (a verdict with a rebate)."""
    return [b["who"], b["bet"], b["rebate_due"]["decimal"], b["expected_rebate"]["decimal"],
            b["expected_net_with_rebate"]["decimal"], b["edge_with_rebate"]["decimal"]]


def rebate_table_row(t: dict[str, Any]) -> list[str]:
    """A table's row of the rebate table of tables, from its entry of the verdict's JSON (a verdict with a rebate)."""
    return [t["table"], t["rebate_due"]["decimal"],
            "—" if t["hold_with_rebate"] is None else t["hold_with_rebate"]["decimal"],
            "—" if t["theoretical_hold_with_rebate"] is None else t["theoretical_hold_with_rebate"]["decimal"]]


def bettor_row(b: dict[str, Any]) -> list[str]:
    """A bettor's row of the bettors' table, from his entry of :meth:`Verdict.bettors` (``who`` whole: the table for
    people cuts it)."""
    return [b["who"], b["bet"], grouped(b["wagers"]), decimal_text(Fraction(b["stake"]), 2),
            decimal_text(Fraction(b["net"]), 2), b["expected_net"]["decimal"], b["luck"]["decimal"], b["z"] or "—",
            b["edge"]["decimal"], b["stake_at_positive_ev"]["decimal"], b["correlation"] or "—", b["p_value"] or "—",
            "FLAG" if b["flagged"] else ""]


def flag_text(b: dict[str, Any]) -> str:
    """What a flagged bettor's flag says: his p-value, and his expected win rate beside the ideal."""
    return (f"{b['who']} on {b['bet']}: the stakes rise with the EV beyond chance (p = {b['p_value']} over"
            f" {b['wagers']:,} wagers); expected {b['per_100_coups']['decimal']} per 100 coups at the table,"
            f" {b['per_shoe']['decimal']} per shoe; one mean stake on every coup at positive EV:"
            f" {b['ideal_per_100_coups']['decimal']} per 100 coups")


def table_row(t: dict[str, Any]) -> list[str]:
    """A table's row of the tables' table, from its entry of the verdict's JSON (its id whole)."""
    return [t["table"], grouped(t["shoes"]), grouped(t["wagers"]), decimal_text(Fraction(t["stake"]), 2),
            "—" if t["hold"] is None else t["hold"]["decimal"],
            "—" if t["theoretical_hold"] is None else t["theoretical_hold"]["decimal"]]


def shoe_row(s: dict[str, Any]) -> list[str]:
    """A shoe's row of the shoes' table, from its entry of the verdict's JSON (its ids whole)."""
    return [s["shoe"], s["table"], grouped(s["wagers"]), decimal_text(Fraction(s["stake"]), 2), s["hold"]["decimal"],
            s["theoretical_hold"]["decimal"]]


def verdict_json(verdict: Verdict) -> str:
    """The verdict as JSON text."""
    return json.dumps(verdict.as_json(), indent=2, ensure_ascii=False) + "\n"


def wager_rows(shoe: ShoeTally, places: int = 10, rebate: bool = False) -> str:
    """A closed shoe's wagers (kept: ``keep_wagers``) as rows of CSV (no header: :data:`WAGER_COLUMNS`, and with a
    ``rebate`` :data:`REBATE_WAGER_COLUMNS`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for w in shoe.priced:
        wager = w.wager
        writer.writerow([wager.line, csv_text(wager.shoe), csv_text(w.table), wager.coup, csv_text(wager.who),
                         csv_text(wager.bet), fraction_text(wager.stake), fraction_text(wager.net), fraction_text(w.ev),
                         decimal_text(w.ev, places), fraction_text(w.expected), fraction_text(w.settled),
                         fraction_text(w.difference), "yes" if w.irregular else "",
                         *((fraction_text(w.rebate_due), fraction_text(w.rebate_expected)) if rebate else ())])
    return out.getvalue()


def csv_header(rebate: bool = False) -> str:
    """The header row of the wagers' CSV (with a ``rebate``, its columns too)."""
    return ",".join(WAGER_COLUMNS + (REBATE_WAGER_COLUMNS if rebate else ())) + "\n"
