"""The ``exactodds`` command as a process: ``python -m exactodds`` and the console script both run :func:`main`.

Around the command line (:mod:`.cli`) it owns what only a whole process has:

- a Ctrl-C while the command's modules load (a good part of its start-up) is the one line every
  command gives, ``Error: interrupted``, exit code 130: nothing is imported before :func:`main`
  but this module and the package's root, which loads its names on first use;
- the standard output, whose every byte is checked (:class:`.files.CheckedStdout`): a write that
  fails (a full disk, a file-size limit, a closed output) is one ``Error:`` line and exit code 2;
  a reader that went away (``exactodds odds | head -1``) ends the command quietly, with the
  status of a process killed by SIGPIPE, 141, as other Unix tools;
- a Ctrl-C that lands where Python cannot raise it (in a garbage collector's callback, a finalizer) is raised
  again in the main thread, not lost (:func:`_keep_interrupts`);
- its start: the garbage collector's first pass waits until the process has made more objects
  than a command's start-up makes (see :func:`_defer_collection`);
- its end: the objects it loaded are frozen out of the garbage collector's last passes (see
  :func:`_exit`).
"""

import gc
import sys


def main() -> None:
    """Run the ``exactodds`` command line, its output flushed and closed (checked) at the end."""
    _keep_interrupts()
    _defer_collection()
    try:
        from .cli import cli
        from .cli.group import fail
        from .files import CheckedStdout

        stdout = CheckedStdout.install()
        try:
            cli(prog_name="exactodds")
            code: str | int | None = 0
        except SystemExit as end:
            code = end.code
        try:
            stdout.close()
        except OSError as err:
            if code == 0 and not stdout.broken_pipe:  # a command that failed has said so: one Error line only
                fail(err.strerror or str(err))
        _exit(141 if stdout.broken_pipe else code)
    except KeyboardInterrupt:
        if sys.stderr is not None:
            sys.stderr.write("Error: interrupted\n")
            sys.stderr.flush()
        _exit(130)


def _keep_interrupts() -> None:
    """Have a Ctrl-C that Python could not raise where it landed raised again in the main thread, once.

    Python runs a signal's handler between the bytecodes of whatever runs in the main thread, a garbage collector's
    callback or an object's finalizer included; an exception raised there is printed ("Exception ignored in …") and
    dropped, and with it the Ctrl-C: the command went on to its end as if never interrupted. The hook that prints
    such exceptions now hands a KeyboardInterrupt back to the main thread instead (as a new SIGINT would), so that it is
    raised there soon after and ends the command with its one line; every other exception is printed as before.

    >>> import sys
    >>> before = sys.unraisablehook
    >>> _keep_interrupts()
    >>> sys.unraisablehook is not before
    True
    >>> sys.unraisablehook = before
    """
    previous = sys.unraisablehook

    def hook(unraisable: "sys.UnraisableHookArgs") -> None:
        if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
            import _thread
            import signal

            # Not from here: a SIGINT tripped in this hook is raised in it, and dropped again. Another thread trips it
            # once this one has gone back to the command's own code (it waits for the GIL, which this one holds).
            _thread.start_new_thread(_thread.interrupt_main, (signal.SIGINT,))
            return
        previous(unraisable)

    sys.unraisablehook = hook


#: How many objects (that the garbage collector tracks, net of those freed) a process makes before its first
#: collection: more than a command's start-up makes (some 29,000 for ``odds`` or the default report, 12,000 for
#: ``--help``), fewer than a long command makes in its first second.
START_UP_OBJECTS = 50_000


def _defer_collection() -> None:
    """Hold the garbage collector's first pass until the process has made :data:`START_UP_OBJECTS` objects; from that
    pass on it collects as Python's defaults say (or as it was set before).

    A start-up makes its objects to keep them: the modules, their classes and functions, the tables. By default the
    collector walks the young ones every 700 objects and the older every ten such passes, some 40 passes that free
    nothing in ``odds``' start-up, 5% of it. A short command now ends before its first pass; a long one (the server,
    the lab, a batch) has its first pass a little later and larger, then the usual ones. The thresholds are put back
    by a callback of the collector's, which takes itself out of the list at the end of that pass when it is the last
    one there (else it stays and does nothing more: removing it while the collector runs its callbacks would skip the
    next one's call).

    >>> import gc
    >>> before = gc.get_threshold()
    >>> _defer_collection()
    >>> gc.get_threshold()[0] == max(before[0], START_UP_OBJECTS) or before[0] == 0
    True
    >>> gc.collect() >= 0 and gc.get_threshold() == before  # the first pass puts the thresholds back
    True
    """
    global _deferred
    before = gc.get_threshold()
    if _deferred or not 0 < before[0] < START_UP_OBJECTS:  # already deferred, collection off, or set higher
        return
    _deferred = True

    def restore(phase: str, info: dict[str, int]) -> None:
        global _deferred
        if phase == "start" and _deferred:
            gc.set_threshold(*before)
            _deferred = False
        elif phase == "stop" and gc.callbacks and gc.callbacks[-1] is restore:
            # Gone once its work is done, where no callback comes after it to be skipped: a Python callback on every
            # pass would be where a Ctrl-C lands while C code (unpickling, a parser) makes objects, and Python
            # ignores an exception raised in a callback, so the Ctrl-C would be lost.
            gc.callbacks.pop()

    gc.set_threshold(START_UP_OBJECTS, *before[1:])
    gc.callbacks.append(restore)


#: Whether the first collection is being held (:func:`_defer_collection`).
_deferred = False


def _exit(code: str | int | None) -> None:
    """End the process with ``code``, even after a Ctrl-C that was handled.

    CPython marks a KeyboardInterrupt that leaves an ``exec`` of a string (dataclasses and named
    tuples make their methods so, as modules load) as uncaught, even once it is caught, and
    ``python -m`` then ends the process by SIGINT, not with its exit code. Each ``exec`` of a
    string clears that mark first: an empty one does nothing else.

    As the interpreter shuts down, its garbage collector walks every object still alive, tens of
    thousands (every game's module, the tables, the figures), for cycles to free: some 5% of a
    short command's time, for memory the process is about to give back anyway. The objects are
    frozen out of its reach first (:func:`gc.freeze`); the exit handlers still run and the
    standard streams are still flushed at shutdown (the output is closed and checked by then).
    """
    exec("")
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    main()
