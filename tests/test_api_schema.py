"""The API's OpenAPI description holds its answers and requests: every endpoint's example request is valid against
its request schema, and its answer (and each game's ``/odds`` answer) against its response schema, checked by a JSON
Schema validator (the 2020-12 dialect of OpenAPI 3.1)."""

from __future__ import annotations

import copy
import json

import pytest
from profiles import sweep

jsonschema = pytest.importorskip("jsonschema")

from exactodds.games import DEFAULT, GAMES  # noqa: E402
from exactodds.serve.endpoints import ENDPOINTS, answer  # noqa: E402
from exactodds.serve.openapi import openapi_schema  # noqa: E402
from exactodds.serve.schemas import ANSWERS  # noqa: E402
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


@pytest.mark.parametrize("game", sweep([g for g in GAMES if g.has("bets")], 2), ids=lambda g: g.name)
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


def test_every_top_level_key_of_every_answer_is_described():
    for name, schema in ANSWERS.items():
        properties = schema.get("properties", {})
        assert properties, name  # (docs/api.md lists an answer's keys: an answer without them shows none)
        for key, value in properties.items():
            assert value.get("description", "").strip(), (name, key)
        assert set(schema.get("required", ())) <= set(properties), name


def _endpoint(method: str, path: str):
    return next(e for e in ENDPOINTS if e.method == method and e.path == path)


def _valid(endpoint, got) -> None:
    validator = _validator(_response_schema(endpoint))
    validator.validate(got)
    if ANSWERS[endpoint.answer].get("additionalProperties") is False:  # closed: a key it does not describe fails
        assert not validator.is_valid({**got, "undescribed": 1})


def test_answers_of_every_shape_are_valid():
    """Besides the examples: each optional part of an answer (a solve with a commission or an infinite shoe, a best
    sort, a design solved or over a range of decks)."""
    design = _endpoint("POST", "/design")
    bet = DEFAULT.bets(DEFAULT.settings_of({}))[design.example["bet"]]
    won = next(o.id for o in bet.outcomes if o.net > 0)
    asked = [
        ("/solve", {"model": "B2", "decks": 1, "commission": "5%"}),
        ("/solve", {"model": "A1"}),
        ("/edge-sort", {"decks": 1, "cards": 1, "best_sort": True}),
        ("/design", {**design.example, "decks": "1:2"}),
        ("/design", {"bet": bet.id, "edge": "7%", "solve": won, "min_pay": 1, "max_pay": 100}),
    ]
    for path, data in asked:
        endpoint = _endpoint("POST", path)
        _valid(endpoint, _answer(endpoint, data, Tracks()))


def test_every_step_of_a_tracking_session_is_valid():
    tracks = Tracks()
    new = _endpoint("POST", "/tracks")
    step, session, ended = (_endpoint(m, "/tracks/{id}") for m in ("POST", "GET", "DELETE"))
    for rebate in ({}, {"rebate": "1%"}):
        created = _answer(new, {**new.example, **rebate}, tracks)
        _valid(new, created)
        params = {"id": created["id"]}
        for command in ("7", "help"):
            _valid(step, _answer(step, {"command": command}, tracks, params))
        refused = answer(step, {"command": "no such command"}, params, tracks)
        assert refused.status == 400
        _valid(step, json.loads(refused.body))
        _valid(session, _answer(session, None, tracks, params))
        _valid(step, _answer(step, {"command": "quit"}, tracks, params))
    other = _answer(new, new.example, tracks)["id"]
    _valid(ended, _answer(ended, None, tracks, {"id": other}))
