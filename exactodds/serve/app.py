"""The HTTP server: the endpoints of :mod:`.endpoints` as a Starlette application, served by uvicorn.

Starlette and uvicorn (the ``serve`` extra) are imported by this module alone, which only
``exactodds serve`` loads. The rules it keeps:

- a body is read only up to :data:`MAX_BODY` bytes (a longer one is 413, refused from its
  ``Content-Length`` before a byte of it is read, or as soon as a streamed one passes the bound);
- bad input is a 4xx whose body is ``{"error": "one line"}``, the words the command line prints;
- the work of a request runs off the event loop, in a thread of its own, at most ``workers`` at a
  time, and is answered 503 when it takes longer than the time limit (its thread ends when the
  work does: Python cannot stop it, but it keeps its place among the ``workers``, so the load stays
  bounded); ``/health`` is answered on the loop, whatever runs;
- the threads are daemons: SIGTERM or Ctrl-C ends the server once the requests under way are
  answered (or after :data:`GRACE` seconds), without waiting for abandoned work.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
import threading
from collections.abc import Callable
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from ..batch import load_json
from ..errors import ExactOddsError, first_line
from .endpoints import ENDPOINTS, Endpoint, Reply, answer, json_reply
from .openapi import docs_html, openapi_schema
from .tracks import Full, NotFound, Tracks

#: The largest request body read, in bytes.
MAX_BODY = 1 << 20
#: Seconds the server waits for the requests under way when it is told to stop.
GRACE = 5


class TooLarge(ExactOddsError):
    """A body over :data:`MAX_BODY`: 413."""


class TooLong(ExactOddsError):
    """Work past the time limit: 503."""


#: The status of each kind of refusal (any other :class:`ExactOddsError` is 400).
STATUS = {NotFound: 404, TooLarge: 413, Full: 503, TooLong: 503}


class Jobs:
    """The work of the requests: each in a daemon thread, at most ``workers`` at once, answered within ``limit`` s.

    A request waits for a place, then for its work, both within the limit; a thread whose request gave up
    keeps its place until its work ends, so abandoned work never piles up beyond ``workers`` threads.
    """

    def __init__(self, workers: int, limit: float) -> None:
        self.workers, self.limit = workers, limit
        self._places: asyncio.Semaphore | None = None  # made on the server's loop

    async def run(self, work: Callable[[], Reply]) -> Reply:
        """``work()``'s reply, computed in a thread; :class:`TooLong` past the limit."""
        loop = asyncio.get_running_loop()
        if self._places is None:
            self._places = asyncio.Semaphore(self.workers)
        places = self._places
        try:
            async with asyncio.timeout(self.limit):
                await places.acquire()
                done: asyncio.Future[Reply] = loop.create_future()
                threading.Thread(target=self._work, args=(loop, work, done, places), daemon=True).start()
                return await asyncio.shield(done)
        except TimeoutError:
            message = (f"the request took longer than {self.limit:g} s, the most this server gives one: ask for less"
                       " (fewer decks, fewer bets), or start the server with a longer --time-limit")
            raise TooLong(message) from None

    @staticmethod
    def _work(loop: asyncio.AbstractEventLoop, work: Callable[[], Reply], done: asyncio.Future[Reply],
              places: asyncio.Semaphore) -> None:
        """Run ``work`` in this thread and hand its reply (or its exception) to the loop, which frees the place."""
        try:
            outcome: Any = work()
        except BaseException as err:  # noqa: BLE001 - handed to the request, which answers it
            outcome = err

        def finish() -> None:
            """On the loop: free the place, then answer the request unless it has given up."""
            places.release()
            if not done.done():
                (done.set_exception if isinstance(outcome, BaseException) else done.set_result)(outcome)

        try:
            loop.call_soon_threadsafe(finish)
        except RuntimeError:  # the loop has closed: the server stopped meanwhile
            pass


async def read_body(request: Request) -> bytes:
    """The request's body, refused (:class:`TooLarge`) past :data:`MAX_BODY` bytes without reading the rest."""
    length = request.headers.get("content-length", "")
    if length.isascii() and length.isdigit() and int(length) > MAX_BODY:
        raise _too_large()
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise _too_large()
        chunks.append(chunk)
    return b"".join(chunks)


def _too_large() -> TooLarge:
    """The refusal of a body past :data:`MAX_BODY`."""
    return TooLarge(f"the body is larger than {MAX_BODY:,} bytes, the most a request may send")


def _response(reply: Reply) -> Response:
    """A reply as Starlette's response: its JSON text as it is, with its status."""
    return Response(reply.body, status_code=reply.status, media_type="application/json")


