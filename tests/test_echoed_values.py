"""An error shows a line's worth of the value it refuses, on every surface (issue 29).

Every parser that puts a user's value into its message cuts it (:func:`exactodds.errors.shown`),
so that a value of 200,000 characters gives one short line whose hint survives, never a copy of
the value. The command line's options are fuzzed in ``tests/test_hostile.py``; here every key of
every endpoint of the API is, on the request path the server runs (:func:`exactodds.serve.endpoints.answer`),
without a server: the endpoints and their keys are read from :data:`~exactodds.serve.endpoints.ENDPOINTS`,
so a new key is covered with no edit.
"""

from __future__ import annotations

import json

import pytest
from profiles import is_slow

from exactodds.batch import SHOE_KEYS
from exactodds.errors import MAX_MESSAGE, ExactOddsError, first_line, shown
from exactodds.files import shown_path
from exactodds.serve.endpoints import ENDPOINTS, Endpoint, answer
from exactodds.serve.tracks import Tracks

#: What no error may copy whole: a huge text, a huge number as a text and as JSON's integer (of as many digits as a
#: JSON reader takes), a lone surrogate.
HUGE = ("A" * 200_000, "9" * 100_000, int("9" * 4_000), "\ud800")
#: The longest first line an error may have.
LONGEST_LINE = 300

CASES = [(endpoint, key) for endpoint in ENDPOINTS if endpoint.keys for key in endpoint.keys]
NEW_SESSION = next(e for e in ENDPOINTS if e.method == "POST" and e.path == "/tracks")


def test_every_endpoint_with_keys_is_covered():
    assert {e.path for e, _ in CASES} == {e.path for e in ENDPOINTS if e.keys}
    assert len(CASES) >= 100


def _line(endpoint: Endpoint, data: dict, params: dict, tracks: Tracks) -> str:
    """The first line of the error a request gets: raised, or the 4xx reply of a tracking step."""
    try:
        reply = answer(endpoint, data, params, tracks)
    except ExactOddsError as err:
        return str(err).split("\n")[0]
    assert 400 <= reply.status < 500, (endpoint.path, reply.status, reply.body[:200])
    return json.loads(reply.body)["error"].split("\n")[0]


def _huge(endpoint: Endpoint, key: str) -> tuple:
    """The huge values sent to a key: every one under the slow profile; in the quick run two, the keys taking them
    in turn (so that each huge value still meets some sixty keys, and each key two of them)."""
    if is_slow():
        return HUGE
    turn = CASES.index((endpoint, key)) % len(HUGE)
    return (HUGE + HUGE)[turn : turn + 2]


@pytest.mark.parametrize(("endpoint", "key"), CASES, ids=[f"{e.method} {e.path} {k}" for e, k in CASES])
def test_a_huge_value_in_a_request_is_one_short_error(endpoint, key):
    tracks = Tracks()
    params = {}
    if "{id}" in endpoint.path:  # a session of its own to send the command to
        params = {"id": json.loads(answer(NEW_SESSION, {"decks": 1}, {}, tracks).body)["id"]}
    example = {k: v for k, v in (endpoint.example or {}).items() if not (key in SHOE_KEYS and k in SHOE_KEYS)}
    for value in _huge(endpoint, key):  # the example's other keys kept (but another of the shoe's, refused first)
        line = _line(endpoint, {**example, key: value}, params, tracks)
        assert len(line) < LONGEST_LINE, (endpoint.path, key, len(line), line[:LONGEST_LINE])
        assert "A" * 100 not in line and "9" * 100 not in line, (endpoint.path, key, line)


def test_shown_cuts_a_value_to_a_line_and_keeps_it_printable():
    assert shown("A" * 200_000) == "A" * 40 + "…"
    assert shown("short") == "short" and shown(7) == "7"
    assert shown(int("9" * 4_000)).startswith("a number of more than")  # str() of it would be slow, or refused
    assert shown("x\ud800").encode("utf-8") == "x\ufffd".encode()
    assert shown_path("/tmp/" + "A" * 200_000).endswith("…") and len(shown_path("/tmp/" + "A" * 200_000)) == 101


def test_the_line_an_error_is_shown_as_is_capped_whatever_made_it():
    """A safety net under the cut values: a message that copies a value whole still ends as a line of at most
    :data:`~exactodds.errors.MAX_MESSAGE` characters."""
    assert len(first_line("unknown thing " + "A" * 200_000 + ": use a known one")) == MAX_MESSAGE
    assert first_line("a short one\nand more") == "a short one"
