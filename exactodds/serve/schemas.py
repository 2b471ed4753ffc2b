"""The JSON schemas of the API's answers, for ``/openapi.json``: each endpoint's answer by the name its
:class:`~.endpoints.Endpoint` gives (``answer``).

The analysis of ``/odds`` (the ``odds --format json`` contract of docs/json.md) is made from the
keys of its one layout (:mod:`exactodds.present.odds_json`: the top level, each bet's keys, each
outcome's), so the schema cannot drift from the answers; ``/batch`` answers that object cut to
``fields`` (no key required), or a line's index and error. The tests validate real answers
against these schemas with a JSON Schema validator.

>>> sorted(ANSWERS["odds"]["properties"])[:4]
['bets', 'chart', 'counting', 'game']
"""

from __future__ import annotations

from typing import Any

from ..present.odds_json import BET_KEYS, OUTCOME_KEYS

_TEXT: dict[str, Any] = {"type": "string"}
#: An exact rational as text: ``n/d`` or an integer.
_EXACT: dict[str, Any] = {"type": "string", "pattern": "^-?[0-9]+(/[0-9]+)?$"}
_DECIMAL: dict[str, Any] = {"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$"}
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


_STEP = {"type": "object", "required": ["command"], "properties": {
    "command": _TEXT, "left": _SHOE, "error": _TEXT, "message": _TEXT,
    "bets": {"type": "array", "items": {"type": "object", "properties": {"id": _TEXT, "ev": _EXACT}}},
    "running": _OBJECT, "header": _TEXT,
}}

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
    "solve": {"type": "object", "required": ["game", "model", "value", "player", "banker"]},
    "edge-sort": {"type": "object", "required": ["shoe", "rules", "cards", "edge", "states"]},
    "design": {"type": "object", "required": ["bet", "target"]},
    "track": {"type": "object", "properties": {"id": _TEXT, "step": _STEP}, "required": ["id", "step"]},
    "step": _STEP,
    "session": {"type": "object", "properties": {"id": _TEXT, "session": _OBJECT, "step": _STEP},
                "required": ["id", "session", "step"]},
    "ended": {"type": "object", "properties": {"id": _TEXT, "deleted": {"type": "boolean"}},
              "required": ["id", "deleted"]},
}
