"""The third-card rules as data, and rule sets as named presets with aliases."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ..errors import ExactOddsError, by_case, shown, unknown_name
from ..exact import fraction_text, parse_fraction, short_text
from ..notation import Condition, describe
from ..records import record
from .facts import condition

# The tableau, exactly as printed in the rule sheets (docs/rules.md).
# Player: draws on these two-card totals (6 and 7 stand; 8 and 9 are naturals).
PLAYER_DRAWS_ON = "0 1 2 3 4 5"
# Banker, when the Player stood: the same rule as the Player.
BANKER_DRAWS_WHEN_PLAYER_STOOD = "0 1 2 3 4 5"
# Banker, when the Player drew: for each Banker two-card total, the values of the
# Player's third card on which the Banker draws (T = 0). Totals 8 and 9 are naturals.
BANKER_DRAWS_AGAINST = {
    0: "0 1 2 3 4 5 6 7 8 9",
    1: "0 1 2 3 4 5 6 7 8 9",
    2: "0 1 2 3 4 5 6 7 8 9",
    3: "0 1 2 3 4 5 6 7 9",
    4: "2 3 4 5 6 7",
    5: "4 5 6 7",
    6: "6 7",
    7: "",
}


#: The choices of the Player's option on 5: the mini table's rule, the other pure choice, the holder's best.
PLAYER_FIVE: tuple[str, ...] = ("draw", "stand", "best")


# Two-card hands by their card values, ascending (0 for a ten or a face): the cells of the decisions on them (the big
# table's option on 5, chemin de fer's models).
#: Unordered pairs of card values, the two-card compositions.
PAIRS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(10) for b in range(a, 10))
#: The 44 non-natural two-card compositions (total 0..7): the Banker's hands a decision may be taken on.
COMPOSITIONS: tuple[tuple[int, int], ...] = tuple(pair for pair in PAIRS if sum(pair) % 10 <= 7)
#: The Player's two-card fives: the hands of his option on 5 (and of chemin de fer's model B3).
PLAYER_FIVES: tuple[tuple[int, int], ...] = ((0, 5), (1, 4), (2, 3), (6, 9), (7, 8))


def _values(text: str) -> frozenset[int]:
    return frozenset(int(v) for v in text.split())


@record
class Tableau:
    """When each side draws a third card; every dealing decision reads this and nothing else.

    >>> t = STANDARD_TABLEAU
    >>> t.player_draws(5), t.banker_draws(3, 8), t.banker_draws(3, 9), t.banker_draws(6, None)
    (True, False, True, False)
    """

    player_draws_on: frozenset[int]
    banker_draws_when_player_stood: frozenset[int]
    # banker_draws_against[b] is the set of Player third-card values on which a Banker
    # holding two-card total b draws, for b = 0..7.
    banker_draws_against: tuple[frozenset[int], ...]
    natural_totals: frozenset[int] = frozenset({8, 9})

    def __post_init__(self) -> None:
        if len(self.banker_draws_against) != 8:
            raise ExactOddsError("the Banker's draw table needs a row for each total 0 to 7")
        for name, values in (
            ("Player draw totals", self.player_draws_on),
            ("Banker (player stood) draw totals", self.banker_draws_when_player_stood),
            *((f"Banker {b} row", row) for b, row in enumerate(self.banker_draws_against)),
        ):
            if not values <= frozenset(range(10)):
                raise ExactOddsError(f"{name} must be values 0 to 9, not {sorted(values)}")

    def is_natural(self, two_card_total: int) -> bool:
        """Whether a two-card total ends the coup at once (8 or 9)."""
        return two_card_total in self.natural_totals

    def player_draws(self, player_total: int) -> bool:
        """Whether the Player draws on a (non-natural) two-card total."""
        return player_total in self.player_draws_on

    def banker_draws(self, banker_total: int, player_third: int | None) -> bool:
        """Whether the Banker draws, given the Player's third-card value (``None``: stood)."""
        if player_third is None:
            return banker_total in self.banker_draws_when_player_stood
        if banker_total >= len(self.banker_draws_against):
            return False
        return player_third in self.banker_draws_against[banker_total]

    def with_player_five(self, draws: bool) -> Tableau:
        """The same tableau with the Player drawing (or standing) on a two-card 5: the option of the big table.

        >>> STANDARD_TABLEAU.with_player_five(False).player_draws(5)
        False
        """
        chosen = self.player_draws_on | {5} if draws else self.player_draws_on - {5}
        return replace(self, player_draws_on=frozenset(chosen))

    def differences(self, other: Tableau | None = None) -> list[str]:
        """How this tableau differs from ``other`` (default: the standard one), in words.

        >>> rows = list(STANDARD_TABLEAU.banker_draws_against)
        >>> rows[3] = rows[3] - {9}
        >>> Tableau(STANDARD_TABLEAU.player_draws_on, STANDARD_TABLEAU.banker_draws_when_player_stood,
        ...         tuple(rows)).differences()
        ['Banker 3 stands on a Player third card 9']
        """
        base = STANDARD_TABLEAU if other is None else other
        out: list[str] = []

        def totals(values: frozenset[int]) -> str:
            return " ".join(map(str, sorted(values)))

        for label, mine, theirs in (
            ("Player", self.player_draws_on, base.player_draws_on),
            ("Banker (Player stood)", self.banker_draws_when_player_stood, base.banker_draws_when_player_stood),
        ):
            if mine - theirs:
                out.append(f"{label} draws on {totals(mine - theirs)}")
            if theirs - mine:
                out.append(f"{label} stands on {totals(theirs - mine)}")
        for b, (mine, theirs) in enumerate(zip(self.banker_draws_against, base.banker_draws_against)):
            if mine - theirs:
                out.append(f"Banker {b} draws on a Player third card {totals(mine - theirs)}")
            if theirs - mine:
                out.append(f"Banker {b} stands on a Player third card {totals(theirs - mine)}")
        if self.natural_totals != base.natural_totals:
            out.append(f"naturals: {totals(self.natural_totals) or 'none'}")
        return out

    def key(self) -> str:
        """A stable text form of the tableau, for cache keys and headers."""
        rows = ";".join("".join(map(str, sorted(r))) for r in self.banker_draws_against)
        return (
            f"P:{''.join(map(str, sorted(self.player_draws_on)))}"
            f"|S:{''.join(map(str, sorted(self.banker_draws_when_player_stood)))}|B:{rows}"
            f"|N:{''.join(map(str, sorted(self.natural_totals)))}"
        )


