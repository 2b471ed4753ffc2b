"""The games exactodds knows, one registry: python-chess's ``VARIANTS`` and ``find_variant``, for baccarat.

:data:`GAMES` holds every game of the baccarat family, punto banco (the default) first, and
:func:`find_game` finds one by its name or an alias. Each game is a module of this package that
makes one :class:`~exactodds.game.Game` called ``GAME``; the registry finds it here, so a new
game is its module, its bets file (``exactodds/data``) and its test, with no list to edit
(docs/development.md, "Add a game"). :mod:`.dealt` is what a game made of its deal is built from.

>>> GAMES[0] is DEFAULT, DEFAULT.name
(True, 'punto-banco')
>>> find_game("chemmy").has("solve")
True
"""

from __future__ import annotations

import importlib
import os
from importlib.machinery import all_suffixes

from ..errors import ExactOddsError, by_case, unknown_name
from ..game import Game


def _modules() -> list[str]:
    """The names of this package's modules and subpackages, read from its folder: what ``pkgutil.iter_modules`` finds,
    without loading pkgutil at every start-up."""
    suffixes = all_suffixes()
    names = set()
    for folder in __path__:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir():
                    stem = entry.name if os.path.isfile(os.path.join(entry.path, "__init__.py")) else ""
                else:
                    stem = next((entry.name[: -len(s)] for s in suffixes if entry.name.endswith(s)), "")
                if stem.isidentifier() and stem != "__init__":
                    names.add(stem)
    return sorted(names)


def _discovered() -> tuple[Game, ...]:
    """Every game of this package's modules (``GAME``), in the order each says; checked to name each game once."""
    games = []
    for module in _modules():
        game = getattr(importlib.import_module(f"{__name__}.{module}"), "GAME", None)
        if isinstance(game, Game):
            games.append(game)
    games.sort(key=lambda g: (g.order, g.name))
    names: dict[str, str] = {}
    for game in games:
        for name in (game.name, *game.aliases):
            if not all(part.isascii() and part.isalnum() and part.lower() == part for part in name.split("-")):
                raise ExactOddsError(f"a game's name is lower-case words joined by dashes, not {name!r}")
            if name in names:
                raise ExactOddsError(f"the name {name!r} is taken twice, by {names[name]} and {game.name}")
            names[name] = game.name
    return tuple(games)


GAMES: tuple[Game, ...] = _discovered()
"""Every game exactodds knows, punto banco first; :func:`find_game` finds one."""

#: The game of a command or request that names none: the first (punto banco).
DEFAULT: Game = GAMES[0]


def find_game(name: str) -> Game:
    """The game called ``name`` or by an alias, matched exactly; a near miss is told the closest names.

    >>> find_game("baccarat").name
    'punto-banco'
    >>> find_game("Chemin de fer")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: unknown game 'Chemin de fer': did you mean chemin-de-fer? Valid games are ...
    """
    aliases = [alias for game in GAMES for alias in game.aliases]
    if isinstance(name, str):
        name = by_case(name, [*(game.name for game in GAMES), *aliases])
    for game in GAMES:
        if name == game.name or name in game.aliases:
            return game
    raise unknown_name("game", str(name), [game.name for game in GAMES], aliases=aliases)


def with_capability(capability: str) -> tuple[Game, ...]:
    """The games that have ``capability``, in the registry's order.

    >>> [game.name for game in with_capability("solve")]
    ['chemin-de-fer']
    """
    return tuple(game for game in GAMES if capability in game.capabilities)
