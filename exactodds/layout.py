"""Plain-text and Markdown tables laid out by hand: the one table engine of every report and committed file.

Two layouts: the default one (columns as wide as their widest cell or header; Markdown rules
with alignment colons), and with ``header_margin=2`` the one of the ``odds`` report (every column
at least two characters wider than its header; Markdown rules without colons).
"""

from __future__ import annotations

from collections.abc import Sequence


def _widths(headers: Sequence[str], rows: Sequence[Sequence[str]], margin: int = 0) -> list[int]:
    widths = [len(h) + margin for h in headers]
    for row in rows:
        if len(row) != len(headers):
            raise ValueError(f"a row has {len(row)} cells but the table has {len(headers)} columns")
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))
    return widths


def _pad(cell: str, width: int, align: str) -> str:
    return cell.rjust(width) if align == "r" else cell.ljust(width)


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
    widths = [max(w, 3) for w in _widths(headers, rows, header_margin)]
    lines = ["| " + " | ".join(_pad(h, w, a) for h, w, a in zip(headers, widths, align)) + " |"]
    if header_margin:
        rules = ["-" * (w + 2) for w in widths]
    else:
        rules = [(":" + "-" * (w + 1) if a == "l" else "-" * (w + 1) + ":") for w, a in zip(widths, align)]
    lines.append("|" + "|".join(rules) + "|")
    for row in rows:
        lines.append("| " + " | ".join(_pad(c, w, a) for c, w, a in zip(row, widths, align)) + " |")
    return "\n".join(lines)


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
    align = align.ljust(len(headers), "l")
    widths = _widths(headers, rows, header_margin)
    lines = ["  ".join(_pad(h, w, a) for h, w, a in zip(headers, widths, align)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    for row in rows:
        lines.append("  ".join(_pad(c, w, a) for c, w, a in zip(row, widths, align)).rstrip())
    return "\n".join(lines)
