"""The report's advantage-play section: the lab run on the report's shoe, rules and bets (estimates, not exact).

The figures are those of ``exactodds simulate`` for the same options and seed, computed by
one home (:class:`exactodds.lab.advantage.PlayFigures`) and shown as the very strings of
``simulate --format json``'s ``advantage_play`` (six decimals), beside each bet's exact
house edge without a count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

from ..cards import Shoe
from ..errors import ExactOddsError
from ..exact import fraction_text, percent_text
from ..game import Game, Settings
from ..paytable import Bet as AnyBet
from ..puntobanco.events import Bet
from ..puntobanco.rules import RuleSet

if TYPE_CHECKING:  # the lab (and numpy) load only when a report asks for it: the CLI starts without them
    from ..lab.advantage import PlayFigures
    from ..lab.results import SimulationResult

#: Decimals of the figures: those of ``simulate --format json``.
PLACES = 6
#: The figures shown, in order: (key of :meth:`PlayFigures.as_json`, label).
FIELDS: tuple[tuple[str, str], ...] = (
    ("bets_per_100_coups", "bets per 100 coups"),
    ("bets_per_shoe", "bets per shoe"),
    ("average_edge", "average edge when betting (units per bet)"),
    ("ev_per_shoe", "EV per shoe (units)"),
    ("sd_per_shoe", "SD per shoe (units)"),
    ("ev_per_100_coups", "EV per 100 coups (units)"),
    ("ev_per_100_coups_se", "standard error of EV per 100 coups"),
    ("sd_per_100_coups", "SD per 100 coups (units)"),
    ("n0_shoes", "N0 (shoes)"),
    ("n0_coups", "N0 (coups)"),
    ("desirability_index", "desirability index DI"),
    ("bankroll_units", "bankroll for the risk of ruin (units)"),
)


@dataclass(frozen=True)
class LabOptions:
    """What the report asks of the lab: shoes, seed, strategies, a count, and the risk of ruin."""

    shoes: int
    seed: int | None = None
    strategies: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    thresholds: tuple[str, ...] = ()
    #: None: the lab's default (5%).
    ror: Fraction | None = None


@dataclass(frozen=True)
class LabSection:
    """A finished lab run and its advantage-play figures per (strategy, bet), with the bets it left out."""

    result: SimulationResult
    ror: Fraction
    play: dict[tuple[str, str], PlayFigures]
    left_out: tuple[str, ...]

    @property
    def strategies(self) -> tuple[str, ...]:
        """The strategies played, in report order."""
        return tuple(dict.fromkeys(s for s, _ in self.play))

    def columns(self, strategy: str) -> tuple[str, ...]:
        """The bets (and "combined") of one strategy, in report order."""
        return tuple(b for s, b in self.play if s == strategy)

    def values(self, strategy: str, bet: str) -> dict[str, Any]:
        """The figures of one cell as ``simulate --format json`` writes them."""
        return self.play[(strategy, bet)].as_json(PLACES)

    @property
    def note(self) -> str:
        """How the run was made: shoes, seed, dealing, count, and the risk of ruin."""
        from ..lab.advantage import DEFAULT_ROR
        from ..lab.counts import tags_text

        plan = self.result.plan
        counts = "".join(f" --tags {b}={tags_text(c.tags)} --threshold {b}={fraction_text(c.threshold)}"
                         for b, c in plan.counts.items())  # fmt: skip
        burn = f", burn {plan.burn}" if plan.burn else ""
        if self.ror != DEFAULT_ROR:
            counts += f" --ror {fraction_text(self.ror)}"
        paid = ""
        if plan.rebate is not None:
            counts += f" --rebate {fraction_text(plan.rebate.rate)} --rebate-basis {plan.rebate.basis}"
            paid = f"; the lab plays with the {plan.rebate.text()}, which these figures and that house edge include"
        bets = " ".join(f"--bet {b}" for b in plan.bet_ids)
        strategies = " ".join(f"--strategy {s}" for s in plan.strategies)
        return (f"Simulation (estimates, not exact): {plan.shoes:,} shoes dealt to a cut card {plan.cut_card}"
                f" cards from the end{burn}, seed {plan.seed}; the same seed deals the same shoes, so `exactodds"
                f" simulate {bets} {strategies}{counts} --seed {plan.seed} --shoes {plan.shoes} --format json` with"
                " the report's shoe and rules options gives these figures."
                f" Bankroll sized for a {percent_text(self.ror, 2)} risk of ruin with a fixed unit."
                f" The exact house edge of each bet without a count is given beside the win rate{paid}.")


def lab_bets(rules: RuleSet, bets: Sequence[AnyBet]) -> tuple[tuple[Bet, ...], tuple[str, ...]]:
    """The report's bets the lab can simulate (coup states, no suits, no multipliers), and the ids of the others.

    >>> from exactodds.puntobanco.odds import resolve_bets
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> kept, out = lab_bets(PUNTO_BANCO, resolve_bets(PUNTO_BANCO, ["banker", "perfect-pair"], suits=True))
    >>> [b.id for b in kept], out
    (['banker'], ('perfect-pair',))
    """
    from ..lab.plan import simulated_bets

    kept: list[Bet] = []
    out: list[str] = []
    for bet in bets:
        try:
            kept += simulated_bets(rules, [bet])
        except ExactOddsError:
            out.append(bet.id)
            continue
        if bet.needs_suits:
            kept.pop()
            out.append(bet.id)
    return tuple(kept), tuple(out)


def run_lab(game: Game, settings: Settings, shoe: Shoe, bets: Sequence[AnyBet], options: LabOptions) -> LabSection:
    """Deal ``options.shoes`` shoes of the lab on the report's shoe, settings and bets (with the settings' rebate, if
    any), and keep the figures; a game that does not simulate (capability ``simulate``) is refused in one line."""
    from ..lab.advantage import DEFAULT_ROR
    from ..lab.session import Session

    rules = game.tableau_rules(settings, "simulate", "--lab-shoes")
    kept, left_out = lab_bets(rules, bets)
    if not kept:
        raise ExactOddsError(f"--lab-shoes: the lab cannot simulate any of the bets {', '.join(left_out)}"
                             " (it deals coup states: no card or suit bets, no multipliers)")
    session = Session.from_options(
        shoe, rules, bets=kept, strategies=options.strategies, tags=options.tags, thresholds=options.thresholds,
        shoes=options.shoes, seed=options.seed, rebate=settings.given().get("rebate"),
    )
    result = session.run()
    ror = DEFAULT_ROR if options.ror is None else options.ror
    return LabSection(result, ror, result.play_figures(ror), left_out)


def lab_rows(section: LabSection, strategy: str) -> tuple[tuple[str, ...], ...]:
    """One strategy's figures as rows (a figure per row, a bet per column), the strings of ``simulate``'s JSON."""
    bets = section.columns(strategy)
    cells = [section.values(strategy, b) for b in bets]
    rows = [(label, *("—" if c[key] is None else c[key] for c in cells)) for key, label in FIELDS]
    rows.append(("house edge without a count (exact, %)",
                 *("—" if c["house_edge_no_count_percent"] is None else c["house_edge_no_count_percent"]
                   for c in cells)))
    rows.append(("house edge without a count (exact)",
                 *("—" if c["house_edge_no_count"] is None else c["house_edge_no_count"] for c in cells)))
    return tuple(rows)


#: The cards whose class an edge sorter sees in the exposure: the first (P1), and the first four (P1 B1 P2 B2).
SORTED_CARDS = (1, 4)


@dataclass(frozen=True)
class SortEdge:
    """One bet's edge per coup for an edge sorter who bets it alone, when its EV is positive, exactly: seeing the
    High/Low class (High = 6, 7, 8, 9) of the first card, and of the first four."""

    bet: str
    first: Fraction
    four: Fraction


@dataclass(frozen=True)
class Exposure:
    """What a player who sees the cards can do to each bet, exactly: the effect of removing one card of each value on
    its EV, the best linear counts of levels 2 and 4 with their betting correlations and break-even true counts (the
    thresholds an operator would watch), and the value of the first cards' class (edge sorting)."""

    labels: tuple[str, ...]
    effects: tuple[tuple[str, tuple[Fraction | None, ...]], ...]
    counts: tuple[Any, ...]  # the lab's CountProposal of each bet and level
    left_out: tuple[str, ...]
    #: Each counted bet's edge under edge sorting (a game with the capability ``edge-sort``).
    sorting: tuple[SortEdge, ...] = ()
    #: The counted bets edge sorting refuses, with the reason: (bet id, reason).
    unsorted: tuple[tuple[str, str], ...] = ()
    #: Why edge sorting gave no edge at all on this game's settings, if it refused them.
    sorting_note: str | None = None
    #: Perfect play of each bet the lab can deal, estimated (:func:`perfect_play`), if the game simulates.
    perfect: LabSection | None = None


