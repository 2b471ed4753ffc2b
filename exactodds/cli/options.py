"""The command line's options, declared once: option bundles, the whole-number type, and what they describe.

Every command that takes a shoe or rules takes them through :func:`shoe_and_rules` (as one
:class:`Setup`) or :func:`rules_options`, every ``--bet`` is :func:`bet_option`, every
``--format`` and ``--precision`` :func:`output_options`: the options (and their help) are the
same everywhere, and a command receives the objects they describe, built and checked.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click

from ..cards import Shoe
from ..errors import ExactOddsError
from ..exact import parse_commission, parse_pays, short_text
from ..family.deal import SettingValue
from ..present.formats import FORMATS
from ..puntobanco.bets import ALL_BETS
from ..puntobanco.events import Bet
from ..puntobanco.rules import PLAYER_FIVE, PUNTO_BANCO, RULE_SETS, RuleSet, find_rules
from ..puntobanco.userdefs import choose_bets, load_bets, load_rules
from ..rebate import BASES, Rebate
from . import choices
from .types import Choice, DeckRange, WholeNumber

if TYPE_CHECKING:
    from ..variants import Variant

F = TypeVar("F", bound=Callable[..., Any])


# Option bundles: each option is declared once, here, and every command that takes a shoe
# or rules takes them all the same way (with the same help), as the objects they describe.


@dataclass(frozen=True)
class Setup:
    """What a command works on, built from its options: the shoe, the rules and the bets named.

    ``bets`` holds the ids of ``--bet`` (an id a ``--bets-file`` defines standing for its bet), then every bet of
    the files unless ``--bet`` named one of them (:func:`choose_bets`); ``None`` when no bet is named at all: the
    command's default. ``file_bets`` are the bets of the ``--bets-file`` files, named or not.

    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> setup = Setup(Shoe.standard(1), PUNTO_BANCO)
    >>> setup.shoe.size, setup.rules.name, setup.bets
    (52, 'punto-banco', None)
    """

    shoe: Shoe
    rules: RuleSet
    bets: tuple[str | Bet, ...] | None = None
    file_bets: tuple[Bet, ...] = ()
    #: The game of ``--game`` when it has a deal of its own (its bets are then ``bets``' ids, priced under
    #: ``settings``); ``None``: punto banco, under ``rules``.
    game: Variant | None = None
    settings: dict[str, SettingValue] | None = None


def shoe_options(func: F) -> F:
    """The options that describe a shoe, handed to the command as typed: ``--decks``, ``--shoe`` and ``--remove``
    (``decks``, ``shoe_text``, ``remove``; see :func:`build_shoe`).

    Only ``solve`` takes them alone (its infinite-deck model takes no shoe); every other command takes the
    shoe built, in a :class:`Setup` (:func:`shoe_and_rules`).
    """
    func = click.option("--remove", "remove", metavar="CARDS", help='Cards already seen, e.g. "7,7,8,K".')(func)
    func = click.option(
        "--shoe", "shoe_text", metavar="COUNTS", help='Explicit counts, e.g. "A=32,2=32,…" (unlisted ranks hold 0).'
    )(func)
    return click.option("--decks", type=WholeNumber(), default=None, help="Standard 52-card decks (default 8).")(func)


def rules_options(func: F) -> F:
    """The options that pick the rules and add bets: ``--rules``, ``--commission``, ``--tie-pays``, ``--player-5``,
    ``--rules-file`` and ``--bets-file``, handed to the command built, and ``--game``, which takes punto banco only.

    The command receives ``rules`` (a :class:`~exactodds.puntobanco.rules.RuleSet`) and, if it has a ``--bet``
    (:func:`bet_option`), ``bets`` (as :attr:`Setup.bets`), else ``file_bets`` (as :attr:`Setup.file_bets`).
    """
    return _rules_options(func, games=False)


def game_rules_options(func: F) -> F:
    """:func:`rules_options` of a command that takes every game with bets (``--game``): it also receives ``game``
    and ``settings`` (as :attr:`Setup.game` and :attr:`Setup.settings`)."""
    return _rules_options(func, games=True)


def _rules_options(func: F, *, games: bool) -> F:
    borrowed = choices.borrowed(func) if games else {}

    @functools.wraps(func)
    def built(*args: Any, **kwargs: Any) -> Any:
        has_bet_option = "bet_ids" in kwargs
        setup = _take_setup(kwargs, shoe=False, games=games, borrowed=borrowed)
        if games:
            kwargs.update(game=setup.game, settings=setup.settings)
        if has_bet_option:
            return func(*args, rules=setup.rules, bets=setup.bets, **kwargs)
        return func(*args, rules=setup.rules, file_bets=setup.file_bets, **kwargs)

    return cast(F, _rules_declared(choices.declared(built, borrowed) if games else built))


def shoe_and_rules(func: F) -> F:
    """The shoe, rules and files options of every command that prices bets on a shoe (:func:`shoe_options`, then
    :func:`rules_options`), handed to the command as one ``setup``, a :class:`Setup`; ``--game`` takes punto banco
    only (another game is one error naming the command)."""
    return _shoe_and_rules(func, games=False)


def game_shoe_and_rules(func: F) -> F:
    """:func:`shoe_and_rules` of a command that prices every game with bets: ``--game`` may name one with a deal of
    its own (:attr:`Setup.game`), whose usual shoe is the default."""
    return _shoe_and_rules(func, games=True)


def _shoe_and_rules(func: F, *, games: bool) -> F:
    borrowed = choices.borrowed(func) if games else {}

    @functools.wraps(func)
    def built(*args: Any, **kwargs: Any) -> Any:
        return func(*args, setup=_take_setup(kwargs, shoe=True, games=games, borrowed=borrowed), **kwargs)

    return shoe_options(cast(F, _rules_declared(choices.declared(built, borrowed) if games else built)))


def _take_setup(kwargs: dict[str, Any], *, shoe: bool, games: bool, borrowed: dict[str, str] | None = None) -> Setup:
    """Pop the game, shoe, rules and bets options from a command's ``kwargs`` and build what they describe.

    ``--game`` first: a game with a deal of its own takes none of punto banco's rules options (:func:`_game_setup`);
    punto banco takes none of the games' choices (``--pay-table``).
    """
    game = _game_of(kwargs.pop("game_name"), games)
    if game is not None:
        return _game_setup(game, kwargs, shoe=shoe, borrowed=borrowed or {})
    choices.refuse(kwargs)
    built, rules, bets, file_bets = _punto_banco_setup(kwargs, shoe=shoe)
    return Setup(built if built is not None else Shoe.standard(8), rules, bets, file_bets)


def _game_of(name: str | None, games: bool) -> Variant | None:
    """The game of ``--game`` when it is not punto banco (``None``: punto banco); one the command cannot price is
    an error naming the command."""
    if name is None:
        return None
    from ..variants import find_game

    game = find_game(name)
    if game.deal is None and game.priced:
        return None
    command = click.get_current_context().info_name
    if not game.priced:
        raise ExactOddsError(
            f"{game.name} is solved between its two sides, not priced as bets:"
            f" use exactodds {' or '.join(game.commands)}"
        )
    if not games:
        raise ExactOddsError(
            f"{command} works on punto banco only, not on {game.name} (exactodds odds --game {game.name} prices its"
            " bets; exactodds games says what each game offers)"
        )
    return game


#: The options of punto banco's rules that a game with a deal of its own does not take, by keyword and option.
_PUNTO_BANCO_ONLY = (("rules_name", "--rules"), ("player_five", "--player-5"), ("rules_file", "--rules-file"),
                     ("bets_files", "--bets-file"))


def _game_setup(game: Variant, kwargs: dict[str, Any], *, shoe: bool, borrowed: dict[str, str]) -> Setup:
    """The setup of a game with a deal of its own: its shoe (its usual decks by default), settings and bet ids
    (the choices, :func:`.choices.game_choices`; ``borrowed``: those whose option is the command's own)."""
    assert game.deal is not None
    context = click.get_current_context()
    for key, option in _PUNTO_BANCO_ONLY:
        value = kwargs.pop(key)
        if context.get_parameter_source(key) is not click.core.ParameterSource.DEFAULT and value not in (None, ()):
            raise ExactOddsError(
                f"{option} is punto banco's; {game.name} has its own deal and bets (its settings:"
                f" {', '.join('--' + s.name for s in game.deal.settings) or 'none'})"
            )
    settings: dict[str, SettingValue] = {}
    commission, tie_pays = kwargs.pop("commission"), kwargs.pop("tie_pays")
    if commission is not None:
        settings[game.deal.setting("commission").name] = parse_commission(commission)
    if tie_pays is not None:
        settings[game.deal.setting("tie-pays").name] = parse_pays(tie_pays, "tie pay")
    settings.update(choices.game_choices(game.deal, kwargs, borrowed))
    bets = tuple(kwargs.pop("bet_ids")) if "bet_ids" in kwargs else ()
    built = Shoe.standard(game.deal.decks)
    if shoe:
        built = build_shoe(kwargs.pop("decks"), kwargs.pop("shoe_text"), kwargs.pop("remove"), game.deal.decks)
    return Setup(built, PUNTO_BANCO, bets or None, (), game, settings)


def shoe_and_rules_over_decks(func: F) -> F:
    """:func:`shoe_and_rules`, with ``--decks`` also a range ``LOW:HIGH`` of standard decks: the setup's shoe then
    holds HIGH decks, and the command receives the range as ``deck_range`` (``None`` without one)."""

    @functools.wraps(func)
    def built(*args: Any, **kwargs: Any) -> Any:
        decks = kwargs["decks"]
        deck_range = decks if isinstance(decks, tuple) else None
        if deck_range is not None:
            if kwargs["shoe_text"] is not None:
                raise ExactOddsError("a range of --decks is of standard decks: give no --shoe with it")
            kwargs["decks"] = deck_range[1]
        return func(*args, setup=_take_setup(kwargs, shoe=True, games=False), deck_range=deck_range, **kwargs)

    declared = shoe_options(cast(F, _rules_declared(built)))
    decks = next(p for p in declared.__click_params__ if p.name == "decks")  # type: ignore[attr-defined]
    decks.type = DeckRange(1)
    decks.help = "Standard 52-card decks (default 8), or a range LOW:HIGH (on HIGH decks, each with its edge at every"\
        " count of the range)."
    return declared


def _punto_banco_setup(
    kwargs: dict[str, Any], *, shoe: bool
) -> tuple[Shoe | None, RuleSet, tuple[str | Bet, ...] | None, tuple[Bet, ...]]:
    """Pop the shoe, rules and bets options from a command's ``kwargs`` and build what they describe.

    The bets are :attr:`Setup.bets`: with no ``--bet`` option, those of the files. The order is the one the
    options have always been checked in (it decides which of two bad options is named): the rules file, the
    Player's 5, the bets files, the bets named, the shoe, then the pays.
    """
    rules_name: str | RuleSet = kwargs.pop("rules_name")
    player_five: str | None = kwargs.pop("player_five")
    rules_file: Path | None = kwargs.pop("rules_file")
    bets_files: tuple[Path, ...] = kwargs.pop("bets_files")
    if rules_file is not None:
        if click.get_current_context().get_parameter_source("rules_name") is not click.core.ParameterSource.DEFAULT:
            raise ExactOddsError("give either --rules or --rules-file, not both (a rules file may name its base)")
        rules_name = load_rules(rules_file)
    if player_five is not None:
        rules_name = (find_rules(rules_name) if isinstance(rules_name, str) else rules_name).with_player_five(
            player_five
        )
    file_bets = tuple(bets_from_files(bets_files))
    bets = choose_bets(kwargs.pop("bet_ids"), file_bets) if "bet_ids" in kwargs else file_bets
    built = build_shoe(kwargs.pop("decks"), kwargs.pop("shoe_text"), kwargs.pop("remove")) if shoe else None
    rules = build_rules(rules_name, kwargs.pop("commission"), kwargs.pop("tie_pays"))
    return built, rules, bets or None, file_bets


def _rules_declared(func: F) -> F:
    """``func`` with the rules options declared (their order is that of every command's ``--help``)."""
    names = ", ".join(r.name for r in RULE_SETS)
    func = click.option(
        "--game",
        "game_name",
        metavar="GAME",
        default=None,
        help="The game: punto banco (the default) or another that `exactodds games` lists; a game with a deal of"
        " its own takes --decks, --shoe, --remove, --bet and its settings (--tie-pays, --commission, --pay-table,"
        " --strategy).",
    )(func)
    func = click.option(
        "--bets-file",
        "bets_files",
        type=click.Path(dir_okay=False, path_type=Path),
        multiple=True,
        metavar="FILE",
        help="Bets defined in a TOML file (repeatable): --bet ID picks one; with no --bet naming one, every bet of"
        " the files comes after any --bet.",
    )(func)
    func = click.option(
        "--rules-file",
        "rules_file",
        type=click.Path(dir_okay=False, path_type=Path),
        metavar="FILE",
        help="Rules from a TOML file (draw charts, commission, Tie pay, pay overrides); see examples/.",
    )(func)
    func = click.option(
        "--player-5",
        "player_five",
        metavar="|".join(PLAYER_FIVE) + "|P",
        default=None,
        help="The Player's option on 5: draw (the mini table), stand, best (the holder's choice seeing all four"
        " cards, as at the big table), or draw with probability P (e.g. 9/11). Default: the rule set's.",
    )(func)
    pays = [short_text(PUNTO_BANCO.tie_pays)]
    pays += [f"{r.name} {short_text(r.tie_pays)}" for r in RULE_SETS if r.tie_pays != PUNTO_BANCO.tie_pays]
    tie_help = f"Tie pays X to 1 (default the rule set's: {', '.join(pays)})."
    func = click.option("--tie-pays", metavar="X", help=tie_help)(func)
    func = click.option("--commission", metavar="RATE", help="Banker commission: 5%, 4%, 2.5%, 0.05 or 1/20.")(func)
    return click.option("--rules", "rules_name", default="punto-banco", show_default=True, help=f"Rule set: {names}.")(
        func
    )


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
        parts.append(f"'{ALL_BETS}': {every}")
    if note is not None:
        parts.append(note)
    help_text = f"A bet to {purpose} ({'; '.join(parts)})."
    return click.option("--bet", "bet_ids", multiple=True, required=required, metavar="ID", help=help_text)


def rebate_options(func: F) -> F:
    """``--rebate RATE`` and ``--rebate-basis``, handed to the command as ``rebate``: a
    :class:`~exactodds.rebate.Rebate`, or ``None`` without ``--rebate``."""

    @functools.wraps(func)
    def built(*args: Any, **kwargs: Any) -> Any:
        rate: str | None = kwargs.pop("rebate_rate")
        basis: str = kwargs.pop("rebate_basis")
        if rate is None:
            # None: the command was invoked with its defaults (``exactodds`` alone runs ``odds``)
            source = click.get_current_context().get_parameter_source("rebate_basis")
            if source not in (None, click.core.ParameterSource.DEFAULT):
                raise ExactOddsError("--rebate-basis says what a rebate is paid on: give the rate with --rebate RATE")
            return func(*args, rebate=None, **kwargs)
        return func(*args, rebate=Rebate.parse(rate, basis), **kwargs)

    declared = click.option(
        "--rebate-basis", "rebate_basis", type=Choice(BASES), default=BASES[0], show_default=True,
        help="What the rebate is paid on, per unit bet: standard (1 - P(push); on a Banker bet a win counts its net"
        " pay, the commission off), total-stake (1), non-refund (1 - P(push)) or losing-only (P(lose)).",
    )(built)
    return cast(F, click.option(
        "--rebate", "rebate_rate", metavar="RATE",
        help="A rebate on the turnover (0.8%, 0.008 or 1/125): each EV is also shown with it, EV + RATE x the"
        " effective stake (see --rebate-basis).",
    )(declared))


def output_options(
    formats: Sequence[str] = FORMATS,
    *,
    places: tuple[int, int, int] | None = (0, 60, 10),
    precision_help: str = "Decimal places.",
) -> Callable[[F], F]:
    """The output options of a report: ``--format`` (one of ``formats``, a kind's of :mod:`exactodds.present.formats`;
    none if empty) and ``--precision`` (``places`` = lowest, highest, default; none if ``None``)."""

    def add(func: F) -> F:
        if places is not None:
            low, high, default = places
            func = click.option(
                "--precision", type=WholeNumber(low, high), default=default, show_default=True, help=precision_help
            )(func)
        if formats:
            func = click.option(
                "--format", "fmt", type=Choice(formats), default=formats[0], show_default=True,
                help="Output format.",
            )(func)
        return func

    return add


def build_shoe(decks: int | None, shoe_text: str | None, remove: str | None, usual: int = 8) -> Shoe:
    """The shoe the options describe (``usual`` decks when neither ``--decks`` nor ``--shoe`` is given).

    >>> build_shoe(None, None, "7,7").size
    414
    """
    if decks is not None and shoe_text is not None:
        raise ExactOddsError("give either --decks or --shoe, not both")
    shoe = Shoe.parse(shoe_text) if shoe_text is not None else Shoe.standard(usual if decks is None else decks)
    return shoe.remove(remove) if remove else shoe


def build_rules(rules_name: str | RuleSet, commission: str | None, tie_pays: str | None) -> RuleSet:
    """The rule set the options describe: the named one (or that of ``--rules-file``), its commission and Tie pay."""
    rules = find_rules(rules_name) if isinstance(rules_name, str) else rules_name
    if commission is not None:
        rules = rules.with_commission(parse_commission(commission))
    if tie_pays is not None:
        rules = rules.with_tie_pays(parse_pays(tie_pays, "tie pay"))
    return rules


def bets_from_files(paths: Sequence[Path]) -> list[Bet]:
    """The bets of every ``--bets-file``, each file read once however often named; an id in two files is an error."""
    bets: list[Bet] = []
    defined: dict[str, Path] = {}
    read: set[object] = set()
    for path in paths:
        try:  # the same file, by whatever name (a link, ./x, x), is read once
            info = os.stat(path)
            identity: object = (info.st_dev, info.st_ino)
        except OSError:  # load_bets says why it cannot be read (Path.resolve would raise on a link loop)
            identity = os.path.abspath(path)
        if identity in read:
            continue
        read.add(identity)
        for bet in load_bets(path):
            if bet.id in defined:
                raise ExactOddsError(
                    f"the bet id {bet.id!r} is defined in two files, {defined[bet.id]} and {path}: rename one"
                )
            defined[bet.id] = path
            bets.append(bet)
    return bets
