"""The scoreboard page (`exactodds serve`'s ``/``, docs/page.md) in Chromium: the server's answer to one card late in
a long session, and the page's redraw after a step, measured in the page. Medians, the machine and its load.

    python benchmarks/page.py            # 200 cards each way after 500 coups
    python benchmarks/page.py --quick    # 40 (CI: a smoke test, some 15 s)

The server is the real one (``python -m exactodds serve --port 0`` from this tree); the browser is Debian's
chromium, headless, driven by selenium through chromedriver (as tests/test_page.py). Two sessions are dealt from
seeded shuffles before anything is timed, each to 500 coups:

- **8 decks**: shoe after shoe (``new shoe`` at the cut card), so the last shoe is partly dealt;
- **60 decks**: one shoe holding all 500 coups, so every road holds 500 coups (the largest drawing).

Then, in rounds that take the two sessions in turn (paired: the same moments of the machine):

- **(a) the server**: ``POST /tracks/{id}`` with one card, on a keep-alive connection (the step, its exact EVs and
  winner odds, its roads, its JSON), then ``undo`` (timed apart), so that each card meets the same shoe;
- **(b) the page**: on the 60-deck session, a card (the roads unchanged: it opens a coup) and a whole coup (every road
  gains a cell), each then undone, sent as the page sends them (its ``send``, as a button or the line does), timed
  inside the page: the redraw (``render``: every panel, the roads from the first cell that changed, the boxes
  scrolled; ``performance.now()`` around it, kept in ``window.exactoddsPage.state.renders``) and the time to the
  screen (the request, the redraw and, when the coups change, their list fetched again).

The first draw of the 60-deck session (a reload: 500 coups of every road drawn at once) is shown too. Targets: the
server's card under 20 ms, the redraw under 50 ms. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.serve import start  # noqa: E402

COUPS = 500
TARGETS = {"server": 20e-3, "redraw": 50e-3}
RANKS = "A23456789TJQK"
#: Cards left when a shoe is cut (the last shoe is never dealt below it).
CUT_CARD = 14


class Client:
    """Requests to the server on one keep-alive connection."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        """Status, JSON answer and seconds of one request."""
        data = None if body is None else json.dumps(body).encode()
        start = time.perf_counter()
        self.connection.request(method, path, body=data, headers={"Content-Type": "application/json"})
        response = self.connection.getresponse()
        answer = response.read()
        took = time.perf_counter() - start
        return response.status, json.loads(answer), took

    def step(self, key: str, command: str) -> tuple[dict[str, Any], float]:
        status, answer, took = self.call("POST", f"/tracks/{key}", {"command": command})
        if status != 200:
            raise RuntimeError(f"{command!r} was refused: {answer}")
        return answer, took


def shuffled(decks: int, seed: int) -> list[str]:
    cards = [rank for rank in RANKS for _ in range(4 * decks)]
    random.Random(seed).shuffle(cards)
    return cards


def deal_session(client: Client, decks: int, seed: int) -> str:
    """A session of ``decks`` decks dealt to :data:`COUPS` coups, in lines of 40 cards, a new shoe at each cut card."""
    status, answer, _ = client.call("POST", "/tracks", {"decks": decks})
    key: str = answer["id"]
    done, shoe = 0, 0
    while True:
        cards = shuffled(decks, seed + shoe)[: 52 * decks - CUT_CARD]
        for first in range(0, len(cards), 40):
            step, _ = client.step(key, " ".join(cards[first:first + 40]))
            if done + step["running"]["coups"] >= COUPS and not step["running"]["in_progress"]:
                return key
        done += step["running"]["coups"]
        shoe += 1
        client.step(key, "new shoe")


def browser() -> Any:
    """Debian's chromium, headless, through chromedriver (the flags of tests/test_page.py)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1400,1000", f"--user-data-dir={tempfile.mkdtemp()}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                              options=options)
    driver.set_script_timeout(120)
    return driver


#: Whole coups sent through the page (each then undone): a Banker win, a Player natural, a tie of naturals.
COUP_LINES = ("P 2 3 9 B 3 4", "P 8 K B 2 3", "P 9 K B 4 5")
# One command then undo through the page, as its buttons and its line send them: the redraw of each step (the page's
# own measure) and the command's time to the screen, in milliseconds.
PAGE_STEP = """
const done = arguments[arguments.length - 1];
const page = window.exactoddsPage;
(async () => {
  const before = page.state.renders.length;
  const started = performance.now();
  await page.send(arguments[0]);
  await page.idle();
  const screen = performance.now() - started;
  const step = page.state.renders.slice(before);
  await page.send("undo");
  await page.idle();
  done({ screen, step, undo: page.state.renders.slice(before + step.length), alert:
    document.getElementById("alert").textContent });
})();
"""