def sort_edges(game: Game, settings: Settings, shoe: Shoe, bets: Sequence[Bet]) -> tuple[
        tuple[SortEdge, ...], tuple[tuple[str, str], ...], str | None]:
    """Each bet's edge per coup under edge sorting by the default High set (6789), seeing the first card's class
    and the first four's, from one exact sort of four cards; the bets it refuses with the reason; and why it gave
    nothing, if it refused the settings (nothing at all for a game without the capability ``edge-sort``).

    >>> from exactodds.games import find_game
    >>> from exactodds.puntobanco.odds import resolve_bets
    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> game = find_game("punto-banco")
    >>> edges, refused, _ = sort_edges(game, game.settings_of({}), Shoe.standard(8),
    ...                                resolve_bets(PUNTO_BANCO, ["player", "player-pair"]))
    >>> [(e.bet, percent_text(e.first, 4), percent_text(e.four, 4)) for e in edges], [b for b, _ in refused]
    ([('player', '3.6110%', '9.1627%')], ['player-pair'])
    """
    if not game.has("edge-sort"):
        return (), (), None
    from ..puntobanco.information import DEFAULT_HIGH, edge_sort, refusal

    reasons = [refusal(b) for b in bets]
    refused = tuple((b.id, reason) for b, reason in zip(bets, reasons) if reason is not None)
    kept = [b for b, reason in zip(bets, reasons) if reason is None]
    if not kept:
        return (), refused, None
    try:
        rules = game.tableau_rules(settings, "edge-sort", "the report's exposure")
        sort = edge_sort(shoe, rules, kept, high=DEFAULT_HIGH, cards=max(SORTED_CARDS))
    except ExactOddsError as error:
        return (), refused, str(error)
    first, four = (sort.own_edges(k) for k in SORTED_CARDS)
    return tuple(SortEdge(b.id, f, k) for b, f, k in zip(sort.bets, first, four)), refused, None


