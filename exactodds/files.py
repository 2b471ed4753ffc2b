"""Writing files and the standard output: every byte written or one error, never a silent loss.

Four concerns, one home each:

- :func:`check_output`: an output path checked before any work is done for it (the name,
  its folder, what is there now, a probe file), and the temporary files of killed writers
  of it removed;
- :func:`write_atomic`: a temporary file beside the target, then a rename over it;
- :class:`CheckedStdout`: the standard output as a stream that writes every byte or raises
  (the ``exactodds`` command installs it for its whole run);
- :func:`read_regular`: a user's file read with bounds (a regular file, at most so many bytes).
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from .errors import ExactOddsError, shown

#: The suffix of the temporary files, so a folder's owner can recognise a stray one.
TEMP_SUFFIX = ".tmp"
#: What follows ``.NAME.`` in a temporary file's name: the writer's host and process id, mkstemp's 8 characters (a
#: pattern's text: compiled where it is searched, not at every start-up).
_TEMP_TAIL = r"(?P<host>[A-Za-z0-9_-]*)-(?P<pid>[0-9]{1,10})\.[a-z0-9_]{8}" + re.escape(TEMP_SUFFIX)


def _host() -> str:
    """This machine's name, as it appears in temporary files' names (so that a folder shared by hosts is safe)."""
    name = os.uname().nodename if hasattr(os, "uname") else ""
    return re.sub(r"[^A-Za-z0-9_-]", "_", name)[:64]


def _temp_prefix(path: Path) -> str:
    """The start of the name of a temporary file written for ``path``: ``.NAME.HOST-PID.``."""
    return f".{path.name}.{_host()}-{os.getpid()}."


def _gone(pid: int) -> bool:
    """Whether no process ``pid`` runs on this machine (a process of another user runs: it is not ours to judge).

    Only POSIX answers without harm (on Windows, ``os.kill`` ends the process): elsewhere every process runs.
    """
    if os.name != "posix":
        return False
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except (ProcessLookupError, OverflowError):
        return True
    except OSError:
        return False
    return False


def is_stale_temp(path: Path) -> bool:
    """Whether ``path`` is a temporary file (``.NAME.HOST-PID.XXXXXXXX.tmp``) of a writer of this machine that no
    longer runs.

    >>> is_stale_temp(Path(f".r.md.{_host()}-{os.getpid()}.abcd1234.tmp")), is_stale_temp(Path("r.md"))
    (False, False)
    >>> is_stale_temp(Path(f".r.md.{_host()}-999999999.abcd1234.tmp"))  # no such process
    True
    """
    match = re.search(r"\.(" + _TEMP_TAIL + ")$", path.name)
    return match is not None and match["host"] == _host() and _gone(int(match["pid"]))


def remove_stale_temps(path: Path | str) -> list[Path]:
    """Remove the temporary files that writers of ``path`` on this machine left behind when they were killed.

    A temporary file is removed only if its name says this host and a process id that no
    longer runs (:func:`is_stale_temp`): a live writer's file is never touched, nor one of
    another host sharing the folder, nor one named the old way, without a process id.
    Returns the files removed.
    """
    path = Path(path)
    start = f".{path.name}."
    try:
        names = os.listdir(path.parent)
    except OSError:
        return []
    removed = []
    for name in names:
        if name.startswith(start) and is_stale_temp(path.parent / name):
            with contextlib.suppress(OSError):  # gone already, or not ours to remove: either way, not an error
                os.unlink(path.parent / name)
                removed.append(path.parent / name)
    return removed


#: How much of a file's name an error shows: more than of other values (:data:`~exactodds.errors.SHOWN`), as a
#: path's folders come before the name that tells it.
PATH_SHOWN = 100


def _printable(name: str) -> str:
    """A file name as text that can be printed: bytes that are not UTF-8 as ``\\xff``."""
    try:
        raw = name.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return name.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")


def shown_path(name: str | os.PathLike[str]) -> str:
    """A file's name as an error shows it: printable (bytes that are not UTF-8 as ``\\xff``) and cut to a line's
    worth (:func:`~exactodds.errors.shown`).

    >>> shown_path("/tmp/" + "a" * 200)[-6:], shown_path(Path("r.md"))
    ('aaaaa…', 'r.md')
    """
    return shown(_printable(os.fspath(name)), PATH_SHOWN)


def check_output(name: str | os.PathLike[str], *, folder: bool = False) -> Path:
    """The output a user named (a file, or with ``folder`` a folder of files), checked before any work is done for it.

    Refused, each in one sentence: a name holding NUL or bytes that are not UTF-8 (it is
    written into reports, JSON and messages), a file name ending in ``/``, a folder given for
    a file or a file for a folder, an existing file that is not a regular file (a FIFO, a
    device: the atomic rename would replace it, never write into it), a missing folder (none
    is made silently; a new output folder's parent must exist), a symbolic-link loop, and a
    folder where no file can be made (read-only, ``/proc``: a probe file is made and removed).
    The temporary files that killed writers of the same file left are removed
    (:func:`remove_stale_temps`).

    >>> check_output("/nonexistent/x.md")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: cannot write /nonexistent/x.md: its folder /nonexistent does not exist
    """
    text = os.fspath(name)
    if "\x00" in text:
        raise ExactOddsError(f"cannot write {shown_path(text)!r}: a file name cannot hold a NUL character")
    if _printable(text) != text:
        raise ExactOddsError(f"cannot write {shown_path(text)}: the name is not UTF-8 text; give a name in UTF-8")

    def refuse(why: str) -> ExactOddsError:
        return ExactOddsError(f"cannot write {shown_path(text)}: {why}")

    if not text:
        raise ExactOddsError("cannot write '': give a file name")
    if not folder and text.endswith(tuple(s for s in (os.sep, os.altsep) if s)):
        raise refuse("a name ending in / is a folder; give a file name")
    path = Path(text)
    try:
        info: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        info = None
        if os.path.lexists(path):
            raise refuse("it is a symbolic link to nothing") from None
    except OSError as err:  # a link loop, a file used as a folder on the way, no permission
        raise refuse(err.strerror or str(err)) from None
    if info is not None:
        if folder and not stat.S_ISDIR(info.st_mode):
            raise refuse("it is not a folder")
        if not folder and stat.S_ISDIR(info.st_mode):
            raise refuse("it is a folder")
        if not folder and not stat.S_ISREG(info.st_mode):
            raise refuse("it exists and is not a regular file")
    where = path if info is not None and folder else path.parent
    if where != path:
        try:
            parent = os.stat(where)
        except FileNotFoundError:
            raise refuse(f"its folder {shown_path(where)} does not exist") from None
        except OSError as err:
            raise refuse(f"{shown_path(where)}: {err.strerror or err}") from None
        if not stat.S_ISDIR(parent.st_mode):
            raise refuse(f"{shown_path(where)} is not a folder")
    import tempfile  # (shutil, random: not at start-up)

    try:  # what the permission bits do not say (a read-only mount, /proc, an ACL), a probe file does
        fd, probe = tempfile.mkstemp(dir=where, prefix=_temp_prefix(path), suffix=TEMP_SUFFIX)
        os.close(fd)
        os.unlink(probe)
    except OSError as err:
        raise refuse(err.strerror or str(err)) from None
    if not folder:
        remove_stale_temps(path)
    return path


def write_atomic(path: Path | str, data: bytes, *, make_parents: bool = False) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never half of one.

    The temporary file beside it is named ``.NAME.HOST-PID.XXXXXXXX.tmp``, so that one left by
    a killed writer is known as stale (:func:`remove_stale_temps`). Missing parent folders are
    made only if ``make_parents`` is true; an existing file keeps its permissions.

    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "a" / "b.txt"
    >>> write_atomic(target, b"exact", make_parents=True); target.read_bytes()
    b'exact'
    """
    import tempfile

    path = Path(path)
    if make_parents:
        path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=_temp_prefix(path), suffix=TEMP_SUFFIX)
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


