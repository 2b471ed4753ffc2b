"""The review of a table's log against scripted bettors whose behaviour is known: a counter who bets Dragon 7 only at
positive EV, a flat Banker bettor, a side bettor at random; some wagers mis-paid, one coup dealt against the tableau.

The test deals its own shoes by the tableau, keeps its own cards left, settles each wager by the pays of the rules
text (written here), and prices each shoe state one at a time by ``analyze`` (the review prices every coup of a shoe
at once through the batch engine). The review must find exactly the planted problems, flag exactly the counter, and
give each bettor's expected net to the last digit.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import random
from decimal import Decimal
from fractions import Fraction
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner
from profiles import slow

from exactodds.cards import RANK_POINTS, RANKS, SUITS, Shoe
from exactodds.cli import cli
from exactodds.exact import decimal_text
from exactodds.games import DEFAULT
from exactodds.puntobanco.odds import analyze
from exactodds.puntobanco.rules import PUNTO_BANCO, deal_coup
from exactodds.review import review
from exactodds.review.log import records
from exactodds.review.render import csv_header, verdict_json, verdict_text, wager_rows
from exactodds.version import __version__

SIDE_BETS = ("player-pair", "banker-pair", "panda-8", "tie")


def rules_text_net(bet: str, player: list[str], banker: list[str]) -> Fraction:
    """A bet's net per unit on a coup of these hands, from the rules text: Banker 0.95:1 and Player 1:1, both pushed
    by a tie; Tie 8:1; the pairs 11:1 on the side's first two cards of one rank; Dragon 7 40:1 when the Banker wins
    with three cards making 7; Panda 8 25:1 when the Player wins with three cards making 8."""
    def total(hand: list[str]) -> int:
        return sum(RANK_POINTS[RANKS[[r.value for r in RANKS].index(c[0])]] for c in hand) % 10

    p, b = total(player), total(banker)
    if bet == "banker":
        return Fraction(19, 20) if b > p else Fraction(0) if b == p else Fraction(-1)
    if bet == "player":
        return Fraction(1) if p > b else Fraction(0) if b == p else Fraction(-1)
    if bet == "tie":
        return Fraction(8) if p == b else Fraction(-1)
    if bet == "dragon-7":
        return Fraction(40) if b > p and len(banker) == 3 and b == 7 else Fraction(-1)
    if bet == "panda-8":
        return Fraction(25) if p > b and len(player) == 3 and p == 8 else Fraction(-1)
    hand = player if bet == "player-pair" else banker
    return Fraction(11) if hand[0][0] == hand[1][0] else Fraction(-1)


def money(amount: Fraction) -> str:
    """An amount as a casino's log writes it: a decimal (every amount here has one: stakes whole, pays in 1/20)."""
    return str(Decimal(amount.numerator) / Decimal(amount.denominator))