STANDARD_TABLEAU = Tableau(
    player_draws_on=_values(PLAYER_DRAWS_ON),
    banker_draws_when_player_stood=_values(BANKER_DRAWS_WHEN_PLAYER_STOOD),
    banker_draws_against=tuple(_values(BANKER_DRAWS_AGAINST[b]) for b in range(8)),
)


def deal_coup(values: Sequence[int], tableau: Tableau = STANDARD_TABLEAU) -> tuple[int, int, int, int]:
    """Play one coup from card values in deal order; return (player total, banker total, player cards, banker cards).

    This is the deal, written once: cards 1 and 3 go to the Player, 2 and 4 to the Banker;
    third cards follow the tableau. Every other place that deals (the reference walk, the
    compiled table, the card-counting lab) reads :func:`deal_table`, which is made from it.

    >>> deal_coup([3, 4, 2, 2, 7, 9])   # Player 5 draws a 7 -> 2; Banker 6 draws on a 7 -> 5
    (2, 5, 3, 3)
    >>> deal_coup([9, 0, 9, 9, 1, 1])   # Banker natural 9 (Player 8 too): nobody draws
    (8, 9, 2, 2)
    """
    player = (values[0] + values[2]) % 10
    banker = (values[1] + values[3]) % 10
    if tableau.is_natural(player) or tableau.is_natural(banker):
        return player, banker, 2, 2
    player_cards, next_card, player_third = 2, 4, None
    if tableau.player_draws(player):
        player_third = values[4]
        player, player_cards, next_card = (player + player_third) % 10, 3, 5
    if tableau.banker_draws(banker, player_third):
        return player, (banker + values[next_card]) % 10, player_cards, 3
    return player, banker, player_cards, 2


