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
