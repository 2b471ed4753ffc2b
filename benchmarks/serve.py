"""`exactodds serve`: requests per second for `POST /odds` on one 8-deck depleted shoe, and the overhead of a
request over pricing the same shoe in process. Medians of rounds, ratios, the machine and its load.

    python benchmarks/serve.py            # 5 rounds of 400 requests each way
    python benchmarks/serve.py --quick    # 1 round of 40 (CI: a smoke test)
    python benchmarks/serve.py --against /tmp/old   # and, in the same rounds, the server of another tree

The server is the real one (``python -m exactodds serve --port 0`` from this tree, a process of
its own); the client is the standard library's ``http.client``, in this process, on keep-alive
connections. Measured, each round:

- **in process**: the work of one ``/odds`` answer without HTTP, the endpoint's own function on the
  request object (read, priced, rendered: the bytes of ``odds --format json``), one after another;
- **one client**: requests one after another on one connection (the latency of a request);
- **8 clients**: eight threads, each on its own connection, all at once (the throughput);
- **CPU a request** (Linux): the CPU time the server and its workers spent, over the requests of
  both ways: what the load of other work on the machine changes least.

The overhead of a request is the one-client median minus the in-process median. Every answer is
checked to be the bytes the in-process function gives. ``--against`` takes the root of another
tree of the project (``git archive REF | tar -x -C DIR``), whose server is measured in the same
rounds, the two taking turns, so that both see the same load. No timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: One 8-deck shoe with 60 cards dealt: the core bets, as `exactodds odds --format json` prices them.
REQUEST = {"decks": 8, "remove": ",".join("A23456789TJQK"[i * 7 % 13] for i in range(60))}
CLIENTS = 8


def start(*args: str, root: Path = ROOT) -> tuple[subprocess.Popen[str], int]:
    """The server from the tree ``root`` (this one by default) on a free port, with the options ``args``."""
    process = subprocess.Popen([sys.executable, "-m", "exactodds", "serve", "--port", "0", *args], cwd=root,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    for line in process.stderr:
        found = re.search(r"listening on http://[^ ]*:(\d+) ", line)
        if found:
            # The server logs a line a request: read them, or its writes would block once the pipe is full.
            threading.Thread(target=lambda: [None for _ in process.stderr or ()], daemon=True).start()
            return process, int(found.group(1))
    raise RuntimeError("the server did not start")


def ask(connection: http.client.HTTPConnection, body: bytes, expected: bytes) -> None:
    """One request on ``connection``; its answer must be ``expected``."""
    connection.request("POST", "/odds", body=body, headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    answer = response.read()
    if response.status != 200 or answer != expected:
        raise RuntimeError(f"the server answered {response.status}: {answer[:200]!r}")


def one_client(port: int, body: bytes, expected: bytes, n: int) -> list[float]:
    """``n`` requests one after another on one connection: each one's seconds."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    times = []
    for _ in range(n):
        start = time.perf_counter()
        ask(connection, body, expected)
        times.append(time.perf_counter() - start)
    connection.close()
    return times


