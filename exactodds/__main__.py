"""The ``exactodds`` command as a process: ``python -m exactodds`` and the console script both run :func:`main`.

Around the command line (:mod:`.cli`) it owns what only a whole process has:

- a Ctrl-C while the command's modules load (a good part of its start-up) is the one line every
  command gives, ``Error: interrupted``, exit code 130: nothing is imported before :func:`main`
  but this module and the package's root, which loads its names on first use;
- the standard output, whose every byte is checked (:class:`.files.CheckedStdout`): a write that
  fails (a full disk, a file-size limit, a closed output) is one ``Error:`` line and exit code 2;
  a reader that went away (``exactodds odds | head -1``) ends the command quietly, with the
  status of a process killed by SIGPIPE, 141, as other Unix tools;
- its end: the objects it loaded are frozen out of the garbage collector's last passes (see
  :func:`_exit`).
"""

import gc
import sys


def main() -> None:
    """Run the ``exactodds`` command line, its output flushed and closed (checked) at the end."""
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
