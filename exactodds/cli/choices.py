"""The settings of the games with a deal of their own that are a choice of words, as command-line options.

``--pay-table`` and ``--strategy`` are declared once, here, on every command that prices every game
(:func:`declared`); each game checks the word (:meth:`~exactodds.family.deal.Setting.choose`). A command
with an option of the same name (``report``'s lab ``--strategy``) keeps its own: its value goes to a
game that has the setting (:func:`game_choices`), and stays the command's otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from ..errors import ExactOddsError
from ..family.deal import Deal, SettingValue

F = TypeVar("F", bound=Callable[..., Any])

#: The choices, as (keyword, option, metavar, help); a choice's option is ``--`` and its setting's name.
CHOICES = (
    ("pay_table", "--pay-table", "TABLE",
     "The pay table, of a game that has several (another game: an error); `exactodds games` lists the settings."),
    ("game_strategy", "--strategy", "NAME",
     "The player's chart, of a game with a decision (optimal, or total: by his total); `exactodds games` lists"
     " the settings."),
)


def borrowed(func: Callable[..., Any]) -> dict[str, str]:
    """The choices whose option the command declares itself, by keyword: the keyword of the command's own option."""
    own = {opt: param.name for param in getattr(func, "__click_params__", ()) for opt in param.opts if param.name}
    return {key: own[option] for key, option, _, _ in CHOICES if option in own}


def declared(func: F, taken: dict[str, str]) -> F:
    """``func`` with the choices declared, but those it declares itself (``taken``, from :func:`borrowed`)."""
    for key, option, metavar, help_text in reversed(CHOICES):
        if key not in taken:
            func = click.option(option, key, metavar=metavar, default=None, help=help_text)(func)
    return func


def refuse(kwargs: dict[str, Any]) -> None:
    """Pop the choices of a command run on punto banco, which has none of them: one given is an error."""
    for key, option, _, _ in CHOICES:
        if kwargs.pop(key, None) is not None:
            raise ExactOddsError(
                f"{option} is a setting of a game with a deal of its own (--game GAME; exactodds games lists each"
                " game's settings); punto banco has none"
            )


def game_choices(deal: Deal, kwargs: dict[str, Any], taken: dict[str, str]) -> dict[str, SettingValue]:
    """Pop the choices given for a game and check each against its setting (a game without it: an error).

    A choice whose option is the command's own (``taken``) is the game's when the game has the setting: one word,
    taken from the command's option, which then receives none.
    """
    out: dict[str, SettingValue] = {}
    for key, option, _, _ in CHOICES:
        name = option.removeprefix("--")
        own = taken.get(key)
        if own is None:
            word = kwargs.pop(key)
        elif any(s.name == name for s in deal.settings) and kwargs[own]:
            if len(kwargs[own]) > 1:
                raise ExactOddsError(f"{deal.game} plays one {option}, not {len(kwargs[own])}")
            word, kwargs[own] = kwargs[own][0], ()
        else:
            word = None  # the command's own option, as for a game without the setting
        if word is not None:
            setting = deal.setting(name)
            out[setting.name] = setting.choose(str(word))
    return out
