"""Rebates: the share of the turnover a casino pays back to a player, and a bet's EV with it, exactly.

A rebate at rate r (the rolling or loss rebate of Asian casinos and junkets) pays r times
the bet's *effective stake*, so the EV per unit bet with the rebate is EV + r·(effective
stake). What counts as effective stake is the basis of the rebate; per unit bet it is:

- ``total-stake``: 1, every bet placed;
- ``non-refund``: 1 − P(push), every bet that is not handed back;
- ``losing-only``: P(lose), the stakes the casino keeps;
- ``standard``: ``non-refund``, except on a bet on the Banker, where a win counts only its net
  pay (the commission is taken off the winning stake): P(lose) + Σ P(win at w)·min(w, 1).

A bet is *on the Banker* (:attr:`~exactodds.puntobanco.events.Bet.on_banker`) when its pay table says so: every coup the
Player wins loses it, every tie pushes it, and every coup the Banker wins pays it or pushes.
That is the Banker bet of every rule set and any bet of a bets file written the same way,
whatever its commission; where its wins pay 1 to 1 (no commission) the standard basis is the
non-refund one. Each outcome of a bet earns a fixed share of the rebate when it settles the bet
(:func:`stake_weights`), so the effective stake is a sum over the exact outcome probabilities.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Literal, NamedTuple, TypeVar, get_args

from .errors import ExactOddsError, unknown_name
from .exact import fraction_text, parse_rate, short_text
from .paytable import Bet, Outcome
from .records import record

#: A bet of any game (the rebated bet is of the same class).
AnyBet = TypeVar("AnyBet", bound=Bet)

#: What a rebate is paid on (see the module's docstring).
Basis = Literal["standard", "total-stake", "non-refund", "losing-only"]
BASES: tuple[Basis, ...] = get_args(Basis)


@record
class Rebate:
    """A rebate: its rate (an exact fraction from 0 to below 1) and its basis, one of :data:`BASES`.

    >>> Rebate.parse("0.8%").rate, Rebate.parse("1/125", "losing-only").basis
    (Fraction(1, 125), 'losing-only')
    >>> Rebate(Fraction(1, 100), "Standard")
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: unknown rebate basis 'Standard': did you mean standard? Valid rebate bases ...
    """

    rate: Fraction
    basis: Basis = "standard"

    def __post_init__(self) -> None:
        if not isinstance(self.rate, Fraction) or not 0 <= self.rate < 1:
            raise ExactOddsError(f"a rebate rate is an exact fraction from 0 to below 1, not {self.rate!r}")
        if self.basis not in BASES:
            raise unknown_name("rebate basis", str(self.basis), BASES, plural="rebate bases")

    @classmethod
    def parse(cls, text: str, basis: str = "standard") -> Rebate:
        """A rebate from its rate as typed (``0.8%``, ``0.008`` or ``1/125``, read exactly) and its basis."""
        return cls(parse_rate(text, "rebate", "0.8%, 0.008 or 1/125"), basis)  # type: ignore[arg-type]

    def text(self) -> str:
        """The rebate in words, as the reports print it.

        >>> Rebate(Fraction(1, 125)).text()
        'rebate 0.8% (standard basis)'
        """
        return f"rebate {short_text(self.rate * 100)}% ({self.basis} basis)"

    def as_json(self) -> dict[str, str]:
        """The rate (``n/d``) and the basis, as the JSON outputs write them."""
        return {"rate": fraction_text(self.rate), "basis": self.basis}


# A named tuple, not a frozen dataclass: the class is made at every start-up (see paytable.IntegerPays).
class RebateFigures(NamedTuple):
    """One bet's figures with a rebate: the effective stake per unit bet and the EV with the rebate, exact.

    >>> f = RebateFigures(Rebate(Fraction(1, 100)), Fraction(9, 10), Fraction(-1, 50))
    >>> f.ev_with_rebate, f.house_edge
    (Fraction(-11, 1000), Fraction(11, 1000))
    """

    rebate: Rebate
    effective_stake: Fraction
    #: The EV per unit bet without the rebate.
    ev: Fraction

    @property
    def paid(self) -> Fraction:
        """The rebate paid per unit bet: rate × effective stake."""
        return self.rebate.rate * self.effective_stake

    @property
    def ev_with_rebate(self) -> Fraction:
        """EV + rate × effective stake."""
        return self.ev + self.paid

    @property
    def house_edge(self) -> Fraction:
        """The house edge with the rebate: −(EV with the rebate)."""
        return -self.ev_with_rebate

    def as_json(self) -> dict[str, str]:
        """``{"rate", "basis", "effective_stake", "ev"}``, exact fractions as ``n/d`` (``ev``: with the rebate)."""
        return {**self.rebate.as_json(), "effective_stake": fraction_text(self.effective_stake),
                "ev": fraction_text(self.ev_with_rebate)}


def _weight(outcome: Outcome, basis: Basis, banker: bool) -> Fraction:
    """The effective stake of one unit bet that ``outcome`` settles (an expectation over its multiplier)."""
    if basis == "total-stake":
        return Fraction(1)
    if basis == "losing-only":
        return outcome.chance(-1)
    if basis == "standard" and banker:  # a Banker win counts its net pay: the stake less the commission
        return Fraction(1) if outcome.net < 0 else min(outcome.net, Fraction(1))
    return 1 - outcome.chance(0)


def paid_weight(net: Fraction, basis: Basis, banker: bool) -> Fraction:
    """The effective stake of a unit bet paid ``net`` (its rebate is rate × this): the same rule as each outcome's
    (:func:`stake_weights`), for one pay, so that a bet's law of pays gives its law with the rebate.

    >>> [str(paid_weight(Fraction(n), "standard", True)) for n in ("19/20", "0", "-1")]
    ['19/20', '0', '1']
    """
    if basis == "total-stake":
        return Fraction(1)
    if basis == "losing-only":
        return Fraction(net < 0)
    if basis == "standard" and banker:
        return Fraction(1) if net < 0 else min(net, Fraction(1))
    return Fraction(net != 0)


def law_with_rebate(bet: Bet, law: Sequence[tuple[Fraction, Fraction]], rebate: Rebate) -> dict[Fraction, Fraction]:
    """A bet's law of net pays per unit bet (each pay with its probability) with the rebate added to each pay: what
    the player is paid in all, hand by hand, so that the hold's spread counts the rebate too.

    >>> from exactodds.puntobanco.bets import main_bets
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> banker = main_bets(PUNTO_BANCO)[1]
    >>> law = [(Fraction(-1), Fraction(1, 2)), (Fraction(19, 20), Fraction(1, 2))]
    >>> {str(k): str(v) for k, v in law_with_rebate(banker, law, Rebate(Fraction(1, 100))).items()}
    {'-99/100': '1/2', '1919/2000': '1/2'}
    """
    banker = rebate.basis == "standard" and bet.on_banker
    out: dict[Fraction, Fraction] = {}
    for net, p in law:
        paid = net + rebate.rate * paid_weight(net, rebate.basis, banker)
        out[paid] = out.get(paid, Fraction(0)) + p
    return out


def stake_weights(bet: Bet, basis: Basis) -> tuple[Fraction, ...]:
    """Per outcome of ``bet``, the effective stake of a unit bet that it settles, on ``basis``.

    >>> from exactodds.puntobanco.bets import main_bets
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> banker = main_bets(PUNTO_BANCO)[1]
    >>> [(o.id, str(w)) for o, w in zip(banker.outcomes, stake_weights(banker, "standard"))]
    [('win', '19/20'), ('push', '0'), ('lose', '1')]
    """
    banker = basis == "standard" and bet.on_banker
    return tuple(_weight(o, basis, banker) for o in bet.outcomes)


def rebate_figures(bet: Bet, probabilities: Sequence[Fraction], ev: Fraction, rebate: Rebate) -> RebateFigures:
    """A bet's figures with ``rebate``, from the exact probability of each outcome and the bet's EV without it.

    >>> from exactodds.puntobanco.bets import main_bets
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> tie = main_bets(PUNTO_BANCO)[2]
    >>> rebate_figures(tie, [Fraction(1, 10), Fraction(9, 10)], Fraction(-1, 10), Rebate(Fraction(1, 100)))
    RebateFigures(rebate=Rebate(rate=Fraction(1, 100), basis='standard'), effective_stake=Fraction(1, 1), \
ev=Fraction(-1, 10))
    """
    weights = stake_weights(bet, rebate.basis)
    stake = sum((p * w for p, w in zip(probabilities, weights)), Fraction(0))
    return RebateFigures(rebate, stake, ev)


def rebated_bet(bet: AnyBet, rebate: Rebate) -> AnyBet:
    """``bet`` as the player is paid it with ``rebate``: each outcome's net pay plus the rebate it earns.

    Its EV is the EV with the rebate, exactly; the lab deals and plays these pays. An outcome
    with a random multiplier cannot carry a fixed rebate in its pay, so such a bet is refused.

    >>> from exactodds.puntobanco.bets import main_bets
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> [str(o.net) for o in rebated_bet(main_bets(PUNTO_BANCO)[1], Rebate(Fraction(1, 100))).outcomes]
    ['1919/2000', '0', '-99/100']
    """
    if any(o.multiplier is not None for o in bet.outcomes):
        raise ExactOddsError(f"bet {bet.id} has a random multiplier: its pays cannot carry a rebate")
    weights = stake_weights(bet, rebate.basis)
    outcomes = tuple(replace(o, net=o.net + rebate.rate * w) for o, w in zip(bet.outcomes, weights))
    return replace(bet, outcomes=outcomes)
