"""The ``tables`` command: write the reference tables of the checkout, or check them byte for byte."""

from __future__ import annotations

import re
from pathlib import Path

import click

from ..errors import ExactOddsError
from ..files import shown_path
from .progress import progress_line


@click.command(name="tables")
@click.option(
    "--output",
    "output",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    metavar="DIR",
    help="The tables folder (default: tables/ at the top of the exactodds checkout around the current folder).",
)
@click.option("--check", is_flag=True, help="Write nothing; exit 1 naming each stale, missing or extra file.")
def tables(output: Path | None, check: bool) -> None:
    """Write the reference tables (par sheets, house edge by decks, EOR, closed forms), or check them."""
    from ..tables import check_tables, ensure_tables_dir, generate_tables, write_tables

    directory = output if output is not None else find_tables_dir()
    if check and not directory.is_dir():
        raise ExactOddsError(f"there is no tables folder to check at {shown_path(directory)}")
    if not check:
        ensure_tables_dir(directory)  # refuse a foreign folder before the work, not after
    said = [""]
    # Writing, each file is said on its line; checking (some 10 s) says the table being made on a terminal only.
    with progress_line(lambda *_: f"tables: checking; {said[0]}"[:78]) as show:
        def checking(message: str) -> None:
            said[0] = message
            if show is not None:
                show(0, 0)

        files = generate_tables(checking if check else _progress, parallel=True)
    if check:
        status = check_tables(directory, files)
        if not status.ok:
            for line in status.lines():
                click.echo(line, err=True)
            raise click.ClickException(
                f"{shown_path(directory)} is out of date ({status.summary()}): run `exactodds tables` to regenerate it"
            )
        return
    before = write_tables(directory, files, _progress)
    changed = len(before.stale) + len(before.missing)
    click.echo(
        f"{directory}: {len(files)} files, {changed} written, {len(files) - changed} unchanged,"
        f" {len(before.extra)} extra",
        err=True,
    )


def _progress(message: str) -> None:
    click.echo(message, err=True)


_PROJECT_NAME = re.compile(r'^\s*name\s*=\s*["\']exactodds["\']\s*$', re.MULTILINE)


def find_tables_dir(start: Path | str | None = None) -> Path:
    """The ``tables`` folder of the exactodds checkout containing ``start`` (default: the current folder).

    Looks from ``start`` upward for a ``pyproject.toml`` of the project named ``exactodds``.
    """
    here = Path.cwd() if start is None else Path(start)
    here = here.resolve()
    for folder in (here, *here.parents):
        project = folder / "pyproject.toml"
        if project.is_file() and _PROJECT_NAME.search(project.read_text(encoding="utf-8", errors="replace")):
            return folder / "tables"
    raise ExactOddsError(
        f"no exactodds checkout (a pyproject.toml naming exactodds) in {here} or above; use --output DIR"
    )