def many_clients(port: int, body: bytes, expected: bytes, n: int) -> float:
    """``n`` requests from :data:`CLIENTS` threads at once: requests per second."""
    share = max(1, n // CLIENTS)
    start = time.perf_counter()
    with ThreadPoolExecutor(CLIENTS) as pool:
        list(pool.map(lambda _: one_client(port, body, expected, share), range(CLIENTS)))
    return share * CLIENTS / (time.perf_counter() - start)


def cpu_seconds(pid: int) -> float:
    """The CPU seconds of process ``pid`` and of the processes it started that are alive (its workers), from /proc
    (0 elsewhere)."""
    total, children = 0.0, Path(f"/proc/{pid}/task/{pid}/children")
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        kids = children.read_text().split() if children.exists() else []
    except (FileNotFoundError, ProcessLookupError):
        return total
    return total + sum(cpu_seconds(int(kid)) for kid in kids)


def measure(trees: dict[str, Path], body: bytes, expected: bytes, rounds: int, n: int, local: list[float]
            ) -> dict[str, tuple[list[float], list[float], float]]:
    """Each tree's server, in turns each round: its one-client times, its rounds' throughputs and its CPU seconds a
    request; ``local`` gets the in-process times."""
    from exactodds.serve.endpoints import ENDPOINTS, answer
    from exactodds.serve.tracks import Tracks

    odds, tracks = next(e for e in ENDPOINTS if e.path == "/odds"), Tracks()
    servers = {name: start(root=root) for name, root in trees.items()}
    found: dict[str, tuple[list[float], list[float], float]] = {name: ([], [], 0.0) for name in trees}
    try:
        for _, port in servers.values():
            one_client(port, body, expected, 20)  # the server's pricer built before the timing
        for number in range(rounds):
            for _ in range(n):
                begin = time.perf_counter()
                answer(odds, json.loads(body), {}, tracks)
                local.append(time.perf_counter() - begin)
            for name in list(servers)[:: 1 if number % 2 == 0 else -1]:  # the servers take turns going first
                process, port = servers[name]
                used = cpu_seconds(process.pid)
                latency, throughput, cpu = found[name]
                latency.extend(one_client(port, body, expected, n))
                throughput.append(many_clients(port, body, expected, n))
                found[name] = latency, throughput, cpu + (cpu_seconds(process.pid) - used) / (2 * n * rounds)
    finally:
        for process, _ in servers.values():
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=60)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one round of 40 requests (a smoke test)")
    parser.add_argument("--rounds", type=int, default=None, help="rounds (default 5; 1 quick)")
    parser.add_argument("--requests", type=int, default=None, help="requests per round and way (default 400)")
    parser.add_argument("--against", type=Path, default=None, help="the root of another tree, measured alike")
    args = parser.parse_args(argv)
    rounds = args.rounds or (1 if args.quick else 5)
    n = args.requests or (40 if args.quick else 400)

    sys.path.insert(0, str(ROOT))
    from exactodds.layout import text_table
    from exactodds.serve.endpoints import ENDPOINTS, answer
    from exactodds.serve.tracks import Tracks

    odds = next(e for e in ENDPOINTS if e.path == "/odds")
    body = json.dumps(REQUEST).encode()
    tracks = Tracks()
    expected = answer(odds, json.loads(body), {}, tracks).body.encode()
    for _ in range(20):  # past the flat table's first shoes: the numpy pricer built, as the server's is below
        answer(odds, json.loads(body), {}, tracks)
    trees = {"this tree": ROOT, **({f"{args.against}": args.against.resolve()} if args.against else {})}
    local: list[float] = []
    found = measure(trees, body, expected, rounds, n, local)

    inside = statistics.median(local)
    rows = [["in process (the endpoint's function)", f"{inside * 1e3:.2f} ms", f"{1 / inside:,.0f}", "", ""]]
    for name, (latency, throughput, cpu) in found.items():
        one = statistics.median(latency)
        shown = f" ({name})" if len(found) > 1 else ""
        rows += [[f"one client, keep-alive{shown}", f"{one * 1e3:.2f} ms", f"{1 / one:,.0f}", f"{one / inside:.1f}×",
                  f"{cpu * 1e3:.2f} ms" if cpu else "-"],
                 [f"{CLIENTS} clients at once{shown}", "", f"{statistics.median(throughput):,.0f}", "", ""]]
    print(f"POST /odds, one 8-deck shoe with 60 cards dealt (the core bets); {rounds} round(s) of {n} requests")
    print(f"{platform.machine()} · {os.cpu_count()} cores · Python {platform.python_version()} · load "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(text_table(["way", "median per request", "requests/s", "over in process", "server CPU a request"], rows,
                     "lrrrr"))
    for name, (latency, _, _) in found.items():
        print(f"overhead of a request over in-process pricing{f' ({name})' if len(found) > 1 else ''}:"
              f" {(statistics.median(latency) - inside) * 1e3:.2f} ms (median)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