def error_reply(err: ExactOddsError) -> Reply:
    """An error as its status and ``{"error": "one line"}``."""
    status = next((code for kind, code in STATUS.items() if isinstance(err, kind)), 400)
    return json_reply({"error": first_line(str(err))}, status)


def _route(endpoint: Endpoint, tracks: Tracks, jobs: Jobs) -> Callable[[Request], Any]:
    """The Starlette view of ``endpoint``: the body read and bounded, the work run by ``jobs``, errors as JSON."""

    async def view(request: Request) -> Response:
        params = dict(request.path_params)
        query = endpoint.method == "GET"
        try:
            body = await read_body(request) if endpoint.keys is not None and not query else b""

            def work() -> Reply:
                """The answer, from the body's JSON (read in the worker too: a large body takes a while), or the
                query's keys of a GET."""
                if endpoint.keys is None:
                    data: Any = None
                else:
                    data = dict(request.query_params) if query else load_json(body)
                return answer(endpoint, data, params, tracks)

            return _response(await jobs.run(work) if endpoint.work else work())
        except ExactOddsError as err:
            return _response(error_reply(err))

    return view


async def _http_error(request: Request, err: Exception) -> Response:
    """Starlette's own refusals (no such path, a method the path does not take) as JSON errors."""
    assert isinstance(err, HTTPException)
    if err.status_code == 404:
        message = f"no endpoint {request.url.path[:60]!r}: GET /docs lists them"
    elif err.status_code == 405:
        message = f"{request.method[:10]} is not taken by {request.url.path[:60]}: GET /docs lists the methods"
    else:
        message = first_line(str(err.detail))
    return _response(json_reply({"error": message}, err.status_code))


async def _internal_error(request: Request, err: Exception) -> Response:
    """A bug: one line to the client, never the trace (Starlette raises the error on, and uvicorn logs its trace)."""
    return _response(json_reply({"error": "internal error: the server could not answer (its log says why)"}, 500))


def make_app(time_limit: float = 30, workers: int = 4, tracks: Tracks | None = None) -> Starlette:
    """The application: every endpoint of :data:`~.endpoints.ENDPOINTS`, ``/openapi.json`` and ``/docs``."""
    sessions = tracks if tracks is not None else Tracks()
    jobs = Jobs(workers, time_limit)
    routes = [Route(e.path, _route(e, sessions, jobs), methods=[e.method]) for e in ENDPOINTS]
    schema = json_reply(openapi_schema()).body
    page = docs_html()

    async def openapi(request: Request) -> Response:
        """The OpenAPI schema, made once."""
        return Response(schema, media_type="application/json")

    async def docs(request: Request) -> Response:
        """The page of the API, made once."""
        return HTMLResponse(page)

    routes += [Route("/openapi.json", openapi, methods=["GET"]), Route("/docs", docs, methods=["GET"])]
    return Starlette(routes=routes, exception_handlers={HTTPException: _http_error, Exception: _internal_error})


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket listening on ``host``:``port`` (an IP address; port 0: a free one)."""
    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on a socket that says it is TCP, and without it each answer
    # (its headers, then its body) waits some 40 ms for the client's delayed acknowledgement (Nagle's algorithm).
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)  # before the line that says where: a client that reads it may connect at once
    return sock


def run(host: str, port: int, time_limit: float, *, workers: int = 4) -> None:
    """Serve on ``host``:``port`` until SIGTERM or Ctrl-C; a line on stderr says where (and warns off loopback)."""
    import ipaddress

    address = ipaddress.ip_address(host)
    sock = listening_socket(host, port)
    shown = f"[{host}]" if address.version == 6 else host
    if not address.is_loopback:
        print(f"Warning: listening on {host}, reachable from other machines: the server has no authentication and"
              " no TLS", file=sys.stderr)
    print(f"exactodds serve: listening on http://{shown}:{sock.getsockname()[1]} (API at /docs; SIGTERM or Ctrl-C"
          " stops it)", file=sys.stderr, flush=True)
    config = uvicorn.Config(make_app(time_limit, workers), log_level="warning", access_log=False, lifespan="off",
                            limit_concurrency=1000, timeout_graceful_shutdown=GRACE, server_header=False)
    server = uvicorn.Server(config)
    # uvicorn stops on SIGTERM and SIGINT, then sends the signal again to the handler it found: make that a
    # handler that does nothing, so the server ends as a command does, with a line and status 0.
    previous = {sig: signal.signal(sig, lambda *_: None) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        server.run(sockets=[sock])
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        sock.close()
    print("exactodds serve: stopped", file=sys.stderr)