def deal_index(player_two: Any, banker_two: Any, fifth: Any, sixth: Any) -> Any:
    """The entry of :func:`deal_table` for two-card totals and the 5th and 6th card values (ints or numpy arrays).

    >>> deal_index(5, 6, 7, 9)
    5679
    """
    return ((player_two * 10 + banker_two) * 10 + fifth) * 10 + sixth


@lru_cache(maxsize=32)
def deal_table(tableau: Tableau) -> tuple[tuple[int, int, int, int], ...]:
    """Every coup's end by its two-card totals and the next two card values, made by :func:`deal_coup`.

    Entry :func:`deal_index` (p, b, v5, v6) is (player total, banker total, player cards, banker
    cards) when the Player's two cards total p, the Banker's b, and the 5th and 6th cards
    are worth v5 and v6 (whether or not the coup uses them). A coup depends on its first
    four cards only through the two totals, so this table is the whole deal.

    >>> deal_table(STANDARD_TABLEAU)[deal_index(5, 6, 7, 9)]
    (2, 5, 3, 3)
    """
    digits = range(10)
    return tuple(
        deal_coup((p, b, 0, 0, v5, v6), tableau) for p in digits for b in digits for v5 in digits for v6 in digits
    )


#: The bets a pay override may pay, and the event each pays (the wins it settles).
OVERRIDE_SIDES = {"banker": "Banker wins", "player": "Player wins", "tie": "tie"}


@record
class PayOverride:
    """A Banker win (or a Player win, a tie: ``side``) that a rule set pays differently: id, what, when, net pay.

    ``when`` is a condition over coup facts (see :mod:`exactodds.puntobanco.facts`; card facts make the Banker bet a
    bet on the cards, priced by the card walk: :func:`exactodds.puntobanco.bets.override_card_bet`), read only
    when the Banker wins. Rule variants are data: a new one needs no engine change.

    >>> six = PayOverride("win-on-6", "a total of 6", condition({"banker_total": 6}), Fraction(1, 2))
    >>> six.event, six.header()
    ('Banker wins with a total of 6', 'banker win with a total of 6 pays 0.5:1')
    """

    id: str
    name: str
    when: Condition
    net: Fraction
    #: The bet it pays: "banker" (a Banker win), "player" (a Player win) or "tie" (a tie, on the Tie bet).
    side: str = "banker"

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", self.id):
            raise ExactOddsError(f"an override id is lower-case letters, digits and dashes, not {shown(self.id)!r}")
        if self.side not in OVERRIDE_SIDES:
            raise ExactOddsError(f"an override pays a banker, player or tie win, not {shown(self.side)!r}")

    @property
    def event(self) -> str:
        """The event in words: ``Banker wins with …`` (``Player wins with …``, ``tie with …``)."""
        return f"{OVERRIDE_SIDES[self.side]} with {self.name}"

    def header(self) -> str:
        """The override as the rules header lists it."""
        pays = "push" if self.net == 0 else f"{short_text(self.net)}:1"
        what = "tie" if self.side == "tie" else f"{self.side} win"
        return f"{what} with {self.name} {'pushes' if self.net == 0 else 'pays ' + pays}"

    def as_dict(self) -> dict[str, object]:
        """JSON-ready: id, event, condition in words and net pay (exact)."""
        return {"id": self.id, "event": self.event, "when": describe(self.when), "net": fraction_text(self.net)}


