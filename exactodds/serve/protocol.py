"""The HTTP connections, guarded: uvicorn's HTTP/1.1 protocol (httptools where it is installed, else h11) with time
limits on reading a request, a cap on the connections of each client and of the server, and every refusal below the
application as one line of JSON.

Without them a client holds the server with connections it never finishes: uvicorn times out
an idle connection between requests, but not one that sends half a request and waits (200 of
them stayed open past 70 s; 1,100 made every request, ``/health`` included, a 503). So:

- a request's line and headers must arrive within :data:`READ_SECONDS` of the connection (or of
  the end of the previous answer on it), its body within as many seconds of its headers:
  past that the answer is 408 and the connection is closed (the application answers 408 for a
  body it waits for; the protocol closes a connection whose body nobody reads);
- a client (an IP address) holds at most :data:`PER_CLIENT` connections, the server
  :data:`CONNECTIONS` (:class:`Guard`): a new connection past either bound closes the oldest one
  that only waits for its client (idle, or a request not finished), or else is refused (503); so
  a client that floods connections pushes out only its own, and a request at work is never
  dropped for another;
- a request the parser cannot read (a bad or repeated Content-Length, a NUL in a header, no Host,
  a request line and headers past :data:`MAX_HEAD` bytes) is 400 with ``{"error": …}``, as every
  other refusal, not uvicorn's text/plain.

The parser is httptools (llhttp, in C) when it is installed (the ``serve`` extra installs it): a
bare request took 0.68 ms with it against 0.86 ms with h11, in pure Python (docs/serve.md); h11
otherwise, or when :data:`HTTP_ENV` says ``h11``.
Both are held to the same rules here: httptools does not ask for a Host nor bound the headers'
size itself, so the protocol does.
"""

from __future__ import annotations

import asyncio
import os
from collections import OrderedDict
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..errors import ExactOddsError
from .replies import error_body

#: Seconds a client has to send a request's line and headers, and then as many for its body (``--read-timeout``).
READ_SECONDS = 15.0
#: Connections one client (an IP address: behind a reverse proxy, the proxy) may hold open at once.
PER_CLIENT = 256
#: Connections the server holds open at once.
CONNECTIONS = 1_000

#: The most bytes of a request line and headers (h11's own bound, which httptools lacks): past it, 400.
MAX_HEAD = 16 * 1024
#: The environment variable that picks the parser: ``h11``, ``httptools``, or unset (httptools where installed).
HTTP_ENV = "EXACTODDS_SERVE_HTTP"

#: The reason phrase of each status the protocol answers itself.
_REASONS = {400: "Bad Request", 408: "Request Timeout", 503: "Service Unavailable"}


def raw_refusal(status: int, message: str) -> bytes:
    """A whole HTTP/1.1 response refusing a request: ``{"error": message}``, and the connection closed.

    >>> raw_refusal(408, "too slow").splitlines()[0]
    b'HTTP/1.1 408 Request Timeout'
    """
    body = error_body(message)
    head = (f"HTTP/1.1 {status} {_REASONS[status]}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n")
    return head.encode() + body


class Guard:
    """The open connections of one server, oldest first, by client: who is admitted and who makes room.

    At its client's bound, a new connection closes that client's oldest connection that only waits for its client
    (idle, or a request not finished); at the server's bound, the oldest such connection of the client that holds
    the most. With none to close, the new connection is refused (503). So a client that opens connections and
    finishes none pushes out only its own, and a request at work is never dropped for another.
    """

    def __init__(self, per_client: int = PER_CLIENT, total: int = CONNECTIONS, read_seconds: float = READ_SECONDS
                 ) -> None:
        self.per_client, self.total, self.read_seconds = per_client, total, read_seconds
        self.open: OrderedDict[_Guarded, str] = OrderedDict()
        self.by_client: dict[str, int] = {}

    def has_room(self, client: str) -> bool:
        """Whether a new connection of ``client`` fits without closing another."""
        return self.by_client.get(client, 0) < self.per_client and len(self.open) < self.total

    def admit(self, connection: _Guarded, client: str) -> bool:
        """Whether ``connection`` from ``client`` may stay open (after closing another if need be)."""
        if self.by_client.get(client, 0) >= self.per_client and not self._make_room(client):
            return False
        if len(self.open) >= self.total and not self._make_room(max(self.by_client, key=self.by_client.__getitem__)):
            return False
        self.open[connection] = client
        self.by_client[client] = self.by_client.get(client, 0) + 1
        return True

    def _make_room(self, client: str) -> bool:
        """Close the oldest connection of ``client`` that only waits for it; whether there was one."""
        for other, whose in self.open.items():
            if whose == client and other.waiting():
                self.leave(other)
                other.close("the server needed this connection's place: it was waiting for its client")
                return True
        return False

    def leave(self, connection: _Guarded) -> None:
        """``connection`` is closed: its place is free."""
        client = self.open.pop(connection, None)
        if client is not None:
            self.by_client[client] -= 1
            if not self.by_client[client]:
                del self.by_client[client]