# --- Reading a user's file with bounds ------------------------------------------------------------


class NotRegularFile(OSError):
    """A path that names a directory, a pipe, a device or a socket where a regular file is needed."""


class FileTooLarge(OSError):
    """A regular file larger than its reader reads."""


def read_regular(path: str | os.PathLike[str], limit: int, what: str = "a file") -> bytes:
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
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        mode = info.st_mode
        if not stat.S_ISREG(mode):
            kind = "a directory" if stat.S_ISDIR(mode) else "a pipe" if stat.S_ISFIFO(mode) else "a device or socket"
            raise NotRegularFile(errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL,
                                 f"it is {kind}, not a regular file")
        # The size first (nothing read of a file too large), then the bytes read, for a file that grows.
        data = b""
        if info.st_size <= limit:
            with os.fdopen(fd, "rb", closefd=False) as stream:
                data = stream.read(limit + 1)
    finally:
        os.close(fd)
    if info.st_size > limit or len(data) > limit:
        raise FileTooLarge(errno.EFBIG, f"larger than {limit:,} bytes, the most {what} may be")
    return data


@contextlib.contextmanager
def bounded_lines(source: str, max_line: int, max_file: int | None, what: str, hint: str) -> Iterator[Iterator[str]]:
    """The lines of a file (``-``: the standard input), opened and checked at once, read with bounds as they come: a
    line of at most ``max_line`` bytes (a longer one, ``/dev/zero`` or a binary file, is a one-line error quoting its
    start, with ``hint``), UTF-8 text, and a regular file of at most ``max_file`` bytes (``None``: any size); a pipe
    or a terminal may go on for ever, a line at a time."""
    if source == "-":
        if sys.stdin is None:
            raise ExactOddsError("cannot read the standard input: it is closed")
        name, stream = "the standard input", sys.stdin.buffer
    else:
        name = shown_path(source)
        try:
            stream = open(source, "rb")  # a FIFO waits for its writer here, as `cat` would; Ctrl-C stops it
        except OSError as err:
            raise ExactOddsError(f"cannot read {name}: {err.strerror or err}") from None
    try:
        size = _file_size(stream)
        if max_file is not None and size is not None and size > max_file:
            raise _too_large(name, max_file, what)
        yield _bounded_lines(stream, name, max_line, max_file if size is not None else None, what, hint)
    finally:
        if source != "-":
            stream.close()


