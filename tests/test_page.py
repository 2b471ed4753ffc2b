"""The scoreboard page (``GET /`` of ``exactodds serve``, docs/page.md) in a real browser against the real server.

A shoe is dealt through the page as a person would (whole coups typed in the line, cards by the buttons and by the
keys, undo and redo), and after each coup what the page shows is read from its DOM (the SVG cells carry
``data-col``, ``data-row``, ``data-value``) and compared with the JSON API (``GET /tracks/{id}``) and with the pure
functions of :mod:`exactodds.roads`; then a reload resumes the session, a session the server lost starts afresh
saying so, a refusal of the server shows its line, and a phone's 360-pixel screen has nothing wider than itself.

The browser is Debian's Chromium, headless, driven by Selenium through Debian's ChromeDriver. Why Selenium and not
Playwright: ChromeDriver is built from the same source package as Chromium, so the two always match, while
Playwright pins the browser build it downloads (which this network cannot fetch) and only hopes that another
Chromium speaks its protocol; Selenium needs no Node.js, and given both paths it downloads nothing (its Selenium
Manager is never run). With no browser here the browser tests skip in one line; ``EXACTODDS_REQUIRE_BROWSER=1``
(CI) makes that a failure.
``EXACTODDS_SCREENSHOT=1`` rewrites the docs' screenshot, ``docs/img/page.png``.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from profiles import slow

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from test_serve import Server, start, stop  # noqa: E402

from exactodds.cards import RANK_POINTS, RANKS, Rank, Shoe  # noqa: E402
from exactodds.roads import Result, ask, roads  # noqa: E402
from exactodds.tracker import Tracker  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOT = ROOT / "docs" / "img" / "page.png"
#: Chromium's flags: headless, nothing fetched from the network (this machine has none), a profile of its own.
CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1400,1000")

# The page's DOM read in one call: each road's cells, the bead plate's markers, the ask road, the odds, the bets,
# the cards left, the coups, the alert.
READ_PAGE = """
const cells = (road, kind) => [...document.querySelectorAll(`svg[data-road="${road}"] .${kind}`)].map((g) => {
  const cell = [Number(g.dataset.col), Number(g.dataset.row), g.dataset.value];
  if (g.dataset.ties !== undefined) cell.push(Number(g.dataset.ties));
  return cell;
});
const roads = {};
for (const road of ["bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_pig"]) {
  roads[road] = cells(road, "cell");
}
roads.markers = cells("bead_plate", "marker");
const askRoad = { banker: {}, player: {} };
const askOdds = {};
for (const td of document.querySelectorAll("#ask td[data-road]")) {
  if (td.dataset.side) askRoad[td.dataset.side][td.dataset.road] = td.dataset.value || null;
  else (askOdds[td.dataset.road] ||= {})[td.dataset.colour] = [td.dataset.value, td.textContent, td.title];
}
const next = {};
for (const row of document.querySelectorAll("#next tbody tr")) {
  next[row.dataset.winner] = [row.cells[1].dataset.value, row.cells[1].textContent, row.cells[1].title];
}
const bets = [...document.querySelectorAll("#bets-table tbody tr")].map((row) =>
  [row.dataset.bet, row.cells[1].textContent, row.cells[1].title, row.classList.contains("favourable")]);
const left = Object.fromEntries([...document.querySelectorAll("#left li")].map((li) =>
  [li.dataset.rank, Number(li.querySelector(".n").textContent)]));
const history = [...document.querySelectorAll("#history tbody tr")].map((row) =>
  [...row.cells].map((td) => td.textContent));
return { roads, ask: askRoad, askOdds, next, bets, left, history,
         alert: document.getElementById("alert").textContent, id: window.exactoddsPage.state.id };