class _OneWrite:
    """A connection's transport that sends an answer's status line and headers with the first piece of its body,
    in one write (uvicorn writes them apart: two system calls, and two segments the client wakes up for).

    Headers written alone are held until the next write, or until the loop's next turn at the latest.
    """

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self.transport, self.loop = transport, loop
        self._held = b""

    def write(self, data: bytes) -> None:
        if not self._held and data.startswith(b"HTTP/1.1 ") and data.endswith(b"\r\n\r\n"):
            self._held = data
            self.loop.call_soon(self.flush)
            return
        if self._held:
            data, self._held = self._held + data, b""
        self.transport.write(data)

    def flush(self) -> None:
        """Send the headers held, if any."""
        if self._held:
            data, self._held = self._held, b""
            if not self.transport.is_closing():
                self.transport.write(data)

    def close(self) -> None:
        self.flush()
        self.transport.close()

    def is_closing(self) -> bool:
        return self.transport.is_closing()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


class _Guarded(asyncio.Protocol):
    """What both guarded protocols share (a mixin before uvicorn's protocol): admission by the :class:`Guard`, the
    read timers, and the JSON refusals. The protocol says where its request stands (:meth:`reading`)."""

    guard: Guard  # set on the class made for one server by :func:`protocol_for`
    # uvicorn's protocol's, named here for the type checker
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport
    flow: Any
    cycle: Any
    client: tuple[str, int] | None
    _timer: asyncio.TimerHandle | None = None

    def reading(self) -> str:
        """Where the request on the connection stands: ``head`` (none, or its line and headers not all in),
        ``body`` (its headers in, its body not) or ``in`` (the whole request in, its answer under way)."""
        raise NotImplementedError

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.transport = _OneWrite(self.transport, self.loop)  # type: ignore[assignment]
        client = self.client[0] if self.client else ""
        if self.guard.has_room(client):
            self._admit(client, 0)
        else:
            # Full: a connection must make room, one that only waits for its client. But a connection accepted a
            # moment ago may hold a whole request the loop has not read yet (a burst of connections is accepted
            # before their bytes are read), and would look idle: this one stops reading and is admitted after the
            # loop has read what the others sent (two turns of the loop), so that none is closed with its request
            # unread.
            # (asyncio's loop keeps the pause; uvloop, which reads the connection whatever it is told here, is never
            # used: app.py. This one's timer is set by what it holds when it is admitted all the same.)
            self.flow.pause_reading()
            self._admit(client, 2)

    def _admit(self, client: str, turns: int) -> None:
        """Admit this connection (closing another that only waits, if need be) in ``turns`` turns of the loop, or
        refuse it (503)."""
        if turns:
            self.loop.call_soon(self._admit, client, turns - 1)
            return
        if self.transport.is_closing():
            return
        if self.guard.admit(self, client):
            if self.reading() == "head":  # (not if the request is in already)
                self._arm(self.guard.read_seconds, "its request line and headers")
            self.flow.resume_reading()
        else:
            self.close(f"too many connections are open (at most {self.guard.per_client} from one address and"
                       f" {self.guard.total} in all), each at work: try again shortly", status=503)

    def data_received(self, data: bytes) -> None:
        before = self.reading()
        super().data_received(data)
        after = self.reading()
        if after == "body" and before != "body":
            # The application answers 408 when it waits for the body; this closes the connection a little later
            # when nothing reads it (an endpoint that takes no body, answered, and a client still sending one).
            self._arm(self.guard.read_seconds + 1, "its request body")
        elif after == "in":
            self._disarm()  # the request is in: its work is bounded by the time limit

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        if not self.transport.is_closing():
            self._arm(self.guard.read_seconds, "its next request's line and headers")

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.guard.leave(self)
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """A request the parser cannot read: 400 with one line of JSON (uvicorn's answer is text/plain)."""
        self.close("a malformed HTTP/1.1 request (a bad or repeated Content-Length, a bad header or a NUL in one, no"
                   " Host, headers too long, or a bad request line): see RFC 9112", status=400)

    def waiting(self) -> bool:
        """Whether the connection only waits for its client: no request in, or one whose body is still coming, and
        no answer under way."""
        return self.reading() != "in" and (
            self.cycle is None or self.cycle.response_complete or not self.cycle.response_started)

    def close(self, message: str, status: int = 408) -> None:
        """Refuse with ``status`` and ``message`` (when no answer has started on the connection) and close it."""
        self._disarm()
        if self.transport.is_closing():
            return
        if self.cycle is None or not self.cycle.response_started:
            self.transport.write(raw_refusal(status, message))
        if self.cycle is not None and not self.cycle.response_complete:
            # The application, if it waits for the body, hears that the client has gone, and writes nothing more.
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        self.transport.close()

    def _arm(self, seconds: float, what: str, status: int = 408) -> None:
        """Close the connection in ``seconds`` (answering ``status``) unless the timer is disarmed or rearmed first."""
        self._disarm()
        message = f"the client did not send {what} within {seconds:g} s"
        self._timer = self.loop.call_later(seconds, self.close, message, status)

    def _disarm(self) -> None:
        """Stop the timer, if one is running."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class GuardedProtocol(_Guarded, H11Protocol):
    """uvicorn's h11 protocol with the read limits, the connection caps and JSON refusals of this module."""

    def reading(self) -> str:
        state = self.conn.their_state
        return "head" if state is h11.IDLE else "body" if state is h11.SEND_BODY else "in"