def build_log(seed: int = 7, shoes: int = 12, decks: int = 2):
    """A log of ``shoes`` shoes at three tables, and what the test knows of it: each bettor's exact expected net, the
    lines of the mis-paid wagers, the line of the coup dealt against the tableau, and every wager's expected net and
    settlement by line."""
    rng = random.Random(seed)
    lines: list[dict] = []
    expected: dict[tuple[str, str], Fraction] = {}
    per_line: dict[int, tuple[Fraction, Fraction]] = {}
    mispaid: set[int] = set()
    irregular: int | None = None
    wagers = 0
    bets = ("dragon-7", "banker", *SIDE_BETS)
    for s in range(shoes):
        shoe_id = f"T{s % 3}-{s:03d}"
        cards = [r.value + su.value for r in RANKS for su in SUITS for _ in range(decks)]
        rng.shuffle(cards)
        lines.append({"shoe": shoe_id, "decks": decks, "table": f"T{s % 3}"})
        left = Shoe.standard(decks)
        lines.append({"shoe": shoe_id, "burn": [cards[0]]})
        left, i, coup = left.remove([cards[0]]), 1, 0
        while len(cards) - i >= 14:
            coup += 1
            before = left
            values = [RANK_POINTS[RANKS[[r.value for r in RANKS].index(c[0])]] for c in cards[i:i + 6]]
            _, _, pc, bc = deal_coup(values, PUNTO_BANCO.tableau)
            planted = irregular is None and s == 1 and pc == 3 and bc == 2
            if planted:  # the planted coup: the Player's third card withheld, against the tableau
                player, banker = [cards[i], cards[i + 2]], [cards[i + 1], cards[i + 3]]
            else:
                player = [cards[i], cards[i + 2]] + ([cards[i + 4]] if pc == 3 else [])
                banker = [cards[i + 1], cards[i + 3]] + ([cards[i + 4 + (pc == 3)]] if bc == 3 else [])
            used = player + banker
            i += len(used)
            left = left.remove(used)
            lines.append({"shoe": shoe_id, "coup": coup, "player": player, "banker": banker})
            if planted:
                irregular = len(lines)
            evs = {f.bet.id: f.ev for f in analyze(before.without_suits(), PUNTO_BANCO, list(bets)).bets}
            placed = []
            if evs["dragon-7"] > 0:
                placed.append(("counter", "dragon-7", Fraction(25)))
            placed.append(("flat", "banker", Fraction(10)))
            if rng.random() < 0.4:
                placed.append(("side", rng.choice(SIDE_BETS), Fraction(rng.choice((5, 10, 20)))))
            for who, bet, stake in placed:
                wagers += 1
                settled = stake * rules_text_net(bet, player, banker)
                net = settled
                if wagers % 37 == 0:  # the planted mis-payments
                    net += 5
                    mispaid.add(len(lines) + 1)
                lines.append({"shoe": shoe_id, "coup": coup, "who": who, "bet": bet, "stake": money(stake),
                              "net": money(net)})
                expected[(who, bet)] = expected.get((who, bet), Fraction(0)) + stake * evs[bet]
                per_line[len(lines)] = (stake * evs[bet], settled)
        lines.append({"shoe": shoe_id, "end": True})
    # Interleave the tables' shoes as a real log would: the lines of shoes at different tables mixed, each shoe's
    # own lines kept in order (line numbers are those of the written log).
    return [json.dumps(line) for line in lines], expected, mispaid, irregular, per_line


@pytest.fixture(scope="module")
def built():
    return build_log()


def test_the_review_finds_the_planted_problems_flags_the_counter_and_gives_the_exact_expected_nets(built) -> None:
    log, expected, mispaid, irregular, _ = built
    assert irregular is not None and mispaid
    verdict = review(records(log))
    found = {(f.kind, f.line) for f in verdict.findings}
    assert found == {("mispaid", line) for line in mispaid} | {("dealing", irregular)}
    bettors = {(b["who"], b["bet"]): b for b in verdict.bettors()}
    assert set(bettors) == set(expected)
    for key, value in expected.items():
        assert Fraction(bettors[key]["expected_net"]["exact"]) == value, key
    assert {key for key, b in bettors.items() if b["flagged"]} == {("counter", "dragon-7")}
    counter = bettors[("counter", "dragon-7")]
    assert counter["stake_at_positive_ev"]["exact"] == "1" and Fraction(counter["edge"]["exact"]) > 0
    assert bettors[("flat", "banker")]["p_value"] is None  # the same stake on every coup: nothing to test