#: EZ Baccarat's rule as data: a Banker win with a three-card 7 pushes Banker bets.
EZ_PUSH = PayOverride(
    "push-three-card-7", "a three-card 7", condition({"banker_cards": 3, "banker_total": 7}), Fraction(0)
)


@record
class RuleSet:
    """A named set of house rules: the tableau, the Banker commission, the Tie pay and variants.

    >>> rules = find_rules("ez")
    >>> rules.name, rules.commission, rules.banker_three_card_seven_pushes
    ('ez', Fraction(0, 1), True)
    >>> find_rules("punto-banco").with_commission(Fraction(1, 25)).header()
    'punto-banco · banker 0.96:1 (4% commission) · tie 8:1 · EZ push: off'
    """

    name: str
    description: str
    commission: Fraction = Fraction(1, 20)
    tie_pays: Fraction = Fraction(8)
    #: EZ Baccarat: a Banker win with a three-card 7 pushes Banker bets.
    banker_three_card_seven_pushes: bool = False
    aliases: tuple[str, ...] = ()
    tableau: Tableau = field(default=STANDARD_TABLEAU)
    #: Banker wins paid otherwise than ``banker_pays`` (e.g. Super 6: a win on 6 pays 1:2). They may overlap:
    #: the first that matches a coup settles it (the EZ push, when on, comes first), as in ``main_bets``.
    banker_win_overrides: tuple[PayOverride, ...] = ()
    #: Player wins paid otherwise than 1 to 1, and ties paid otherwise than ``tie_pays`` (first match wins).
    player_win_overrides: tuple[PayOverride, ...] = ()
    tie_overrides: tuple[PayOverride, ...] = ()
    #: The Player's option on 5 (the rule sheets' big table): "" when the tableau decides; "draw" or "stand"
    #: when a policy fixes it (the tableau then says the same); "best": the holder, seeing all four cards,
    #: draws or stands, whichever is better for the Player bet.
    player_five: str = ""

    def __post_init__(self) -> None:
        if not 0 <= self.commission < 1:
            raise ExactOddsError(f"the commission must be at least 0% and below 100%, not {self.commission}")
        if self.tie_pays <= 0:
            raise ExactOddsError(f"the Tie must pay more than 0 to 1, not {self.tie_pays}")
        ids = [o.id for o in self.banker_overrides]
        if len(set(ids)) != len(ids) or {"win", "push", "lose"} & set(ids):
            raise ExactOddsError(f"the Banker pay overrides need distinct ids other than win, push, lose: {ids}")
        for override in self.banker_win_overrides:
            if override.net < -1:
                raise ExactOddsError(f"a Banker win cannot lose more than the stake ({override.id}: {override.net})")
        for side, overrides, taken in (("player", self.player_win_overrides, {"win", "push", "lose"}),
                                       ("tie", self.tie_overrides, {"win", "lose"})):
            ids = [o.id for o in overrides]
            if len(set(ids)) != len(ids) or taken & set(ids) or any(o.side != side for o in overrides):
                taken_ids = ", ".join(sorted(taken))
                raise ExactOddsError(f"the {side} pay overrides need distinct ids other than {taken_ids}")
            for override in overrides:
                if override.net < -1:
                    raise ExactOddsError(
                        f"a {side} win cannot lose more than the stake ({override.id}: {override.net})"
                    )

    @property
    def banker_overrides(self) -> tuple[PayOverride, ...]:
        """Every Banker-win override in force: the EZ push (when on), then ``banker_win_overrides``."""
        return ((EZ_PUSH,) if self.banker_three_card_seven_pushes else ()) + self.banker_win_overrides

    def differences(self) -> list[str]:
        """Each way the Banker's pays and the drawing rules differ from punto banco, in words (not commission or Tie).

        >>> find_rules("super-6").differences()
        ['banker win with a total of 6 pays 0.5:1']
        """
        overrides = (*self.banker_win_overrides, *self.player_win_overrides, *self.tie_overrides)
        return [o.header() for o in overrides] + self.tableau.differences()

    @property
    def banker_pays(self) -> Fraction:
        """What a winning Banker bet pays to 1, after commission."""
        return 1 - self.commission

    def with_commission(self, commission: Fraction) -> RuleSet:
        """The same rules with another commission rate on Banker wins."""
        return replace(self, commission=Fraction(commission))

    def with_player_five(self, choice: str) -> RuleSet:
        """The same rules with the Player's option on 5 fixed: ``draw`` (the mini table), ``stand``, ``best``, or a
        probability of drawing (``9/11``, ``0.8``: a mixed policy, priced exactly).

        >>> find_rules("punto-banco").with_player_five("stand").tableau.player_draws(5)
        False
        >>> find_rules("punto-banco").with_player_five("best").header().endswith("player 5: holder's best choice")
        True
        >>> find_rules("punto-banco").with_player_five("0.8").player_five_draws
        Fraction(4, 5)
        """
        text = choice
        if text not in PLAYER_FIVE:  # a word exactly, else a probability
            try:
                p = parse_fraction(text)
            except (ValueError, ZeroDivisionError):
                raise unknown_name(
                    "choice on the Player's 5", choice, PLAYER_FIVE, plural="choices",
                    or_else="a probability of drawing such as 9/11 or 0.8",
                ) from None
            if not 0 <= p <= 1:
                raise ExactOddsError(f"the probability of drawing on 5 must be from 0 to 1, not {shown(choice)!r}")
            text = "stand" if p == 0 else "draw" if p == 1 else fraction_text(p)
        return replace(self, tableau=self.tableau.with_player_five(text != "stand"), player_five=text)

    @property
    def player_five_draws(self) -> Fraction | None:
        """The probability that the Player draws on 5 under a mixed policy, else ``None`` (a pure rule or ``best``)."""
        if self.player_five in ("", *PLAYER_FIVE):
            return None
        return Fraction(self.player_five)

    def with_tie_pays(self, tie_pays: Fraction) -> RuleSet:
        """The same rules with another Tie pay (to 1)."""
        return replace(self, tie_pays=Fraction(tie_pays))

    def header(self) -> str:
        """A one-line summary of the rules, for the top of every table."""
        commission = f"{short_text(self.commission * 100)}% commission" if self.commission else "no commission"
        line = (
            f"{self.name} · banker {short_text(self.banker_pays)}:1 ({commission}) · "
            f"tie {short_text(self.tie_pays)}:1 · EZ push: {'on' if self.banker_three_card_seven_pushes else 'off'}"
        )
        mini = " (the mini table)" if self.tableau == STANDARD_TABLEAU else ""
        option = {"best": ["player 5: holder's best choice"], "draw": [f"player 5: draws{mini}"]}.get(
            self.player_five, [f"player 5: draws with probability {self.player_five}"] if self.player_five_draws else []
        )
        return " · ".join([line, *self.differences(), *option])

    def as_dict(self) -> dict[str, object]:
        """The rules as JSON-ready values (exact rationals as ``n/d`` strings)."""
        return {
            "name": self.name,
            "commission": fraction_text(self.commission),
            "tie_pays": fraction_text(self.tie_pays),
            "banker_pays": fraction_text(self.banker_pays),
            "banker_three_card_seven_pushes": self.banker_three_card_seven_pushes,
            "tableau": self.tableau.key(),
            **({"banker_win_overrides": [o.as_dict() for o in self.banker_win_overrides]}
               if self.banker_win_overrides else {}),
            **({"player_win_overrides": [o.as_dict() for o in self.player_win_overrides]}
               if self.player_win_overrides else {}),
            **({"tie_overrides": [o.as_dict() for o in self.tie_overrides]} if self.tie_overrides else {}),
        }

    def policy(self) -> dict[str, str]:
        """The Player's option on 5 when the rules choose it (``{"player_5": "best"}``), as the JSON's ``policy``.

        >>> PUNTO_BANCO.policy(), PUNTO_BANCO.with_player_five("best").policy()
        ({}, {'player_5': 'best'})
        """
        return {"player_5": self.player_five} if self.player_five else {}


