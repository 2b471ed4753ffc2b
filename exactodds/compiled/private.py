"""Where compiled tables lie on disk, and the checks on a file before a byte of it is read (no numpy here).

The rules for the folder (:func:`cache_dir`: the user's own, writable by nobody else) and
for every file in it (a private regular file, never a link, FIFO or device, of bounded
size: :func:`read_private`) are shared by the compiled tables of
:mod:`exactodds.compiled.cache` and the flat tables of :mod:`exactodds.compiled.flat`;
each then checks the content of what it read in its own way.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

_MAX_CACHE_BYTES = 64 << 20  # a table file is a few MB; anything far bigger is not one


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
        if not stat.S_ISREG(st.st_mode) or not _private(st) or st.st_size > _MAX_CACHE_BYTES:
            return None
        chunks = []
        size = 0
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            size += len(chunk)
            if size > _MAX_CACHE_BYTES:
                return None
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)

