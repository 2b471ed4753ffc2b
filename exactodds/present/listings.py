"""What can be priced, listed: the games, a game's bets, its facts and its rule sets, as text or JSON.

``exactodds games``, ``bets``, ``facts`` and ``rules`` print these, and the API's ``GET /games``,
``/bets``, ``/facts`` and ``/rules`` answer the same JSON (``--format json``), byte for byte.
Everything listed is read from the registry (:mod:`exactodds.games`) and each game.
"""

from __future__ import annotations

import json
from typing import Any

from ..game import CAPABILITIES, Game, Settings
from ..layout import one_line
from .formats import write_format


def _dump(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def render_games(games: tuple[Game, ...], fmt: str = "text") -> str:
    """The games listed in ``fmt``, a listing format (``text`` or ``json``)."""
    return write_format("listing", fmt, {"text": lambda: games_text(games), "json": lambda: games_json(games)})


def render_bets(game: Game, settings: Settings, files: tuple[Any, ...] = (), fmt: str = "text") -> str:
    """A game's bets listed in ``fmt``."""
    return write_format("listing", fmt, {"text": lambda: bets_text(game, settings, files),
                                         "json": lambda: bets_json(game, settings, files)})


def render_facts(game: Game, fmt: str = "text") -> str:
    """A game's facts listed in ``fmt``."""
    return write_format("listing", fmt, {"text": lambda: facts_text(game), "json": lambda: facts_json(game)})


def render_rule_sets(game: Game, fmt: str = "text") -> str:
    """A game's rule sets listed in ``fmt``."""
    return write_format("listing", fmt, {"text": lambda: rule_sets_text(game), "json": lambda: rule_sets_json(game)})


def games_text(games: tuple[Game, ...]) -> str:
    """Each game: its name and aliases, what it is, its usual shoe, its settings, its bets and what it can do."""
    lines = []
    for game in games:
        aliases = f" (aliases: {', '.join(game.aliases)})" if game.aliases else ""
        lines += [f"{game.name}{aliases}", f"  {game.description}"]
        decks = f"{game.decks} deck{'s' if game.decks != 1 else ''}"
        counted = f"; counts: {game.counting.convention}" if game.counting is not None else ""
        lines.append(f"  usual shoe: {decks} (--decks, --shoe){counted}")
        lines.append(f"  settings: {', '.join(s.option for s in game.settings) or 'none'}")
        if game.has("bets"):
            lines.append(f"  bets: {', '.join(game.bets(game.settings_of({})))}")
        lines.append(f"  can: {'; '.join(CAPABILITIES[c] + f' ({c})' for c in sorted(game.capabilities))}")
    return "\n".join(lines) + "\n"


def games_json(games: tuple[Game, ...]) -> str:
    """The games as JSON: the same, each capability by its name."""
    data = []
    for game in games:
        data.append({
            "name": game.name,
            "aliases": list(game.aliases),
            "description": game.description,
            "decks": game.decks,
            "counting": None if game.counting is None else {"cards": game.counting.cards,
                                                            "convention": game.counting.convention},
            "settings": [{"option": s.option, "key": s.key, "help": s.help} for s in game.settings],
            "bets": list(game.bets(game.settings_of({}))) if game.has("bets") else [],
            "capabilities": sorted(game.capabilities),
        })
    return _dump({"games": data})


def bets_text(game: Game, settings: Settings, files: tuple[Any, ...] = ()) -> str:
    """The header of the rules, the default bets, then the game's other bets, then those of bets files (``*``: the
    bet needs a shoe known by suit)."""
    lines = [one_line(game.rules(settings).header())]  # a listing line per bet, whatever its texts say
    every = game.bets(settings)
    default = game.default_bets(settings)
    for bet_id in default:
        bet = every[bet_id]
        lines.append(one_line(f" {'*' if bet.needs_suits else ' '}{bet.id:<14} {bet.description}"))
    more = [bet for bet_id, bet in every.items() if bet_id not in default]
    if more:
        lines.append(f"{game.more_bets} (--bet ID, or --bet all for every bet; * needs a shoe with suits):")
        lines += [one_line(f" {'*' if b.needs_suits else ' '}{b.id:<20} {b.description}") for b in more]
    elif any(every[bet_id].needs_suits for bet_id in default):
        lines.append("(* needs a shoe with suits)")
    if files:
        lines.append("from --bets-file (--bet ID):")
        lines += [one_line(f" {'*' if b.needs_suits else ' '}{b.id:<20} {b.description}") for b in files]
    return "\n".join(lines) + "\n"


def bets_json(game: Game, settings: Settings, files: tuple[Any, ...] = ()) -> str:
    """A game's bets as JSON: each with its description, whether it is a default bet and needs suits, its pays."""
    every = game.bets(settings)
    default = set(game.default_bets(settings))

    def entry(bet: Any, source: str) -> dict[str, Any]:
        return {"id": bet.id, "description": bet.description, "default": bet.id in default and source == "game",
                "needs_suits": bet.needs_suits, "source": source,
                "outcomes": [{"outcome": o.id, "event": o.event.name, "pays": o.pays} for o in bet.outcomes]}

    return _dump({"game": game.name, "rules": game.rules(settings).as_dict(),
                  "bets": [entry(b, "game") for b in every.values()] + [entry(b, "file") for b in files]})


def facts_text(game: Game) -> str:
    """The facts a game's conditions are written in: name, values, meaning."""
    return "".join(f"  {name:<20} {values:<30} {meaning}\n" for name, values, meaning in game.facts())


def facts_json(game: Game) -> str:
    """The facts as JSON."""
    return _dump({"game": game.name, "facts": [{"name": n, "values": v, "meaning": m} for n, v, m in game.facts()]})


def rule_sets_text(game: Game) -> str:
    """A game's named rule sets: name and aliases, what it is, its header line."""
    lines = []
    for name, aliases, description, header in game.rule_sets():
        shown = f" (aliases: {', '.join(aliases)})" if aliases else ""
        lines += [f"{name}{shown}", f"  {description}", f"  {header}"]
    return "\n".join(lines) + "\n"


def rule_sets_json(game: Game) -> str:
    """The rule sets as JSON."""
    return _dump({"game": game.name, "rule_sets": [
        {"name": n, "aliases": list(a), "description": d, "header": h} for n, a, d, h in game.rule_sets()]})


__all__ = ["bets_json", "bets_text", "facts_json", "facts_text", "games_json", "games_text", "render_bets",
           "render_facts", "render_games", "render_rule_sets", "rule_sets_json", "rule_sets_text"]
