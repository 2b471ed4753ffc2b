"""The closed forms in the number of decks rendered as Markdown and JSON (the ``closed-forms`` tables)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..exact import decimal_text, fraction_text, grouped
from ..layout import markdown_table
from ..puntobanco.closed_forms import DENOMINATOR_TEXT, ClosedForm


def _decks_text(decks: Sequence[int]) -> str:
    return ", ".join(str(n) for n in decks)


def render_closed_forms_markdown(forms: Sequence[ClosedForm], places: int = 12) -> str:
    """The closed forms for people, with every polynomial printed exactly (Python syntax)."""
    lines = [
        "# Closed forms in the number of decks d",
        "",
        "Counts of ordered six-card draws from d standard decks (52d cards), as exact polynomials in d,",
        "and each probability as that polynomial over the number of ordered six-card draws,",
        "",
        "```",
        f"N(d) = {DENOMINATOR_TEXT}",
        "```",
        "",
        "with its limit as d → ∞ (the infinite shoe: each card drawn with replacement, 1/13 per rank).",
        "The counts do not depend on commission or pays, only on the tableau (the drawing rules).",
        "",
        "Summary (limits as exact fractions over 13^6 = 4826809 and as decimals):",
        "",
    ]
    rows = [[f.name, str(f.degree), fraction_text(f.limit), decimal_text(f.limit, places)] for f in forms]
    lines.append(markdown_table(["event", "degree", "limit d → ∞", "decimal"], rows, "lrrr"))
    for f in forms:
        lines += [
            "",
            f"## {f.name}",
            "",
            "Count of ordered six-card draws:",
            "",
            "```",
            f"count(d) = {f.polynomial_text()}",
            f"         = {f.factored}",
            "```",
            "",
            "Probability, in lowest terms:",
            "",
            "```",
            f"P(d) = count(d) / N(d) = {f.probability_text}",
            f"lim d→∞ P(d) = {fraction_text(f.limit)} = {decimal_text(f.limit, places)}",
            "```",
            "",
            f"Fitted through the engine's counts at d = {_decks_text(f.fitted_at)};"
            f" checked against the engine at d = {_decks_text(f.verified_at)}.",
            "",
            markdown_table(
                ["d", "count(d)", "P(d)"],
                [[str(n), grouped(f.count(n)), decimal_text(f.probability(n), places)] for n in (1, 2, 4, 6, 8)],
                "rrr",
            ),
        ]
    return "\n".join(lines) + "\n"


def closed_forms_json(forms: Sequence[ClosedForm], places: int = 16) -> dict[str, Any]:
    """The closed forms as JSON-ready values: coefficients as integer strings, ascending powers of d."""
    return {
        "variable": "d",
        "denominator": DENOMINATOR_TEXT,
        "events": {
            f.id: {
                "name": f.name,
                "degree": f.degree,
                "coefficients": [str(c) for c in f.coefficients],
                "polynomial": f.polynomial_text(),
                "factored": f.factored,
                "probability": f.probability_text,
                "limit": fraction_text(f.limit),
                "limit_decimal": decimal_text(f.limit, places),
                "fitted_at": list(f.fitted_at),
                "verified_at": list(f.verified_at),
            }
            for f in forms
        },
    }


def render_closed_forms_json(forms: Sequence[ClosedForm], places: int = 16) -> str:
    """The closed forms as JSON text."""
    return json.dumps(closed_forms_json(forms, places), indent=2, ensure_ascii=False) + "\n"