PUNTO_BANCO = RuleSet(
    name="punto-banco",
    description="Standard punto banco: Banker wins pay 0.95 to 1 (5% commission), Tie pays 8 to 1.",
    aliases=("standard", "baccarat", "pb", "mini", "midi"),
)
"""Standard punto banco: Banker pays 0.95 to 1 (5% commission), Tie 8 to 1; the default rules everywhere."""
EZ = RuleSet(
    name="ez",
    description="EZ Baccarat: no commission; a Banker win with a three-card 7 pushes Banker bets.",
    commission=Fraction(0),
    banker_three_card_seven_pushes=True,
    aliases=("ez-baccarat", "no-commission-ez"),
)

SUPER_6 = RuleSet(
    name="super-6",
    description="Super 6 (no-commission baccarat): no commission; a Banker win with a total of 6 pays 1 to 2.",
    commission=Fraction(0),
    aliases=("super6", "no-commission", "punto-banco-no-commission"),
    banker_win_overrides=(PayOverride("win-on-6", "a total of 6", condition({"banker_total": 6}), Fraction(1, 2)),),
)

BIG_TABLE = RuleSet(
    name="big-table",
    description="Punto banco at the big table: as punto-banco, but the Player's holder, seeing all four cards,"
    " draws or stands on 5, whichever is better for the Player bet.",
    aliases=("big", "punto-banco-big-table"),
    player_five="best",
)

