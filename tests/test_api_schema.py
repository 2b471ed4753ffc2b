"""The API's OpenAPI description holds its answers and requests: every endpoint's example request is valid against
its request schema, and its answer (and each game's ``/odds`` answer) against its response schema, checked by a JSON
Schema validator (the 2020-12 dialect of OpenAPI 3.1)."""

from __future__ import annotations

import copy
import json

import pytest

jsonschema = pytest.importorskip("jsonschema")

from exactodds.games import GAMES  # noqa: E402
from exactodds.serve.endpoints import ENDPOINTS, answer  # noqa: E402
from exactodds.serve.openapi import openapi_schema  # noqa: E402
from exactodds.serve.tracks import Tracks  # noqa: E402

SCHEMA = openapi_schema()


def _validator(schema: dict) -> jsonschema.protocols.Validator:
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _response_schema(endpoint) -> dict:
    responses = SCHEMA["paths"][endpoint.path][endpoint.method.lower()]["responses"]
    status = "201" if "201" in responses else "200"
    return responses[status]["content"]["application/json"]["schema"]


def _answer(endpoint, data, tracks, params=None):
    reply = answer(endpoint, data, params or {}, tracks)
    assert reply.status in (200, 201), reply.body
    return json.loads(reply.body)


def test_every_example_is_a_valid_request_and_its_answer_a_valid_response():
    tracks = Tracks()
    session = None
    for endpoint in ENDPOINTS:
        operation = SCHEMA["paths"][endpoint.path][endpoint.method.lower()]
        body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
        if endpoint.example is not None and "schema" in body:
            _validator(body["schema"]).validate(endpoint.example)
        params = {"id": session} if "{id}" in endpoint.path else {}
        if "{id}" in endpoint.path and session is None:
            continue
        data = endpoint.example if endpoint.inputs is not None else None
        got = _answer(endpoint, data, tracks, params)
        _validator(_response_schema(endpoint)).validate(got)
        if endpoint.path == "/tracks":
            session = got["id"]
    assert session is not None


@pytest.mark.parametrize("game", [g for g in GAMES if g.has("bets")], ids=lambda g: g.name)
def test_each_game_s_odds_answer_is_valid_and_a_broken_one_is_not(game):
    odds = next(e for e in ENDPOINTS if e.path == "/odds")
    got = _answer(odds, {"game": game.name}, Tracks())
    validator = _validator(_response_schema(odds))
    validator.validate(got)
    broken = copy.deepcopy(got)
    first = next(iter(broken["bets"].values()))
    first["outcomes"][0]["count"] = 1.5  # a count is a string of digits, never a float
    assert not validator.is_valid(broken)
    del broken["bets"]
    assert not validator.is_valid(broken)


def test_a_batch_answer_is_valid_with_its_bad_lines():
    batch = next(e for e in ENDPOINTS if e.path == "/batch")
    got = _answer(batch, {"shoes": [{"decks": 1}, {"decks": 0}], "fields": "ev,count"}, Tracks())
    _validator(_response_schema(batch)).validate(got)
    assert got["results"][1].keys() == {"index", "error"}