def test_each_shoe_s_hold_and_theoretical_hold_are_the_test_s_and_the_worst_are_shown(built) -> None:
    log, _, _, _, per_line = built
    want: dict[str, tuple[Fraction, Fraction, Fraction]] = {}  # per shoe: stake, the bettors' net, expected net
    for number, line in enumerate(log, 1):
        record = json.loads(line)
        if "who" in record:
            stake, net, expected = want.get(record["shoe"], (Fraction(0),) * 3)
            want[record["shoe"]] = (stake + Fraction(record["stake"]), net + Fraction(record["net"]),
                                    expected + per_line[number][0])
    verdict = review(records(log))
    shoes = verdict.as_json()["shoes"]
    assert [s["shoe"] for s in shoes] == list(want)  # every shoe with a wager, in the order they closed
    for s in shoes:
        stake, net, expected = want[s["shoe"]]
        assert Fraction(s["stake"]) == stake and Fraction(s["casino_net"]) == -net
        assert Fraction(s["hold"]["exact"]) == -net / stake
        assert Fraction(s["theoretical_hold"]["exact"]) == -expected / stake
        assert s["theoretical_hold"]["decimal"] == decimal_text(-expected / stake, 6)
    # The table for people shows the five whose hold fell furthest below theory, worst first.
    worst = sorted(want, key=lambda shoe: (want[shoe][2] - want[shoe][1]) / want[shoe][0])[:5]
    section = verdict_text(verdict).split("\nshoes (")[1].splitlines()
    assert [row.split()[0] for row in section[3:]] == worst


def test_every_wager_read_back_from_the_csv_is_priced_and_settled_as_the_test_says(built, tmp_path) -> None:
    log, _, mispaid, _, per_line = built
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(log) + "\n", encoding="utf-8")
    out = CliRunner().invoke(cli, ["review", str(path), "--format", "csv"])
    assert out.exit_code == 0, out.output
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    assert {int(r["line"]) for r in rows} == set(per_line)
    for row in rows:
        expected_net, settled = per_line[int(row["line"])]
        assert Fraction(row["expected_net"]) == expected_net and Fraction(row["settled"]) == settled
        assert (Fraction(row["difference"]) != 0) == (int(row["line"]) in mispaid)
    data = json.loads(CliRunner().invoke(cli, ["review", str(path), "--format", "json"]).stdout)
    assert data["log"]["wagers"] == len(per_line) and data["log"]["bad_lines"] == 0
    table = CliRunner().invoke(cli, ["review", str(path)])
    assert table.exit_code == 0 and "flagged: counter on dragon-7" in table.stdout


def test_a_csv_log_is_the_same_log(built, tmp_path) -> None:
    log, expected, _, _, _ = built
    rows = [json.loads(line) for line in log]
    fields = ["shoe", "table", "decks", "burn", "coup", "player", "banker", "who", "bet", "stake", "net", "end"]
    text = io.StringIO()
    writer = csv.DictWriter(text, fields, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: " ".join(v) if isinstance(v, list) else ("true" if v is True else v)
                         for k, v in row.items()})
    verdict = review(records(text.getvalue().splitlines()))
    bettors = {(b["who"], b["bet"]): Fraction(b["expected_net"]["exact"]) for b in verdict.bettors()}
    assert bettors == expected


