"""The cache folder: where tables lie, the checks on a file before a byte is read, the size cap (no numpy).

The rules for the folder (:func:`cache_dir`: the user's own, writable by nobody else) and
for every file in it (a private regular file, never a link, FIFO or device, of bounded
size: :func:`read_private`) are shared by the compiled tables of
:mod:`exactodds.puntobanco.compiled.cache` and the flat tables of :mod:`exactodds.puntobanco.compiled.flat`;
each then checks the content of what it read in its own way. Both write through
:func:`save_private` and mark a file they read as used (:func:`touch`), so that the folder
keeps the most recently used tables up to :func:`cache_limit` bytes (:func:`prune`).
"""

from __future__ import annotations

import contextlib
import os
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

#: The largest table file that is read: a table file is a few MB; anything far bigger is not one.
MAX_FILE_BYTES = 64 << 20
#: The table files of the folder, by name (prefix, suffix): compiled tables, then flat tables.
TABLE_FILES = (("compiled-", ".npz"), ("flat-", ".bin"))
#: How many bytes of tables the folder keeps by default, all kinds together. ``tables --check``
#: needs two compiled tables (2.2 MB each) and five flat tables (1.3 MB); each other tableau
#: (a rules file) adds a compiled table, each other set of bets a flat table (50 kB for one
#: bet, 165 kB for the core bets, about 1 MB for the whole catalog). Every built-in rule set,
#: with and without ``--player-5 stand``, core bets and whole catalog, is 12.5 MB in all:
#: 64 MiB holds that five times over, so only runs that price hundreds of bet sets evict any.
DEFAULT_CACHE_LIMIT = 64 << 20
#: A temporary file of an atomic write (:func:`exactodds.files.write_atomic`) this old was left
#: by a writer that was killed: a table is written in well under a second.
_STALE_TEMP_NS = 3600 * 10**9


def cache_dir() -> Path | None:
    """Where compiled tables are kept, or ``None`` when there is no proper place (then tables are built in memory).

    In order: ``$EXACTODDS_CACHE`` when set and not empty (a relative value is taken
    from the current folder, made absolute at the call); else ``$XDG_CACHE_HOME/exactodds``
    when that is an absolute path (the XDG rules call a relative one invalid, so it is
    ignored); else ``$HOME/.cache/exactodds`` when ``HOME`` is an absolute path; else none.
    The folder is used only if it belongs to the user and nobody else can write to it
    (a shared folder is neither read nor written: tables are then built in memory); the
    default folder, when it is the user's, has group and others' write access taken off.

    >>> import os
    >>> os.environ.get("EXACTODDS_CACHE") or cache_dir() is None or cache_dir().name == "exactodds"
    True
    """
    override = os.environ.get("EXACTODDS_CACHE")
    if override:
        return Path(os.path.abspath(override))
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        return Path(xdg) / "exactodds"
    home = os.environ.get("HOME", "")
    if os.path.isabs(home):
        return Path(home) / ".cache" / "exactodds"
    return None


def _private(st: os.stat_result) -> bool:
    """Whether a file or folder belongs to the user and nobody else may write to it."""
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    getuid = getattr(os, "getuid", None)  # not on Windows, where there is no such owner to check
    return getuid is None or st.st_uid == getuid()


def folder_is_private(folder: Path) -> bool:
    """Whether ``folder`` is a folder of the user's that nobody else can write to (see :func:`_private`)."""
    try:
        st = os.stat(folder)
    except (OSError, ValueError):
        return False
    return stat.S_ISDIR(st.st_mode) and _private(st)


def tighten(folder: Path) -> None:
    """Take group and others' write access off the user's own default cache folder.

    Earlier versions made it with the umask's mode (0o775 under a umask of 002), which
    :func:`folder_is_private` refuses. Taking the access off is safe: every file is still
    checked on its own (the user's, nobody else's to write, and its content), so whatever
    others could do there before leaves nothing that passes for a table.
    """
    with contextlib.suppress(OSError, ValueError):
        st = os.stat(folder, follow_symlinks=False)
        if stat.S_ISDIR(st.st_mode) and st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            if _private(os.stat_result((st.st_mode & ~0o022, *tuple(st)[1:]))):  # ours, but for those bits
                os.chmod(folder, stat.S_IMODE(st.st_mode) & ~0o022)


def read_private(path: Path) -> bytes | None:
    """The bytes of ``path`` if it is a private regular file (not a link, FIFO or device), else ``None``."""
    flags = os.O_RDONLY
    for name in ("O_NOFOLLOW", "O_NONBLOCK", "O_NOCTTY", "O_CLOEXEC", "O_BINARY"):
        flags |= getattr(os, name, 0)
    try:
        fd = os.open(path, flags)  # O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer
    except (OSError, ValueError):
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not _private(st) or st.st_size > MAX_FILE_BYTES:
            return None
        chunks = []
        size = 0
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_FILE_BYTES:
                return None
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


T = TypeVar("T")


def load_private(path: Path, decode: Callable[[bytes], T | None]) -> T | None:
    """What ``decode`` reads from the table file at ``path``, marked used, or ``None`` when the folder or the file is
    not the user's own, or the bytes are damaged in any way (a table then only costs a rebuild).

    >>> load_private(Path("/no/such/folder/t.bin"), lambda data: data) is None
    True
    """
    if not folder_is_private(path.parent):
        return None
    data = read_private(path)
    if data is None:
        return None
    try:
        table = decode(data)
    except Exception:  # any damage at all (struct.error, BadZipFile, EOFError, zlib.error, ValueError, ...)
        return None
    if table is not None:
        touch(path)  # used: the least recently used tables are the ones evicted
    return table


