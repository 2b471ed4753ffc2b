"""The game tables: chemin de fer solved for 1-8 decks and the infinite deck, and the big table's option on 5.

Each model (A1, B2, B3) gets one Markdown summary (a row per shoe and commission: the value,
the Player's drawing probabilities at 5, the Banker's mixed cell, his departures from the
punto banco table), a CSV of the same rows, and a JSON file holding every solution in the
pinned JSON of ``exactodds solve``. The big table's option on 5 gets, for 6 and 8 decks, the
output of ``exactodds big-table``.
"""

from __future__ import annotations

import csv
import io
import json

from ..cards import Shoe
from ..chemindefer.solution import GameSolution, solution_json, solve
from ..exact import decimal_text, fraction_text
from ..games.chemin_de_fer import GAME as CHEMIN_DE_FER
from ..games.chemin_de_fer import MODEL
from ..games.punto_banco import GAME as PUNTO_BANCO_GAME
from ..layout import markdown_table
from ..present.solution import render_option
from ..puntobanco.bigtable import option_figures, player_five_chart
from .common import DATA_PLACES, _decks_name

# Which game tables exist, and for which shoes, is each game's (exactodds.games).
#: The chemin de fer models solved, their deck counts, and the commissions (none, then the casinos' 5%).
GAME_MODELS = MODEL.choices
GAME_DECKS = CHEMIN_DE_FER.tables.solved_decks
GAME_COMMISSIONS = CHEMIN_DE_FER.tables.commissions
#: The deck counts of the big-table option tables, and the rules they are priced under.
OPTION_DECKS = PUNTO_BANCO_GAME.tables.option_decks
OPTION_RULES = PUNTO_BANCO_GAME.rules(PUNTO_BANCO_GAME.settings_for(PUNTO_BANCO_GAME.tables.rule_sets[0]))
GAME_CSV_COLUMNS = [
    "decks", "commission", "value", "value_decimal", "banker_ev", "player_ev", "player_draws_at_5",
    "banker_mixed", "banker_departures", "unique",
]  # fmt: skip


def _player(solution: GameSolution) -> str:
    if solution.model != "B3":
        return fraction_text(solution.player["5"])
    return " ".join(f"{hand}:{fraction_text(p)}" for hand, p in solution.player.items())


def _mixed(solution: GameSolution) -> str:
    return "; ".join(f"{hand} v {column}: {fraction_text(draw)}" for hand, column, draw in solution.mixed)


def _departures(solution: GameSolution) -> str:
    departures = solution_json(solution)["banker"]["deviations"]
    return "; ".join(f"{d['hand']} v {d['player_third']}: {d['action']}" for d in departures) or "none"


def _solutions(model: str) -> list[tuple[str, GameSolution]]:
    shoes: list[tuple[str, Shoe | None]] = (
        [("infinite", None)] if model == "A1" else [(str(d), Shoe.standard(d)) for d in GAME_DECKS]
    )
    return [(label, solve(model=model, shoe=shoe, commission=c)) for label, shoe in shoes for c in GAME_COMMISSIONS]


def game_files(model: str) -> dict[str, str]:
    """The chemin de fer tables of one model: Markdown, CSV and JSON."""
    solutions = _solutions(model)
    rows = []
    csv_rows: list[dict[str, str]] = []
    for label, s in solutions:
        value = "" if s.value is None else fraction_text(s.value)
        rows.append([
            label, f"{fraction_text(s.commission * 100)}%",
            "—" if s.value is None else decimal_text(s.value, 8), decimal_text(s.banker_ev, 8),
            _player(s), _mixed(s) or "none", _departures(s), "yes" if s.unique else "no",
        ])  # fmt: skip
        csv_rows.append({
            "decks": label, "commission": fraction_text(s.commission), "value": value,
            "value_decimal": "" if s.value is None else decimal_text(s.value, DATA_PLACES),
            "banker_ev": fraction_text(s.banker_ev), "player_ev": fraction_text(s.player_ev),
            "player_draws_at_5": _player(s), "banker_mixed": _mixed(s), "banker_departures": _departures(s),
            "unique": "true" if s.unique else "false",
        })  # fmt: skip
    sees = {
        "A1": "cards drawn with replacement; each side sees its own two-card total",
        "B2": "the Banker sees his two cards, the Player his total",
        "B3": "each side sees his own two cards",
    }[model]
    md = "\n".join([
        f"# Chemin de fer solved exactly: model {model}",
        "",
        f"Model {model}: {sees}. The Player draws on 0-4, stands on 6-7 and chooses on 5; the Banker chooses in"
        " every cell (his hand against the Player's third card, or against \"stood\"). Value: the Banker's",
        "expected payoff per coup without commission (zero-sum); with the casinos' 5% commission on the Banker's",
        "wins the game is non-zero-sum and the Banker EV is at the Nash equilibrium. Player at 5: his drawing",
        "probability (B3: per two-card five). Departures: pure cells where the Banker leaves the punto banco",
        "table. Exact fractions in the JSON and CSV files; `exactodds solve` prints the Banker's whole chart.",
        "",
        markdown_table(
            ["decks", "commission", "value", "Banker EV", "Player at 5", "Banker mixes", "departures", "unique"],
            rows, "rrrrllll",
        ),
    ]) + "\n"  # fmt: skip
    out = io.StringIO()
    writer = csv.DictWriter(out, GAME_CSV_COLUMNS, lineterminator="\n", extrasaction="raise")
    writer.writeheader()
    writer.writerows(csv_rows)
    data = {"model": model, "solutions": [solution_json(s) for _, s in solutions]}
    return {
        game_path(model, "md"): md,
        game_path(model, "csv"): out.getvalue(),
        game_path(model, "json"): json.dumps(data, indent=2) + "\n",
    }


def game_path(model: str, ext: str) -> str:
    """Where the tables of a chemin de fer model go.

    >>> game_path("B3", "md")
    'games/chemin-de-fer-b3.md'
    """
    return f"games/{CHEMIN_DE_FER.name}-{model.lower()}.{ext}"


def option_files(decks: int) -> dict[str, str]:
    """The big table's option on 5 for a standard shoe: Markdown and JSON."""
    shoe = Shoe.standard(decks)
    figures, chart = option_figures(shoe, OPTION_RULES), player_five_chart(shoe, OPTION_RULES)
    base = f"games/big-table-{_decks_name(decks)}"
    title = f"# The big table's option on 5: {decks} decks\n\n"
    return {
        f"{base}.md": f"{title}```\n{render_option(figures, chart, 'table', 8)}```\n",
        f"{base}.json": render_option(figures, chart, "json"),
    }
