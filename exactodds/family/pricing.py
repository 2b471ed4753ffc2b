"""A family game's bets priced on a shoe: its deal's exact counts settled by its pay tables, into the usual figures.

The bets are data (``exactodds/data/<game>.toml``, the bet notation over the deal's facts), read
once per game; a setting (``--tie-pays``, ``--commission``) changes the pays of its outcomes.
:func:`price_game` counts every outcome of each bet from the deal's states and returns a
:class:`~exactodds.analysis.Analysis`, whose bets are the :class:`~exactodds.analysis.BetFigures` every bet of
punto banco has: EV, house edge (per hand and per resolved bet), variance, SD and hit frequency
come from the same code.

>>> from exactodds.family.dragon_tiger import DRAGON_TIGER
>>> analysis = price_game(DRAGON_TIGER, Shoe.standard(8), ["dragon", "tie"])
>>> [(f.bet.id, f.house_edge_percent(2)) for f in analysis.bets]
[('dragon', '3.73%'), ('tie', '32.77%')]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from ..analysis import Analysis, BetFigures, OutcomeFigures
from ..betfile import ALL_BETS, BetSpec, packaged_text, read_bet_specs
from ..cards import Shoe
from ..errors import ExactOddsError, unknown_name
from ..notation import Condition, describe
from ..paytable import Bet, Event, Outcome
from .deal import Deal, GameRules, SettingValue, settings_of


@dataclass(frozen=True)
class GameBet:
    """A bet of a family game: the bet (its pay table, its events named) and each outcome's condition (``None``:
    otherwise) over the deal's facts, and whether one reads a fact that needs suits."""

    bet: Bet
    whens: tuple[Condition | None, ...]
    suited: bool

    def outcome_of(self, deal: Deal, state: object) -> int:
        """The index of the outcome that settles ``state``: the one whose condition holds, else the otherwise one."""
        rest = None
        for k, when in enumerate(self.whens):
            if when is None:
                rest = k
            elif deal.holds(when, state):
                return k
        if rest is None:  # the bets file was checked to settle every state: only a state it never saw comes here
            raise ExactOddsError(f"bet {self.bet.id!r} of {deal.game} settles no outcome on {state}")
        return rest


@lru_cache(maxsize=8)
def _specs(deal: Deal) -> tuple[BetSpec, ...]:
    """The game's bets as its bets file writes them (read and checked once)."""
    return read_bet_specs(packaged_text(deal.bets_file), f"exactodds/data/{deal.bets_file}", deal.vocabulary)


def file_pays(deal: Deal) -> dict[tuple[str, str], Fraction]:
    """What the bets file pays, by (bet id, outcome id): the default of every setting."""
    return {(spec.id, o.id): o.pays for spec in _specs(deal) for o in spec.outcomes}


def game_settings(deal: Deal, given: Mapping[str, SettingValue] | None = None) -> dict[str, SettingValue]:
    """Every setting of the game: the values ``given`` (by setting name), the others as the bets file pays.

    >>> from exactodds.family.three_card import THREE_CARD
    >>> game_settings(THREE_CARD, {"commission": Fraction(3, 100)})
    {'commission': Fraction(3, 100), 'tie-pays': Fraction(20, 1)}
    """
    return settings_of(deal, given or {}, file_pays(deal))


@lru_cache(maxsize=64)
def _game_bets(deal: Deal, settings: tuple[tuple[str, SettingValue], ...]) -> dict[str, GameBet]:
    pays = {pair: deal.setting(name).pays(value) for name, value in settings for pair in deal.setting(name).outcomes}
    out: dict[str, GameBet] = {}
    for spec in _specs(deal):
        outcomes = tuple(
            Outcome(
                o.id,
                Event(o.event or (describe(o.when) if o.when else "otherwise")),
                pays.get((spec.id, o.id), o.pays),
                o.multiplier,
            )
            for o in spec.outcomes
        )
        description = spec.description
        for (bet_id, outcome_id), pay in pays.items():
            if bet_id == spec.id and outcome_id == "win":
                description = _with_pay(description, file_pays(deal)[(bet_id, outcome_id)], pay)
        whens = tuple(o.when for o in spec.outcomes)
        suited = any(deal.fact[name].suited for when in whens for name, _ in when or ())
        out[spec.id] = GameBet(Bet(spec.id, description, outcomes, needs_suits=suited), whens, suited)
    return out