"""


def _browser_parts() -> tuple[str, str] | str:
    """Chromium's and ChromeDriver's paths, or why the browser tests cannot run here."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install '.[test]')"
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        return "no chromium or chromedriver here (apt-get install chromium chromium-driver)"
    return chromium, driver


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    running = start("--time-limit", "60")
    yield running
    assert stop(running) == 0
    assert "Traceback" not in "".join(running.log), "".join(running.log)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    parts = _browser_parts()
    if isinstance(parts, str):
        if os.environ.get("EXACTODDS_REQUIRE_BROWSER") == "1":
            pytest.fail(f"EXACTODDS_REQUIRE_BROWSER=1, but {parts}")
        pytest.skip(parts)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, driver_path = parts
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    profile = tempfile.mkdtemp(prefix="exactodds-chromium-")
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)  # both paths given: nothing downloaded
    driver.set_script_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


# --- the page and its files are served, each with its type and a policy that allows this server only ------------


def test_the_page_and_its_files_are_served_with_their_types_and_a_strict_policy(server: Server) -> None:
    from exactodds.serve.app import PAGE_FILES, PAGE_POLICY

    for path, (name, media) in PAGE_FILES.items():
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        connection.close()
        assert response.status == 200, path
        assert body == (ROOT / "exactodds" / "serve" / "page" / name).read_bytes()
        assert response.getheader("Content-Type") == media
        assert response.getheader("Cache-Control") == "no-cache"
        assert response.getheader("Content-Security-Policy") == PAGE_POLICY
        assert response.getheader("X-Content-Type-Options") == "nosniff"
    assert "'unsafe-inline'" not in PAGE_POLICY and "script-src 'self';" in PAGE_POLICY
    status, body = server.call("POST", "/")
    assert status == 405 and json.loads(body)["error"].startswith("POST is not taken by /")
    folder = ROOT / "exactodds" / "serve" / "page"
    assert {f"/{f.name}" for f in folder.iterdir()} - set(PAGE_FILES) == {"/index.html"}  # each file is served
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert "<script>" not in page and " style=" not in page and "http" not in page.replace("http-equiv", "")
    scripts = "".join(f.read_text(encoding="utf-8") for f in folder.glob("*.js"))
    assert "innerHTML" not in scripts and "insertAdjacentHTML" not in scripts and "eval(" not in scripts


# --- a shoe dealt through the page, compared coup by coup with the API and the pure functions --------------------


def scripted_coups(seed: int = 139, coups: int = 22) -> list[Any]:
    """The first coups of a seeded shuffle of 8 decks, as the tracker splits them (each with its hands and text).

    This seed's coups hold what the roads must get right: two ties before the first win, two ties on one cell, a
    streak of ten Banker wins (a dragon tail), pairs and naturals, all three derived roads drawn."""
    cards = [rank for rank in RANKS for _ in range(32)]
    random.Random(seed).shuffle(cards)
    tracker = Tracker(Shoe.standard(8), bets=["tie"])
    for rank in cards:
        tracker.step(rank.value)
        if len(tracker.state.coups) == coups and not tracker.state.pending:
            return list(tracker.state.coups)
    raise AssertionError("the shoe ran out")


def result_of(coup: Any) -> Result:
    """A coup as the scoreboard reads it, worked out here from its cards: the winner, the pairs, a natural."""
    player, banker = coup.hands
    natural = any(len(h) == 2 and (RANK_POINTS[h[0]] + RANK_POINTS[h[1]]) % 10 >= 8 for h in coup.hands)
    return Result({"banker": "B", "player": "P", "tie": "T"}[coup.winner], banker_pair=banker[0] == banker[1],
                  player_pair=player[0] == player[1], natural=natural)


