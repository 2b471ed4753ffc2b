"""The keys of every endpoint are what its handler applies, and what its command's options take: the default and
the bounds that ``/openapi.json`` (and so docs/api.md) shows for a key are those the answer obeys, and those of the
command line's option of the same name.

Nothing here names an endpoint: each is taken from :data:`~exactodds.serve.endpoints.ENDPOINTS`, its request from
its own example, its command from the name of its answer (``Endpoint.answer``, a command's name where the endpoint
answers a command's JSON)."""

from __future__ import annotations

import json
import re
from typing import Any

import click
import pytest

from exactodds.cli.registry import COMMANDS, cli
from exactodds.errors import ExactOddsError
from exactodds.inputs import FIELDS, PRECISION
from exactodds.request import settings_inputs
from exactodds.serve.endpoints import ENDPOINTS, Endpoint, answer
from exactodds.serve.openapi import openapi_schema
from exactodds.serve.tracks import Tracks

SCHEMA = openapi_schema()
#: Every endpoint whose request takes the decimal places.
PLACED = [e for e in ENDPOINTS if e.keys is not None and PRECISION.key in e.keys]


def _declared(endpoint: Endpoint, key: str) -> dict[str, Any]:
    """The schema ``/openapi.json`` gives for one key of an endpoint's request (its body's, or its query's)."""
    operation = SCHEMA["paths"][endpoint.path][endpoint.method.lower()]
    if "requestBody" in operation:
        return operation["requestBody"]["content"]["application/json"]["schema"]["properties"][key]
    return next(p["schema"] for p in operation["parameters"] if p["name"] == key)


def _ask(endpoint: Endpoint, data: dict[str, Any]) -> tuple[int, Any]:
    """The status and the answer (its JSON, without a session's id, new each time), or 400 and the error's words."""
    try:
        reply = answer(endpoint, data, {}, Tracks())
    except ExactOddsError as err:
        return 400, str(err)
    body = json.loads(reply.body)
    if isinstance(body, dict):
        body.pop("id", None)
    return reply.status, body


def test_some_endpoints_take_the_decimal_places():
    assert PLACED


@pytest.mark.parametrize("endpoint", PLACED, ids=[f"{e.method} {e.path}" for e in PLACED])
def test_the_precision_openapi_declares_is_the_one_the_endpoint_applies(endpoint):
    declared = _declared(endpoint, PRECISION.key)
    default, low, high = declared["default"], declared["minimum"], declared["maximum"]
    assert endpoint.example is not None
    plain = {k: v for k, v in endpoint.example.items() if k != FIELDS.key}  # (fields may cut the decimals away)
    status, without = _ask(endpoint, plain)
    assert status in (200, 201), without
    assert _ask(endpoint, {**plain, PRECISION.key: default}) == (status, without)
    other = default + 1 if default < high else default - 1
    if re.search(r"[0-9]\.[0-9]", json.dumps(without)):  # an answer with decimals shows its places
        assert _ask(endpoint, {**plain, PRECISION.key: other}) != (status, without)
    for bound in (low, high):
        assert _ask(endpoint, {**plain, PRECISION.key: bound})[0] == status, bound
    for outside in (low - 1, high + 1):
        assert _ask(endpoint, {**plain, PRECISION.key: outside}) == (
            400, f'"{PRECISION.key}" must be a whole number from {low} to {high}, not {outside}')


def _plain(param: click.Parameter) -> Any:
    """An option's default as an input's: none, an empty list and a flag's False are no default."""
    default = param.to_info_dict()["default"]
    return None if default is None or default is False or default in ((), []) else default  # 0 is a default


#: The endpoints that answer a command's JSON, with their command.
COMMANDED = [(e, e.answer) for e in ENDPOINTS if e.answer in COMMANDS and e.inputs is not None]


@pytest.mark.parametrize(("endpoint", "command"), COMMANDED, ids=[f"{e.method} {e.path}" for e, _ in COMMANDED])
def test_an_endpoint_s_keys_have_the_default_and_bounds_of_its_command_s_options(endpoint, command):
    options = {name: param for param in cli.get_command(click.Context(cli), command).params for name in param.opts}
    games = set(settings_inputs())  # (a setting's option defaults to the game's: its help says which)
    compared = 0
    for one in endpoint.inputs:
        param = options.get(one.option)
        if param is None or one in games:
            continue
        declared = _declared(endpoint, one.key)
        assert declared.get("default") == _plain(param), (one.option, declared, param.default)
        if declared.get("type") == "integer":
            bounds = (getattr(param.type, "low", None), getattr(param.type, "high", None))
            assert (declared.get("minimum"), declared.get("maximum")) == bounds, one.option
        compared += 1
    assert compared


def test_a_mistyped_key_is_told_the_closest():
    from test_every_game import _http

    status, body = _http("POST", "/odds", {"deck": 8})
    assert status == 400 and json.loads(body)["error"].startswith("unknown key 'deck': did you mean decks?")
    status, body = _http("POST", "/odds", {"zzz": 8})  # nothing close: the keys alone
    assert status == 400 and json.loads(body)["error"].startswith("unknown key 'zzz': the body of POST /odds may hold")
