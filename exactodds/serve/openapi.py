"""The API described: the OpenAPI schema (``GET /openapi.json``) and the ``/docs`` page, both made from
:data:`~.endpoints.ENDPOINTS` and the keys of :data:`~.inputs.KEYS` (or an endpoint's own).

The page is plain HTML written here, with no script and nothing fetched from elsewhere: the server
makes no outbound connection, and a browser that opens ``/docs`` loads nothing but that page
(an interactive UI such as Swagger's would load its scripts from a CDN). Any OpenAPI tool can
read ``/openapi.json`` for the interactive kind.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from ..version import __version__
from .endpoints import ENDPOINTS, Endpoint
from .schemas import ANSWERS

_ERROR = {
    "description": "Bad input, as one line: the words the command line prints.",
    "content": {"application/json": {"schema": {
        "type": "object", "properties": {"error": {"type": "string"}}, "required": ["error"],
    }}},
}

#: The refusals every endpoint may answer with.
REFUSALS = {
    "400": {**_ERROR, "description": "Bad input, as one line (the words the command line prints), a request whose"
            " estimated work could not end within the time limit, or one HTTP cannot read."},
    "404": {**_ERROR, "description": "No such endpoint, or no such tracking session."},
    "405": {**_ERROR, "description": "A method the path does not take (the Allow header lists those it takes)."},
    "408": {**_ERROR, "description": "The request's headers, or its body, did not arrive within the read timeout."},
    "413": {**_ERROR, "description": "A body over 1 MiB."},
    "503": {**_ERROR, "description": "Work stopped at the time limit, every tracking session taken, too many"
            " connections open, or the server stopping."},
}


def _operation(endpoint: Endpoint) -> dict[str, Any]:
    """The OpenAPI operation of one endpoint: its summary, its request object's keys, its replies."""
    operation: dict[str, Any] = {
        "summary": endpoint.summary,
        "operationId": f"{endpoint.method.lower()}{endpoint.path.replace('/', '_').replace('{id}', 'id')}",
        "responses": {
            "201" if endpoint.answer == "track" else "200": {
                "description": "The answer: the JSON the command prints.",
                "content": {"application/json": {"schema": ANSWERS[endpoint.answer]}},
            },
            **REFUSALS,
        },
    }
    parameters = []
    if "{id}" in endpoint.path:
        parameters.append({"name": "id", "in": "path", "required": True, "schema": {"type": "string"}})
    if endpoint.inputs is not None and endpoint.method == "GET":
        parameters += [{"name": one.key, "in": "query", "required": False, "description": one.help,
                        "schema": {k: v for k, v in one.schema().items() if k != "description"}}
                       for one in endpoint.inputs]
    elif endpoint.inputs is not None:
        properties = {one.key: one.schema() for one in endpoint.inputs}
        schema = {"type": "object", "properties": properties, "additionalProperties": False}
        operation["requestBody"] = {"required": True, "content": {"application/json": {
            "schema": schema, **({"example": endpoint.example} if endpoint.example is not None else {}),
        }}}
    if parameters:
        operation["parameters"] = parameters
    return operation


def openapi_schema() -> dict[str, Any]:
    """The OpenAPI 3.1 description of every endpoint.

    >>> sorted(openapi_schema()["paths"])[:3]
    ['/batch', '/bets', '/design']
    """
    paths: dict[str, dict[str, Any]] = {}
    for endpoint in ENDPOINTS:
        paths.setdefault(endpoint.path, {})[endpoint.method.lower()] = _operation(endpoint)
    return {
        "openapi": "3.1.0",
        "info": {"title": "exactodds", "version": __version__,
                 "description": "Exact baccarat odds over HTTP: each answer is the JSON the command prints."},
        "paths": paths,
    }


def docs_html() -> str:
    """The ``/docs`` page: every endpoint with its keys and an example, as plain HTML (no script, no CDN)."""
    parts = [
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>exactodds API</title>",
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}"
        "code,pre{background:#f4f4f4}td,th{text-align:left;padding:.2em .6em;vertical-align:top}</style></head>",
        f"<body><h1>exactodds {escape(__version__)}: the API</h1>",
        "<p>Each answer is the JSON the command prints; bad input is a 4xx with <code>{\"error\": \"…\"}</code>."
        " The machine-readable description: <a href=\"/openapi.json\">/openapi.json</a>.</p>",
    ]
    for endpoint in ENDPOINTS:
        title = f"{endpoint.method} {endpoint.path}"
        parts.append(f"<h2><code>{escape(title)}</code></h2><p>{escape(endpoint.summary)}</p>")
        if endpoint.inputs is not None:
            rows = "".join(f"<tr><td><code>{escape(one.key)}</code></td><td>{escape(one.help)}</td></tr>"
                           for one in endpoint.inputs)
            parts.append(f"<table><tr><th>key</th><th>meaning</th></tr>{rows}</table>")
        if endpoint.example is not None:
            parts.append(f"<pre>{escape(json.dumps(endpoint.example))}</pre>")
    parts.append("</body></html>")
    return "\n".join(parts)
