"""The command line's options, made from the one declaration of the inputs (:mod:`exactodds.inputs`).

Every command that works on a game takes its inputs through :func:`game_setup`: ``--game``, the
shoe (``--decks``, ``--shoe``, ``--remove``), every setting of every game (each game's
:attr:`~exactodds.game.Game.settings`, once each) and ``--bets-file``; it receives them built,
as one :class:`~exactodds.request.Setup`, by :func:`~exactodds.request.read_setup` (the HTTP
API's builder too). ``--bet`` is :func:`bet_option` (its help says what a bet is to the
command), ``--format`` and ``--precision`` :func:`output_options`. A setting added to a game
is an option of every such command at once, its help made from the registry.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from ..errors import ExactOddsError
from ..game import Capability, Game
from ..inputs import BET, BETS_FILE, DECKS, DECKS_RANGE, GAME, PRECISION, REMOVE, SHOE_TEXT, Input
from ..present.formats import FORMATS
from ..request import Setup, Toml, deck_range, read_setup, setting_help, settings_inputs
from ..tomldata import read_text
from .types import Choice, DeckRange, WholeNumber

F = TypeVar("F", bound=Callable[..., Any])

__all__ = ["Setup", "bet_option", "game_setup", "option", "output_options"]


class _Option(click.Option):
    """A click option whose help is made when it is shown (a setting's help reads the registry's defaults, which
    may read a game's bets file: not at every start-up)."""

    _help: str | None

    def __init__(self, *args: Any, lazy_help: Callable[[], str] | None = None, **kwargs: Any) -> None:
        self._lazy_help = lazy_help
        super().__init__(*args, **kwargs)

    @property
    def help(self) -> str | None:
        """The help, made on first read."""
        if self._lazy_help is not None:
            self._help, self._lazy_help = self._lazy_help(), None
        return self._help

    @help.setter
    def help(self, text: str | None) -> None:
        self._help = text


def option(one: Input, *, help_text: str | Callable[[], str] | None = None, **overrides: Any) -> Callable[[F], F]:
    """The click option of an input: its kind's type, its metavar, its help (or ``help_text``), its default.

    >>> @option(PRECISION)
    ... def f(): ...
    >>> f.__click_params__[0].opts, f.__click_params__[0].default
    (['--precision'], 10)
    """
    settings: dict[str, Any] = {"metavar": one.placeholder or None, "multiple": one.multiple, "default": one.default}
    if one.kind == "whole":
        settings["type"] = WholeNumber(one.low, one.high)
        settings["metavar"] = one.metavar or None
    elif one.kind == "flag":
        settings.update(is_flag=True, default=bool(one.default), metavar=None)
    elif one.kind == "choice":
        settings["type"] = Choice(one.choices)
        settings["metavar"] = one.metavar or None
    elif one.kind == "file":
        settings["type"] = click.Path(dir_okay=False, path_type=Path)
    elif one.kind == "decks":
        settings["type"] = DeckRange(1)
    if one.default is not None and one.kind != "flag":
        settings["show_default"] = True
    settings.update(overrides)
    text = help_text if help_text is not None else one.help
    if callable(text):
        return click.option(one.option, one.param, cls=_Option, lazy_help=text, **settings)
    return click.option(one.option, one.param, help=text, **settings)


def game_setup(
    *, shoe: bool = True, need: Capability | None = "bets", default: Game | None = None, decks_range: bool = False,
    own: Mapping[str, str] | None = None,
) -> Callable[[F], F]:
    """The inputs of a command that works on a game, handed to it built as ``setup`` (a :class:`Setup`).

    ``shoe``: it takes a shoe (else the game's usual one). ``need``: the capability it needs of the game (a game
    without it is refused in one line). ``default``: its game when ``--game`` is not given (punto banco).
    ``decks_range``: ``--decks`` may be a range ``LOW:HIGH`` (the shoe holds HIGH decks; the command also
    receives ``deck_range``). ``own``: settings whose option the command declares itself, by name, with the name of
    the command's parameter (``report``'s lab ``--strategy``, ``strategies``): a game with that setting takes the
    option's one value, and the command then receives none.
    """
    own = own or {}
    settings = [s for s in settings_inputs() if s.name not in own]

    def add(func: F) -> F:
        @functools.wraps(func)
        def built(*args: Any, **kwargs: Any) -> Any:
            values = _values(kwargs, settings, shoe=shoe)
            for name, param in own.items():
                _borrow(values, kwargs, name, param)
            if decks_range:
                span = deck_range(values.get(DECKS.name))
                if span is not None:
                    if values.get(SHOE_TEXT.name) is not None:
                        raise ExactOddsError(f"a range of {DECKS.option} is of standard decks: give no"
                                             f" {SHOE_TEXT.option} with it")
                    values[DECKS.name] = span[1]
                kwargs["deck_range"] = span
            name = click.get_current_context().info_name or "this command"
            setup = read_setup(values, default=default or _default(), shoe=shoe, need=need, tool=name)
            return func(*args, setup=setup, **kwargs)

        declared: Callable[..., Any] = built
        for one in reversed(settings):  # not given: None (the game's default, which its help says); a choice's
            # word is the game's to check (its words, in the setting's name)
            declared = option(one, help_text=functools.partial(setting_help, one), default=None, show_default=False,
                              **({"type": click.STRING, "metavar": one.metavar or "|".join(one.choices)}
                                 if one.kind == "choice" else {}),
                              **({"shell_complete": complete_rules} if one.name == "rules" else {}))(declared)
        declared = option(BETS_FILE)(declared)
        declared = option(GAME, help_text=_game_help(need, default), default=None, metavar="GAME",
                          shell_complete=complete_games)(declared)
        if shoe:
            declared = option(REMOVE)(declared)
            declared = option(SHOE_TEXT)(declared)
            declared = option(DECKS_RANGE if decks_range else DECKS)(declared)
        return cast(F, declared)

    return add


def _default() -> Game:
    from ..games import DEFAULT

    return DEFAULT


def _game_help(need: Capability | None, default: Game | None) -> Callable[[], str]:
    """The help of ``--game``: the games the command works on (those with the capability it needs)."""

    def text() -> str:
        from ..games import DEFAULT, GAMES

        games = [g.name for g in GAMES if need is None or g.has(need)]
        return f"The game, by name or alias: {', '.join(games)} (default {(default or DEFAULT).name})."

    return text


def _values(kwargs: dict[str, Any], settings: Sequence[Input], *, shoe: bool) -> dict[str, Any]:
    """Pop the inputs of :func:`game_setup` (and ``--bet``) from a command's ``kwargs``, as plain values by name."""
    values: dict[str, Any] = {GAME.name: kwargs.pop(GAME.param)}
    if shoe:
        for one in (DECKS, SHOE_TEXT, REMOVE):
            values[one.name] = kwargs.pop(one.param)
    for one in settings:
        value = kwargs.pop(one.param)
        values[one.name] = _file(value) if one.kind == "file" and value is not None else value
    values[BETS_FILE.name] = _files(kwargs.pop(BETS_FILE.param))
    if "bet_ids" in kwargs:
        values[BET.name] = tuple(kwargs.pop("bet_ids")) or None
    return values


def _borrow(values: dict[str, Any], kwargs: dict[str, Any], name: str, param: str) -> None:
    """A setting whose option is the command's own: its one value goes to the game when the game has the setting."""
    from ..games import DEFAULT, find_game

    game = DEFAULT if values.get(GAME.name) is None else find_game(values[GAME.name])
    given = kwargs.get(param)
    if given and any(s.name == name for s in game.settings):
        if len(given) > 1:
            raise ExactOddsError(f"{game.name} plays one --{name}, not {len(given)}")
        values[name], kwargs[param] = given[0], ()


def _file(path: Path) -> Toml:
    """A file named by an option, read with its bound (a regular file, UTF-8)."""
    return Toml(read_text(path), str(path))


def _files(paths: Sequence[Path]) -> tuple[Toml, ...]:
    """The files named by a repeatable option, each read once however often named (a link, ./x, x)."""
    out: list[Toml] = []
    read: set[object] = set()
    for path in paths:
        try:
            info = os.stat(path)
            identity: object = (info.st_dev, info.st_ino)
        except OSError:  # read_text says why it cannot be read (Path.resolve would raise on a link loop)
            identity = os.path.abspath(path)
        if identity not in read:
            read.add(identity)
            out.append(_file(path))
    return tuple(out)


def bet_option(
    purpose: str, *, default: str | None = None, every: str | None = None, note: str | None = None,
    required: bool = False,
) -> Callable[[F], F]:
    """The ``--bet`` option (``bet_ids``, repeatable), its help told by what a bet is to the command: ``purpose``,
    what it prices with no ``--bet`` (``default``), what ``--bet all`` means there (``every``; none: not taken),
    and a ``note``.

    >>> @bet_option("price", default="the core bets", every="every bet")
    ... def f(): ...
    >>> f.__click_params__[0].help
    "A bet to price (repeatable; default the core bets; 'all': every bet)."
    """
    parts = ["repeatable"]
    if default is not None:
        parts.append(f"default {default}")
    if every is not None:
        parts.append(f"'all': {every}")
    if note is not None:
        parts.append(note)
    help_text = f"A bet to {purpose} ({'; '.join(parts)})."
    return click.option(BET.option, "bet_ids", multiple=True, required=required, metavar=BET.metavar, help=help_text,
                        shell_complete=complete_bets)


# Shell completion (docs/getting-started.md): the ids a word may start, from the registries, each loaded only when a
# shell asks. A mistake on the way (a game not yet named right) completes nothing rather than failing.


def complete_games(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """The games' names and aliases that start with ``incomplete``."""
    from ..games import GAMES

    return [name for game in GAMES for name in (game.name, *game.aliases) if name.startswith(incomplete)]


def _game_of(ctx: click.Context) -> Game | None:
    from ..games import DEFAULT, find_game

    try:
        return find_game(ctx.params.get("game") or DEFAULT.name)
    except ExactOddsError:
        return None


def complete_rules(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """The rule sets (names and aliases) of the game named so far, or punto banco's, that start with ``incomplete``."""
    game = _game_of(ctx)
    if game is None or not game.has("rule-sets"):
        return []
    names = [name for rule_set in game.rule_sets() for name in (rule_set[0], *rule_set[1])]
    return [name for name in names if name.startswith(incomplete)]


def complete_bets(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """The bets of the game named so far (under its rule set, if named), and ``all``, that start with ``incomplete``."""
    game = _game_of(ctx)
    if game is None:
        return []
    try:
        settings = game.settings_of({"rules": ctx.params["rules"]} if ctx.params.get("rules") else {})
        ids = [*game.bets(settings), "all"]
    except ExactOddsError:
        return []
    return [bet_id for bet_id in ids if bet_id.startswith(incomplete)]


def output_options(
    formats: Sequence[str] = FORMATS,
    *,
    places: Input | tuple[int, int, int] | None = PRECISION,
) -> Callable[[F], F]:
    """The output options of a report: ``--format`` (one of ``formats``, a kind's of :mod:`exactodds.present.formats`;
    none if empty) and ``--precision``: the option of ``places``, the shared :data:`~exactodds.inputs.PRECISION` or
    the command's own input (declared beside the feature's other inputs, so that its endpoint declares the same);
    a command no endpoint serves may give (lowest, highest, default); none if ``None``.

    >>> @output_options(("table", "json"), places=(1, 12, 4))
    ... def f(): ...
    >>> [(p.name, p.default) for p in f.__click_params__]
    [('precision', 4), ('fmt', 'table')]
    """
    if isinstance(places, tuple):
        low, high, default = places
        places = replace(PRECISION, low=low, high=high, default=default)

    def add(func: F) -> F:
        if places is not None:
            func = option(places)(func)
        if formats:
            func = click.option(
                "--format", "fmt", type=Choice(formats), default=formats[0], show_default=True,
                help="Output format.",
            )(func)
        return func

    return add


def command_line(ctx: click.Context) -> str:
    """The command as typed, rebuilt from the options given (not their defaults), quoted for a POSIX shell.

    The names are click's, so the line runs as is; the order is that of the command's options.
    A word holding bytes that are not UTF-8 (a file's name) is written as bash's ``$'\\xff'``.
    """
    return " ".join(_quoted(part) for part in ["exactodds", *ctx.command_path.split()[1:], *_given(ctx)])


def setup_line(ctx: click.Context) -> str:
    """The options of :func:`game_setup` given to this command (game, shoe, settings, bets files), quoted as in
    :func:`command_line`: what another command printed beside a figure needs to work on the same game and shoe."""
    names = {_param_name(one) for one in (*settings_inputs(), BETS_FILE, GAME, REMOVE, SHOE_TEXT, DECKS, DECKS_RANGE)}
    return " ".join(_quoted(part) for part in _given(ctx, names))


def _param_name(one: Input) -> str:
    return one.name.replace("-", "_")


def _given(ctx: click.Context, names: set[str] | None = None) -> list[str]:
    """The words of the parameters given on the command line (``names``: only these), in the command's order."""
    parts: list[str] = []
    for param in ctx.command.params:
        name = param.name or ""
        if names is not None and name not in names:
            continue
        source = ctx.get_parameter_source(name)
        if source in (None, click.core.ParameterSource.DEFAULT):
            continue
        value = ctx.params.get(name)
        if isinstance(param, click.Argument):
            parts.append(str(value))
            continue
        flag = param.opts[-1] if param.opts[-1].startswith("--") else param.opts[0]
        if getattr(param, "is_flag", False):
            parts.append(flag)
            continue
        for item in value if param.multiple else (value,):  # type: ignore[union-attr]
            parts += [flag, str(item)]
    return parts


def _quoted(word: str) -> str:
    r"""One word of a command line, quoted for the shell; bytes that are not UTF-8 escaped, as ``$'\xff.toml'``.

    >>> print(_quoted("a b"), _quoted("\udcff.toml"))
    'a b' $'\xff.toml'
    """
    try:
        word.encode("utf-8")
    except UnicodeEncodeError:
        try:
            raw = word.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:  # a surrogate no command line's bytes decode to (a caller's str): as UTF-16 would
            raw = word.encode("utf-8", "surrogatepass")
        return "$'" + "".join(chr(b) if 0x20 <= b < 0x7F and b not in b"'\\" else f"\\x{b:02x}" for b in raw) + "'"
    import shlex  # only where a command line is printed

    return shlex.quote(word)
