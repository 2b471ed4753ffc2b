"""The third-card rules as data, and rule sets as named presets with aliases."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from .errors import ExactOddsError
from .exact import fraction_text, short_text

# The tableau, exactly as printed in the rule sheets (../shared/spec/GAME.md).
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


def _values(text: str) -> frozenset[int]:
    return frozenset(int(v) for v in text.split())


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class RuleSet:
    """A named set of house rules: the tableau, the Banker commission, the Tie pay and variants.

    >>> rules = find_rules("EZ")
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

    def __post_init__(self) -> None:
        if not 0 <= self.commission < 1:
            raise ExactOddsError(f"the commission must be at least 0% and below 100%, not {self.commission}")
        if self.tie_pays <= 0:
            raise ExactOddsError(f"the Tie must pay more than 0 to 1, not {self.tie_pays}")

    @property
    def banker_pays(self) -> Fraction:
        """What a winning Banker bet pays to 1, after commission."""
        return 1 - self.commission

    def with_commission(self, commission: Fraction) -> RuleSet:
        """The same rules with another commission rate on Banker wins."""
        return replace(self, commission=Fraction(commission))

    def with_tie_pays(self, tie_pays: Fraction) -> RuleSet:
        """The same rules with another Tie pay (to 1)."""
        return replace(self, tie_pays=Fraction(tie_pays))

    def header(self) -> str:
        """A one-line summary of the rules, for the top of every table."""
        commission = f"{short_text(self.commission * 100)}% commission" if self.commission else "no commission"
        return (
            f"{self.name} · banker {short_text(self.banker_pays)}:1 ({commission}) · "
            f"tie {short_text(self.tie_pays)}:1 · EZ push: {'on' if self.banker_three_card_seven_pushes else 'off'}"
        )

    def as_dict(self) -> dict[str, object]:
        """The rules as JSON-ready values (exact rationals as ``n/d`` strings)."""
        return {
            "name": self.name,
            "commission": fraction_text(self.commission),
            "tie_pays": fraction_text(self.tie_pays),
            "banker_pays": fraction_text(self.banker_pays),
            "banker_three_card_seven_pushes": self.banker_three_card_seven_pushes,
            "tableau": self.tableau.key(),
        }


PUNTO_BANCO = RuleSet(
    name="punto-banco",
    description="Standard punto banco: Banker wins pay 0.95 to 1 (5% commission), Tie pays 8 to 1.",
    aliases=("standard", "baccarat", "pb", "mini", "midi"),
)
EZ = RuleSet(
    name="ez",
    description="EZ Baccarat: no commission; a Banker win with a three-card 7 pushes Banker bets.",
    commission=Fraction(0),
    banker_three_card_seven_pushes=True,
    aliases=("ez-baccarat", "no-commission-ez"),
)

RULE_SETS: tuple[RuleSet, ...] = (PUNTO_BANCO, EZ)


def find_rules(name: str) -> RuleSet:
    """Look up a rule set by name or alias (case-insensitive).

    >>> find_rules("Standard").name
    'punto-banco'
    """
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    for rules in RULE_SETS:
        if key == rules.name or key in rules.aliases:
            return rules
    valid = ", ".join(r.name for r in RULE_SETS)
    raise ExactOddsError(f"unknown rule set {name!r}: valid rule sets are {valid}")


def parse_commission(text: str) -> Fraction:
    """Read a commission: ``5%``, ``2.5%``, ``0.05`` or ``1/20`` (exactly).

    >>> parse_commission("2.5%"), parse_commission("0.04"), parse_commission("1/20")
    (Fraction(1, 40), Fraction(1, 25), Fraction(1, 20))
    """
    raw = text.strip()
    try:
        if raw.endswith("%"):
            value = Fraction(raw[:-1].strip()) / 100
        else:
            value = Fraction(raw)
    except (ValueError, ZeroDivisionError):
        raise ExactOddsError(f"malformed commission {text!r}: write e.g. 5%, 2.5% or 0.05") from None
    if not 0 <= value < 1:
        raise ExactOddsError(f"the commission must be at least 0% and below 100%, not {text!r}")
    return value


def parse_pays(text: str, what: str = "pay") -> Fraction:
    """Read a pay "to 1": ``8``, ``9``, ``0.5`` or ``1/2`` (exactly).

    >>> parse_pays("9"), parse_pays("1/2")
    (Fraction(9, 1), Fraction(1, 2))
    """
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise ExactOddsError(f"malformed {what} {text!r}: write a number such as 8 or 9") from None
    if value <= 0:
        raise ExactOddsError(f"the {what} must be more than 0, not {text!r}")
    return value
