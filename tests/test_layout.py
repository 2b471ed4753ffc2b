"""The table engine: every text and Markdown table laid out as tabulate lays it out, with the settings that kept its
bytes.

The layout is tabulate's (its ``simple``, ``pipe`` and ``github`` formats), made by :func:`exactodds.layout._lay_out`
and compared with tabulate itself on tables of every shape; each other test pins one rule of the layout (or of the
text that reaches it): drop it and some table of a report or of ``tables/`` changes. The committed tables themselves
are checked byte for byte by ``tests/test_tables.py`` and the reports by the golden tests.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from exactodds.layout import markdown_table, markdown_text, one_line, text_table

ROOT = Path(__file__).resolve().parent.parent


def _by_tabulate(headers: list[str], rows: list[list[str]], align: str, tablefmt: str, margin: int) -> str:
    """The table as tabulate lays it out with the settings layout.py matches (the reference it is compared with)."""
    tabulate = pytest.importorskip("tabulate")  # a test dependency: the package no longer imports it
    columns = ["right" if a == "r" else "left" for a in align.ljust(len(headers), "l")]
    saved = tabulate.MIN_PADDING, tabulate.WIDE_CHARS_MODE
    tabulate.MIN_PADDING, tabulate.WIDE_CHARS_MODE = margin, False
    try:
        return tabulate.tabulate(rows, headers=headers, tablefmt=tablefmt, disable_numparse=True,
                                 preserve_whitespace=True, colalign=columns, headersalign=columns)  # fmt: skip
    finally:
        tabulate.MIN_PADDING, tabulate.WIDE_CHARS_MODE = saved


@pytest.mark.parametrize("seed", range(40))
def test_the_tables_are_tabulate_s_byte_for_byte(seed: int) -> None:
    # layout.py lays out tabulate's simple, pipe and github formats itself (tabulate's import cost start-up 30 ms):
    # the same bytes as tabulate on tables of every shape, cells empty, padded, wide, of any characters.
    rng = random.Random(seed)
    pieces = ["", " ", "x", "tie", "14.36%", "  a", "b  ", "漢字", "-0.50", "1e3", "|", "_i_", "&", "\\", "a" * 12]
    columns, count = rng.randint(1, 5), rng.choice([0, 1, 2, 7])
    headers = [rng.choice(pieces) for _ in range(columns)]
    rows = [[rng.choice(pieces) for _ in range(columns)] for _ in range(count)]
    align = "".join(rng.choice("lr") for _ in range(rng.randint(0, columns)))
    for margin in (0, 2):
        text = [[one_line(c) for c in row] for row in rows]
        assert text_table(headers, rows, align, header_margin=margin) == _by_tabulate(
            [one_line(h) for h in headers], text, align, "simple", margin
        )
        marked = [[markdown_text(c) for c in row] for row in rows]
        floor = 3 - margin
        full = align.ljust(columns, "l")
        shown = [(markdown_text(h).rjust(floor) if a == "r" else markdown_text(h).ljust(floor)) for h, a in
                 zip(headers, full)]  # fmt: skip
        assert markdown_table(headers, rows, align, header_margin=margin) == _by_tabulate(
            shown, marked, align, "github" if margin else "pipe", margin
        )


def test_a_markdown_column_is_at_least_three_characters_wide() -> None:
    # The report's shoe has one-character headers (the ranks): tabulate alone would make these columns one wide.
    assert markdown_table(["A", "2", "x"], [["32", "4", ""]], "rrl") == (
        "|   A |   2 | x   |\n"
        "|----:|----:|:----|\n"
        "|  32 |   4 |     |"
    )
    assert markdown_table(["", "b"], [["", "y"]], "rl", header_margin=2) == (
        "|     | b   |\n"
        "|-----|-----|\n"
        "|     | y   |"
    )


def test_cells_are_laid_out_as_they_are_no_number_parsing_no_whitespace_stripped() -> None:
    cells = [["1e3", "0010", " x", "1.5"], ["nan", "1,000", "y ", "10.25"], ["True", "-0.50", "", "2"]]
    assert text_table(["a", "b", "c", "d"], cells, "llrr") == (
        "a     b       c      d\n"
        "----  -----  --  -----\n"
        "1e3   0010    x    1.5\n"
        "nan   1,000  y   10.25\n"
        "True  -0.50          2"
    )


def test_tabulate_s_in_band_signals_reach_it_as_text() -> None:
    # tabulate takes a row starting with \x01 for a rule, and skips ANSI escapes when it measures a cell:
    # both are control characters, which every cell loses before it is laid out.
    assert text_table(["a", "b"], [["\x01", "x"], ["\x1b[31mred", "y"]]) == (
        "a         b\n"
        "--------  -\n"
        "\ufffd         x\n"
        "\ufffd[31mred  y"
    )


def test_a_table_without_rows() -> None:
    # A header keeps its column's alignment. A Markdown rule has no colons: tabulate takes them from the columns
    # of cells, and a table without rows has none (no command lays one out; the hand layout wrote |:----|-----:|).
    assert text_table(["bet", "edge"], [], "lr", header_margin=2) == "bet      edge\n-----  ------"
    assert markdown_table(["bet", "edge"], [], "lr") == "| bet | edge |\n|-----|------|"


def test_a_row_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(ValueError, match="a row has 1 cells but the table has 2 columns"):
        markdown_table(["a", "b"], [["x"]])


def test_tabulate_is_not_imported_to_lay_out_a_table() -> None:
    # Its import (with importlib.metadata's) cost every command that prints a table some 30 ms of start-up.
    code = "import sys\nfrom exactodds.layout import text_table, markdown_table\n" \
        "text_table(['a'], [['b']]); markdown_table(['a'], [['b']])\nprint('tabulate' in sys.modules)"  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False"]
