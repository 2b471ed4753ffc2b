"""The HTTP server: the endpoints of :mod:`.endpoints` as a Starlette application, served by uvicorn.

Starlette and uvicorn (the ``serve`` extra) are imported by this module and :mod:`.protocol`
alone, which only ``exactodds serve`` loads. The rules it keeps:

- a body is read only up to :data:`MAX_BODY` bytes (a longer one is 413, refused from its
  ``Content-Length`` before a byte of it is read, or as soon as a streamed one passes the bound),
  and within the read timeout (else 408); a body must be UTF-8 JSON, every string
  in it text (no lone surrogate);
- a request's work is estimated before it starts (:mod:`.costs`) and refused at once when it
  could not end within the time limit; the rest runs in a worker process (:mod:`.workers`),
  killed at the limit (503), so that the server's capacity comes back then; the tracking
  sessions, which live in the server's memory, are stepped in its threads; a request of a kind
  that proved quick (:class:`.costs.Quick`: a few milliseconds, far below any time limit) is
  answered on the event loop itself, without the hand-off to a worker;
- bad input is a 4xx whose body is ``{"error": "one line"}``, the words the command line prints;
  so are a path that is not an endpoint (404, never a redirect) and a method it does not take
  (405, with ``Allow``); ``/health`` is answered on the event loop, whatever runs;
- ``GET /`` is the scoreboard page (docs/page.md), its files (:data:`PAGE_FILES`) shipped in the package and read
  once: each answer carries ``Cache-Control: no-cache`` and a policy (:data:`PAGE_POLICY`) that lets the page load
  and ask nothing but this server, and run no inline script;
- each request is one line of the log: client, method, path (cut to a line's worth), status and
  milliseconds; a client that leaves before its body is read is one line too;
- SIGTERM or Ctrl-C ends the server once the requests under way are answered (or after
  :data:`GRACE` seconds), its workers killed.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from ..batch import load_json
from ..errors import ExactOddsError, first_line
from .costs import Quick, check_cost
from .endpoints import ENDPOINTS, Endpoint, answer
from .openapi import docs_html, openapi_schema
from .protocol import READ_SECONDS, Guard, parser, protocol_for
from .replies import Full, Reply, TooLarge, TooSlow, error_reply, json_reply
from .tracks import Tracks
from .workers import Job, Workers, answer_here, default_workers, too_long

#: The largest request body read, in bytes.
MAX_BODY = 1 << 20
#: Seconds the server waits for the requests under way when it is told to stop.
GRACE = 5
#: The scoreboard page and its files, by path: the file in ``exactodds/serve/page/`` and its content type.
PAGE_FILES = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/page.js": ("page.js", "text/javascript; charset=utf-8"),
    "/panels.js": ("panels.js", "text/javascript; charset=utf-8"),
    "/roads.js": ("roads.js", "text/javascript; charset=utf-8"),
    "/api.js": ("api.js", "text/javascript; charset=utf-8"),
    "/page.css": ("page.css", "text/css; charset=utf-8"),
    "/icon.svg": ("icon.svg", "image/svg+xml"),
}
#: The page's Content-Security-Policy: its scripts, styles and icon from this server only (no inline script or style,
#: no other host), requests to this server only, no form sent anywhere, not framed by another site.
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self';"
               " base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
#: Requests that may wait for a worker at once (each waits in a thread; the rest wait for a thread, their time
#: limit running).
WAITING = 64


class Jobs:
    """Blocking work run off the event loop, at most ``places`` at once, answered within ``limit`` s.

    The work is handed its deadline (``time.monotonic()``). A request waits for a place, then for its work, both
    within the limit; a thread whose request gave up keeps its place until its work ends (work in a worker process
    ends at the deadline: :meth:`.Workers.call` kills it there), so abandoned work never piles up beyond ``places``.
    """

    def __init__(self, places: int, limit: float) -> None:
        self.places, self.limit = places, limit
        self._places: asyncio.Semaphore | None = None  # made on the server's loop
        self._threads = ThreadPoolExecutor(places, thread_name_prefix="exactodds-request")

    async def run(self, work: Callable[[float], Reply]) -> Reply:
        """``work(deadline)``'s reply, computed in a thread; :class:`TooLong` past the limit."""
        loop = asyncio.get_running_loop()
        deadline = time.monotonic() + self.limit
        if self._places is None:
            self._places = asyncio.Semaphore(self.places)
        places = self._places
        try:
            async with asyncio.timeout(self.limit):
                await places.acquire()
                done = loop.run_in_executor(self._threads, work, deadline)
                done.add_done_callback(lambda _: places.release())
                done.add_done_callback(_observed)
                return await asyncio.shield(done)
        except TimeoutError:
            raise too_long(self.limit) from None

    def close(self) -> None:
        """Let the threads end with their work, without waiting for them."""
        self._threads.shutdown(wait=False, cancel_futures=True)


