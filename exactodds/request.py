"""What a command or a request asks for, built from the inputs it gave: the game, the shoe, the settings, the bets.

The command line (:mod:`exactodds.cli.options`) and the HTTP API (:mod:`exactodds.serve`) read
their inputs (:mod:`exactodds.inputs`) each in its own way to the same plain values, keyed by
input name, and :func:`read_setup` builds the one :class:`Setup` from them: so a value means the
same, and a bad one gets the same words, on both. Every setting of every game is one input
(:func:`settings_inputs`): a setting the chosen game lacks is refused, naming those it has.

>>> setup = read_setup({"game": "dragon-tiger", "decks": 6, "tie-pays": "11", "bet": ("tie",)})
>>> setup.game.name, setup.shoe.size, setup.price().bet("tie").house_edge_percent(2)
('dragon-tiger', 312, '11.25%')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

from .analysis import Analysis, Rules
from .cards import Shoe, parse_deck_range
from .errors import ExactOddsError, shown
from .files import shown_path
from .game import Capability, Game, Settings
from .games import DEFAULT, GAMES, find_game
from .inputs import BET, BETS_FILE, COUNTS, DECKS, GAME, REMOVE, SHOE_TEXT, Input
from .paytable import Bet


class Toml(NamedTuple):
    """The text of a TOML file as given (``--rules-file FILE`` read, or a request's ``rules_toml``), and its name for
    the errors (the path, or the key)."""

    text: str
    where: str


class Setup(NamedTuple):
    """What a command works on, built from its inputs: the game, the shoe, its settings and the bets named.

    ``bets`` holds the ids of ``--bet`` (an id a bets file defines standing for its bet), then every bet of the
    files unless ``--bet`` named one of them; ``None`` when no bet is named at all (the game's default bets).
    ``file_bets`` are the bets of the bets files, named or not. A named tuple: every command that works on a game
    starts by importing it, and a named tuple's class costs a fraction of a dataclass's to make.
    """

    game: Game
    shoe: Shoe
    settings: Settings
    bets: tuple[str | Bet, ...] | None = None
    file_bets: tuple[Bet, ...] = ()
    #: Whether the shoe was described (``--decks``, ``--shoe``, ``--remove``), not the game's usual one taken.
    shoe_given: bool = False

    @property
    def rules(self) -> Rules:
        """The rules the game is priced under (its settings' rules)."""
        return self.game.rules(self.settings)

    def price(self, *, given: str | None = None, shoe: Shoe | None = None) -> Analysis:
        """The bets priced on the setup's shoe (or on ``shoe``), under its settings."""
        return self.game.price(self.shoe if shoe is None else shoe, self.bets, self.settings, given=given)

    def favourable(self, analysis: Analysis) -> list[str]:
        r"""A warning for each bet of a bets file that favours the player on a full shoe (a pay table written too
        generously, most likely): the bet is priced all the same. A shoe with cards removed is left alone: a bet
        that favours the player there is what an advantage player looks for.

        >>> generous = DEFAULT.read_bets('[bets.t]\n[[bets.t.outcome]]\nid = "tie"\nwhen = { winner = "tie" }\n'
        ...                              'pays = 10\n[[bets.t.outcome]]\nid = "lose"\notherwise = true\n'
        ...                              'pays = -1\n', "t.toml")
        >>> setup = Setup(DEFAULT, Shoe.standard(8), DEFAULT.settings_of({}), generous, generous)
        >>> setup.favourable(setup.price())
        ['t, of a bets file, favours the player on a full shoe: house edge -4.6716%; priced all the same']
        """
        if not self.file_bets or len(set(analysis.shoe.counts)) != 1:  # a full shoe: as many cards of each rank
            return []
        from .exact import percent_text

        ids = {bet.id for bet in self.file_bets}
        return [f"{f.bet.id}, of a bets file, favours the player on a full shoe: house edge"
                f" {percent_text(f.house_edge)}; priced all the same" for f in analysis.bets
                if f.bet.id in ids and f.ev > 0]


def settings_inputs() -> tuple[Input, ...]:
    """Every setting of every game, each once, in the registry's order: the options and keys that choose them.

    >>> [s.name for s in settings_inputs()][:3]
    ['rules', 'rules-file', 'player-5']
    """
    seen: dict[str, Input] = {}
    for game in GAMES:
        for setting in game.settings:
            if seen.setdefault(setting.name, setting) is not setting:
                raise ExactOddsError(f"two games declare a setting {setting.option} of their own: declare it once")
    return tuple(seen.values())


def setting_help(setting: Input) -> str:
    """A setting's help, with the games that have it and what each defaults to (made from the registry).

    >>> setting_help(next(s for s in settings_inputs() if s.name == "pay-table"))
    "The Draw bet's pay table: 1 (a three-card 7 pays 2:1) or 2 (3:2). Games: lucky-draw (default 1)."
    """
    parts = []
    for game in GAMES:
        if setting in game.settings:
            default = game.default_of(setting.name)
            if default is None and setting.default is not None:
                default = str(setting.default)
            parts.append(game.name + (f" (default {default})" if default else ""))
    return f"{setting.help} Games: {'; '.join(parts)}." if parts else setting.help


def choose_game(name: str | None, default: Game = DEFAULT) -> Game:
    """The game named (by name or alias), or ``default``."""
    return default if name is None else find_game(name)


def read_setup(
    values: Mapping[str, Any], *, default: Game = DEFAULT, shoe: bool = True, need: Capability | None = "bets",
    tool: str = "", shoe_of: Callable[[int], Shoe] | None = None,
) -> Setup:
    """The setup the ``values`` describe (by input name, as read on either surface): the game, its settings, the bets
    files and bets named, then the shoe (the game's usual shoe by default), checked in that order.

    ``need``: the capability the tool needs of the game (``tool`` names it in the refusal). ``shoe_of``: how a
    request's shoe keys make the shoe, given the game's usual decks (the command line's: :func:`build_shoe`).
    """
    game = choose_game(values.get(GAME.name), default)
    if need is not None:
        game.require(need, tool or "this command")
    settings = game.settings_of({s.name: values.get(s.name) for s in settings_inputs()})
    files = read_files(game, values.get(BETS_FILE.name) or ())
    bets = game.choose_bets(values.get(BET.name), files) if game.has("bets") else None
    if not shoe:
        built = game.usual_shoe()
    else:
        built = build_shoe(values, game.decks) if shoe_of is None else shoe_of(game.decks)
    given = any(values.get(one.name) is not None for one in (DECKS, SHOE_TEXT, REMOVE, COUNTS))
    return Setup(game, built, settings, bets, files, given)


def read_files(game: Game, files: Iterable[Toml]) -> tuple[Bet, ...]:
    """The bets of each bets file, in the game's notation; an id in two files is an error."""
    bets: list[Bet] = []
    defined: dict[str, str] = {}
    for text, where in files:
        for bet in game.read_bets(text, where):
            if bet.id in defined:
                raise ExactOddsError(
                    f"the bet id {shown(bet.id)!r} is defined in two files, {shown_path(defined[bet.id])} and"
                    f" {shown_path(where)}: rename one"
                )
            defined[bet.id] = where
            bets.append(bet)
    return tuple(bets)


def build_shoe(values: Mapping[str, Any], usual: int = 8) -> Shoe:
    """The shoe of ``decks``, ``shoe`` (counts typed) and ``remove`` (``usual`` decks when neither is given).

    >>> build_shoe({"remove": "7,7"}).size
    414
    """
    decks, text, remove = values.get(DECKS.name), values.get(SHOE_TEXT.name), values.get(REMOVE.name)
    if decks is not None and text is not None:
        raise ExactOddsError(f"give either {DECKS.shown} or {SHOE_TEXT.shown}, not both")
    shoe = Shoe.parse(text) if text is not None else Shoe.standard(usual if decks is None else decks)
    return shoe.remove(remove) if remove else shoe


def deck_range(decks: Any) -> tuple[int, int] | None:
    """A range of decks ``LOW:HIGH`` (a text, or a pair already read), or ``None`` for a number of decks.

    >>> deck_range("6:8"), deck_range(8)
    ((6, 8), None)
    """
    if isinstance(decks, tuple):
        return decks
    if isinstance(decks, str) and ":" in decks:
        return parse_deck_range(decks)
    return None
