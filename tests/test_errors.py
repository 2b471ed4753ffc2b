"""Near misses: every unknown name or malformed value is one line under 200 characters that says what was meant."""

from __future__ import annotations

from difflib import get_close_matches

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from profiles import examples

from exactodds.cli import cli
from exactodds.errors import close_names

#: A near miss on the command line, and what its one line must suggest.
NEAR_MISSES = [
    (["odds", "--bet", "dragon7"], "did you mean dragon-7?"),
    (["odds", "--rules", "ez-bacarat"], "did you mean ez-baccarat"),
    (["odds", "--player-5", "Draw"], "did you mean draw?"),
    (["odds", "--remove", "7 7 8"], "separate cards with commas, e.g. 7,7,8"),
    (["odds", "--shoe", "A=4 2=4"], "separate the counts with commas, e.g. A=4,2=4"),
    (["odds", "--commission", "5"], "did you mean 5%?"),
    (["simulate", "--strategy", "perfekt", "--shoes", "1"], "did you mean perfect?"),
    (["solve", "--model", "b2"], "did you mean B2?"),
    (["odds", "--format", "jsn"], "did you mean json?"),
    (["eor", "--by", "values"], "did you mean value?"),
    (["plot", "eors", "--output", "/tmp/exactodds-never-written.png"], "did you mean eor?"),
]


@pytest.mark.parametrize(("args", "hint"), NEAR_MISSES, ids=lambda a: " ".join(a) if isinstance(a, list) else "")
def test_a_near_miss_is_one_line_that_names_what_was_meant(args, hint):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    (line,) = result.output.splitlines()
    assert line.startswith("Error: ") and hint in line and len(line) < 200, line


def test_a_commission_that_is_a_rate_gets_no_percent_hint():
    """0.5 is 50%, a rate already (valid); 500 is no percentage below 100: neither is told to add a %."""
    result = CliRunner().invoke(cli, ["odds", "--commission", "500"])
    assert result.exit_code == 2 and "did you mean" not in result.output, result.output


def test_every_option_of_fixed_words_suggests_the_closest():
    """A --format, --model, --by … of any command, added later too, takes the Choice that tells a near miss."""
    import click

    from exactodds.cli.types import Choice

    for name, command in cli.all_commands().items():
        for param in command.params:
            if isinstance(param.type, click.Choice):
                assert isinstance(param.type, Choice), f"{name} {param.opts[0]}: use cli.types.Choice"


@given(st.text(alphabet="abcdeklnprty-7", max_size=30), st.lists(st.text(alphabet="abcdeklnprty-7", max_size=12),
                                                                 max_size=8), st.integers(1, 3))
@examples(300)
def test_the_close_names_are_difflib_s_without_reading_a_word_that_cannot_be_close(word, names, n):
    """``close_names`` leaves out only names difflib's first bound rejects: its answer is difflib's."""
    assert close_names(word, names, n) == get_close_matches(word, names, n=n, cutoff=0.6)