def _file_size(stream: BinaryIO) -> int | None:
    """The size of the regular file ``stream`` reads; ``None`` for a pipe, a terminal or a stream with no file."""
    try:
        info = os.fstat(stream.fileno())
    except io.UnsupportedOperation:  # an in-memory stream, as in tests
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def _too_large(name: str, max_file: int, what: str) -> ExactOddsError:
    return ExactOddsError(f"cannot read {name}: larger than {max_file:,} bytes, the most {what} may be")


def _bounded_lines(stream: BinaryIO, name: str, max_line: int, max_file: int | None, what: str,
                   hint: str) -> Iterator[str]:
    """The lines of ``stream``, decoded; a line too long, bytes not UTF-8, or a regular file past ``max_file`` (a file
    that grows, or one of /proc's that say they are empty) end it."""
    read = number = 0
    while raw := stream.readline(max_line + 2):  # a line, its "\r\n", and one byte more tells a longer one
        number += 1
        read += len(raw)
        if max_file is not None and read > max_file:
            raise _too_large(name, max_file, what)
        if len(raw) > max_line and len(raw.rstrip(b"\r\n")) > max_line:
            start = raw[:20].decode("utf-8", "replace")
            raise ExactOddsError(f"line {number:,} of {name} is longer than {max_line:,} bytes (it starts {start!r}):"
                                 f" {hint}")
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ExactOddsError(f"line {number:,} of {name} is not UTF-8 text") from None
        yield line