def wait(browser: Any, condition: Callable[[], Any], what: str, seconds: float = 20) -> Any:
    """Poll ``condition`` until it is true; fail naming ``what``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"the page never {what}: {browser.execute_script(READ_PAGE)['alert']!r}")


def settled(browser: Any) -> None:
    """Wait until the page has sent every command and drawn every answer."""
    browser.execute_async_script("window.exactoddsPage.idle().then(() => arguments[0]())")


def open_page(browser: Any, server: Server, query: str = "") -> None:
    browser.get(f"http://127.0.0.1:{server.port}/{query}")
    browser.execute_async_script("window.exactoddsPage.ready.then(() => arguments[0]())")


def session(server: Server, key: str) -> dict[str, Any]:
    status, body = server.call("GET", f"/tracks/{key}")
    assert status == 200, body
    data: dict[str, Any] = json.loads(body)
    return data


def check_page(browser: Any, server: Server, results: list[Result]) -> dict[str, Any]:
    """What the page shows is what the API says of the session, and the roads what exactodds.roads makes of the
    coups dealt (worked out here from their cards)."""
    page = browser.execute_script(READ_PAGE)
    data = session(server, page["id"])
    step = data["step"]
    expected = roads(results).to_json()
    letters = "".join(r.winner for r in results)
    assert page["roads"] == step["roads"] == expected, letters
    assert page["ask"] == step["ask"] == ask(results), letters
    for road, colours in step["ask_odds"].items():
        for colour, figure in colours.items():
            assert page["askOdds"][road][colour] == [figure["probability"], figure["percent"], figure["probability"]]
    assert {side: [f["probability"], f["percent"], f["probability"]] for side, f in step["next"].items()} \
        == page["next"]
    assert sum(Fraction(f["probability"]) for f in step["next"].values()) == 1
    assert page["bets"] == [[b["id"], ("" if b["ev"].startswith("-") else "+") + b["ev_percent"], b["ev"],
                             b["favourable"]] for b in step["bets"]]
    assert page["left"] == step["left"]["counts"]
    assert page["history"] == [[str(c["coup"]), c["winner"].capitalize(), c["text"]] for c in data["coups"]]
    assert [c["winner"][0].upper() for c in data["coups"]] == list(letters)
    assert page["alert"] == ""
    return page


def type_line(browser: Any, text: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    line = browser.find_element(By.ID, "command")
    browser.execute_script("arguments[0].value = arguments[1]", line, text[:-1])  # typed key by key: 0.1 s a line
    line.send_keys(text[-1], Keys.ENTER)
    settled(browser)


def press(browser: Any, *keys: str) -> None:
    """Keys pressed with the focus outside the boxes of text (on the page's body)."""
    from selenium.webdriver.common.action_chains import ActionChains

    browser.execute_script("document.activeElement.blur()")
    ActionChains(browser, duration=0).send_keys(*keys).perform()
    settled(browser)


def click_cards(browser: Any, ranks: tuple[Rank, ...]) -> None:
    """The card buttons clicked one after another (one chain of pointer actions: a click each, quickly)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    clicks = ActionChains(browser, duration=0)  # no 250 ms glide of the pointer to each button
    for rank in ranks:
        clicks.click(browser.find_element(By.CSS_SELECTOR, f'button[data-card="{rank.value}"]'))
    clicks.perform()
    settled(browser)


def start_shoe(browser: Any, decks: str = "8") -> None:
    from selenium.webdriver.common.by import By

    if not browser.find_element(By.ID, "setup-box").get_attribute("open"):
        browser.find_element(By.CSS_SELECTOR, "#setup-box summary").click()
    field = browser.find_element(By.ID, "decks")
    field.clear()
    field.send_keys(decks)
    browser.find_element(By.ID, "start").click()


def test_a_shoe_dealt_through_the_page_shows_what_the_api_and_the_roads_say(browser: Any, server: Server) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.execute_script("localStorage.clear()")
    open_page(browser, server)
    start_shoe(browser, "0")  # refused by the server: its line shown, as it is
    wait(browser, lambda: browser.execute_script(READ_PAGE)["alert"], "showed the refusal")
    status, body = server.post("/tracks", {"decks": 0})
    assert status == 400 and browser.execute_script(READ_PAGE)["alert"] == json.loads(body)["error"]
    start_shoe(browser, "8")
    wait(browser, lambda: browser.execute_script("return window.exactoddsPage.state.id"), "started a shoe")
    assert browser.switch_to.active_element.get_attribute("data-card") == "A"  # the cards take the focus
    coups = scripted_coups()
    results = [result_of(coup) for coup in coups]
    for number, coup in enumerate(coups):
        cards = tuple(rank for hand in _deal_order(coup) for rank in hand)
        if number % 5 == 1:  # by the buttons, a card a step
            click_cards(browser, cards)
        elif number % 5 == 3:  # by the keys, a card a step (a ten as 0 or as t)
            press(browser, *("0" if r.value == "T" and number % 10 == 3 else r.value.lower() for r in cards))
        else:  # typed whole, a coup a step
            type_line(browser, coup.text())
        check_page(browser, server, results[: number + 1])
        if number == 5:  # two whole coups undone (the key U, the button), redone (the key R, Ctrl+Shift+Z)
            press(browser, "u")
            check_page(browser, server, results[:5])
            browser.find_element(By.ID, "undo").click()
            settled(browser)
            check_page(browser, server, results[:4])
            press(browser, "r")
            check_page(browser, server, results[:5])
            from selenium.webdriver.common.action_chains import ActionChains

            chord = ActionChains(browser, duration=0).key_down(Keys.CONTROL).key_down(Keys.SHIFT).send_keys("z")
            chord.key_up(Keys.SHIFT).key_up(Keys.CONTROL).perform()
            settled(browser)
            check_page(browser, server, results[:6])
            assert browser.find_element(By.ID, "redo").get_attribute("disabled") == "true"
        if number == 12:  # keys pressed faster than the answers come: each waits its turn (redo after the undos)
            press(browser, "u", "u", "r", "r")
            check_page(browser, server, results[:13])
    # A card of a coup in progress, taken back by Backspace: the roads stay.
    press(browser, "9")
    assert browser.execute_script("return document.getElementById('in-progress').textContent") \
        == "Coup in progress: 9"
    press(browser, Keys.BACKSPACE)
    page = check_page(browser, server, results)

    # A reload resumes the session, its redo list too.
    press(browser, "u")
    browser.refresh()
    browser.execute_async_script("window.exactoddsPage.ready.then(() => arguments[0]())")
    again = check_page(browser, server, results[:-1])
    assert again["id"] == page["id"]
    assert "Resumed the shoe" in browser.find_element(By.ID, "notice").text
    browser.find_element(By.ID, "redo").click()
    settled(browser)
    check_page(browser, server, results)
    _export_and_screenshot(browser)

    # A bad line: the server's line in the alert, the session as it was.
    type_line(browser, "P 2 3 X")
    status, body = server.post(f"/tracks/{page['id']}", {"command": "P 2 3 X"})
    alert = browser.find_element(By.ID, "alert")
    assert status == 400 and alert.text == json.loads(body)["error"] and alert.get_attribute("role") == "alert"
    assert browser.find_element(By.ID, "command").get_attribute("value") == "P 2 3 X"  # kept, to be mended

    # The server lost the session: a reload starts a new shoe with the same settings, and says so.
    assert server.call("DELETE", f"/tracks/{page['id']}")[0] == 200
    browser.refresh()
    browser.execute_async_script("window.exactoddsPage.ready.then(() => arguments[0]())")
    fresh = browser.execute_script(READ_PAGE)
    assert fresh["id"] != page["id"] and fresh["roads"]["bead_plate"] == []
    assert fresh["alert"].startswith(f"no tracking session '{page['id']}'")
    assert "a new shoe was started" in fresh["alert"]
    assert session(server, fresh["id"])["session"]["start"]["cards"] == 416


def _deal_order(coup: Any) -> list[tuple[Rank, ...]]:
    """A coup's cards in the order they are dealt: P1 B1 P2 B2, then the Player's third card, then the Banker's."""
    player, banker = coup.hands
    order = [(player[0],), (banker[0],), (player[1],), (banker[1],)]
    return order + [player[2:], banker[2:]]


def _export_and_screenshot(browser: Any) -> None:
    """The coups exported as CSV (a download through a Blob URL, under the page's policy), a formula never
    exported as one; the screenshot of the docs, when asked for."""
    folder = tempfile.mkdtemp(prefix="exactodds-download-")
    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": folder})
    from selenium.webdriver.common.by import By

    browser.find_element(By.ID, "export-csv").click()
    expected = browser.execute_script("return window.exactoddsPage.csvText(window.exactoddsPage.state.coups)")
    files = wait(browser, lambda: [p for p in Path(folder).glob("*.csv")], "downloaded the CSV")
    assert files[0].read_text(encoding="utf-8").replace("\r\n", "\n") == expected.replace("\r\n", "\n")
    assert expected.startswith("coup,winner,cards\r\n1,")
    shutil.rmtree(folder, ignore_errors=True)
    tricky = [{"coup": 1, "winner": "=1+1", "text": "@SUM(A1)"}, {"coup": 2, "winner": "-2", "text": 'a "b", c'}]
    assert browser.execute_script("return window.exactoddsPage.csvText(arguments[0])", tricky) \
        == "coup,winner,cards\r\n1,'=1+1,'@SUM(A1)\r\n2,'-2,\"a \"\"b\"\", c\"\r\n"
    if os.environ.get("EXACTODDS_SCREENSHOT") == "1":
        browser.execute_script("window.scrollTo(0, 0)")
        SCREENSHOT.parent.mkdir(exist_ok=True)
        browser.save_screenshot(str(SCREENSHOT))


# --- a phone and a wall --------------------------------------------------------------------------------------------

OVERFLOW = """
const width = document.documentElement.clientWidth;
const wide = [...document.querySelectorAll("button, input, select, textarea, table, .road-box, .panel")]
  .filter((e) => e.getClientRects().length)
  .map((e) => [e.id || e.className || e.tagName, e.getBoundingClientRect()])
  .filter(([, r]) => r.left < -0.5 || r.right > width + 0.5).map(([name, r]) => [name, r.left, r.right]);
return { width, scroll: document.documentElement.scrollWidth, wide };
"""


@slow
def test_the_page_fits_a_phone_and_enlarges_the_roads_on_a_wall(browser: Any, server: Server) -> None:
    from selenium.webdriver.common.by import By

    status, body = server.post("/tracks", {"decks": 1, "bets": ["banker", "player", "tie"]})
    key = json.loads(body)["id"]
    for line in ("P 2 3 9 B 3 4", "P K 9 B 5 J", "P 4 4 B 7 K"):
        assert server.post(f"/tracks/{key}", {"command": line})[0] == 200
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 360, "height": 740, "deviceScaleFactor": 2, "mobile": True})
    try:
        open_page(browser, server, f"?session={key}")
        found = browser.execute_script(OVERFLOW)
        assert found["width"] == 360 and found["scroll"] <= 360 and found["wide"] == [], found
        assert browser.execute_script(READ_PAGE)["roads"]["bead_plate"] == [[0, 0, "B"], [0, 1, "P"], [0, 2, "P"]]
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    open_page(browser, server, f"?wall=1&session={key}")
    assert not browser.find_element(By.ID, "entry").is_displayed()
    assert not browser.find_element(By.ID, "setup").is_displayed()
    big = browser.find_element(By.CSS_SELECTOR, 'svg[data-road="big_road"]')
    assert big.get_attribute("height") == "240"  # six rows of 40 pixels (22 off the wall)
    assert browser.find_element(By.ID, "wall-toggle").get_attribute("aria-pressed") == "true"
    assert server.post(f"/tracks/{key}", {"command": "P 6 7 B 8 T"})[0] == 200  # typed elsewhere: the wall follows
    browser.execute_async_script("window.exactoddsPage.poll().then(() => arguments[0]())")  # as its timer does
    assert len(browser.execute_script(READ_PAGE)["roads"]["bead_plate"]) == 4
    browser.find_element(By.ID, "wall-toggle").click()
    assert browser.find_element(By.ID, "entry").is_displayed() and "wall" not in browser.current_url