def _observed(done: asyncio.Future[Reply]) -> None:
    """Take the outcome of work whose request may have given up (its refusal already sent), so that asyncio does
    not log it as never retrieved."""
    if not done.cancelled():
        done.exception()


async def read_body(request: Request, seconds: float = READ_SECONDS) -> bytes:
    """The request's body, refused past :data:`MAX_BODY` bytes (:class:`TooLarge`, without reading the rest) or
    when it does not arrive within ``seconds`` (:class:`TooSlow`)."""
    length = request.headers.get("content-length", "")
    if length.isascii() and length.isdigit() and int(length) > MAX_BODY:
        raise _too_large()
    chunks, size = [], 0
    try:
        async with asyncio.timeout(seconds):
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_BODY:
                    raise _too_large()
                chunks.append(chunk)
    except TimeoutError:
        expected = f"{int(length):,}" if length.isascii() and length.isdigit() else "its"
        raise TooSlow(f"the body did not arrive within {seconds:g} s ({size:,} of {expected} bytes came): send it"
                      " whole, at once") from None
    return b"".join(chunks)


def _too_large() -> TooLarge:
    """The refusal of a body past :data:`MAX_BODY`."""
    return TooLarge(f"the body is larger than {MAX_BODY:,} bytes, the most a request may send")


def _response(reply: Reply, headers: dict[str, str] | None = None) -> Response:
    """A reply as Starlette's response: its JSON text as it is, with its status."""
    return Response(reply.body, status_code=reply.status, media_type="application/json", headers=headers)


class Server:
    """What the views of one server share: its sessions, its workers and threads, and its time limit."""

    def __init__(self, time_limit: float, workers: int, tracks: Tracks | None = None,
                 read_seconds: float = READ_SECONDS) -> None:
        self.limit, self.read_seconds = time_limit, read_seconds
        self.tracks = tracks if tracks is not None else Tracks()
        self.workers = Workers(workers, time_limit)
        self.waiting = Jobs(WAITING, time_limit)  # the requests waiting for (or at) a worker
        self.threads = Jobs(workers, time_limit)  # the tracking sessions' steps
        self.quick = Quick(time_limit)

    async def reply(self, endpoint: Endpoint, request: Request) -> Reply:
        """The reply of ``endpoint`` to ``request``: its body read, its work run where the endpoint says."""
        params, size = dict(request.path_params), 0
        if endpoint.keys is None:
            data: Any = None
        elif endpoint.method == "GET":
            data = dict(request.query_params)
        else:
            body = await read_body(request, self.read_seconds)
            size = len(body)
            data = await asyncio.to_thread(load_json, body) if len(body) > 1 << 16 else load_json(body)
        if endpoint.runs == "loop":
            return answer(endpoint, data, params, self.tracks)
        if endpoint.runs == "thread":
            return await self.threads.run(lambda deadline: answer(endpoint, data, params, self.tracks))
        cost = check_cost(endpoint.cost, data, self.limit)
        job = Job(ENDPOINTS.index(endpoint), data, params, cost)
        kind = self.quick.kind(job.endpoint, data, cost, size) if size else None
        if self.quick.proven(kind):
            # Answered here: handing it to a worker would cost more CPU than its work (a thread, a pipe both ways,
            # two processes woken), and more time than a turn of the loop it takes.
            reply, seconds = answer_here(job)
            self.quick.ran(kind, seconds, here=True)
            return reply
        return await self.waiting.run(lambda deadline: self.workers.call(
            job, deadline, lambda seconds: self.quick.ran(kind, seconds, here=False)))

    def close(self) -> None:
        """Stop the workers and let the threads go."""
        self.workers.close()
        self.waiting.close()
        self.threads.close()


