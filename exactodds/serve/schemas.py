"""The JSON schemas of the API's answers, for ``/openapi.json``: each endpoint's answer by the name its
:class:`~.endpoints.Endpoint` gives (``answer``: the command's name where the answer is a command's JSON), every
top-level key with its description (docs/api.md shows it).

The analysis of ``/odds`` (the ``odds --format json`` contract of docs/json.md) is made from the
keys of its one layout (:mod:`exactodds.present.odds_json`: the top level, each bet's keys, each
outcome's), so the schema cannot drift from the answers; ``/batch`` answers that object cut to
``fields`` (no key required), or a line's index and error. The other answers are described from
the code that writes them (named above each); where a schema is closed (no other key), the
tests, which validate real answers of every shape against these schemas with a JSON Schema
validator, fail on a key added to an answer and not here.

>>> sorted(ANSWERS["odds"]["properties"])[:4]
['bets', 'chart', 'counting', 'game']
"""

from __future__ import annotations

from typing import Any

from ..present.odds_json import BET_KEYS, OUTCOME_KEYS
from ..present.tracker import MAX_ECHO
from ..roads import DERIVED, SIDES

_TEXT: dict[str, Any] = {"type": "string"}
#: An exact rational as text: ``n/d`` or an integer.
_EXACT: dict[str, Any] = {"type": "string", "pattern": "^-?[0-9]+(/[0-9]+)?$"}
_DECIMAL: dict[str, Any] = {"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$"}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` or ``null``."""
    return {"oneOf": [schema, {"type": "null"}]}


_COUNT: dict[str, Any] = {"type": "string", "pattern": "^[0-9]+$"}
_OBJECT: dict[str, Any] = {"type": "object"}


def _kind(key: str) -> dict[str, Any]:
    """The schema of one value of the analysis by its key's name: counts, exact rationals, decimals, words."""
    if key == "count":
        return _COUNT
    if key.endswith("_decimal"):
        return _DECIMAL
    if key in ("outcome", "event", "description"):
        return _TEXT
    return _EXACT


_SHOE = {"type": "object", "properties": {
    "cards": {"type": "integer", "minimum": 0},
    "counts": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
    "suited": {"type": "boolean"},
}}
_MULTIPLIER = {"type": "object", "properties": {
    "values": {"type": "array", "items": _EXACT}, "probabilities": {"type": "array", "items": _EXACT},
    "applies": _TEXT, "expected_net": _EXACT,
}}
_OUTCOME = {"type": "object", "properties": {**{k: _kind(k) for k in OUTCOME_KEYS}, "multiplier": _MULTIPLIER},
            "additionalProperties": False}
_REBATE = {"type": "object", "properties": {"rate": _EXACT, "basis": _TEXT, "effective_stake": _EXACT, "ev": _EXACT},
           "additionalProperties": False}
_BET = {"type": "object", "properties": {
    **{k: _kind(k) for k in BET_KEYS if k != "outcomes"},
    "outcomes": {"type": "array", "items": _OUTCOME}, "rebate": _REBATE,
    # What the lit-card games add to a bet's figures (games.lit.lit_notes).
    "lit_share": {**_nullable(_EXACT), "description": "The share of the bet's wins holding a lit card."},
    "pay_law": {"type": "object", "properties": {"values": {"type": "array", "items": _EXACT},
                                                 "probabilities": {"type": "array", "items": _EXACT}},
                "description": "The whole law of the net pay per unit paid, least first."},
    "top_award": {"type": "object", "properties": {
        "stake_pays": _EXACT, "net": _EXACT, "probability": _EXACT, "probability_decimal": _DECIMAL, "one_in": _TEXT,
        "displayed_odds_needed": {"type": "boolean"}}, "description": "The top award, its chance and GLI-11's check."},
}, "additionalProperties": False}
#: The analysis object (``odds --format json``), every key it may hold; ``required`` only on the whole answer.
_ANALYSIS_PROPERTIES: dict[str, Any] = {
    "game": {"type": "string", "description": "The game, when not punto banco (the default)."},
    "rules": {"type": "object", "properties": {"name": _TEXT}, "description": "The rules priced under."},
    "shoe": {**_SHOE, "description": "The shoe priced: its cards, its counts by rank, whether it is known by suit."},
    "orderings": {**_COUNT, "description": "The denominator of every count (with given: the draws where it holds)."},
    "counting": {"type": "object", "properties": {"cards": {"type": "integer"}, "convention": _TEXT},
                 "description": "What the counts count, when not ordered six-card draws."},
    "bets": {"type": "object", "additionalProperties": _BET,
             "description": "Each bet priced, by id: its outcomes with their exact counts, and its figures."},
    "policy": {**_OBJECT, "description": "The policy on the Player's 5, when one is priced."},
    "given": {"type": "object", "properties": {"event": _TEXT, "probability": _EXACT},
              "description": "The event given and its exact probability, when one is given."},
    "chart": {"type": "object", "properties": {
        "title": _TEXT, "rows": _TEXT, "columns": {"type": "array", "items": _TEXT},
        "cells": {"type": "object", "additionalProperties": _TEXT},
        "legend": {"type": "object", "additionalProperties": _TEXT},
    }, "description": "The chart a game with a decision plays by under its settings."},
}
_ODDS = {"type": "object", "properties": _ANALYSIS_PROPERTIES, "additionalProperties": False,
         "required": ["rules", "shoe", "orderings", "bets"]}
_CUT = {"type": "object", "properties": _ANALYSIS_PROPERTIES, "additionalProperties": False}
_BAD_LINE = {"type": "object", "properties": {"index": {"type": "integer"}, "error": _TEXT},
             "required": ["index", "error"], "additionalProperties": False}


def _listing(key: str, items: dict[str, Any], what: str) -> dict[str, Any]:
    """A listing: ``{key: [item, …]}`` (with the game's name when it lists one game's things); ``what`` it lists."""
    return {"type": "object", "properties": {
        "game": {**_TEXT, "description": "The game whose things are listed."},
        key: {"type": "array", "items": items, "description": what}}, "required": [key]}


# --- /solve: ``solve --format json`` (chemin de fer's solution, :func:`exactodds.chemindefer.solution.solution_json`)
_CELL = {"hand": _TEXT, "player_third": _TEXT}
_EQUILIBRIUM: dict[str, Any] = {
    "banker_ev": {**_EXACT, "description": "The Banker's expected payoff per coup (after any commission), exactly."},
    "player_ev": {**_EXACT, "description": "The Player's expected payoff per coup, exactly."},
    "player": {"type": "object", "properties": {"draw_at_5": {"oneOf": [
        _EXACT, {"type": "object", "additionalProperties": _EXACT}]}}, "additionalProperties": False,
        "description": "The Player's strategy: his probability of drawing at 5 (model B3: at each two-card 5)."},
    "banker": {"type": "object", "properties": {
        "mixed": {"type": "array", "items": {"type": "object", "properties": {**_CELL, "draw": _EXACT}}},
        "deviations": {"type": "array", "items": {"type": "object", "properties": {**_CELL, "action": _TEXT}}},
    }, "additionalProperties": False, "description": "The Banker's strategy where it is of note: the cells (his hand,"
        " the Player's third card or stood) where he mixes, with his probability of drawing, and those where he plays"
        " purely against the punto banco table (draw or stand)."},
}
_SOLVE = {"type": "object", "properties": {
    "game": {**_TEXT, "description": "The game solved."},
    "model": {**_TEXT, "description": "What each side sees (the setting model): A1, B2 or B3."},
    "shoe": {"oneOf": [{"const": "infinite"}, {"type": "object", "properties": {
        "cards": {"type": "integer", "minimum": 0},
        "counts": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}}}],
             "description": 'The shoe: its cards and its counts by rank, or "infinite" (model A1).'},
    "commission": {**_EXACT, "description": "The house's commission on the Banker's wins, exactly (0: none)."},
    "value": {**_EXACT, "description": "The game's value: the Banker's expected payoff per coup in the zero-sum"
              " game, exactly (absent with a commission, when the game is not zero-sum)."},
    **_EQUILIBRIUM,
    "unique": {"type": "boolean", "description": "Whether the equilibrium reported (both strategies) is the only one."},
    "equilibria": {"type": "array", "items": {"type": "object", "properties": {
        **_EQUILIBRIUM, "unique": {"type": "boolean"}}}, "description": "With a commission (no value): every"
        " equilibrium found, each as the keys above with its own unique (the Banker's reply the only one), the first"
        " the one reported."},
}, "required": ["game", "model", "shoe", "commission", "banker_ev", "player_ev", "player", "banker", "unique"],
    "additionalProperties": False}

# --- /edge-sort: ``edge-sort --format json`` (:func:`exactodds.present.information.render_edge_sort`) -------------
_EDGE_SORT = {"type": "object", "properties": {
    "shoe": {**_SHOE, "description": "The shoe dealt: its cards, its counts by rank, whether it is known by suit."},
    "rules": {**_OBJECT, "description": "The rules priced under."},
    "high": {**_TEXT, "description": "The ranks that are High, in rank order (after best_sort: the best split's); the"
             " rest are Low."},
    "cards": {"type": "integer", "minimum": 1, "description": "How many cards of each coup are known, in deal order."},
    "positions": {"type": "array", "items": _TEXT, "description": "Those cards' positions: P1 B1 P2 B2, then the"
                  " fifth and sixth cards out of the shoe."},
    "bets": {"type": "array", "items": _TEXT, "description": "The bets compared in each state, by id."},
    "edge": {**_EXACT, "description": "The edge per coup: the sum over the states of P(state) times the best EV in"
             " it (none below 0), exactly."},
    "states": {"type": "array", "items": {"type": "object", "properties": {
        "state": _TEXT, "probability": _EXACT, "bet": _nullable(_TEXT), "ev": _nullable(_EXACT)},
        "additionalProperties": False}, "description": "Each High/Low pattern of the known cards (H or L each, in"
        " deal order): its exact probability, the bet with the best EV in it and that EV, exactly (both null where"
        " no bet has a positive EV: no bet is made)."},
    "best_sort": {"type": "array", "items": {"type": "object", "properties": {"high": _TEXT, "edge": _EXACT}},
                  "description": "With best_sort: every split of the ten card values into High and Low (T, J, Q, K"
                  " together) with its exact edge per coup, the largest first."},
}, "required": ["shoe", "rules", "high", "cards", "positions", "bets", "edge", "states"], "additionalProperties": False}

# --- /design: ``design --format json`` (:mod:`exactodds.design.output`) -------------------------------------------
_PAY_TABLE = {"type": "object", "properties": {
    "pays": {"type": "object", "additionalProperties": _EXACT}, "house_edge": _EXACT,
    "house_edge_per_resolved_bet": _nullable(_EXACT), "hit_frequency": _EXACT, "sd_decimal": _DECIMAL,
    "vi95_decimal": _DECIMAL, "top_award_one_in": _TEXT, "countability": _nullable(_DECIMAL),
    "edge_by_decks": {"type": "object", "additionalProperties": _EXACT},
}, "additionalProperties": False}
_TABLE_WORDS = ("its pays, its exact house edge (per resolved bet too, for a bet that can push), hit frequency, SD and"
                " volatility index at 95%, top award as 1 in N, countability (null where it does not apply) and, with a"
                " range of decks, its exact edge at each")
_DESIGN = {"type": "object", "properties": {
    "bet": {**_TEXT, "description": "The bet designed, by id."},
    "target": {"oneOf": [{"type": "object", "properties": {"low": _EXACT, "high": _EXACT}}, _EXACT],
               "description": "The house edge wanted, exactly: the band (low, high), or with solve the one edge."},
    "free": {"type": "array", "items": _TEXT, "description": "A band's: the outcomes whose pays were searched."},
    "searched": {"type": "integer", "minimum": 0, "description": "A band's: how many pay tables of the grid lie in the"
                 " band, every one counted."},
    "tables": {"type": "array", "items": _PAY_TABLE, "description": "A band's: the best pay tables in it (at most"
               f" top), each with {_TABLE_WORDS}."},
    "outcome": {**_TEXT, "description": "With solve: the outcome whose pay is solved."},
    "pay": {**_EXACT, "description": "With solve: the outcome's exact pay for the edge, the others fixed."},
    "below": {**_nullable(_PAY_TABLE), "description": "With solve: the pay table at the grid's nearest pay below the"
              " exact one (null off the grid)."},
    "above": {**_nullable(_PAY_TABLE), "description": "With solve: the pay table at the grid's nearest pay above the"
              " exact one (null off the grid)."},
}, "required": ["bet", "target"], "additionalProperties": False}

# --- /fit-rtp and /peek: ``fit-rtp --format json`` (:mod:`exactodds.games.lit.inverse`), ``peek --format json``
# (:mod:`exactodds.puntobanco.peek`) --------------------------------------------------------------------------------
_PIECES = {"type": "array", "items": {"type": "object", "properties": {
    "low": {"type": "array", "items": _EXACT}, "high": {"type": "array", "items": _EXACT}, "low_decimal": _DECIMAL,
    "high_decimal": _DECIMAL}, "additionalProperties": False}}
_RANGES = {"type": "object", "additionalProperties": {"type": "array", "items": _EXACT}}
_FIT = {"type": "object", "properties": {
    "game": {**_TEXT, "description": "The lit-card game."},
    "lit_count": {**_TEXT, "description": "The lit count's law as given, p (and q) in it."},
    "multipliers": {**_TEXT, "description": "The multipliers' law as given, p (and q) in it."},
    "domain": {"type": "array", "items": _EXACT, "description": "The values of p for which every probability of the"
               " laws lies in [0, 1]."},
    "figures": {"type": "array", "items": _OBJECT, "description": "Each advertised RTP: its bet, the figure, the band"
                " of values that round to it, the RTP as a polynomial in p, and the pieces of p that give it."},
    "p": {**_PIECES, "description": "The pieces of p that give every advertised RTP at once: each end bracketed"
          " exactly (fractions) and as decimals rounded outward."},
    "consistent": {"type": "boolean", "description": "Whether some law of the family gives every advertised RTP (with"
                   " a grid: some q of the grid)."},
    "pinned": {**_RANGES, "description": "What those laws pin down: each figure's exact range."},
    "top_awards": {**_OBJECT, "description": "Each bet's top award per unit staked and the most its chance can be"
                   " under any law, with GLI-11's test."},
    "steps": {"type": "integer", "description": "With a second parameter q: the grid's steps (q = 0, 1/steps, … 1)."},
    "grid": {"type": "array", "items": _OBJECT, "description": "With q: each q of the grid (exact) with the fit at"
             " it, as the keys above."},
    "q": {**_nullable({"type": "array", "items": _EXACT}), "description": "With q: the least and greatest q of the"
          " grid with a law that gives every advertised RTP (null for none)."},
    "bounds": {**_RANGES, "description": "With q: the range of each figure over every law found on the grid."},
}, "required": ["game", "consistent"], "additionalProperties": False}
_PEEK_FIGURES = {"type": "object", "properties": {"return": _EXACT, "paid": _EXACT, "rtp": _EXACT, "raised": _EXACT},
                 "additionalProperties": False}
_PEEK = {"type": "object", "properties": {
    "fee": {**_EXACT, "description": "The Peek fee on the original stake."},
    "commission": {**_EXACT, "description": "The commission on a Banker win, from the rule set."},
    "patterns": {"type": "object", "additionalProperties": {"type": "object", "additionalProperties": _PEEK_FIGURES},
                 "description": "Each set of the first four cards shown (P1B1 …): per bet, the exact return and amount"
                 " paid per original unit with the best raise, the RTP and the share of coups raised."},
    "law": {"type": "object", "additionalProperties": _EXACT, "description": "With reveal: the law over the sets."},
    "player": {**_PEEK_FIGURES, "description": "With reveal: the Player bet under the law."},
    "banker": {**_PEEK_FIGURES, "description": "With reveal: the Banker bet under the law."},
    "family": {**_TEXT, "description": "With rtps: the family of reveal laws, p in it."},
    "domain": {"type": "array", "items": _EXACT, "description": "With rtps: the values of p the family allows."},
    "figures": {"type": "array", "items": _OBJECT, "description": "With rtps: each advertised RTP and the pieces of p"
                " that give it."},
    "p": {**_PIECES, "description": "With rtps: the pieces of p that give every advertised RTP at once."},
    "consistent": {"type": "boolean", "description": "With rtps: whether some law of the family gives every one."},
}, "additionalProperties": False}

# --- /review: ``review - --format json`` (:meth:`exactodds.review.verdict.Verdict.as_json`) -------------------------
_EXACT_AND_DECIMAL = {"type": "object", "properties": {"exact": _EXACT, "decimal": _DECIMAL},
                      "additionalProperties": False}
_REVIEW = {"type": "object", "properties": {
    "log": {"type": "object", "properties": {k: {"type": "integer"} for k in ("shoes", "coups", "wagers", "bad_lines")},
            "description": "What was read: the shoes, the coups, the wagers, and the bad lines skipped."},
    "findings": {"type": "array", "items": {"type": "object", "properties": {
        "kind": {"enum": ["dealing", "impossible", "mispaid", "bad-line"]}, "line": {"type": "integer"},
        "shoe": _TEXT, "coup": _nullable({"type": "integer"}), "reason": _TEXT}, "additionalProperties": False},
        "description": "Every finding, by line: a coup dealt against the tableau, a log impossible from a coup, a"
        " wager paid otherwise than its cards say, a bad line skipped."},
    "bettors": {"type": "array", "items": {"type": "object", "properties": {
        "who": _TEXT, "bet": _TEXT, "wagers": {"type": "integer"}, "stake": _EXACT, "net": _EXACT,
        "expected_net": _EXACT_AND_DECIMAL, "luck": _EXACT_AND_DECIMAL, "luck_sd": _DECIMAL,
        "z": _nullable(_TEXT), "edge": _EXACT_AND_DECIMAL, "stake_at_positive_ev": _EXACT_AND_DECIMAL,
        "slope": _nullable(_TEXT), "correlation": _nullable(_TEXT), "p_value": _nullable(_DECIMAL),
        "flagged": {"type": "boolean"}, "shoes": {"type": "integer"}, "coups": {"type": "integer"},
        "per_100_coups": _EXACT_AND_DECIMAL, "per_shoe": _EXACT_AND_DECIMAL,
        "ideal_per_100_coups": _EXACT_AND_DECIMAL,
        **{k: _EXACT_AND_DECIMAL for k in ("rebate_due", "expected_rebate", "expected_net_with_rebate",
                                            "edge_with_rebate")}}, "additionalProperties": False},
        "description": "Per bettor and bet: the exact sums, luck and its z, the edge, the share of stake at positive"
        " EV, the stake-EV statistics and the permutation test's p, the flag, the win rates and the ideal; with a"
        " rebate, the rebate due and expected, and the expected net and edge with it."},
    "tables": {"type": "array", "items": {"type": "object", "properties": {
        "table": _TEXT, "shoes": {"type": "integer"}, "wagers": {"type": "integer"}, "stake": _EXACT,
        "casino_net": _EXACT, "hold": _nullable(_EXACT_AND_DECIMAL),
        "theoretical_hold": _nullable(_EXACT_AND_DECIMAL), "rebate_due": _EXACT_AND_DECIMAL,
        "hold_with_rebate": _nullable(_EXACT_AND_DECIMAL),
        "theoretical_hold_with_rebate": _nullable(_EXACT_AND_DECIMAL)}, "additionalProperties": False},
        "description": "Per table: the casino's hold against the theoretical hold of the wagers made; with a rebate,"
        " the rebate due and both holds with it."},
    "shoes": {"type": "array", "items": {"type": "object", "properties": {
        "shoe": _TEXT, "table": _TEXT, "wagers": {"type": "integer"}, "stake": _EXACT, "casino_net": _EXACT,
        "hold": _EXACT_AND_DECIMAL, "theoretical_hold": _EXACT_AND_DECIMAL}, "additionalProperties": False},
        "description": "Per shoe with a wager, in the order the shoes closed: the casino's hold against the"
        " theoretical hold of the wagers made in it."},
    "rebate": {**_nullable({"type": "object", "properties": {"rate": _EXACT, "basis": _TEXT},
                            "additionalProperties": False}), "description": "The rebate, if the review was given one."},
    "test": {"type": "object", "description": "The permutation test: its statistic, shuffles, seed and the flag's"
             " thresholds."},
}, "required": ["log", "findings", "bettors", "tables", "shoes", "test"], "additionalProperties": False}

_CHANCE = {"type": "object", "properties": {"probability": _EXACT, "percent": _TEXT}, "additionalProperties": False}

# --- /tracks: a session, each step the line ``track --script -`` writes (:func:`exactodds.present.tracker.step_json`)
_STEP = {"type": "object", "required": ["command"], "properties": {
    "command": {**_TEXT, "description": f'The command as typed ("start" for the first step; a refused one cut to'
                f" {MAX_ECHO} characters)."},
    "error": {**_TEXT, "description": "Why the command was refused (then the answer is a 400 and the session is as it"
              " was): the words track writes."},
    "quit": {"const": True, "description": "The command ended the session (quit)."},
    "message": {**_TEXT, "description": "What the command says besides the figures (help's text)."},
    "left": {**_SHOE, "description": "The cards left: their number and their counts by rank."},
    "bets": {"type": "array", "items": {"type": "object", "properties": {
        "id": _TEXT, "ev": _EXACT, "ev_percent": _TEXT, "favourable": {"type": "boolean"}, "rebate": _REBATE},
        "additionalProperties": False}, "description": "Each bet followed, priced on a coup dealt from the cards left:"
        " its id, its exact EV, that EV in percent to precision places, whether it is favourable (with a rebate:"
        " its rebate object, the EV with the rebate deciding)."},
    "running": {"type": "object", "properties": {
        "coups": {"type": "integer"}, "wins": {"type": "object", "additionalProperties": {"type": "integer"}},
        "dealt": {"type": "integer"}, "burned": {"type": "integer"}, "left": {"type": "integer"},
        "in_progress": _TEXT}, "additionalProperties": False, "description": "The running figures: the coups dealt,"
        " the wins of each side (none where the game's coups are not followed), the cards dealt, burned and left,"
        " the cards of the coup in progress."},
    "header": {**_TEXT, "description": "Only in the first step: the rules-and-shoe line of the starting shoe."},
    "roads": {"type": "object", "properties": {
        "bead_plate": {"type": "array", "items": {"type": "array"}}, "big_road": {"type": "array", "items": {
            "type": "array"}}, **{name: {"type": "array", "items": {"type": "array"}} for name, _ in DERIVED},
        "markers": {"type": "array", "items": {"type": "array"}}}, "additionalProperties": False,
        "description": "A baccarat game's scoreboard (docs/tracker.md): each cell of the bead plate [col, row,"
        " B|P|T], the big road [col, row, B|P, ties], the big eye boy, small road and cockroach pig [col, row,"
        " red|blue], and each bead's markers [col, row, banker_pair|player_pair|natural]."},
    "ask": {"type": "object", "properties": {side: {"type": "object", "properties": {
        name: {"enum": ["red", "blue", None]} for name, _ in DERIVED}} for side, _ in SIDES},
        "description": "The ask road: what each derived road would show if the next coup were a Banker or a Player"
        " win (null where it would add no mark)."},
    "next": {"type": "object", "additionalProperties": _CHANCE, "description": "The exact probability of each"
             " winner of the next coup (banker, player, tie), and its percentage."},
    "ask_odds": {"type": "object", "additionalProperties": {"type": "object", "properties": {
        "red": _CHANCE, "blue": _CHANCE}}, "description": "The exact probability that each derived road shows red,"
        " and blue, after the next coup."},
}, "additionalProperties": False}
_ID = {**_TEXT, "description": "The session's id: the {id} of /tracks/{id}."}
_SESSION = {"type": "object", "properties": {
    "format": _TEXT, "version": {"type": "integer"}, "game": _TEXT, "rules": _TEXT, "start": _SHOE,
    "steps": {"type": "array", "items": _TEXT}, "left": _SHOE}}

#: The answer of each endpoint (``Endpoint.answer``) as a JSON schema.
ANSWERS: dict[str, dict[str, Any]] = {
    "health": {"type": "object", "properties": {
        "status": {"const": "ok", "description": "The server is up."},
        "version": {**_TEXT, "description": "The version of exactodds answering."}}, "required": ["status", "version"]},
    "odds": _ODDS,
    "batch": {"type": "object", "properties": {"results": {
        "type": "array", "items": {"oneOf": [_BAD_LINE, _CUT]},
        "description": "A line per shoe, in order: its analysis (cut to fields), or a bad shoe's index and error."}},
              "required": ["results"], "additionalProperties": False},
    "games": _listing("games", {"type": "object", "required": ["name", "settings", "capabilities"], "properties": {
        "name": _TEXT, "aliases": {"type": "array", "items": _TEXT}, "description": _TEXT,
        "decks": {"type": "integer"}, "settings": {"type": "array", "items": _OBJECT},
        "bets": {"type": "array", "items": _TEXT}, "capabilities": {"type": "array", "items": _TEXT}}},
        "Each game: its name, aliases, description, usual decks, settings, bets and capabilities."),
    "bets": _listing("bets", {"type": "object", "required": ["id", "description", "outcomes"], "properties": {
        "id": _TEXT, "description": _TEXT, "default": {"type": "boolean"}, "needs_suits": {"type": "boolean"},
        "outcomes": {"type": "array", "items": _OBJECT}}},
        "Each bet of the game under its settings: its id, description, whether a default and needs suits, its pays."),
    "facts": _listing("facts", {"type": "object", "required": ["name", "values", "meaning"]},
                      "Each fact a bet's conditions may read: its name, its values, what it means."),
    "rules": _listing("rule_sets", {"type": "object", "required": ["name", "description", "header"]},
                      "Each rule set: its name, aliases, description and header line."),
    "solve": _SOLVE,
    "edge-sort": _EDGE_SORT,
    "design": _DESIGN,
    "fit-rtp": _FIT,
    "peek": _PEEK,
    "review": _REVIEW,
    "track": {"type": "object", "properties": {
        "id": _ID, "step": {**_STEP, "description": "The first step: the starting shoe, each bet's EV and the header"
                                     " line, as the first line track --script - writes."}},
              "required": ["id", "step"], "additionalProperties": False},
    "step": _STEP,
    "session": {"type": "object", "properties": {
        "id": _ID, "session": {**_SESSION, "description": "The session as save writes it: the format and its version,"
                               " the game (unless punto banco), the rules, the starting shoe, the steps since the"
                               " start, the cards left."},
        "step": {**_STEP, "description": "Its last step (a refused command leaves it as it was)."},
        "coups": {"type": "array", "items": {"type": "object", "properties": {
            "coup": {"type": "integer"}, "text": _TEXT, "winner": _TEXT}, "additionalProperties": False},
            "description": "The coups finished since the start: each numbered, as typed whole, and who won it."}},
                "required": ["id", "session", "step", "coups"], "additionalProperties": False},
    "ended": {"type": "object", "properties": {
        "id": _ID, "deleted": {"const": True, "description": "The session is ended: its id answers 404 from now on."}},
              "required": ["id", "deleted"], "additionalProperties": False},
}
