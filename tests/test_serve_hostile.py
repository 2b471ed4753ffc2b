"""``exactodds serve`` against a hostile client: bounded work, read timeouts, connection caps, and every answer JSON.

Each test starts the real server in a subprocess and talks to it with the standard library's
HTTP client, or with raw sockets where a client must misbehave (half a request, a bad header).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from profiles import slow, sweep

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from test_serve import ROOT, Server, start, stop  # noqa: E402

from exactodds.serve.endpoints import ENDPOINTS  # noqa: E402
from exactodds.serve.protocol import HTTP_ENV  # noqa: E402


def _parsers() -> list[str]:
    """The HTTP parsers the server may read requests with: h11 always, httptools where it is installed (the default
    then)."""
    try:
        import httptools  # noqa: F401
    except ImportError:
        return ["h11"]
    return ["httptools", "h11"]


@pytest.fixture(scope="module", params=sweep(_parsers()))  # h11, the fallback: the slow profile
def quick(request: pytest.FixtureRequest) -> Iterator[Server]:
    """A server with a short read timeout (1 s) and two workers, reading requests with each parser in turn (every
    test of the protocol's rules runs on both)."""
    running = start("--time-limit", "60", "--read-timeout", "1", "--workers", "2",
                    env={HTTP_ENV: request.param})
    yield running
    assert stop(running) == 0
    assert "Traceback" not in "".join(running.log), "".join(running.log)


def raw(port: int, data: bytes, *, wait: float = 10, close: bool = False) -> bytes:
    """Send ``data`` on a raw connection and read until the server closes it (or ``wait`` seconds pass)."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(data)
        if close:
            return b""
        chunks = []
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        except TimeoutError:
            pass
        return b"".join(chunks)


def split(response: bytes) -> tuple[int, dict[str, str], bytes]:
    """A raw HTTP response: its status, its headers (lower-case names) and its body."""
    head, _, body = response.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict((k.lower(), v.strip()) for k, _, v in (line.partition(":") for line in lines[1:]))
    return int(lines[0].split()[1]), headers, body


def error_of(body: bytes) -> str:
    """The one error line of a JSON refusal."""
    message = json.loads(body)["error"]
    assert isinstance(message, str) and message and "\n" not in message and len(message) < 400, message
    return message


# --- 1. the time limit bounds the work, not only the answer ------------------------------------------------------


def _children_cpu(pid: int) -> float:
    """The CPU seconds used so far by the processes ``pid`` started (its workers among them) that are alive now."""
    total = 0.0
    for child in _descendants(pid):
        try:
            fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the workers' CPU time from /proc")
def test_work_past_the_limit_is_stopped_there_and_the_capacity_comes_back() -> None:
    """Four batches that would run some 3 s each on a 2 s limit: each 503 at the limit, the workers killed (no CPU
    burnt after it), a cheap request answered at once after; a batch that could never fit is refused at once."""
    server = start("--time-limit", "2", "--workers", "2")
    try:
        heavy = {"shoes": [{"decks": 8, "remove": str(i % 10 or "A")} for i in range(2_000)], "bets": ["all"]}
        answers: list[tuple[int, bytes]] = []
        askers = [threading.Thread(target=lambda: answers.append(server.post("/batch", heavy))) for _ in range(4)]
        for one in askers:
            one.start()
        for one in askers:
            one.join(timeout=60)
        assert [status for status, _ in answers] == [503] * 4, answers
        assert all(error_of(body).startswith("the request took longer than 2 s") for _, body in answers)
        status, body = server.post("/odds", {"decks": 1, "bets": ["tie"]})
        assert status == 200 and b'"tie"' in body
        time.sleep(0.5)  # the new workers have started
        used = _children_cpu(server.process.pid)
        time.sleep(1.0)
        assert _children_cpu(server.process.pid) - used < 0.3  # nothing left running after its answer
        too_much = {"shoes": [{"decks": 8}] * 10_000, "bets": ["all"]}
        began = time.monotonic()
        status, body = server.post("/batch", too_much)
        assert status == 400 and time.monotonic() - began < 1.5
        assert error_of(body).startswith("the request asks for about 860,000 bets priced on a shoe")
    finally:
        assert stop(server) == 0
    assert "Traceback" not in "".join(server.log), "".join(server.log)


# --- 2. half-open connections time out, and a client's connections are capped ------------------------------------


def test_half_open_connections_are_timed_out_and_cannot_starve_health(quick: Server) -> None:
    """300 connections that send their headers (Content-Length: 100) and stop, past the 256 one address may hold:
    /health is still answered at once, and each of them gets 408 once its read timeout passes (or is closed to make
    room for a newer one); a body shorter than its length is 408 too."""
    head = b"POST /odds HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    stalled = []
    for _ in range(300):
        sock = socket.create_connection(("127.0.0.1", quick.port), timeout=30)
        sock.sendall(head)
        stalled.append(sock)
    try:
        for _ in range(3):
            assert quick.call("GET", "/health", timeout=10)[0] == 200
        first = b""
        while chunk := stalled[-1].recv(65536):  # the newest: the oldest made room for the newer ones
            first += chunk
        status, headers, body = split(first)
        assert status == 408 and headers["content-type"] == "application/json"
        assert "did not arrive within 1 s" in error_of(body)
    finally:
        for sock in stalled:
            sock.close()
    status, _, body = split(raw(quick.port, head + b'{"decks": 1}'))
    assert status == 408 and "12 of 100 bytes came" in error_of(body)


def test_a_request_whose_headers_never_end_is_408(quick: Server) -> None:
    status, headers, body = split(raw(quick.port, b"GET /health HTTP/1.1\r\nHost: x\r\n"))
    assert status == 408 and headers["connection"] == "close"
    assert "did not send its request line and headers within 1 s" in error_of(body)


def test_a_burst_of_real_requests_from_one_client_waits_its_turn(quick: Server) -> None:
    """300 requests at once from one address (past the 256 connections it may hold): every one answered 200."""
    results: list[int] = []
    askers = [threading.Thread(target=lambda: results.append(quick.call("GET", "/health")[0])) for _ in range(300)]
    for one in askers:
        one.start()
    for one in askers:
        one.join(timeout=60)
    assert results == [200] * 300


# --- 3, 9. a body is UTF-8 text: no lone surrogate, no UTF-16 or UTF-32 -----------------------------------------


def test_a_lone_surrogate_is_400_and_leaves_the_session_as_it_was(quick: Server) -> None:
    status, body = quick.post("/tracks", {"decks": 1})
    key = json.loads(body)["id"]
    status, body = quick.call("POST", f"/tracks/{key}", b'{"command": "#\\ud800"}')
    assert status == 400 and "lone surrogate" in error_of(body)
    assert quick.call("GET", f"/tracks/{key}")[0] == 200
    assert quick.post(f"/tracks/{key}", {"command": "7"})[0] == 200


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32", "utf-32-be"])
def test_a_body_in_another_encoding_than_utf_8_is_400(quick: Server, encoding: str) -> None:
    status, body = quick.call("POST", "/odds", '{"decks": 1, "bets": ["tie"]}'.encode(encoding))
    assert status == 400 and error_of(body).startswith("not valid JSON (")  # UTF-16 LE or UTF-32 BE without a BOM
    # reads as UTF-8 with NULs between the characters: refused as not JSON


# --- 6. a client that leaves mid-body is one line of the log --------------------------------------------------


def test_a_client_that_leaves_mid_body_is_one_line_of_the_log(quick: Server) -> None:
    before = len(quick.log)
    raw(quick.port, b"POST /odds HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"decks\"", close=True)
    deadline = time.monotonic() + 10
    while not any("left before" in line for line in quick.log[before:]) and time.monotonic() < deadline:
        time.sleep(0.05)
    new = quick.log[before:]
    assert [line for line in new if "left before" in line] == [
        "127.0.0.1 POST /odds: the client left before its request's body came\n"], new
    assert "Traceback" not in "".join(new)


# --- 7, 8. 405 says what is allowed; no redirect to a host the client chose ------------------------------------


def test_a_method_a_path_does_not_take_is_405_with_allow(quick: Server) -> None:
    by_path: dict[str, set[str]] = {}
    for endpoint in ENDPOINTS:
        by_path.setdefault(endpoint.path.replace("{id}", "abc"), set()).add(endpoint.method)
    for path, methods in by_path.items():
        taken = methods | ({"HEAD"} if "GET" in methods else set())
        for method in sorted({"GET", "POST", "PUT", "DELETE", "PATCH"} - taken):
            status, headers, body = split(raw(quick.port, f"{method} {path} HTTP/1.1\r\nHost: x\r\n"
                                                           "Content-Length: 0\r\nConnection: close\r\n\r\n".encode()))
            assert status == 405, (method, path)
            assert set(headers["allow"].split(", ")) == taken and method in error_of(body)


def test_a_trailing_slash_is_404_not_a_redirect_to_the_client_s_host(quick: Server) -> None:
    status, headers, body = split(raw(quick.port, b"POST /odds/ HTTP/1.1\r\nHost: evil.example\r\n"
                                                  b"Content-Length: 2\r\nConnection: close\r\n\r\n{}"))
    assert status == 404 and "location" not in headers and "/odds/" in error_of(body)


# --- 10. protocol refusals are JSON; --host; signals --------------------------------------------------------------


@pytest.mark.parametrize("request_bytes", [
    b"POST /odds HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
    b"POST /odds HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
    b"GET /health HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n",
    b"GET /health HTTP/1.1\r\n\r\n",
    b"GARBAGE\r\n\r\n",
], ids=["bad-length", "two-lengths", "nul-in-header", "no-host", "no-request-line"])
def test_a_request_http_cannot_read_is_400_json(quick: Server, request_bytes: bytes) -> None:
    status, headers, body = split(raw(quick.port, request_bytes))
    assert status == 400 and headers["content-type"] == "application/json"
    assert error_of(body).startswith("a malformed HTTP/1.1 request")


def test_a_request_line_and_headers_past_16_kib_are_400_json_and_the_connection_closed(quick: Server) -> None:
    """Either parser: headers that never end are refused once past the bound (httptools has none of its own)."""
    pad = b"".join(b"X-Pad-%d: " % n + b"a" * 1000 + b"\r\n" for n in range(20))  # 20 KiB, and no end
    status, headers, body = split(raw(quick.port, b"GET /health HTTP/1.1\r\nHost: x\r\n" + pad))
    assert status == 400 and headers["content-type"] == "application/json" and headers["connection"] == "close"
    assert error_of(body).startswith("a malformed HTTP/1.1 request")
    assert quick.call("GET", "/health")[0] == 200


def test_an_answer_s_headers_and_body_come_in_one_piece(quick: Server) -> None:
    """On a kept-alive connection each answer arrives whole in one read: its status line and headers are sent with
    its body, not ahead of it (the client would wake up twice)."""
    with socket.create_connection(("127.0.0.1", quick.port), timeout=10) as sock:
        for _ in range(5):
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            status, headers, body = split(sock.recv(65536))
            assert status == 200 and len(body) == int(headers["content-length"]) > 0
            assert json.loads(body)["status"] == "ok"


def test_an_ipv4_address_written_as_ipv6_is_loopback_and_a_bad_interface_is_one_line() -> None:
    from click.testing import CliRunner

    from exactodds.cli import cli
    from exactodds.serve.app import is_loopback

    assert is_loopback("::ffff:127.0.0.1") and is_loopback("127.0.0.2") and not is_loopback("::ffff:10.0.0.1")
    result = CliRunner().invoke(cli, ["serve", "--host", "fe80::1%nosuchif0", "--port", "0"])
    assert result.exit_code == 2 and result.stderr.startswith("Error: cannot listen on fe80::1%nosuchif0 port 0:")
    assert result.stderr.count("\n") == 1 and "interface" in result.stderr


@slow
def test_a_second_ctrl_c_during_a_request_still_ends_with_stopped_and_status_0() -> None:
    server = start("--time-limit", "30", "--workers", "2")
    asking = threading.Thread(target=lambda: server.post(
        "/batch", {"shoes": [{"decks": 8, "remove": str(i % 9 + 1)} for i in range(2_000)], "bets": ["all"]}))
    asking.start()
    time.sleep(0.5)
    server.process.send_signal(signal.SIGINT)
    time.sleep(0.2)
    server.process.send_signal(signal.SIGINT)
    code = server.process.wait(timeout=30)
    asking.join(timeout=30)
    time.sleep(0.2)
    assert code == 0 and server.log[-1] == "exactodds serve: stopped\n", server.log
    assert "Traceback" not in "".join(server.log)


def test_the_log_is_one_line_a_request_with_no_more_than_a_line_of_the_path(quick: Server) -> None:
    before = len(quick.log)
    quick.call("GET", "/" + "x" * 5000)
    deadline = time.monotonic() + 10

    def own() -> list[str]:  # this request's lines (an earlier test's requests may be logged meanwhile, GETs too)
        return [line for line in quick.log[before:] if " GET '/xxx" in line]

    while not own() and time.monotonic() < deadline:
        time.sleep(0.05)
    (line,) = own()
    assert line.startswith("127.0.0.1 GET '/xxx") and "…' 404 " in line and len(line) < 200


def _descendants(pid: int) -> list[str]:
    """The processes started by ``pid``, and by them (the fork server's workers), from /proc."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    found = children.read_text().split() if children.exists() else []
    return found + [one for child in found for one in _descendants(int(child))]


def _gone(pid: str) -> bool:
    """Whether process ``pid`` has ended (a zombie waiting for its parent counts)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the server's processes from /proc")
def test_workers_are_not_left_behind_when_the_server_stops() -> None:
    server = start("--workers", "2")
    assert server.post("/odds", {"decks": 1, "bets": ["tie"]})[0] == 200
    pids = _descendants(server.process.pid)
    assert len(pids) >= 3  # the fork server, two workers (and Python's resource tracker)
    assert stop(server) == 0
    deadline = time.monotonic() + 10
    while not all(map(_gone, pids)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(map(_gone, pids)), [pid for pid in pids if not _gone(pid)]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(subprocess.call([sys.executable, "-m", "pytest", "-q", __file__], cwd=ROOT))


# --- the fuzz: every key of every endpoint, three hostile values ------------------------------------------------

#: Values no key takes: a lone surrogate (as the JSON escape a client sends), a huge string, a huge number.
SURROGATE, HUGE_TEXT, HUGE_NUMBER = "\ud800", "A" * 200_000, 10**4000


def _fuzz_requests(session: str) -> list[tuple[str, str, bytes]]:
    """(method, path, body) for every key of every endpoint that takes keys, with each hostile value."""
    out = []
    for endpoint in ENDPOINTS:
        if endpoint.keys is None:
            continue
        path = endpoint.path.replace("{id}", session)
        base = dict(endpoint.example or {})
        for key in endpoint.keys:
            for value in (SURROGATE, HUGE_TEXT, HUGE_NUMBER):
                if endpoint.method == "GET":
                    from urllib.parse import quote
                    text = value if isinstance(value, str) else str(value)
                    shown = quote(text[:5000].encode("utf-8", "surrogatepass"))
                    out.append(("GET", f"{path}?{key}={shown}", b""))
                else:
                    body = json.dumps({**base, key: value})  # ensure_ascii: the surrogate as its escape
                    out.append((endpoint.method, path, body.encode()))
    return out


def test_every_key_of_every_endpoint_refuses_hostile_values_in_one_short_line(quick: Server) -> None:
    from concurrent.futures import ThreadPoolExecutor

    status, body = quick.post("/tracks", {"decks": 1})
    requests = _fuzz_requests(json.loads(body)["id"])
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda r: quick.call(r[0], r[1], r[2] or None), requests))
    wrong = []
    for (method, path, sent), (status, reply) in zip(requests, answers, strict=True):
        message = json.loads(reply).get("error", "") if reply.startswith(b"{") else ""
        if not (400 <= status < 500 and message and "\n" not in message and len(message) < 300):
            wrong.append((method, path[:60], sent[:60], status, len(message), message[:120]))
    assert not wrong, "\n".join(map(str, wrong))


# --- a real load (the slow profile) ---------------------------------------------------------------------------


@pytest.mark.skipif(not __import__("profiles").is_slow(), reason="a load test of some 10 s: the slow profile")
def test_under_a_hostile_load_cheap_requests_stay_fast_and_health_never_fails() -> None:
    """benchmarks/serve_load.py: cheap requests beside heavy batches, slow and abandoned connections on 127.0.0.1;
    the cheap requests' p99 stays under 10× its idle value, and every /health and cheap request is 200."""
    # Under xdist the other worker's tests share the two cores with this load: a run whose p99 they pushed past
    # the bound is run again (at most three runs); every run must keep /health and the cheap requests at 200.
    for _ in range(3):
        done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "serve_load.py"), "--quick", "--json"],
                              capture_output=True, text=True, timeout=300, cwd=ROOT)
        assert done.returncode == 0, done.stderr
        figures = json.loads(done.stdout)
        assert figures["health_requests"] > 0 and figures["health_not_200"] == 0, figures
        assert figures["cheap_requests"] > 0 and figures["cheap_not_200"] == 0, figures
        assert figures["exit_status"] == 0 and figures["heavy_statuses"] == [503], figures
        if figures["p99_ratio"] < 10:
            break
    assert figures["p99_ratio"] < 10, figures