def _log(request: Request, status: int, started: float) -> None:
    """One line of the log for a request: client, method, path (a line's worth), status and milliseconds."""
    client = request.scope.get("client")
    path = request.scope["path"]  # as the client sent it, unquoted (not rebuilt as a URL: a tenth of a millisecond)
    shown = path if len(path) <= 80 else path[:80] + "…"
    sys.stderr.write(f"{client[0] if client else '-'} {request.method[:10]} {shown!r} {status}"
                     f" {1000 * (time.monotonic() - started):.1f} ms\n")
    sys.stderr.flush()


def _view(path: str, endpoints: dict[str, Endpoint], server: Server) -> Callable[[Request], Any]:
    """The Starlette view of one path: the endpoint of the request's method, its reply or its refusal as JSON."""

    async def view(request: Request) -> Response:
        started = time.monotonic()
        endpoint = endpoints[request.method if request.method != "HEAD" else "GET"]
        try:
            reply = await server.reply(endpoint, request)
        except ClientDisconnect:
            client = request.client.host if request.client else "-"
            print(f"{client} {request.method} {path}: the client left before its request's body came",
                  file=sys.stderr, flush=True)
            return Response(status_code=400)  # written to nobody
        except ExactOddsError as err:
            reply = error_reply(err)
        except asyncio.CancelledError:  # the server is stopping at once (a second Ctrl-C, or its grace is over)
            reply = error_reply(Full("the server stopped before the request was answered: ask again when it is up"))
        headers = {"connection": "close"} if reply.status == 408 else None
        _log(request, reply.status, started)
        return _response(reply, headers)

    return view