def open_session(driver: Any, port: int, key: str) -> float:
    """The page on session ``key``: the milliseconds of its first draw."""
    driver.get(f"http://127.0.0.1:{port}/?session={key}")
    driver.execute_async_script("window.exactoddsPage.ready.then(() => arguments[0]())")
    renders: list[float] = driver.execute_script("return window.exactoddsPage.state.renders")
    return renders[0]


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="40 cards each way (a smoke test)")
    parser.add_argument("--cards", type=int, default=None, help="cards timed per session and way (default 200)")
    args = parser.parse_args(argv)
    n = args.cards or (40 if args.quick else 200)
    missing = [name for name in ("chromium", "chromedriver") if shutil.which(name) is None]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("selenium")
    if missing:
        print(f"benchmarks/page.py: skipped, {' and '.join(missing)} missing (apt-get install chromium"
              " chromium-driver; pip install '.[test]')")
        return 1 if os.environ.get("EXACTODDS_REQUIRE_BROWSER") == "1" else 0

    process, port = start("--time-limit", "120")
    driver = None
    try:
        client = Client(port)
        sessions = {"8 decks": deal_session(client, 8, 2026), "60 decks": deal_session(client, 60, 2027)}
        driver = browser()
        version = driver.capabilities.get("browserVersion", "?")
        first = open_session(driver, port, sessions["60 decks"])
        server: dict[str, list[float]] = {name: [] for name in sessions}
        undo: dict[str, list[float]] = {name: [] for name in sessions}
        redraw: dict[str, list[float]] = {"card": [], "coup": []}
        screen: dict[str, list[float]] = {"card": [], "coup": []}
        for i in range(n):
            card = RANKS[i * 5 % 13]
            for name in sorted(sessions, reverse=bool(i % 2)):  # paired: each round both, in turn first
                client.step(sessions[name], card)  # warm: the same card once before it is timed
                client.step(sessions[name], "undo")
                server[name].append(client.step(sessions[name], card)[1])
                undo[name].append(client.step(sessions[name], "undo")[1])
            for kind, line in (("card", card), ("coup", COUP_LINES[i % len(COUP_LINES)])):
                result = driver.execute_async_script(PAGE_STEP, line)
                if result["alert"]:
                    raise RuntimeError(f"the page refused {line}: {result['alert']}")
                redraw[kind] += [t / 1e3 for t in result["step"] + result["undo"]]
                screen[kind].append(result["screen"] / 1e3)
    finally:
        if driver is not None:
            driver.quit()
        process.terminate()
        process.wait(timeout=60)

    from exactodds.layout import text_table

    rows = []
    for name in sessions:
        median = statistics.median(server[name])
        verdict = "met" if median < TARGETS["server"] else "MISSED"
        rows.append([f"(a) server: POST one card, {name}, after {COUPS} coups", str(n), ms(median),
                     f"< {ms(TARGETS['server'])}: {verdict}"])
        rows.append([f"    then POST undo, {name}", str(n), ms(statistics.median(undo[name])), ""])
    for kind, what in (("card", "a card (roads unchanged)"), ("coup", "a whole coup (a cell more on every road)")):
        median = statistics.median(redraw[kind])
        rows.append([f"(b) page, {COUPS} coups in the roads: redraw after {what} and its undo",
                     str(len(redraw[kind])), ms(median),
                     f"< {ms(TARGETS['redraw'])}: {'met' if median < TARGETS['redraw'] else 'MISSED'}"])
        rows.append(["    to the screen (request, redraw, the coups' list when it changed)", str(n),
                     ms(statistics.median(screen[kind])), ""])
    rows.append([f"    first draw of the {COUPS} coups (a reload)", "1", ms(first / 1e3), ""])
    print(f"The scoreboard page: {n} cards per session and way{' · --quick' if args.quick else ''}")
    print(f"{platform.machine()} · {os.cpu_count()} cores · Python {platform.python_version()} · Chromium {version}"
          f" · load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(text_table(["measure", "count", "median", "target"], rows, "lrrl"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