def _with_pay(description: str, old: Fraction, new: Fraction) -> str:
    """A description whose ``X:1`` (and ``N% commission``) tells the pay of its win as set."""
    from ..exact import short_text

    if old == new:
        return description
    text = description.replace(f"{short_text(old)}:1", f"{short_text(new)}:1", 1)
    if (1 - old) and "% commission" in text:
        text = text.replace(f"{short_text((1 - old) * 100)}% commission", f"{short_text((1 - new) * 100)}% commission")
    return text


def game_bets(deal: Deal, settings: Mapping[str, SettingValue] | None = None) -> dict[str, GameBet]:
    """The game's bets by id, in the bets file's order, paying as the settings say.

    >>> from exactodds.family.dragon_tiger import DRAGON_TIGER
    >>> tie = game_bets(DRAGON_TIGER, {"tie-pays": Fraction(11)})["tie"].bet
    >>> tie.description, [str(o.net) for o in tie.outcomes]
    ('Tie 11:1: the two cards have the same rank', ['11', '-1'])
    """
    return _game_bets(deal, tuple(game_settings(deal, settings).items()))


def find_game_bets(
    deal: Deal, bets: Sequence[str] | None, settings: Mapping[str, SettingValue]
) -> tuple[GameBet, ...]:
    """The bets named (``None`` or ``all``: every bet of the game), a near miss told the game's closest ids."""
    catalog = game_bets(deal, settings)
    if bets is None:
        return tuple(catalog.values())
    chosen: dict[str, GameBet] = {}
    for bet_id in bets:
        if bet_id == ALL_BETS:
            chosen.update(catalog)
        elif bet_id in catalog:
            chosen[bet_id] = catalog[bet_id]
        else:
            raise unknown_name(
                "bet", bet_id, list(catalog), aliases=[ALL_BETS], more=f"these are the bets of {deal.game}"
            )
    return tuple(chosen.values())


def price_game(
    deal: Deal, shoe: Shoe, bets: Sequence[str] | None = None, settings: Mapping[str, SettingValue] | None = None
) -> Analysis:
    """Price bets of a family game (default every one) on ``shoe``: each outcome's exact count of ordered draws.

    >>> from exactodds.family.dragon_tiger import DRAGON_TIGER
    >>> price_game(DRAGON_TIGER, Shoe.standard(8), ["tie"]).bets[0].outcomes[0].count
    12896
    """
    values = game_settings(deal, settings)
    chosen = find_game_bets(deal, bets, values)
    if not shoe.suited:
        for game_bet in chosen:
            if game_bet.suited:
                raise ExactOddsError(
                    f"bet {game_bet.bet.id} needs a shoe with suits; this shoe is known only by rank (give it by card,"
                    ' e.g. --shoe "AS=8,AH=8,…", or use --decks N)'
                )
    if shoe.size < deal.cards:
        raise ExactOddsError(f"{deal.game} deals {deal.cards} cards; this shoe holds {shoe.size}")
    states = _states(deal, shoe, tuple(values.items()))
    orderings = deal.orderings(shoe)
    priced = []
    for game_bet in chosen:
        counts = [0] * len(game_bet.bet.outcomes)
        for state, n in states.items():
            counts[game_bet.outcome_of(deal, state)] += n
        outcomes = tuple(OutcomeFigures(o, c, orderings) for o, c in zip(game_bet.bet.outcomes, counts))
        priced.append(BetFigures(game_bet.bet, outcomes, orderings))
    chart = None if deal.chart is None else deal.chart(shoe, values)
    return Analysis(GameRules(deal, tuple(values.items())), shoe, tuple(priced), counting=deal.counting, chart=chart)


@lru_cache(maxsize=16)
def _states(deal: Deal, shoe: Shoe, values: tuple[tuple[str, SettingValue], ...]) -> Mapping[Any, int]:
    """A deal's exact count of each end state, kept for the last few shoes and settings (a command and its par
    sheet, or a report and its tables, count a shoe once; nothing changes the counts it returns)."""
    return MappingProxyType(dict(deal.count(shoe, dict(values))))


__all__ = ["GameBet", "find_game_bets", "game_bets", "game_settings", "price_game"]