@pytest.mark.parametrize(("lines", "words"), [
    (['{"shoe": "a", "decks": 1}', '{"shoe": "a", "coup": 1, "player": "K K", "banker": "K K"}',
      '{"shoe": "a", "coup": 1, "who": "x", "bet": "no-such-bet", "stake": "1", "net": "1"}'], "line 3: unknown bet"),
    (['{"shoe": "a", "decks": 1}', '{"shoe": "a", "coup": 1, "player": "K K", "banker": "K K"}',
      '{"shoe": "a", "coup": 2, "player": "K K", "banker": "KH Q"}', '{"shoe": "a", "coup": 3, "player": "K K",'
      ' "banker": "Q Q"}'], "line 3: shoe 'a' cannot hold"),
    (['{"shoe": "a", "decks": 1}', '{"shoe": "a", "coup": 4, "who": "x", "bet": "tie", "stake": "1", "net": "8"}'],
     "line 2: a wager on coup 4"),
    (['{"shoe": "a", "decks": 1}', 'not json'], "line 2: not valid JSON"),
    (['{"shoe": "b", "coup": 1, "player": "K K", "banker": "K K"}'], "line 1: shoe 'b' has not started"),
    (['{"shoe": "a", "decks": 1}', '{"shoe": "a", "coup": 1, "who": "x", "bet": "tie", "stake": 2.5, "net": "8"}'],
     "line 2: \"stake\" is an amount written exactly"),
    (['{"shoe": "a", "decks": 1}', '{"shoe": "a", "coup": 2, "player": "K K", "banker": "K K"}'],
     "line 2: coup 2 of shoe 'a': the next coup is 1"),
])
def test_a_bad_line_is_one_error_naming_it_or_skipped_and_counted(lines, words, tmp_path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = CliRunner().invoke(cli, ["review", str(path)])
    assert out.exit_code == 2 and out.stderr.startswith("Error: ") and out.stderr.count("\n") == 1, out.stderr
    assert words in out.stderr, out.stderr
    skipped = CliRunner().invoke(cli, ["review", str(path), "--skip-bad", "--format", "json"])
    assert skipped.exit_code == 0, skipped.output
    data = json.loads(skipped.stdout)
    assert data["log"]["bad_lines"] >= 1 and any(f["kind"] == "bad-line" for f in data["findings"])


def test_text_from_the_log_is_data_in_every_export(tmp_path) -> None:
    who = '=HYPERLINK("http://x")\nline'
    lines = ['{"shoe": "=1+1", "decks": 1}', '{"shoe": "=1+1", "coup": 1, "player": "K K", "banker": "K K"}',
             json.dumps({"shoe": "=1+1", "coup": 1, "who": who, "bet": "tie", "stake": "1", "net": "8"})]
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = CliRunner().invoke(cli, ["review", str(path), "--format", "csv"])
    (row,) = list(csv.DictReader(io.StringIO(out.stdout)))
    # A quote first, no spreadsheet reads a formula; a line break is a space, no record spans two rows.
    assert row["who"] == "'" + who.replace("\n", " ") and row["shoe"] == "'=1+1"
    table = CliRunner().invoke(cli, ["review", str(path)]).stdout
    assert "HYPERLINK" in table and "\nline " not in table  # one line per row, the log's line break not written


def test_the_documented_example_log_is_the_scripted_one(built) -> None:
    from pathlib import Path

    log = built[0]
    path = Path(__file__).resolve().parents[1] / "examples" / "table-log.jsonl"
    assert path.read_text(encoding="utf-8") == "\n".join(log) + "\n"  # docs/review.md walks through this very log


# ---------------------------------------------------------------------------------------------
# The verdict as a document (--output): read back by standard readers, against the test's own exact values


class _Cells(HTMLParser):
    """An HTML page's tables (each a list of rows of cell texts), its headings, and each image with the heading of
    the section it is in."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.headings: list[str] = []
        self.images: list[tuple[str, str, str]] = []  # (section heading, alt, src)
        self._text: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th", "h1", "h2", "h3"):
            self._text = []
        elif tag == "img":
            found = dict(attrs)
            self.images.append((self.headings[-1], found.get("alt") or "", found.get("src") or ""))

    def handle_data(self, data):
        if self._text is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._text is not None:
            self.tables[-1][-1].append("".join(self._text))
        elif tag in ("h1", "h2", "h3") and self._text is not None:
            self.headings.append("".join(self._text))
        if tag in ("td", "th", "h1", "h2", "h3"):
            self._text = None


def html_cells(text: str) -> _Cells:
    parser = _Cells()
    parser.feed(text)
    parser.close()
    return parser


def table_of(cells: _Cells, first: str) -> list[dict[str, str]]:
    """The rows of the page's table whose first header is ``first``, as dicts by header."""
    (table,) = [t for t in cells.tables if t[0][0] == first]
    return [dict(zip(table[0], row)) for row in table[1:]]


@pytest.fixture(scope="module")
def documents(built, tmp_path_factory):
    """The example log reviewed to a PDF (nothing printed) and to HTML (with --format json, printed too)."""
    folder = tmp_path_factory.mktemp("review-documents")
    path = folder / "log.jsonl"
    path.write_text("\n".join(built[0]) + "\n", encoding="utf-8")
    pdf = CliRunner().invoke(cli, ["review", str(path), "--output", str(folder / "v.pdf")])
    html = CliRunner().invoke(cli, ["review", str(path), "--format", "json", "--output", str(folder / "v.html")])
    return path, folder, pdf, html


@slow
def test_the_documents_say_what_they_were_and_print_only_what_is_asked(documents) -> None:
    path, folder, pdf, html = documents
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert pdf.exit_code == 0 and pdf.stdout == "", pdf.output
    assert pdf.stderr == (f"{folder / 'v.pdf'}: pdf review of 12 shoes · 224 coups · 381 wagers · 11 findings · 1"
                          f" flagged · exactodds {__version__} · log sha256 {digest[:16]}\n")
    assert html.exit_code == 0 and json.loads(html.stdout)["log"]["wagers"] == 381  # --format given: printed too
    assert (folder / "v.html").read_text(encoding="utf-8").count(digest) == 1  # the whole digest, once


@slow
def test_the_html_read_back_is_the_verdict(built, documents) -> None:
    _, expected, mispaid, irregular, _ = built
    _, folder, _, _ = documents
    text = (folder / "v.html").read_text(encoding="utf-8")
    cells = html_cells(text)
    assert {int(row["line"]) for row in table_of(cells, "kind")} == mispaid | {irregular}
    bettors = {(row["who"], row["bet"]): row for row in table_of(cells, "who")}
    assert {key: row["expected"] for key, row in bettors.items()} == {
        key: decimal_text(value, 4) for key, value in expected.items()}
    assert {key for key, row in bettors.items() if row[""] == "FLAG"} == {("counter", "dragon-7")}
    assert bettors[("counter", "dragon-7")]["p"] == "0.0001"
    assert [row["table"] for row in table_of(cells, "table")] == ["T0", "T1", "T2"]
    # One plot, the flagged bettor's, in his section; an SVG inline (the page refers to nothing outside it).
    ((section, alt, src),) = cells.images
    assert section == "Flagged: counter on dragon-7" and alt.startswith("counter on dragon-7: his stake")
    assert src.startswith("data:image/svg+xml;base64,")
    assert base64.b64decode(src.partition(",")[2]).startswith(b"<?xml")


def test_the_pdf_read_back_is_the_verdict(built, documents) -> None:
    pypdf = pytest.importorskip("pypdf")
    _, expected, mispaid, irregular, _ = built
    path, folder, _, _ = documents
    reader = pypdf.PdfReader(folder / "v.pdf")
    pages = [page.extract_text() for page in reader.pages]
    text = "\n".join(pages)
    cells = {line.strip() for line in text.splitlines()}  # a table's cell is a line of the extracted text
    assert {str(line) for line in mispaid | {irregular}} <= cells
    assert {decimal_text(value, 4) for value in expected.values()} <= cells
    assert "Flagged: counter on dragon-7" in cells and "0.0001" in cells
    stamp = f"log sha256 {hashlib.sha256(path.read_bytes()).hexdigest()[:16]}"
    assert all(stamp in page for page in pages)  # the stamp heads every page
    # One image in the whole document, on the page of the counter's plot (its caption follows it on the page).
    images = [(i, image) for i, page in enumerate(reader.pages) for image in page.images]
    ((at, _),) = images
    assert "counter on dragon-7: his stake against the exact EV" in pages[at]


def test_text_from_the_log_is_data_in_the_documents(built) -> None:
    from exactodds.report.review import ReviewFrame, render_review

    script, formula = "<script>alert(1)</script>", '=HYPERLINK("x")'
    renamed = {"counter": script, "flat": formula}
    log = [json.dumps({k: renamed.get(v, v) if k == "who" else v for k, v in json.loads(line).items()})
           for line in built[0]]
    verdict = review(records(log))
    frame = ReviewFrame("<b>log</b>.jsonl", "0" * 64)
    page = render_review(verdict, frame, "html").decode()
    assert "<script>" not in page and "<b>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    cells = html_cells(page)
    assert {row["who"] for row in table_of(cells, "who")} == {script, formula, "side"}  # shown as written
    ((section, alt, _),) = cells.images
    assert section == f"Flagged: {script} on dragon-7" and alt.startswith(script)
    assert cells.headings[0] == "Review of <b>log</b>.jsonl"
    assert "<script>" not in render_review(verdict, frame, "md").decode()
    text = "\n".join(p.extract_text() for p in pytest.importorskip("pypdf").PdfReader(
        io.BytesIO(render_review(verdict, frame, "pdf"))).pages)
    assert f"Flagged: {script} on dragon-7" in text and formula in text  # reportlab's markup escaped: read as text


@pytest.mark.parametrize(("output", "message"), [
    ("{dir}/verdict.docx", "cannot tell the format of {dir}/verdict.docx from its extension: use .pdf, .html or .md"),
    ("{dir}/no/such/verdict.pdf", "cannot write {dir}/no/such/verdict.pdf: its folder {dir}/no/such does not exist"),
    ("{dir}/", "a name ending in / is a folder"),
])
def test_a_bad_output_is_one_error_line_before_the_log_is_read(tmp_path, output, message) -> None:
    out = CliRunner().invoke(cli, ["review", "-", "--output", output.format(dir=tmp_path)], input="not a log\n")
    assert out.exit_code == 2 and out.stdout == "", out.output
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("Error: "), out.stderr
    assert message.format(dir=tmp_path) in out.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_api_reviews_a_log_in_the_body_with_the_command_s_bytes(built) -> None:
    from test_every_game import _cli, _http

    log = "\n".join(built[0][:120]) + "\n"  # the first shoe and more: shoes left open close at the end of the log
    out = _cli(["review", "-", "--format", "json", "--seed", "3"], log)
    assert out[0] == 0, out
    assert _http("POST", "/review", {"log": log, "seed": 3}) == (200, out[1])
    status, body = _http("POST", "/review", {"log": log + "not json\n"})
    assert status == 400 and json.loads(body)["error"].startswith(f"line {len(built[0][:120]) + 1}: not valid JSON")
    status, body = _http("POST", "/review", {"log": log + "not json\n", "skip_bad": True})
    assert status == 200 and json.loads(body)["log"]["bad_lines"] == 1


def test_a_rebate_is_owed_and_expected_as_worked_out_here() -> None:
    """With a 1% rebate on the standard basis, each bettor's rebate owed (by the rules text's settlement of each wager)
    and expected (by the probabilities of each outcome on the cards left, from ``analyze``), worked out here, are the
    verdict's to the last digit, in its JSON and, summed, in its CSV of wagers; the tables' hold with the rebate too."""
    log, _, _, _, per_line = build_log(shoes=3)
    rate = Fraction(1, 100)

    def weight(net: Fraction, bet: str) -> Fraction:  # the effective stake of a unit paid net (a Banker win: its pay)
        if bet == "banker":
            return Fraction(1) if net < 0 else min(net, Fraction(1))
        return Fraction(net != 0)

    left: dict[str, Shoe] = {}
    before: dict[str, Shoe] = {}
    due: dict[tuple[str, str], Fraction] = {}
    owed: dict[tuple[str, str], Fraction] = {}
    table_due: dict[str, Fraction] = {}
    for number, line in enumerate(log, 1):
        record = json.loads(line)
        shoe = record["shoe"]
        if "decks" in record:
            left[shoe] = Shoe.standard(record["decks"])
        elif "burn" in record:
            left[shoe] = left[shoe].remove(record["burn"])
        elif "player" in record:
            before[shoe] = left[shoe]
            left[shoe] = left[shoe].remove(record["player"] + record["banker"])
        elif "bet" in record:
            key, stake, (_, settled) = (record["who"], record["bet"]), Fraction(record["stake"]), per_line[number]
            figures = analyze(before[shoe].without_suits(), PUNTO_BANCO, [record["bet"]]).bet(record["bet"])
            expected_weight = sum((o.probability * weight(o.outcome.net, record["bet"]) for o in figures.outcomes),
                                  Fraction(0))
            due[key] = due.get(key, Fraction(0)) + stake * rate * weight(settled / stake, record["bet"])
            owed[key] = owed.get(key, Fraction(0)) + stake * rate * expected_weight
            table_due[shoe[:2]] = table_due.get(shoe[:2], Fraction(0)) + stake * rate * weight(settled / stake,
                                                                                                 record["bet"])
    shoes: list = []
    verdict = review(records(log), DEFAULT.settings_of({"rebate": "1%"}), shoe_done=shoes.append, keep_wagers=True)
    data = json.loads(verdict_json(verdict))  # what --format json prints
    assert data["rebate"] == {"rate": "1/100", "basis": "standard"}
    for b in data["bettors"]:
        key = (b["who"], b["bet"])
        assert Fraction(b["rebate_due"]["exact"]) == due[key] and Fraction(b["expected_rebate"]["exact"]) == owed[key]
        assert Fraction(b["expected_net_with_rebate"]["exact"]) == Fraction(b["expected_net"]["exact"]) + owed[key]
    for t in data["tables"]:
        hold = -(-Fraction(t["casino_net"]) + table_due[t["table"]]) / Fraction(t["stake"])
        assert Fraction(t["rebate_due"]["exact"]) == table_due[t["table"]]
        assert Fraction(t["hold_with_rebate"]["exact"]) == hold
    # What --format csv prints: the header, then each shoe's rows as it closed.
    rows = list(csv.DictReader(io.StringIO(csv_header(True) + "".join(wager_rows(s, rebate=True) for s in shoes))))
    summed: dict[tuple[str, str], Fraction] = {}
    for row in rows:
        summed[row["who"], row["bet"]] = summed.get((row["who"], row["bet"]), Fraction(0)) + Fraction(row["rebate_due"])
    assert summed == due
    table = verdict_text(verdict)
    assert "with the rebate 1% (standard basis)" in table and "hold with rebate" in table


@slow
def test_the_review_document_gives_the_rebate_tables(tmp_path) -> None:
    """``review --rebate 1% --output X.html``: the bettors' and the tables' rebate figures, read back from the HTML
    cells, are the JSON's."""
    import re
    from pathlib import Path

    log = str(Path(__file__).resolve().parents[1] / "examples" / "table-log.jsonl")
    page = tmp_path / "review.html"
    assert CliRunner().invoke(cli, ["review", log, "--rebate", "1%", "--output", str(page)]).exit_code == 0
    data = json.loads(CliRunner().invoke(cli, ["review", log, "--rebate", "1%", "--format", "json"]).stdout)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", page.read_text(encoding="utf-8"))
    for b in data["bettors"]:
        row = [b["who"], b["bet"], b["rebate_due"]["decimal"], b["expected_rebate"]["decimal"],
               b["expected_net_with_rebate"]["decimal"], b["edge_with_rebate"]["decimal"]]
        assert any(cells[i:i + len(row)] == row for i in range(len(cells))), row
    for t in data["tables"]:
        row = [t["table"], t["rebate_due"]["decimal"], t["hold_with_rebate"]["decimal"],
               t["theoretical_hold_with_rebate"]["decimal"]]
        assert any(cells[i:i + len(row)] == row for i in range(len(cells))), row