class _NoHost(Exception):
    """An HTTP/1.1 request without a Host header (RFC 9112 3.2), which httptools lets through."""


def _httptools_protocol() -> type[_Guarded]:
    """:class:`GuardedProtocol`'s rules on uvicorn's httptools protocol (imported here: httptools may be missing)."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class GuardedHttpTools(_Guarded, HttpToolsProtocol):
        """uvicorn's httptools protocol with this module's rules, and two of h11's that llhttp does not keep: a Host
        header, and at most :data:`MAX_HEAD` bytes of request line and headers."""

        _state = "head"
        _head = 0  # the bytes received while the request line and headers were not all in
        _host = False

        def reading(self) -> str:
            return self._state

        def data_received(self, data: bytes) -> None:
            if self._state == "head":
                self._head += len(data)
            super().data_received(data)
            if self._state == "head" and self._head > MAX_HEAD and not self.transport.is_closing():
                self.send_400_response("headers too long")

        def on_message_begin(self) -> None:
            self._state, self._host = "head", False
            super().on_message_begin()

        def on_header(self, name: bytes, value: bytes) -> None:
            self._host = self._host or name.lower() == b"host"
            super().on_header(name, value)

        def on_headers_complete(self) -> None:
            if not self._host and self.parser.get_http_version() == "1.1":
                raise _NoHost  # the parser stops: its error is answered 400 (HttpToolsProtocol.data_received)
            self._state = "body"
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._state = "in"
            super().on_message_complete()

        def on_response_complete(self) -> None:
            if self._state == "in":
                self._state, self._head = "head", 0
            super().on_response_complete()

    return GuardedHttpTools


def parser() -> str:
    """The parser the server uses: :data:`HTTP_ENV`'s choice, else httptools where it is installed, else h11."""
    chosen = os.environ.get(HTTP_ENV, "")
    if chosen == "h11":
        return chosen
    try:
        import httptools  # noqa: F401
    except ImportError:
        if chosen == "httptools":
            raise ExactOddsError(f"{HTTP_ENV}=httptools, but httptools is not installed: pip install"
                                 " 'exactodds[serve]', or unset it to read requests with h11") from None
        return "h11"
    return "httptools"


def protocol_for(guard: Guard, http: str = "h11") -> type[_Guarded]:
    """The protocol class of one server, whose connections ``guard`` keeps, reading requests with ``http`` (h11 or
    httptools: :func:`parser`).

    >>> protocol_for(Guard()).guard.per_client == PER_CLIENT
    True
    """
    base = _httptools_protocol() if http == "httptools" else GuardedProtocol
    return type("ServerProtocol", (base,), {"guard": guard})