def _page_routes() -> list[Route]:
    """``GET /`` and the page's files (:data:`PAGE_FILES`), each read from the package once; answered on the event
    loop, each with its type, ``no-cache`` (a new version of the page is taken at once) and :data:`PAGE_POLICY`."""
    from importlib.resources import files

    folder = files(__package__ or "exactodds.serve").joinpath("page")  # package data (pyproject), not a module
    headers = {"Cache-Control": "no-cache", "Content-Security-Policy": PAGE_POLICY,
               "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}

    def view(body: bytes, media: str) -> Callable[[Request], Any]:
        async def page(request: Request) -> Response:
            started = time.monotonic()
            response = Response(body, media_type=media, headers=headers)
            _log(request, 200, started)
            return response

        return page

    return [Route(path, view(folder.joinpath(name).read_bytes(), media), methods=["GET"])
            for path, (name, media) in PAGE_FILES.items()]


async def _http_error(request: Request, err: Exception) -> Response:
    """Starlette's own refusals (no such path, a method the path does not take) as JSON errors."""
    assert isinstance(err, HTTPException)
    path = request.url.path if len(request.url.path) <= 60 else request.url.path[:60] + "…"
    if err.status_code == 404:
        message = f"no endpoint {path!r}: GET /docs lists them"
    elif err.status_code == 405:
        allowed = (err.headers or {}).get("Allow", "")
        message = f"{request.method[:10]} is not taken by {path}: it takes {allowed} (GET /docs lists the methods)"
    else:
        message = str(err.detail)
    _log(request, err.status_code, time.monotonic())
    return _response(json_reply({"error": first_line(message)}, err.status_code), dict(err.headers or {}))


async def _internal_error(request: Request, err: Exception) -> Response:
    """A bug: one line to the client, never the trace (Starlette raises the error on, and uvicorn logs its trace)."""
    return _response(json_reply({"error": "internal error: the server could not answer (its log says why)"}, 500))


def make_app(time_limit: float = 30, workers: int = 2, tracks: Tracks | None = None,
             read_seconds: float = READ_SECONDS) -> tuple[Starlette, Server]:
    """The application (every endpoint of :data:`~.endpoints.ENDPOINTS`, ``/openapi.json``, ``/docs`` and the page at
    ``/``) and what its views share."""
    server = Server(time_limit, workers, tracks, read_seconds)
    by_path: dict[str, dict[str, Endpoint]] = {}
    for endpoint in ENDPOINTS:
        by_path.setdefault(endpoint.path, {})[endpoint.method] = endpoint
    routes = [Route(path, _view(path, endpoints, server), methods=list(endpoints))
              for path, endpoints in by_path.items()]
    schema = json_reply(openapi_schema()).body
    page = docs_html()

    async def openapi(request: Request) -> Response:
        """The OpenAPI schema, made once."""
        return Response(schema, media_type="application/json")

    async def docs(request: Request) -> Response:
        """The page of the API, made once."""
        return HTMLResponse(page)

    routes += [Route("/openapi.json", openapi, methods=["GET"]), Route("/docs", docs, methods=["GET"]),
               *_page_routes()]
    app = Starlette(routes=routes, exception_handlers={HTTPException: _http_error, Exception: _internal_error})
    app.router.redirect_slashes = False  # a redirect would name the host the client sent: 404 instead
    return app, server


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket listening on ``host``:``port`` (an IP address; port 0: a free one); one error line if it cannot."""
    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on a socket that says it is TCP, and without it each answer
    # (its headers, then its body) waits some 40 ms for the client's delayed acknowledgement (Nagle's algorithm).
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)  # before the line that says where: a client that reads it may connect at once
    except OSError as err:
        sock.close()
        hint = (": a link-local address needs the name of an interface of this machine after %, such as fe80::1%eth0"
                if "%" in host or host.lower().startswith("fe80") else "")
        raise ExactOddsError(f"cannot listen on {host} port {port}: {err.strerror or err}{hint}") from None
    return sock


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an IP address) is this machine only: 127.0.0.0/8, ::1, or 127.x written as IPv6.

    >>> is_loopback("::ffff:127.0.0.1"), is_loopback("0.0.0.0"), is_loopback("fe80::1%eth0")
    (True, False, False)
    """
    import ipaddress

    address = ipaddress.ip_address(host)
    mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
    return address.is_loopback or (mapped is not None and mapped.is_loopback)


class _Server(uvicorn.Server):
    """uvicorn's server, which says where it listens once it takes signals (a client that reads the line may stop it
    at once)."""

    def __init__(self, config: uvicorn.Config, where: str) -> None:
        super().__init__(config)
        self.where = where

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        print(f"exactodds serve: listening on {self.where} (API at /docs; SIGTERM or Ctrl-C stops it)",
              file=sys.stderr, flush=True)


def run(host: str, port: int, time_limit: float, *, workers: int | None = None, read_seconds: float = READ_SECONDS
        ) -> None:
    """Serve on ``host``:``port`` until SIGTERM or Ctrl-C; a line on stderr says where (and warns off loopback)."""
    http = parser()  # a parser asked for and missing is refused before anything starts
    sock = listening_socket(host, port)
    shown = f"[{host}]" if ":" in host else host
    if not is_loopback(host):
        print(f"Warning: listening on {host}, reachable from other machines: the server has no authentication and"
              " no TLS (put it behind a reverse proxy: see the docs' deployment page)", file=sys.stderr)
    app, state = make_app(time_limit, workers or default_workers(), read_seconds=read_seconds)
    protocol = protocol_for(Guard(read_seconds=read_seconds), http)
    # asyncio's loop, even where uvloop is installed: uvloop reads a new connection that the server has paused until
    # it has room (protocol.py), so that a client past its cap would have its request read and its work started.
    config = uvicorn.Config(app, loop="asyncio", log_level="warning", access_log=False, lifespan="off", http=protocol,
                            limit_concurrency=None, timeout_graceful_shutdown=GRACE, server_header=False)
    server = _Server(config, f"http://{shown}:{sock.getsockname()[1]}")
    # uvicorn stops on SIGTERM and SIGINT (a second one: at once), then sends the signal again to the handler it
    # found: make that a handler that does nothing, and keep it till the process ends, so that the server ends as a
    # command does, with a line and status 0, however many signals come while it stops.
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: None)
    try:
        server.run(sockets=[sock])
    finally:
        state.close()
        sock.close()
        print("exactodds serve: stopped", file=sys.stderr, flush=True)
