"""The click group of the command line: bad input as one ``Error:`` line, and commands loaded when they run."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any

import click

from ..errors import ExactOddsError, first_line
from ..files import shown_path

#: How the group finds a command it has not loaded: the loader of its family module, and its name there.
CommandEntry = tuple[Callable[[], ModuleType], str]


class _Stopped(Exception):  # noqa: N818 - a signal carried past click's own handling, not an error
    """Ctrl-C or the end of the input, carried past click (which would print a blank line first)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class OneLineErrors(click.Group):
    """A click group whose bad input ends as one ``Error: …`` line on stderr and exit code 2.

    Its commands are those of ``commands`` (a name: :data:`CommandEntry` mapping, the registry), each
    imported on first use: running or listing one (``--help``) loads its family module and no other.
    """

    def __init__(self, *args: Any, commands_of: Mapping[str, CommandEntry], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands_of = commands_of

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.commands_of})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in self.commands_of:
            load, attribute = self.commands_of[cmd_name]
            command = getattr(load(), attribute)
            self.add_command(command, cmd_name)
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """The command named first; a name that is none is told the closest ones (``trak``: did you mean track?)."""
        name = args[0] if args else ""
        if (name and not name.startswith("-") and not ctx.resilient_parsing
                and self.get_command(ctx, name) is None):
            from ..errors import unknown_name

            ctx.fail(str(unknown_name("command", name, self.list_commands(ctx), more="exactodds --help lists them")))
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of ``--help``: each command's summary, from :mod:`.summaries` (made from the commands' help by
        ``docs/gen_docs.py``) for a command not yet loaded, so that listing them imports none of their modules."""
        from .summaries import SUMMARIES

        names = self.list_commands(ctx)
        if any(name not in SUMMARIES and name not in self.commands for name in names):
            super().format_commands(ctx, formatter)  # a command with no summary yet: load them all, as click does
            return
        limit = formatter.width - 6 - max(map(len, names), default=0)
        rows = []
        for name in names:
            loaded = self.commands.get(name)
            if loaded is not None:
                if loaded.hidden:
                    continue
                rows.append((name, loaded.get_short_help_str(limit)))
            else:
                stand_in = click.Command(name, help=SUMMARIES[name])  # cut to the width as click cuts a command's
                rows.append((name, stand_in.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def all_commands(self) -> dict[str, click.Command]:
        """Every command by name, each loaded (for the docs and the tests)."""
        ctx = click.Context(self)
        return {name: command for name in self.list_commands(ctx) if (command := self.get_command(ctx, name))}

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise _Stopped("interrupted") from None
        except EOFError:
            raise _Stopped("the input ended unexpectedly") from None

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            result = super().main(short_help(sys.argv[1:] if args is None else args), prog_name, complete_var,
                                  standalone_mode=False, **extra)
        except click.UsageError as err:
            fail(err.format_message())
        except click.ClickException as err:
            fail(err.format_message(), err.exit_code)
        except ExactOddsError as err:
            fail(str(err))
        except UnicodeDecodeError:  # an input file (or stdin) that is not text
            fail("cannot read the input: it is not UTF-8 text")
        except UnicodeEncodeError as err:
            fail(_not_encoded(err))
        except OSError as err:  # a file that cannot be read or written: still one line, no traceback
            where = f" ({shown_path(str(err.filename))})" if err.filename else ""
            fail(f"{err.strerror or err}{where}")
        except _Stopped as stop:
            fail(stop.message, 130 if stop.message == "interrupted" else 2)
        except click.Abort:
            fail("interrupted", 130)
        except KeyboardInterrupt:
            fail("interrupted", 130)
        if not standalone_mode:
            return result
        sys.exit(result if isinstance(result, int) else 0)


def short_help(args: Sequence[str]) -> list[str]:
    """The arguments with ``-h`` read as ``--help`` (no option of any command is ``-h``; after ``--`` it is a value).

    Made here rather than as click's help option name: click keeps each command's help option from the first
    context that asks for it, so a context made without the group's settings would lose ``-h``.

    >>> short_help(["odds", "-h"]), short_help(["review", "--", "-h"])
    (['odds', '--help'], ['review', '--', '-h'])
    """
    out, plain = [], False
    for arg in args:
        plain = plain or arg == "--"
        out.append("--help" if arg == "-h" and not plain else arg)
    return out


def _not_encoded(err: UnicodeEncodeError) -> str:
    """What a text that could not be encoded was: a value holding a lone surrogate (which a caller's string can hold,
    though the shell's bytes never decode to one), or a character the output's encoding lacks.

    >>> _not_encoded(UnicodeEncodeError("utf-8", "a\\ud800", 1, 2, "surrogates not allowed"))[:36]
    'a value holds a lone surrogate (such'
    >>> _not_encoded(UnicodeEncodeError("ascii", "a…", 1, 2, "ordinal not in range(128)"))
    "cannot write '…' in the encoding ascii: use a UTF-8 locale (e.g. LANG=C.UTF-8)"
    """
    bad = err.object[err.start : err.start + 1] if isinstance(err.object, str) else ""
    if "\ud800" <= bad <= "\udfff":
        return "a value holds a lone surrogate (such as \\ud800), which is not a character: give UTF-8 text"
    return f"cannot write {bad!r} in the encoding {err.encoding}: use a UTF-8 locale (e.g. LANG=C.UTF-8)"


def fail(message: str, code: int = 2) -> None:
    """End the command with ``message`` as one ``Error:`` line on stderr (its first line, spaces squeezed)."""
    click.echo(f"Error: {first_line(message)}", err=True)
    sys.exit(code)