# Baccarat Gold's chart, as its rules print it (docs/rules.md): when the Player drew, the Banker draws on 0-3, on 4-5
# only against a Player third card of 3 to 7, never on 6-7; when the Player stood, on 0-5 (punto banco's rule); the
# Player draws on 0-4 and stands on 6-7, as in punto banco, and his 5 is the holder's option.
GOLD_BANKER_DRAWS_AGAINST = {
    **dict.fromkeys((0, 1, 2, 3), "0 1 2 3 4 5 6 7 8 9"), **dict.fromkeys((4, 5), "3 4 5 6 7"), 6: "", 7: ""
}

BACCARAT_GOLD = RuleSet(
    name="baccarat-gold",
    description="Baccarat Gold (California card rooms, 8 decks): the Player's holder may draw or stand on 5 (priced"
    " drawing, as published: --player-5 picks); when the Player drew, the Banker draws on 0-3, on 4-5 only against a"
    " third card of 3 to 7, never on 6-7; Tie pays 9 to 1.",
    tie_pays=Fraction(9),
    aliases=("gold",),
    tableau=replace(
        STANDARD_TABLEAU,
        banker_draws_against=tuple(_values(GOLD_BANKER_DRAWS_AGAINST[b]) for b in range(8)),
    ),
    player_five="draw",
)

RULE_SETS: tuple[RuleSet, ...] = (PUNTO_BANCO, EZ, SUPER_6, BIG_TABLE, BACCARAT_GOLD)
"""The named rule sets, punto banco first (``exactodds rules`` lists them); :func:`find_rules` finds one."""


def find_rules(name: str) -> RuleSet:
    """Look up a rule set by its name or an alias, exactly; a near miss is told the closest names.

    >>> find_rules("standard").name
    'punto-banco'
    >>> find_rules("EZ").name  # in any case
    'ez'
    >>> find_rules("Standart")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: unknown rule set 'Standart': did you mean standard? Valid rule sets are ...
    """
    aliases = [a for r in RULE_SETS for a in r.aliases]
    name = by_case(name, [*(r.name for r in RULE_SETS), *aliases])
    for rules in RULE_SETS:
        if name == rules.name or name in rules.aliases:
            return rules
    raise unknown_name("rule set", name, [r.name for r in RULE_SETS], aliases=aliases)
