"""The catalog of the bets a rule set offers: the Player, Banker and Tie bets under its rules, and the side bets.

A bet is a pay table over coup events (:class:`~exactodds.puntobanco.events.Bet`). The side bets
are written in the bet notation of bets files (:mod:`exactodds.betfile`), in
``exactodds/data/*.toml``, and read on first use; adding one is a few lines there and
no engine change. The Player, Banker and Tie bets follow the rule set and are built here.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from fractions import Fraction
from functools import lru_cache

from ..betfile import ALL_BETS, BetSpec, OutcomeSpec, Vocabulary, packaged_text, read_bet_specs
from ..errors import by_case, unknown_name
from ..exact import short_text
from ..notation import describe
from ..paytable import Outcome
from .coup import ALL_STATES, CoupState
from .events import (
    BANKER_WINS,
    BY_WINNER,
    PLAYER_WINS,
    TIE,
    Bet,
    Event,
    none_of,
)
from .facts import ALL_MASK, FACTS, card_facts_of, condition, file_condition, states_where
from .rules import OVERRIDE_SIDES, PayOverride, RuleSet


def banker_win_outcomes(
    overrides: Sequence[PayOverride], pays: Fraction, wins: Event | None = None
) -> list[Outcome]:
    """The win lines of a bet (default the Banker's): the plain win at ``pays``, then the overrides, first match wins.

    Override k settles the wins (``wins``: Banker wins, Player wins or ties) its condition
    matches that no earlier override matched (its event then says which earlier ones it
    gives way to); the plain win is every win no override matches.

    >>> from exactodds.puntobanco.rules import EZ_PUSH
    >>> seven = PayOverride("seven", "a total of 7", condition({"banker_total": 7}), Fraction(1, 2))
    >>> [(o.id, o.event.name) for o in banker_win_outcomes([EZ_PUSH, seven], Fraction(1))][2]
    ('seven', 'Banker wins with a total of 7, not with a three-card 7')
    """
    wins = BANKER_WINS if wins is None else wins
    if not overrides:
        return [Outcome("win", wins, pays)]
    taken = 0
    owned: list[int] = []  # each override's own wins, before the earlier ones take theirs
    special = []
    for override in overrides:
        own = wins.mask & states_where(override.when)
        before = [o.name for o, mask in zip(overrides, owned) if mask & own]
        name = override.event + (f", not with {' or '.join(before)}" if before else "")
        special.append(Outcome(override.id, Event(name, own & ~taken), override.net))
        owned.append(own)
        taken |= own
    plain = Event(f"{wins.name}, not with {' or '.join(o.name for o in overrides)}", wins.mask & ~taken)
    return [Outcome("win", plain, pays), *special]


def override_card_bet(
    bet_id: str,
    description: str,
    overrides: Sequence[PayOverride],
    pays: Fraction,
    rest: Sequence[tuple[str, Event, Fraction]],
) -> Bet:
    """A main bet whose pay overrides read the dealt cards: a bet on the cards, priced by the card walk.

    Its outcomes are those of :func:`banker_win_outcomes` (the plain win, the overrides), then
    ``rest`` (push, lose), each with its condition: an override's is its own plus the winner
    it pays (``winner = banker``), and the outcomes settle first match wins
    (:attr:`Bet.first_match`), so an override takes only the wins no earlier override took;
    the plain win is every other win.

    >>> seven = PayOverride("seven", "a 7 third card", condition({"b3_rank": "7"}), Fraction(0))
    >>> bet = override_card_bet("banker", "Banker", [seven], Fraction(1), [("lose", PLAYER_WINS, Fraction(-1))])
    >>> [(o.id, o.event.name) for o in bet.outcomes][:2], bet.reads_cards, bet.first_match
    ([('win', 'Banker wins, not with a 7 third card'), ('seven', 'Banker wins with a 7 third card')], True, True)
    """
    side = overrides[0].side
    winner = condition({"winner": side})
    wins = Event.where(winner, OVERRIDE_SIDES[side])
    # The coup states each override may match (its card facts left out): an earlier override
    # whose states meet these may take some of its deals, and its event names it.
    states = [wins.mask & states_where(tuple(f for f in o.when if f[0] in FACTS)) for o in overrides]
    special = []
    for k, override in enumerate(overrides):
        before = [o.name for o, mask in zip(overrides[:k], states) if mask & states[k]]
        name = override.event + (f", not with {' or '.join(before)}" if before else "")
        special.append(Outcome(override.id, Event(name, 0), override.net))
    plain = Outcome("win", Event(f"{wins.name}, not with {' or '.join(o.name for o in overrides)}", 0), pays)
    others = tuple(Outcome(i, Event(event.name, 0), net) for i, event, net in rest)
    # The outcomes after the wins: each is a set of whole coup states, its condition their winners.
    rest_whens = tuple(
        condition({"winner": [w for w in ("player", "banker", "tie") if event.mask & BY_WINNER[w].mask]})
        for _, event, _ in rest
    )
    whens = (None, *(winner + o.when for o in overrides), *rest_whens)
    return Bet(bet_id, description, (plain, *special, *others), whens, first_match=True)


def _with_overrides(
    bet_id: str, description: str, overrides: Sequence[PayOverride], pays: Fraction, wins: Event,
    rest: Sequence[tuple[str, Event, Fraction]],
) -> Bet:
    """A main bet: wins at ``pays`` less what the overrides pay; on coup states, or on the cards if they read them."""
    if any(card_facts_of(o.when) for o in overrides):
        return override_card_bet(bet_id, description, overrides, pays, rest)
    others = tuple(Outcome(i, event, net) for i, event, net in rest)
    return Bet(bet_id, description, (*banker_win_outcomes(overrides, pays, wins), *others))


def _extra(overrides: Sequence[PayOverride]) -> str:
    """The overrides in a bet's description: ``; a win with … pays 2:1``."""
    return "".join(f"; a {o.header() if o.side == 'tie' else o.header().removeprefix(o.side + ' ')}" for o in overrides)


@lru_cache(maxsize=1)
def winner_bet() -> Bet:
    """Who wins the coup, as a bet whose outcomes are the three winners (each "paying" 1): its outcomes' exact
    probabilities are those of the next coup's winner (the tracker's odds beside the scoreboard).

    >>> [o.id for o in winner_bet().outcomes]
    ['banker', 'player', 'tie']
    """
    one = Fraction(1)
    return Bet("winner", "Who wins the coup: Banker, Player or a tie",
               (Outcome("banker", BANKER_WINS, one), Outcome("player", PLAYER_WINS, one), Outcome("tie", TIE, one)))


@lru_cache(maxsize=64)
def main_bets(rules: RuleSet) -> tuple[Bet, Bet, Bet]:
    """The Player, Banker and Tie bets under ``rules``.

    >>> from exactodds.puntobanco.rules import EZ
    >>> player, banker, tie = main_bets(EZ)
    >>> [(o.id, str(o.net)) for o in banker.outcomes]
    [('win', '1'), ('push-three-card-7', '0'), ('push', '0'), ('lose', '-1')]
    """
    player_extra = _extra(rules.player_win_overrides)
    player = _with_overrides(
        "player",
        f"Player 1:1{' (' + player_extra.removeprefix('; ') + ')' if player_extra else ''}; pushes on a tie",
        rules.player_win_overrides,
        Fraction(1),
        PLAYER_WINS,
        (("push", TIE, Fraction(0)), ("lose", BANKER_WINS, Fraction(-1))),
    )
    overrides = rules.banker_overrides
    commission = f"{short_text(rules.commission * 100)}% commission" if rules.commission else "no commission"
    extra = _extra(overrides).replace("; a win with a three-card 7 pushes", "; a three-card 7 win pushes")
    banker = _with_overrides(
        "banker",
        f"Banker {short_text(rules.banker_pays)}:1 ({commission}{extra}); pushes on a tie",
        overrides,
        rules.banker_pays,
        BANKER_WINS,
        (("push", TIE, Fraction(0)), ("lose", PLAYER_WINS, Fraction(-1))),
    )
    tie = _with_overrides(
        "tie",
        f"Tie {short_text(rules.tie_pays)}:1{_extra(rules.tie_overrides)}",
        rules.tie_overrides,
        rules.tie_pays,
        TIE,
        (("lose", ~TIE, Fraction(-1)),),
    )
    return player, banker, tie


def bet_of_spec(spec: BetSpec) -> Bet:
    """The bet a pay table of the bet notation describes (see :mod:`exactodds.betfile`).

    An outcome's event is named by its ``event`` key, else by its condition in words;
    the ``otherwise`` outcome holds on every coup no other outcome settles. A bet whose
    conditions read the dealt cards keeps them as written (:attr:`Bet.cards`).
    """
    if any(card_facts_of(o.when) for o in spec.outcomes):
        nothing = tuple(
            Outcome(o.id, Event(o.event or (describe(o.when) if o.when else "otherwise"), 0), o.pays, o.multiplier)
            for o in spec.outcomes
        )
        return Bet(spec.id, spec.description, nothing, tuple(o.when for o in spec.outcomes))
    named = [Event.where(o.when, o.event or describe(o.when)) for o in spec.outcomes if o.when is not None]
    events = iter(named)
    outcomes = tuple(
        Outcome(o.id, none_of(o.event or "otherwise", named) if o.when is None else next(events), o.pays, o.multiplier)
        for o in spec.outcomes
    )
    return Bet(spec.id, spec.description, outcomes)


def _coup_text(state: CoupState) -> str:
    """A coup state in words, for the error of a bet that settles it twice or not at all."""
    flags = [
        name
        for name, on in (
            ("player pair", state.player_pair and not state.player_pair_suited),
            ("banker pair", state.banker_pair and not state.banker_pair_suited),
            ("player suited pair", state.player_pair_suited),
            ("banker suited pair", state.banker_pair_suited),
        )
        if on
    ]
    return (
        f"Player {state.player_total} with {state.player_cards} cards, Banker {state.banker_total} with"
        f" {state.banker_cards} cards{', ' + ', '.join(flags) if flags else ''}"
    )


def _partition(bet_id: str, outcomes: Sequence[OutcomeSpec]) -> tuple[int | None, str, str] | None:
    """The first outcome that overlaps an earlier one, or the bet when a coup is left unsettled (with the coup in
    words), or ``None``: the outcomes settle every coup once.

    Each condition becomes the bit set of the states where it holds (a few ANDs and ORs), so the
    check is one pass over the outcomes, however many there are. A bet on the dealt cards is
    checked per shoe, when it is priced (a coup state does not say which cards were dealt).
    """
    if any(card_facts_of(o.when) for o in outcomes):
        return None
    seen = 0
    for at, outcome in enumerate(outcomes):
        if outcome.when is None:
            continue
        mask = states_where(outcome.when)
        both = seen & mask
        if both:
            i = (both & -both).bit_length() - 1
            earlier = next(o.id for o in outcomes if o.when is not None and states_where(o.when) >> i & 1)
            return at, f"bet {bet_id!r}, outcome {outcome.id!r}", (
                f"outcomes {earlier!r} and {outcome.id!r} overlap: both settle the coup {_coup_text(ALL_STATES[i])}"
            )
        seen |= mask
    missing = ALL_MASK & ~seen
    if missing and all(o.when is not None for o in outcomes):
        i = (missing & -missing).bit_length() - 1
        return None, f"bet {bet_id!r}", (
            f"no outcome settles the coup {_coup_text(ALL_STATES[i])}; add a case or an outcome with otherwise = true"
        )
    return None


#: Punto banco's bet notation: conditions over the coup facts and card facts (:mod:`exactodds.puntobanco.facts`),
#: each bet checked to settle every coup once.
VOCABULARY = Vocabulary(file_condition, _partition)


def bets_from_text(text: str, name: str = "<bets file>", reserved: Collection[str] = frozenset()) -> tuple[Bet, ...]:
    """The bets of a bets file's text (the notation of :mod:`exactodds.betfile`); ``name`` is used in errors,
    ``reserved`` are ids the file may not take (a user's file: :func:`catalog_ids`).

    >>> (bet,) = bets_from_text('[bets.t]\\noutcome = [{id = "win", when = {winner = "tie"}, pays = 9},'
    ...                         ' {id = "lose", otherwise = true, pays = -1}]')
    >>> bet.outcomes[0].event == Event.where({"winner": "tie"})
    True
    """
    return tuple(bet_of_spec(spec) for spec in read_bet_specs(text, name, VOCABULARY, reserved))


def _packaged(file: str) -> tuple[Bet, ...]:
    """The bets of a bets file shipped in the package (``exactodds/data``)."""
    return bets_from_text(packaged_text(file), f"exactodds/data/{file}")


@lru_cache(maxsize=1)
def catalog_specs() -> dict[str, BetSpec]:
    """The side bets of the catalog as written in the bet notation, by id (to write one back as a bets file).

    >>> catalog_specs()["dragon-7"].outcomes[0].pays
    Fraction(40, 1)
    """
    return {
        spec.id: spec
        for file in ("core-bets.toml", "side-bets.toml")
        for spec in read_bet_specs(packaged_text(file), f"exactodds/data/{file}", VOCABULARY)
    }


@lru_cache(maxsize=1)
def catalog_ids() -> frozenset[str]:
    """Every id of the catalog, the main bets' and the side bets': those a user's bets file may not take.

    >>> {"banker", "dragon-7"} <= catalog_ids()
    True
    """
    from .rules import PUNTO_BANCO

    return frozenset((*(bet.id for bet in main_bets(PUNTO_BANCO)), *catalog_specs()))


@lru_cache(maxsize=1)
def core_side_bets() -> tuple[Bet, ...]:
    """The side bets of the default report: the pairs, Dragon 7 and Panda 8 (``data/core-bets.toml``).

    >>> [b.id for b in core_side_bets()]
    ['player-pair', 'banker-pair', 'dragon-7', 'panda-8']
    """
    return _packaged("core-bets.toml")


@lru_cache(maxsize=1)
def side_catalog() -> tuple[Bet, ...]:
    """The side-bet catalog beyond the core bets (``data/side-bets.toml``), read on first use.

    >>> [b.id for b in side_catalog()][:4]
    ['either-pair', 'perfect-pair', 'perfect-pair-26', 'perfect-pair-v2']
    """
    return _packaged("side-bets.toml")


def bet_catalog(rules: RuleSet, *, full: bool = False) -> dict[str, Bet]:
    """The core bets under ``rules`` (the default report), or with ``full=True`` the whole catalog, by id.

    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> list(bet_catalog(PUNTO_BANCO))
    ['player', 'banker', 'tie', 'player-pair', 'banker-pair', 'dragon-7', 'panda-8']
    >>> list(bet_catalog(PUNTO_BANCO, full=True)) == [*bet_catalog(PUNTO_BANCO), *(b.id for b in side_catalog())]
    True
    """
    core = {bet.id: bet for bet in (*main_bets(rules), *core_side_bets())}
    if full:
        core.update((bet.id, bet) for bet in side_catalog())
    return core


def find_bet(bet_id: str, rules: RuleSet) -> Bet:
    """Look up a bet of the whole catalog by its id, exactly; a near miss is told the closest ids.

    >>> from exactodds.puntobanco.rules import EZ
    >>> find_bet("dragon-7", EZ).description
    'Dragon 7 40:1: the Banker wins with a three-card 7'
    >>> find_bet("Dragon-7", EZ).id  # in any case
    'dragon-7'
    >>> find_bet("Dragon_7", EZ)
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: unknown bet 'Dragon_7': did you mean dragon-7? Valid bets are player, ...
    """
    core = bet_catalog(rules)
    if bet_id in core:
        return core[bet_id]
    catalog = bet_catalog(rules, full=True)
    bet_id = by_case(bet_id, catalog)  # ids in any case: no two of the catalog's differ by case only
    if bet_id not in catalog:
        more = f"exactodds bets lists all {len(catalog)}"
        raise unknown_name("bet", bet_id, list(catalog), aliases=[ALL_BETS], more=more)
    return catalog[bet_id]
