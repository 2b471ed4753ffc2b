"""`exactodds serve` under a hostile load: cheap requests' latency idle and under load, and /health throughout.

    python benchmarks/serve_load.py            # 20 s of load
    python benchmarks/serve_load.py --quick    # 6 s (CI: a smoke test; the slow tests check its figures)
    python benchmarks/serve_load.py --json     # the figures as one JSON object

The server is the real one (``python -m exactodds serve --port 0 --time-limit 2``, 127.0.0.1 only).
First the cheap request alone (``POST /odds``, one 8-deck shoe, the Banker and Tie bets, a new
connection each time): its idle latency. Then, for a bounded time, the same cheap requests from
four clients while, at once:

- two clients send heavy batches (2,000 shoes × every bet: some 3 s of work, stopped at the 2 s
  limit) one after another;
- slow clients open connections that send their headers and half a body, then hold them (the
  read timeout closes them: 408), 40 at a time;
- abandoning clients send half a request and close the connection, one after another;
- one client asks ``GET /health`` every 50 ms.

It prints the cheap request's median and 99th percentile idle and under load, their ratio, and
how /health fared (every answer must be 200). No timing is asserted here; the slow profile of
the tests runs ``--quick --json`` and checks that the p99 under load stays under 10× idle and that
/health never failed.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import signal
import socket
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serve import start  # noqa: E402  (the benchmark of one client's requests: the same server, started alike)

ROOT = Path(__file__).resolve().parent.parent
CHEAP = json.dumps({"decks": 8, "remove": "7,7,8", "bets": ["banker", "tie"]}).encode()
HEAVY = json.dumps({"shoes": [{"decks": 8, "remove": "A23456789"[i % 9]} for i in range(2_000)],
                    "bets": ["all"]}).encode()
HALF = b"POST /odds HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"decks\""


def request(port: int, method: str, path: str, body: bytes | None = None, timeout: float = 30) -> tuple[int, float]:
    """One request on a new connection: its status and its seconds (status 0: the connection failed)."""
    began = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body)
        response = connection.getresponse()
        response.read()
        return response.status, time.perf_counter() - began
    except OSError:
        return 0, time.perf_counter() - began
    finally:
        connection.close()


def p99(values: list[float]) -> float:
    """The 99th percentile."""
    return statistics.quantiles(values, n=100)[98] if len(values) >= 2 else values[0]


class Load:
    """The hostile clients, each a thread looping until :attr:`stop` is set, and what they saw."""

    def __init__(self, port: int) -> None:
        self.port, self.stop = port, threading.Event()
        self.cheap: list[float] = []
        self.cheap_status: list[int] = []
        self.health: list[int] = []
        self.heavy: list[int] = []
        self.slow = self.abandoned = 0

    def cheap_client(self) -> None:
        while not self.stop.is_set():
            status, seconds = request(self.port, "POST", "/odds", CHEAP)
            self.cheap_status.append(status)
            self.cheap.append(seconds)

    def heavy_client(self) -> None:
        while not self.stop.is_set():
            self.heavy.append(request(self.port, "POST", "/batch", HEAVY)[0])

    def health_client(self) -> None:
        while not self.stop.is_set():
            self.health.append(request(self.port, "GET", "/health", timeout=10)[0])
            time.sleep(0.05)

    def slow_client(self) -> None:
        while not self.stop.is_set():
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=30) as sock:
                    sock.sendall(HALF)
                    self.slow += 1
                    while sock.recv(4096) and not self.stop.is_set():
                        pass
            except OSError:
                pass

    def abandoning_client(self) -> None:
        while not self.stop.is_set():
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=5) as sock:
                    sock.sendall(HALF)
                self.abandoned += 1
            except OSError:
                pass
            time.sleep(0.01)

    def run(self, seconds: float) -> None:
        """Every client at once for ``seconds``."""
        kinds = ([self.cheap_client] * 4 + [self.heavy_client] * 2 + [self.slow_client] * 40
                 + [self.abandoning_client, self.health_client])
        threads = [threading.Thread(target=kind, daemon=True) for kind in kinds]
        for thread in threads:
            thread.start()
        time.sleep(seconds)
        self.stop.set()
        for thread in threads:
            thread.join(timeout=40)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="6 s of load (a smoke test)")
    parser.add_argument("--seconds", type=float, default=None, help="seconds of load (default 20; 6 quick)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--tree", type=Path, default=ROOT, help="run the server of another checkout (e.g. an old"
                        " commit's worktree, whose serve takes only --time-limit)")
    args = parser.parse_args(argv)
    seconds = args.seconds or (6 if args.quick else 20)

    options = ["--read-timeout", "2", "--workers", "2"] if args.tree == ROOT else []
    process, port = start("--time-limit", "2", *options, root=args.tree)
    try:
        for _ in range(10):  # the workers warm
            request(port, "POST", "/odds", CHEAP)
        idle = [request(port, "POST", "/odds", CHEAP)[1] for _ in range(100 if args.quick else 300)]
        load = Load(port)
        load.run(seconds)
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=60)
    figures = {
        "seconds": seconds, "load": os.getloadavg()[0], "exit_status": code,
        "idle_median_ms": 1e3 * statistics.median(idle), "idle_p99_ms": 1e3 * p99(idle),
        "load_median_ms": 1e3 * statistics.median(load.cheap), "load_p99_ms": 1e3 * p99(load.cheap),
        "cheap_requests": len(load.cheap), "cheap_not_200": sum(s != 200 for s in load.cheap_status),
        "health_requests": len(load.health), "health_not_200": sum(s != 200 for s in load.health),
        "heavy_requests": len(load.heavy), "heavy_statuses": sorted(set(load.heavy)),
        "slow_connections": load.slow, "abandoned_connections": load.abandoned,
    }
    figures["p99_ratio"] = figures["load_p99_ms"] / figures["idle_p99_ms"]
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"exactodds serve under load: {seconds:g} s; 4 cheap clients, 2 heavy, 40 slow, 1 abandoning, /health")
    print(f"{platform.machine()} · {os.cpu_count()} cores · Python {platform.python_version()} · load "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    f = figures
    print(f"cheap POST /odds, idle:       median {f['idle_median_ms']:.1f} ms, p99 {f['idle_p99_ms']:.1f} ms")
    print(f"cheap POST /odds, under load: median {f['load_median_ms']:.1f} ms, p99 {f['load_p99_ms']:.1f} ms"
          f" ({figures['p99_ratio']:.1f}× idle p99); {figures['cheap_requests']} requests,"
          f" {figures['cheap_not_200']} not 200")
    print(f"GET /health: {figures['health_requests']} requests, {figures['health_not_200']} not 200")
    print(f"heavy batches: {figures['heavy_requests']} (statuses {figures['heavy_statuses']}); slow connections"
          f" {load.slow}, abandoned {load.abandoned}; the server's exit status {code}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
