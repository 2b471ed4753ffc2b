"""Writing the tables folder atomically and checking it byte for byte against the generated files."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..errors import ExactOddsError
from ..files import check_output, is_stale_temp, shown_path, write_atomic
from .common import (
    _OWNED_SUFFIXES,
    INDEX_TITLE,
    Progress,
)


@dataclass(frozen=True)
class TablesStatus:
    """How a folder differs from the generated tables (relative paths, sorted)."""

    directory: Path
    stale: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether the folder holds exactly the generated files, byte for byte."""
        return not (self.stale or self.missing or self.extra)

    def lines(self) -> list[str]:
        """One line per differing file: ``stale: tables/par/…``."""
        out = []
        for kind, paths in (("stale", self.stale), ("missing", self.missing), ("extra", self.extra)):
            out += [f"{kind}: {self.directory / p}" for p in paths]
        return out

    def summary(self) -> str:
        """A one-line count of the differences."""
        parts = [f"{len(p)} {k}" for k, p in (("stale", self.stale), ("missing", self.missing), ("extra", self.extra))]
        return ", ".join(p for p in parts if not p.startswith("0 ")) or "up to date"


def _existing_files(directory: Path) -> list[str]:
    if not directory.is_dir():
        return []
    return sorted(p.relative_to(directory).as_posix() for p in directory.rglob("*") if p.is_file() or p.is_symlink())


def check_tables(directory: Path | str, files: Mapping[str, bytes]) -> TablesStatus:
    """Compare ``directory`` with the generated ``files`` byte for byte.

    >>> status = check_tables("/nonexistent", {"README.md": b"x"})
    >>> status.ok, status.missing
    (False, ('README.md',))
    """
    directory = Path(directory)
    stale, missing = [], []
    for path, data in sorted(files.items()):
        target = directory / path
        if not target.is_file():
            missing.append(path)
        elif target.read_bytes() != data:
            stale.append(path)
    extra = [p for p in _existing_files(directory) if p not in files]
    return TablesStatus(directory, tuple(stale), tuple(missing), tuple(extra))


def _looks_like_tables(directory: Path) -> bool:
    if not directory.exists():
        return True
    if not directory.is_dir():
        return False
    if not any(directory.iterdir()):
        return True
    index = directory / "README.md"
    return index.is_file() and index.read_bytes().startswith(INDEX_TITLE.encode())


def ensure_tables_dir(directory: Path | str) -> Path:
    """Return ``directory`` as a path if tables may be written there: new, empty, or a tables folder, and writable.

    Everything is checked before the tables are computed: the folder (or, for a new one, its
    parent) as any output (:func:`exactodds.files.check_output`), what it holds, and that a
    file can be made in each of its subfolders.

    >>> ensure_tables_dir("/nonexistent/tables")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: cannot write /nonexistent/tables: its folder /nonexistent does not exist
    """
    directory = check_output(directory, folder=True)
    if not _looks_like_tables(directory):
        raise ExactOddsError(
            f"{shown_path(directory)} is not empty and does not look like an exactodds tables folder "
            f"(no README.md starting {INDEX_TITLE!r}); give a new or empty folder"
        )
    if directory.is_dir():
        for folder, subfolders, names in os.walk(directory):  # os.walk does not follow links
            for name in (*subfolders, *names):
                _refuse_links(Path(folder), [name])
            if Path(folder) != directory:
                check_output(folder, folder=True)
    return directory


def write_tables(directory: Path | str, files: Mapping[str, bytes], progress: Progress | None = None) -> TablesStatus:
    """Bring ``directory`` in line with ``files``: write what is stale or missing (atomically), remove extras.

    Refuses a non-empty folder that is not a tables folder (no generated README.md), and
    only removes extra files of the kinds it writes (``.md``, ``.csv``, ``.json`` and the
    temporary files of its killed runs); other extra files are left and stay in the returned status.
    Returns what differed before writing.
    """
    directory = ensure_tables_dir(directory)
    before = check_tables(directory, files)
    _refuse_links(directory, [*before.missing, *before.stale, *before.extra])
    for path in (*before.missing, *before.stale):
        write_atomic(directory / path, files[path], make_parents=True)
        if progress is not None:
            progress(f"wrote {directory / path}")
    for path in before.extra:
        target = directory / path
        if target.suffix in _OWNED_SUFFIXES or is_stale_temp(target):  # never a live writer's temporary file
            target.unlink()
            if progress is not None:
                progress(f"removed {target}")
            with contextlib.suppress(OSError):
                parent = target.parent
                while parent != directory and not any(parent.iterdir()):
                    parent.rmdir()
                    parent = parent.parent
        elif progress is not None:
            progress(f"left alone (not a generated kind of file): {target}")
    return before


def _refuse_links(directory: Path, paths: Iterable[str]) -> None:
    """Refuse to write or remove through a symbolic link below ``directory`` (a subfolder or a file).

    A link such as ``tables/eor -> elsewhere`` would make the generator write (or delete)
    files outside the tables folder; every path is checked before anything is written.
    """
    for path in paths:
        target = directory
        for part in Path(path).parts:
            target = target / part
            if target.is_symlink():
                raise ExactOddsError(
                    f"{shown_path(target)} is a symbolic link: the tables are written only inside"
                    f" {shown_path(directory)}, never through"
                    " a link; remove the link or give another --output folder"
                )
