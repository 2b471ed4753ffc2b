"""Writing files atomically: a temporary file beside the target, then a rename over it."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

#: The suffix of the temporary files, so a folder's owner can recognise a stray one.
TEMP_SUFFIX = ".tmp"


def write_atomic(path: Path | str, data: bytes, *, make_parents: bool = True) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never half of one.

    Missing parent folders are made unless ``make_parents`` is false; an existing file
    keeps its permissions.

    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "a" / "b.txt"
    >>> write_atomic(target, b"exact"); target.read_bytes()
    b'exact'
    """
    path = Path(path)
    if make_parents:
        path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


# --- Reading a user's file with bounds ------------------------------------------------------------


class NotRegularFile(OSError):
    """A path that names a directory, a pipe, a device or a socket where a regular file is needed."""


class FileTooLarge(OSError):
    """A regular file larger than its reader reads."""


def read_regular(path: Path | str, limit: int, what: str = "a file") -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them; anything else is an :class:`OSError`.

    The file is opened without blocking and checked to be a regular file before a byte is
    read, so a pipe, a device (``/dev/zero``), a directory or a socket is refused at once
    (:class:`NotRegularFile`) instead of hanging or reading without end; at most ``limit + 1``
    bytes are ever read, and a larger file is :class:`FileTooLarge` ("… the most ``what`` may be").

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.txt").write_bytes(b"exact"); read_regular(folder / "a.txt", 5)
    b'exact'
    >>> read_regular(folder / "a.txt", 4, "a note")
    Traceback (most recent call last):
    ...
    exactodds.files.FileTooLarge: [Errno 27] larger than 4 bytes, the most a note may be
    >>> try: read_regular(folder, 5)
    ... except NotRegularFile as err: err.strerror
    'it is a directory, not a regular file'
    """
    import errno
    import stat

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a directory" if stat.S_ISDIR(mode) else "a pipe" if stat.S_ISFIFO(mode) else "a device or socket"
            raise NotRegularFile(errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL,
                                 f"it is {kind}, not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as stream:
            data = stream.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise FileTooLarge(errno.EFBIG, f"larger than {limit:,} bytes, the most {what} may be")
    return data
