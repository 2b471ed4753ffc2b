"""Progress of a long command on the terminal: one line on stderr, rewritten as the work is done and wiped at the
end, shown only when stderr is a terminal (nothing in logs or pipes), as ``edge-sort`` and ``design`` show it.
``simulate`` draws click's progress bar under the same rule."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click

#: ``show(done, total)``: what a long piece of work is told as it goes.
Show = Callable[[int, int], None]


def on_terminal() -> bool:
    """Whether stderr is a terminal, where a progress line is shown."""
    return sys.stderr is not None and sys.stderr.isatty()


@contextmanager
def progress_line(text: Callable[[int, int], str]) -> Iterator[Show | None]:
    """A line of ``text(done, total)`` on stderr when it is a terminal (else ``None``: nothing to tell), wiped at the
    end, so that the result (or the one Error line) starts a clean line."""
    if not on_terminal():
        yield None
        return

    def show(done: int, total: int) -> None:
        click.echo(f"\r{text(done, total)}", err=True, nl=False)

    try:
        yield show
    finally:
        click.echo("\r\x1b[K", err=True, nl=False)