def store_private(path: Path, encode: Callable[[], bytes]) -> None:
    """Write the bytes of ``encode()`` to ``path`` by :func:`save_private`; a read-only or full disk only costs a
    rebuild next time.

    >>> store_private(Path("/proc/no-such-table.bin"), lambda: b"")
    """
    try:
        save_private(path, encode())
    except (OSError, ValueError):
        pass

def cache_limit() -> int:
    """The most bytes of tables the cache folder keeps: ``$EXACTODDS_CACHE_SIZE``, else :data:`DEFAULT_CACHE_LIMIT`.

    The value is a number of bytes, optionally followed by K, M or G (KiB, MiB, GiB), such
    as ``200M``; any other value is ignored (the default holds), as a cache setting never
    stops a run. The file just written is kept even when it alone is over the limit.

    >>> import os
    >>> os.environ.get("EXACTODDS_CACHE_SIZE") is not None or cache_limit() == 64 * 2**20
    True
    """
    text = os.environ.get("EXACTODDS_CACHE_SIZE", "").strip().upper()
    scale = 1 << (10 * ("KMG".index(text[-1]) + 1)) if text and text[-1] in "KMG" else 1
    digits = text[:-1] if scale > 1 else text
    return int(digits) * scale if digits.isascii() and digits.isdigit() else DEFAULT_CACHE_LIMIT


def touch(path: Path) -> None:
    """Mark a table file as just used: its modification time is set to now (the access time is unreliable).

    Under ``noatime`` or ``relatime`` mounts the access time says little, so the
    modification time, which only this module and the atomic writes set, records the last
    use. It is set from the fine clock, so that uses a moment apart are ordered.
    """
    now = time.time_ns()
    with contextlib.suppress(OSError, ValueError):  # gone or replaced meanwhile: nothing to mark
        os.utime(path, ns=(now, now))


def _kind(name: str) -> str | None:
    """``"table"`` for a table file's name, ``"temp"`` for a temporary file of one being written, else ``None``."""
    for prefix, suffix in TABLE_FILES:
        if name.startswith(prefix) and name.endswith(suffix):
            return "table"
        if name.startswith(f".{prefix}") and name.endswith(".tmp"):
            return "temp"
    return None


def _unlink_unchanged(path: Path, seen: os.stat_result) -> None:
    """Delete ``path`` if it is still the file seen (another process may have replaced or used it since)."""
    with contextlib.suppress(OSError):
        now = os.lstat(path)
        if (now.st_ino, now.st_dev, now.st_mtime_ns) == (seen.st_ino, seen.st_dev, seen.st_mtime_ns):
            os.unlink(path)


def prune(folder: Path, keep: str, limit: int | None = None) -> None:
    """Delete the least recently used tables of ``folder`` beyond ``limit`` bytes (:func:`cache_limit`), never ``keep``.

    Safe with other processes at work in the folder: a file another process is reading
    can be unlinked (POSIX keeps it for the reader), a file being written is a temporary
    file, never counted or deleted until it is an hour old (its writer was killed), and a
    file used or replaced since it was looked at is left alone. Two processes pruning at
    once at worst delete a little more than needed; a deleted table is built again.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> for name in ("flat-a.bin", "flat-b.bin", "flat-c.bin", "notes.txt"):
    ...     _ = (folder / name).write_bytes(bytes(10))
    ...     touch(folder / name)
    >>> touch(folder / "flat-a.bin")  # used again: flat-b.bin is now the least recently used
    >>> prune(folder, keep="flat-c.bin", limit=25)
    >>> sorted(p.name for p in folder.iterdir())
    ['flat-a.bin', 'flat-c.bin', 'notes.txt']
    """
    limit = cache_limit() if limit is None else limit
    now = time.time_ns()
    tables = []
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            kind = _kind(entry.name)
            if kind is None:
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if kind == "temp":
                if stat.S_ISREG(st.st_mode) and now - st.st_mtime_ns > _STALE_TEMP_NS:
                    _unlink_unchanged(folder / entry.name, st)
            elif stat.S_ISREG(st.st_mode):  # (a link or anything else by a table's name is never read)
                tables.append((st.st_mtime_ns, entry.name, st))
    total = 0
    for _, name, st in sorted(tables, reverse=True):  # the most recently used first
        total += st.st_size
        if total > limit and name != keep:
            _unlink_unchanged(folder / name, st)


def save_private(path: Path, data: bytes) -> None:
    """Write a table file atomically, in a private folder only, then keep the folder within its cap.

    Raises ``OSError`` or ``ValueError`` when the file cannot be written (the caller then
    only builds the table again next time).
    """
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not folder_is_private(path.parent):
        return  # a shared folder: another user could swap the file, so it is not written at all
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)  # a damaged or foreign entry goes, lest the new file inherit its permissions
    from ...files import write_atomic  # (tempfile, shutil, random: only when a table is written)

    write_atomic(path, data, make_parents=False)
    touch(path)  # by the same clock as every other use
    prune(path.parent, keep=path.name)
