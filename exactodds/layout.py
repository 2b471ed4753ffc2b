"""Plain-text and Markdown tables, laid out as tabulate lays them out: the one table engine of every report and
committed file; and the rules for the text that goes into any export.

Two layouts: the default one (columns as wide as their widest cell or header; Markdown rules
with alignment colons: tabulate's ``simple`` and ``pipe`` formats), and with ``header_margin=2``
the one of the ``odds`` report (every column at least two characters wider than its header;
Markdown rules without colons: ``simple`` and ``github``). Every cell is a string laid out as it
is: no number parsing, no whitespace stripped, a character one column wide.

Text from a user's file is data in every export, never markup or a new line. The file
readers fold its whitespace and refuse control characters (:func:`fold_whitespace`,
:func:`control_character`); each writer is safe on its own even so, for text that came
another way (the library): :func:`one_line` keeps a cell on its line, :func:`markdown_text`
escapes Markdown and HTML. Every cell of a table is passed through them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: Whitespace as Unicode defines it (its White_Space property): folded into one space by the readers.
WHITESPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_WHITESPACE = re.compile(f"[{WHITESPACE}]+")
_BREAKS = re.compile(f"[{WHITESPACE.replace(' ', '')}]")  # whitespace other than the plain space
#: What no text of an export holds: the C0 and C1 control characters other than whitespace, DEL, the
#: bidirectional embeddings, overrides and isolates (they reorder the text around them), the
#: surrogates and the noncharacters (XML, thus XLSX, refuses the last two).
_CONTROL = re.compile(
    "[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufdd0-\ufdef"
    + "".join(f"{chr(plane << 16 | 0xFFFE)}{chr(plane << 16 | 0xFFFF)}" for plane in range(17))
    + "]"
)
#: What stands in an export for a character that no export holds.
REPLACEMENT = "\ufffd"


def control_character(text: str) -> str | None:
    r"""The first character of ``text`` that no export holds (see :data:`_CONTROL`), or ``None``.

    >>> control_character("tab\tand newline\n are whitespace"), control_character("bell\x07")
    (None, '\x07')
    """
    found = _CONTROL.search(text)
    return None if found is None else found[0]


def fold_whitespace(text: str) -> str:
    r"""``text`` with every run of whitespace (newlines included) one space, and none at either end.

    >>> fold_whitespace("  two\r\nlines,\u00a0 one  row ")
    'two lines, one row'
    """
    return _WHITESPACE.sub(" ", text).strip(" ")


def one_line(text: str) -> str:
    r"""``text`` kept on one line: each whitespace character a space, each control character U+FFFD.

    The writers' own guard: a cell stays one cell and a line one line, whatever the text.

    >>> one_line("a\r\nb\tc\x00")
    'a  b c�'
    """
    return _CONTROL.sub(REPLACEMENT, _BREAKS.sub(" ", text))


def plain_text(text: str) -> str:
    r"""``text`` with each control character U+FFFD, line breaks kept (preformatted text: a command, JSON).

    >>> plain_text("a\nb\x1b[2J")
    'a\nb�[2J'
    """
    return _CONTROL.sub(REPLACEMENT, text)


# Markdown: the characters that start inline markup (code, emphasis, links, strikethrough, a table's cell
# break), the HTML that a Markdown viewer renders, and what starts a block at the start of a paragraph.
_INLINE = re.compile(r"[\\`*\[\]|~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")  # snake_case is no emphasis
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_HTML = re.compile("[&<>]")
_BLOCK = re.compile(r"^([#+=-]|\d+[.)])")


def markdown_text(text: str) -> str:
    r"""``text`` as literal inline Markdown on one line (a table cell): no HTML, link, emphasis, code or cell break.

    HTML's ``& < >`` become entities (Markdown viewers render raw HTML); ``\ ` * [ ] | ~`` are
    escaped with a backslash, and ``_`` unless it is inside a word (where it starts no emphasis).

    >>> print(markdown_text("<img src=x onerror=alert(1)> | [x](javascript:y) *b* _i_ house_edge"))
    &lt;img src=x onerror=alert(1)&gt; \| \[x\](javascript:y) \*b\* \_i\_ house_edge
    """
    text = _HTML.sub(lambda m: _ENTITIES[m[0]], one_line(text))
    return _INLINE.sub(lambda m: "\\" + m[0], text)


def markdown_heading(level: int, text: str) -> str:
    r"""A Markdown heading whose text is literal (:func:`markdown_text`, and ``#`` escaped: a closing sequence).

    >>> print(markdown_heading(2, "tie: pays <b>8</b>\n# x #"))
    ## tie: pays &lt;b&gt;8&lt;/b&gt; \# x \#
    """
    return "#" * level + " " + markdown_text(text).replace("#", "\\#")


def markdown_paragraph(text: str) -> str:
    r"""A Markdown paragraph whose text is literal (:func:`markdown_text`): no heading, list, rule or indented code.

    >>> print(markdown_paragraph("# no heading"), markdown_paragraph("1. no list"), markdown_paragraph("    - none"))
    \# no heading 1\. no list \- none
    """
    return _BLOCK.sub(lambda m: m[1][:-1] + "\\" + m[1][-1], markdown_text(text).lstrip(" "), count=1)


def markdown_code(text: str, *, block: bool = False) -> str:
    r"""``text`` as Markdown code: a span on one line, or a fenced block; the fence is longer than any run of
    backticks inside, so that nothing in the text can close it.

    >>> print(markdown_code("a ``b`` c"))
    ```a ``b`` c```
    >>> print(markdown_code("exactodds plot eor"))
    `exactodds plot eor`
    >>> print(markdown_code("x\n```\n<b>", block=True))
    ````
    x
    ```
    <b>
    ````
    """
    text = plain_text(text) if block else one_line(text)
    fence = "`" * max(3 if block else 1, 1 + max((len(run) for run in re.findall("`+", text)), default=0))
    if block:
        return f"{fence}\n{text}\n{fence}"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _lay_out(headers: Sequence[str], rows: Sequence[Sequence[str]], align: str, kind: str, margin: int) -> str:
    """The table as tabulate lays it out in its ``simple``, ``pipe`` and ``github`` formats with this module's
    settings, byte for byte (``tests/test_layout.py`` compares the two): every cell a string as it is (no number
    parsing, no whitespace stripped), each column aligned as ``align`` says, ``margin`` spaces beside each header,
    widths in characters.

    Laid out here, not by tabulate: its import cost every command that prints a table some 30 ms (with
    importlib.metadata, which it calls for its own version), a third of the default report's start-up. The cells
    reach it through :func:`one_line` or :func:`markdown_text`: one line each, without control characters, so
    tabulate's signals in the text (a row of ``\x01`` is a rule, ANSI escapes have no width) never arose.
    """
    for row in rows:
        if len(row) != len(headers):  # tabulate would fill the missing cells in silently
            raise ValueError(f"a row has {len(row)} cells but the table has {len(headers)} columns")
    right = [a == "r" for a in align.ljust(len(headers), "l")]
    widths = [max([len(h) + margin, *(len(row[j]) for row in rows)]) for j, h in enumerate(headers)]

    def cells(row: Sequence[str]) -> list[str]:
        return [c.rjust(w) if r else c.ljust(w) for c, w, r in zip(row, widths, right)]

    if kind == "simple":  # columns two spaces apart, a dashed rule under the headers, no trailing spaces
        lines = ["  ".join(cells(headers)).rstrip(), "  ".join("-" * w for w in widths).rstrip()]
        lines += ["  ".join(cells(row)).rstrip() for row in rows]
        return "\n".join(lines)
    # Markdown (pipe, github): a space either side of each cell; the rule's colons (pipe) follow the columns' cells,
    # so a table without rows has none.
    if kind == "pipe" and rows:
        rule = "|".join("-" * (w + 1) + ":" if r else ":" + "-" * (w + 1) for w, r in zip(widths, right))
    else:
        rule = "|".join("-" * (w + 2) for w in widths)
    lines = ["| " + " | ".join(cells(headers)) + " |", f"|{rule}|"]
    lines += ["| " + " | ".join(cells(row)) + " |" for row in rows]
    return "\n".join(lines)


def markdown_table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], align: str = "", *, header_margin: int = 0
) -> str:
    """A GitHub Markdown table with padded columns; ``align`` holds ``l`` or ``r`` per column (default ``l``).

    With a ``header_margin`` every column is that much wider than its header and the rule has no colons.

    >>> print(markdown_table(["bet", "edge"], [["tie", "14.36%"], ["banker", "1.06%"]], "lr"))
    | bet    |   edge |
    |:-------|-------:|
    | tie    | 14.36% |
    | banker |  1.06% |
    >>> print(markdown_table(["bet", "edge"], [["tie", "14.36%"]], "lr", header_margin=2))
    | bet   |   edge |
    |-------|--------|
    | tie   | 14.36% |
    """
    align = align.ljust(len(headers), "l")
    # Every column is at least three characters wide: tabulate has no such floor, so a shorter header is padded
    # to it (on the side its column's alignment pads), which tabulate keeps as it keeps all whitespace.
    floor = 3 - header_margin
    headers = [
        (text.rjust(floor) if a == "r" else text.ljust(floor))
        for text, a in zip((markdown_text(h) for h in headers), align)
    ]
    rows = [[markdown_text(c) for c in row] for row in rows]
    return _lay_out(headers, rows, align, "github" if header_margin else "pipe", header_margin)


def text_table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], align: str = "", *, header_margin: int = 0
) -> str:
    """A plain-text table: padded columns under a dashed rule, each at least ``header_margin`` wider than its header.

    >>> print(text_table(["bet", "edge"], [["tie", "14.36%"]], "lr"))
    bet    edge
    ---  ------
    tie  14.36%
    >>> print(text_table(["bet", "edge"], [["tie", "14.36%"]], "lr", header_margin=2))
    bet      edge
    -----  ------
    tie    14.36%
    """
    headers = [one_line(h) for h in headers]
    rows = [[one_line(c) for c in row] for row in rows]
    return _lay_out(headers, rows, align, "simple", header_margin)
