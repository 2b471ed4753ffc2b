"""The table engine: tabulate lays out every text and Markdown table, with the settings that keep its bytes.

Each test below pins one setting of :func:`exactodds.layout._tabulate` (or the text that reaches tabulate): drop it
and some table of a report or of ``tables/`` changes. The committed tables themselves are checked byte for byte by
``tests/test_tables.py`` and the reports by the golden tests.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import tabulate

from exactodds.layout import markdown_table, text_table

ROOT = Path(__file__).resolve().parent.parent


def test_tabulate_lays_out_both_kinds_of_table(monkeypatch: pytest.MonkeyPatch) -> None:
    formats = []

    def spy(*args: object, **kwargs: object) -> str:
        formats.append(kwargs["tablefmt"])
        return real(*args, **kwargs)  # type: ignore[arg-type]

    real = tabulate.tabulate
    monkeypatch.setattr(tabulate, "tabulate", spy)
    for margin in (0, 2):
        text_table(["bet"], [["tie"]], header_margin=margin)
        markdown_table(["bet"], [["tie"]], header_margin=margin)
    assert formats == ["simple", "pipe", "simple", "github"]


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


def test_a_character_is_one_column_wide_even_with_wcwidth_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    # wcwidth comes with prompt_toolkit; tabulate would count each ideograph as two columns with it. Whether this
    # process's tabulate was imported with it depends on what loaded first: give it wcwidth, and turn it on.
    import tabulate

    monkeypatch.setattr(tabulate, "wcwidth", pytest.importorskip("wcwidth"))
    monkeypatch.setattr(tabulate, "WIDE_CHARS_MODE", True)
    assert text_table(["bet", "edge"], [["漢字の賭け", "1%"], ["tie", "14.36%"]], "lr") == (
        "bet      edge\n"
        "-----  ------\n"
        "漢字の賭け      1%\n"
        "tie    14.36%"
    )
    assert markdown_table(["bet"], [["中文"]]) == "| bet |\n|:----|\n| 中文  |"


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


def test_tabulate_s_module_settings_are_given_back(monkeypatch: pytest.MonkeyPatch) -> None:
    # A program that uses tabulate itself as well as exactodds keeps its own settings.
    monkeypatch.setattr(tabulate, "MIN_PADDING", 5)
    monkeypatch.setattr(tabulate, "WIDE_CHARS_MODE", True)
    assert text_table(["a"], [["b"]]) == "a\n-\nb"
    assert (tabulate.MIN_PADDING, tabulate.WIDE_CHARS_MODE) == (5, True)


def test_tabulate_is_imported_only_when_a_table_is_laid_out() -> None:
    # Its import (with wcwidth's and importlib.metadata's) costs start-up time: `odds --format json` never pays it.
    code = (
        "import sys\nimport exactodds.cli, exactodds.present.odds, exactodds.tables, exactodds.layout as layout\n"
        "print('tabulate' in sys.modules)\nlayout.text_table(['a'], [['b']])\nprint('tabulate' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


def test_the_first_table_does_not_load_wcwidth_which_loads_later_all_the_same() -> None:
    """tabulate's import skips its optional wcwidth (widths are in characters here): 15-20 ms of start-up."""
    import subprocess
    import sys

    code = (
        "import sys; from exactodds.layout import text_table; text_table(['a'], [['b']])\n"
        "assert 'tabulate' in sys.modules and 'wcwidth' not in sys.modules, sorted(sys.modules)\n"
        "import wcwidth, tabulate; assert wcwidth.wcswidth('ab') == 2 and tabulate.wcwidth is None"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
