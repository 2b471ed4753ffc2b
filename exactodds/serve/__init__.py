"""``exactodds serve``: the answers of the commands over HTTP, as a JSON API (the ``serve`` extra).

- :mod:`.keys`: a request object read into a shoe, rules, bets and options, each key declared once;
- :mod:`.replies`: a reply, and each refusal with its status; :mod:`.costs`: a request's work estimated
  before it starts;
- :mod:`.tracks`: the tracking sessions, in memory, capped and expiring;
- :mod:`.endpoints`: every endpoint and the plain function that answers it (no web framework);
- :mod:`.openapi`: the OpenAPI schema and the ``/docs`` page, made from the endpoints;
- :mod:`.workers`: the worker processes that compute the answers, killed at the time limit;
- :mod:`.protocol`: the HTTP connections, with read timeouts, connection caps and JSON refusals;
- :mod:`.app`: the Starlette application and uvicorn (imported only by the ``serve`` command).
"""

from __future__ import annotations

import ipaddress

from ..errors import ExactOddsError


def listen_address(host: str) -> str:
    """The IP address to listen on, from ``--host``: an IPv4 or IPv6 address, or ``localhost`` (127.0.0.1).

    >>> listen_address("localhost"), listen_address("::1")
    ('127.0.0.1', '::1')
    """
    if host == "localhost":
        return "127.0.0.1"
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        shown = host if len(host) <= 40 else host[:40] + "…"
        raise ExactOddsError(f"--host {shown!r} is not an IP address: give one such as 127.0.0.1, ::1 or 0.0.0.0"
                             " (or localhost)") from None
