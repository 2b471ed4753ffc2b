"""The games exactodds prices, one entry each: python-chess's ``VARIANTS`` and ``find_variant``, for baccarat.

:data:`GAMES` lists every game of the baccarat family that exactodds knows, and :func:`find_game` finds one
by its name or an alias. An entry is where a game's parts are gathered, each read from its one home: the
tableau and rule sets (:mod:`exactodds.puntobanco.rules`), the bets (:mod:`exactodds.puntobanco.bets`), the
decisions (the Player's option on 5, whose policies are in :mod:`exactodds.puntobanco.rules` and whose pricing is
in :mod:`exactodds.puntobanco.bigtable`; chemin de fer's information models, in :mod:`exactodds.chemindefer`), the
reference tables made for it (:mod:`exactodds.tables` reads them here) and the choices its commands offer.

A game has rule sets: ``ez``, ``super-6`` and ``big-table`` are rule sets of punto banco (the
``--rules`` choices), dealt by the same deal; a game with another deal or other decisions is an entry
of its own. A game of the family with a deal of its own (Dragon Tiger, Three Card Baccarat, Lucky Draw
Baccarat) is an entry whose ``deal`` is a :class:`~exactodds.family.deal.Deal`: its facts, settings, bets file and exact
enumerator, in a module of :mod:`exactodds.family`. docs/development.md ("Add a game") says how to add one.

>>> [game.name for game in GAMES]
['punto-banco', 'chemin-de-fer', 'dragon-tiger', 'three-card-baccarat', 'lucky-draw']
>>> find_game("chemmy").models
('A1', 'B2', 'B3')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from .chemindefer.model import GAME as SOLVED_GAME
from .chemindefer.model import MODELS
from .errors import ExactOddsError, unknown_name
from .family.deal import Deal, SettingValue
from .family.dragon_tiger import DRAGON_TIGER as DRAGON_TIGER_DEAL
from .family.lucky_draw import LUCKY_DRAW as LUCKY_DRAW_DEAL
from .family.pricing import game_bets
from .family.three_card import THREE_CARD as THREE_CARD_DEAL
from .paytable import Bet
from .puntobanco.bets import bet_catalog
from .puntobanco.rules import EZ, PLAYER_FIVE, PUNTO_BANCO, RULE_SETS, STANDARD_TABLEAU, SUPER_6, RuleSet, Tableau


@dataclass(frozen=True)
class Tables:
    """Which reference tables a game has in ``tables/``, and for which shoes (an empty field: none of that kind).

    >>> find_game("punto-banco").tables.eor_decks
    (6, 8)
    """

    #: The rule sets with par sheets, house edge by decks and effect-of-removal tables (``par/``, ``house-edge/``,
    #: ``eor/``); the side-bet catalog is priced under the first (``par/side-bets-…``, ``house-edge/side-bets``).
    rule_sets: tuple[RuleSet, ...] = ()
    #: The deck counts of the par sheets (and of the coup breakdowns, ``coups/``); of a game with a deal of its own,
    #: the deck counts of its par sheet (``par/<game>-…``).
    par_decks: tuple[int, ...] = ()
    #: The deck counts of the house edge by decks (beside the infinite shoe) and of the cards per coup.
    house_edge_decks: tuple[int, ...] = ()
    #: The deck counts of the effects of removal.
    eor_decks: tuple[int, ...] = ()
    #: The deck counts of the Player's option on 5, priced under the first rule set (``games/big-table-…``).
    option_decks: tuple[int, ...] = ()
    #: The deck counts (finite-shoe models; an infinite-deck model is solved once) and the Banker commissions the
    #: game is solved for, in each information model (``games/<game>-<model>.…``).
    solved_decks: tuple[int, ...] = ()
    commissions: tuple[Fraction, ...] = ()


@dataclass(frozen=True)
class Variant:
    """One game: its name and aliases, what it is, and its parts (an empty field: the game has none of that part).

    >>> game = find_game("punto-banco")
    >>> [rules.name for rules in game.rule_sets], game.player_five, game.commands
    (['punto-banco', 'ez', 'super-6', 'big-table', 'baccarat-gold'], ('draw', 'stand', 'best'), ('big-table',))
    """

    name: str
    description: str
    aliases: tuple[str, ...] = ()
    #: The drawing rules it deals by (chemin de fer: the punto banco chart its two sides' choices depart from).
    tableau: Tableau = STANDARD_TABLEAU
    #: Its named rule sets, the default first: the choices of ``--rules``.
    rule_sets: tuple[RuleSet, ...] = ()
    #: Its bets under a rule set, by id (``full=True``: the whole catalog); ``None`` when the house takes no bets on
    #: it (a game solved between two sides prices both sides' expectations).
    bets: Callable[..., Mapping[str, Bet]] | None = None
    #: The policies of the Player's option on 5: the choices of ``--player-5``; ``big-table`` prices them side by side.
    player_five: tuple[str, ...] = ()
    #: The information models it is solved in (what each side sees): the choices of ``solve --model``.
    models: tuple[str, ...] = ()
    #: The commands that price its decisions (the option on 5, the solved game); each is listed by ``exactodds --help``.
    commands: tuple[str, ...] = ()
    tables: Tables = Tables()
    #: A deal of its own (:mod:`exactodds.family`): its facts, settings (``--tie-pays``, ``--commission``), bets
    #: file and exact enumerator; ``None``: punto banco's deal (``tableau``).
    deal: Deal | None = None

    @property
    def priced(self) -> bool:
        """Whether the house takes bets on it (``odds --game`` prices them)."""
        return self.bets is not None

    def __post_init__(self) -> None:
        if self.deal is not None and self.deal.game != self.name:
            raise ExactOddsError(f"the deal of {self.name} is {self.deal.game}'s")
        for name in (self.name, *self.aliases):
            if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name):
                raise ExactOddsError(f"a game's name is lower-case words joined by dashes, not {name!r}")
        if not set(self.tables.rule_sets) <= set(self.rule_sets):
            raise ExactOddsError(f"the tables of {self.name} name a rule set the game does not have")
        if self.tables.option_decks and not (self.player_five and self.rule_sets):
            raise ExactOddsError(f"{self.name} has tables of the Player's option on 5 but no such option")
        if (self.tables.solved_decks or self.tables.commissions) and not self.models:
            raise ExactOddsError(f"{self.name} has tables of a solved game but no information model")


PUNTO_BANCO_GAME = Variant(
    name="punto-banco",
    description="Punto banco (mini, midi and big table): the house deals two hands by a fixed tableau;"
    " bets on the Player, the Banker, the Tie and the side bets.",
    aliases=("baccarat",),
    rule_sets=RULE_SETS,
    bets=bet_catalog,
    player_five=PLAYER_FIVE,
    commands=("big-table",),
    tables=Tables(
        rule_sets=(PUNTO_BANCO, EZ, SUPER_6),
        par_decks=(1, 2, 4, 6, 8),
        house_edge_decks=tuple(range(1, 13)),
        eor_decks=(6, 8),
        option_decks=(6, 8),
    ),
)
"""Punto banco and its rule sets; its decision is the Player's option on 5 (the big table)."""

