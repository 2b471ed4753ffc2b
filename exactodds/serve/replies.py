"""What the server answers: a :class:`Reply` (status and JSON text), and each kind of refusal with its status.

Every refusal is one line of JSON, ``{"error": "..."}``, whatever refuses it: an endpoint (the
command line's words), the server's own bounds (a body too large or too slow, work too long or
too costly), or the HTTP layer below them (a malformed request).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..errors import ExactOddsError, first_line


@dataclass(frozen=True)
class Reply:
    """An answer: the HTTP status and the JSON text of the body."""

    status: int
    body: str


def json_reply(data: Any, status: int = 200) -> Reply:
    """``data`` as a JSON body on one line, as ``track --script -`` writes each step.

    >>> json_reply({"status": "ok"}).body
    '{"status": "ok"}\\n'
    """
    return Reply(status, json.dumps(data, ensure_ascii=False) + "\n")


class NotFound(ExactOddsError):
    """A tracking session that does not exist (or has expired): 404."""


class TooSlow(ExactOddsError):
    """A request whose body did not arrive within the time the server waits for it: 408."""


class TooLarge(ExactOddsError):
    """A body over the bound a request may send: 413."""


class Full(ExactOddsError):
    """Every place (for a session, or for work) is taken: 503."""


class TooLong(ExactOddsError):
    """Work past the time limit, stopped there: 503."""


#: The status of each kind of refusal (any other :class:`ExactOddsError` is 400: the request asks for something
#: wrong, or for more than the server does).
STATUS: dict[type[ExactOddsError], int] = {NotFound: 404, TooSlow: 408, TooLarge: 413, Full: 503, TooLong: 503}


def error_reply(err: ExactOddsError) -> Reply:
    """An error as its status and ``{"error": "one line"}``.

    >>> error_reply(TooLarge("too large")).status, error_reply(ExactOddsError("bad\\nmore")).body
    (413, '{"error": "bad"}\\n')
    """
    status = next((code for kind, code in STATUS.items() if isinstance(err, kind)), 400)
    return json_reply({"error": first_line(str(err))}, status)


def error_body(message: str) -> bytes:
    """The body of a refusal made below the application (the HTTP layer): ``{"error": "..."}`` as UTF-8 bytes.

    >>> error_body("no Host header")
    b'{"error": "no Host header"}\\n'
    """
    return json_reply({"error": first_line(message)}).body.encode()