#: The headers of the edge-sorting table.
SORT_HEADERS = ("bet", "edge per coup, 1st card's class seen", "edge per coup, first 4 cards' classes seen")


def sort_text(setup: str, rebate: bool = False) -> str:
    """What the edge-sorting table gives, and the command that gives each of its figures with the report's options.

    >>> sort_text("--decks 6").split("; ")[1]
    'each figure is that of `exactodds edge-sort --decks 6 --bet BET --cards 1` (or `--cards 4`)'
    """
    command = " ".join(w for w in ("exactodds edge-sort", setup, "--bet BET --cards 1") if w)
    return ("Edge sorting: a player who tells High cards (6, 7, 8, 9, the classic edge-sorting split) from Low ones"
            " sees each card's class as it is dealt face down, and bets before the coup. The table gives each bet's"
            " exact edge per coup (the expected win per coup dealt, in units of one bet) for a player who bets it"
            " alone, and only in the states where its EV is positive, seeing the class of the first card (P1) or of"
            " the first four (P1 B1 P2 B2): Σ P(state) · max(0, EV | state) over the ordered six-card draws"
            + (", on the pays alone (no rebate)" if rebate else "") + f"; each figure is that of `{command}` (or"
            " `--cards 4`); other High sets: its --high, and the best of every split: `exactodds edge-sort"
            " --best-sort`.")


def unsorted_text(found: Exposure) -> str | None:
    """The bets edge sorting leaves out, with the reasons, or why it gave nothing; ``None`` when it left nothing out.

    >>> unsorted_text(Exposure((), (), (), (), unsorted=(("player-pair", "reads pairs"), ("b-pair", "reads pairs"))))
    'Left out of edge sorting: player-pair, b-pair: each reads pairs.'
    """
    if found.sorting_note is not None:
        return f"No edge sorting: {found.sorting_note}."
    by_reason: dict[str, list[str]] = {}
    for bet, reason in found.unsorted:
        by_reason.setdefault(reason, []).append(bet)
    if not by_reason:
        return None
    return "Left out of edge sorting: " + "; ".join(f"{', '.join(bets)}: {'each ' * (len(bets) > 1)}{reason}"
                                                   for reason, bets in by_reason.items()) + "."