CHEMIN_DE_FER = Variant(
    name=SOLVED_GAME,
    description="Chemin de fer: the two-person game punto banco came from; the Player may draw or stand on 5,"
    " the Banker may choose in every cell; solved exactly.",
    aliases=("chemmy",),
    models=MODELS,
    commands=("solve",),
    tables=Tables(solved_decks=tuple(range(1, 9)), commissions=(Fraction(0), Fraction(1, 20))),
)
"""Chemin de fer, solved in the information models A1, B2 and B3."""

def _bets_of(deal: Deal) -> Callable[..., dict[str, Bet]]:
    """A family game's bets by id under its settings (by name; default the pays of its bets file)."""

    def bets(settings: dict[str, SettingValue] | None = None) -> dict[str, Bet]:
        return {bet_id: game_bet.bet for bet_id, game_bet in game_bets(deal, settings).items()}

    return bets


DRAGON_TIGER = Variant(
    name=DRAGON_TIGER_DEAL.game,
    description="Dragon Tiger: one card each to the Dragon and the Tiger, the higher rank wins (A low, K high);"
    " a tie costs the Dragon and Tiger bets half their stake.",
    aliases=("dragon-and-tiger",),
    bets=_bets_of(DRAGON_TIGER_DEAL),
    deal=DRAGON_TIGER_DEAL,
    tables=Tables(par_decks=(6, 8)),
)
"""Dragon Tiger, 8 decks usual, any number allowed; par sheets at 6 and 8 decks."""

THREE_CARD_BACCARAT = Variant(
    name=THREE_CARD_DEAL.game,
    description="Three Card Baccarat (Macau; Prosperity 3 Pictures): three cards to each hand from one deck;"
    " three faces is best, then the total, then the number of faces.",
    aliases=("three-card", "3-card-baccarat", "prosperity-3-pictures"),
    bets=_bets_of(THREE_CARD_DEAL),
    deal=THREE_CARD_DEAL,
    tables=Tables(par_decks=(1,)),
)
"""Three Card Baccarat, one deck usual; its par sheet at 1 deck."""

LUCKY_DRAW = Variant(
    name=LUCKY_DRAW_DEAL.game,
    description="Lucky Draw Baccarat: the player sees his two cards and the dealer's upcard, then stands or doubles"
    " his stake with a Draw bet for one more card (paid more on a three-card 9, 8 or 7); priced for his best chart.",
    aliases=("lucky-draw-baccarat",),
    bets=_bets_of(LUCKY_DRAW_DEAL),
    deal=LUCKY_DRAW_DEAL,
    tables=Tables(par_decks=(8,)),
)
"""Lucky Draw Baccarat, 8 decks usual; its par sheet at 8 decks (pay table 1, the optimal chart)."""

GAMES: tuple[Variant, ...] = (PUNTO_BANCO_GAME, CHEMIN_DE_FER, DRAGON_TIGER, THREE_CARD_BACCARAT, LUCKY_DRAW)
"""Every game exactodds knows, punto banco first; :func:`find_game` finds one."""

#: What ``solve`` offers: the games solved between two sides (``--game``), and their information models (``--model``).
SOLVED_GAMES: tuple[str, ...] = tuple(game.name for game in GAMES if game.models)
SOLVED_MODELS: tuple[str, ...] = tuple(dict.fromkeys(model for game in GAMES for model in game.models))
#: The games with a deal of their own (``odds --game`` prices them; ``tables`` makes their par sheets).
FAMILY_GAMES: tuple[Variant, ...] = tuple(game for game in GAMES if game.deal is not None)


def find_game(name: str) -> Variant:
    """The game called ``name`` or by an alias, matched exactly; a near miss is told the closest names.

    >>> find_game("baccarat").name
    'punto-banco'
    >>> find_game("Chemin de fer")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: unknown game 'Chemin de fer': did you mean chemin-de-fer? Valid games are ...
    """
    for game in GAMES:
        if name == game.name or name in game.aliases:
            return game
    aliases = [alias for game in GAMES for alias in game.aliases]
    raise unknown_name("game", str(name), [game.name for game in GAMES], aliases=aliases)
