"""Writing files and the standard output: every byte written or one error, never a silent loss.

- :func:`write_atomic`: a temporary file beside the target, then a rename over it;
- :class:`CheckedStdout`: the standard output as a stream that writes every byte or raises
  (the ``exactodds`` command installs it for its whole run).
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

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


class _WholeWrites(io.RawIOBase):
    """A file descriptor written in full: ``write`` writes every byte or raises ``OSError``, never a short count.

    Python's buffered writer loses the rest of a write larger than its buffer when the system
    writes only part of it (a file-size limit, a full disk) and says nothing; this writer
    loops until all is written, and turns a failure into an error that names the output.
    After a broken pipe (the reader is gone) it discards what follows: no one can read it.
    """

    def __init__(self, fd: int | None) -> None:
        super().__init__()
        self.fd = fd
        self.broken_pipe = False

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self.fd is not None and os.isatty(self.fd)

    def fileno(self) -> int:
        if self.fd is None:
            raise OSError(errno.EBADF, "the standard output is closed")
        return self.fd

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        if self.broken_pipe:
            return len(view)
        if self.fd is None:
            raise OSError(errno.EBADF, "cannot write the standard output: it is closed")
        done = 0
        while done < len(view):
            try:
                written = os.write(self.fd, view[done:])
            except BlockingIOError:  # a non-blocking pipe is full: wait until it can take more
                import select

                select.select([], [self.fd], [])
                continue
            except OSError as err:
                self.broken_pipe = err.errno == errno.EPIPE
                raise OSError(err.errno, f"cannot write the standard output: {err.strerror or err}") from None
            if written == 0:
                raise OSError(errno.EIO, "cannot write the standard output: nothing was written")
            done += written
        return done


class CheckedStdout:
    """``sys.stdout`` replaced, for a run of the command, by a stream whose every write is checked.

    :meth:`install` puts it in place (a stream with no file descriptor, such as a test
    runner's, is kept as it is); :meth:`close` flushes and closes it, and closes the file
    descriptor, so that the last bytes' errors are raised too. A closed standard output (the
    process started with ``>&-``) becomes a stream whose first write raises: output is never
    dropped silently.
    """

    def __init__(self, stream: TextIO, raw: _WholeWrites | None, original: TextIO | None) -> None:
        self.stream, self.raw, self.original = stream, raw, original

    @property
    def broken_pipe(self) -> bool:
        """Whether the reader of the output went away (``exactodds odds | head -1``)."""
        return self.raw is not None and self.raw.broken_pipe

    @classmethod
    def install(cls) -> CheckedStdout:
        """Replace ``sys.stdout`` by a checked stream on the same file descriptor (and the same encoding)."""
        original: Any = sys.stdout
        if original is None:
            raw = _WholeWrites(None)
            stream = io.TextIOWrapper(io.BufferedWriter(raw), encoding="utf-8")
        else:
            try:
                fd = original.fileno()
            except (AttributeError, OSError, ValueError):  # not a file (a test's capture): nothing to check below it
                return cls(original, None, None)
            original.flush()
            raw = _WholeWrites(fd)
            stream = io.TextIOWrapper(
                io.BufferedWriter(raw),
                encoding=original.encoding,
                errors=original.errors,
                line_buffering=original.line_buffering,
            )
        sys.stdout = stream
        return cls(stream, raw, original)

    def close(self) -> None:
        """Flush and close the output (and its file descriptor): an ``OSError`` if any byte was not written."""
        if self.raw is None:
            self.stream.flush()
            return
        try:
            self.stream.close()
        finally:
            if self.original is not None and not self.original.closed:
                try:
                    self.original.close()  # closes the descriptor: a failing close(2) is an error too
                except OSError as err:
                    if not self.broken_pipe:
                        raise OSError(err.errno, f"cannot write the standard output: {err.strerror or err}") from None