def sort_rows(found: Exposure) -> tuple[tuple[str, ...], ...]:
    """The edge-sorting table's rows: each bet, and its edge seeing the first card's class and the first four's, as
    percents.

    >>> sort_rows(Exposure((), (), (), (), (SortEdge("player", Fraction(1, 40), Fraction(1, 8)),)))
    (('player', '2.5000%', '12.5000%'),)
    """
    return tuple((e.bet, percent_text(e.first, 4), percent_text(e.four, 4)) for e in found.sorting)


def exposure(game: Game, settings: Settings, shoe: Shoe, bets: Sequence[AnyBet]) -> Exposure | None:
    """The advantage-play exposure of the bets that a count can track (on coup states, by rank), for a game with
    the capability ``tags`` (their edge sorting too with ``edge-sort``); ``None`` for another game, or a shoe too
    small to take a card from."""
    if not game.has("tags") or shoe.size <= Shoe.MIN_CARDS + 1:
        return None
    from ..eor import removal_effects
    from ..lab import propose_counts

    rules = game.tableau_rules(settings, "tags", "the report's exposure")
    counted = [b for b in bets if not b.needs_suits and not b.reads_cards
               and all(o.multiplier is None for o in b.outcomes)]
    left_out = tuple(b.id for b in bets if b not in counted)
    if not counted:
        return Exposure((), (), (), left_out)
    plain = shoe.without_suits() if shoe.suited else shoe
    eor = removal_effects(game, settings, plain, counted, by="value")
    proposals = propose_counts(plain, rules, cast("Sequence[Any]", counted), (2, 4))
    sorting = sort_edges(game, settings, plain, cast("Sequence[Bet]", counted))
    return Exposure(tuple(r.label for r in eor.removals), tuple((b.bet.id, tuple(b.effects)) for b in eor.bets),
                    tuple(proposals), left_out, *sorting, perfect_play(game, settings, shoe, counted))


#: The shoes and the seed of the exposure's perfect play: an estimate, dealt the same way each time.
PERFECT_SHOES, PERFECT_SEED = 200, 0
#: Its figures, in order: (key of :meth:`PlayFigures.as_json`, label).
PERFECT_FIELDS = (("bets_per_100_coups", "bets per 100 coups"), ("ev_per_100_coups", "EV per 100 coups (units)"),
                  ("ev_per_100_coups_se", "± standard error"), ("ev_per_shoe", "EV per shoe (units)"))


def perfect_play(game: Game, settings: Settings, shoe: Shoe, bets: Sequence[AnyBet]) -> LabSection | None:
    """The value of perfect play of each bet the lab can deal (one unit on every coup whose exact EV is positive), from
    :data:`PERFECT_SHOES` shoes dealt with the seed :data:`PERFECT_SEED`; ``None`` for a game that does not simulate,
    or bets the lab cannot deal."""
    if not game.has("simulate"):
        return None
    try:
        return run_lab(game, settings, shoe, bets, LabOptions(PERFECT_SHOES, PERFECT_SEED, ("perfect",)))
    except ExactOddsError:  # no bet the lab can deal
        return None


def perfect_rows(section: LabSection) -> tuple[tuple[str, ...], ...]:
    """Perfect play's figures, a bet a row, as ``simulate --format json`` writes them."""
    return tuple((bet, *("—" if (v := section.values("perfect", bet)[key]) is None else v for key, _ in PERFECT_FIELDS))
                 for bet in section.columns("perfect") if bet != "combined")


def perfect_text(section: LabSection, setup: str) -> str:
    """What the perfect-play table gives, and the command that gives its figures with the report's options."""
    plan = section.result.plan
    bets = " ".join(f"--bet {b}" for b in plan.bet_ids)
    rebate = (f" --rebate {fraction_text(plan.rebate.rate)} --rebate-basis {plan.rebate.basis}"
              if plan.rebate is not None else "")
    return ("Perfect play: one unit on a bet at every coup where its exact EV on the cards left is positive, and"
            " nothing elsewhere, the most a player who sees every card can take from it. An estimate, not an exact"
            f" figure: {plan.shoes:,} shoes dealt to a cut card {plan.cut_card} cards from the end, seed {plan.seed};"
            f" `exactodds simulate {bets} --strategy perfect{rebate} --seed {plan.seed} --shoes {plan.shoes}"
            f" --format json{' ' + setup if setup else ''}` gives these figures. The lab section (--lab-shoes) deals"
            " more shoes and plays counts too.")
