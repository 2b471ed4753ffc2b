"""Punto banco, the default game: the house deals two hands by a fixed tableau, under any of its rule sets.

Its machinery is :mod:`exactodds.puntobanco` (the engine, the compiled evaluator, the card walk,
the rule sets, the catalog of bets); this module is what every tool sees of it: its settings
(the rule set or a rules file, the Player's option on 5, the commission and the Tie pay, a
rebate), its capabilities and its pricing, :func:`~exactodds.puntobanco.odds.analyze`.

>>> GAME.price(Shoe.standard(8), ["tie"], GAME.settings_of({"tie-pays": "9"})).bet("tie").house_edge_percent(4)
'4.8440%'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

from ..analysis import Analysis, BetFigures, Rules
from ..betfile import BetSpec, read_bet_specs
from ..cards import Shoe
from ..errors import ExactOddsError
from ..exact import parse_commission, parse_pays, percent_text, short_text
from ..game import Capability, Game, Settings, Tables, WorkedExample, rebate_setting
from ..inputs import COMMISSION, REBATE, REBATE_BASIS, TIE_PAYS, Input
from ..paytable import Bet, Outcome
from ..puntobanco.rules import (
    EZ,
    PLAYER_FIVE,
    PUNTO_BANCO,
    RULE_SETS,
    SUPER_6,
    RuleSet,
    find_rules,
)
from ..rebate import Rebate

if TYPE_CHECKING:
    from ..crosscheck import Citation, Reference
    from ..puntobanco.coups import TableauCoups
    from ..puntobanco.events import Bet as PuntoBancoBet

RULES = Input("rules", "text", f"Rule set: {', '.join(r.name for r in RULE_SETS)}.", metavar="NAME")
RULES_FILE = Input("rules-file", "file", "Rules from a TOML file (draw charts, commission, Tie pay, pay overrides);"
                   " see examples/.")
PLAYER_5 = Input(
    "player-5", "text", "The Player's option on 5: draw (the mini table), stand, best (the holder's choice seeing all"
    " four cards, as at the big table), or draw with probability P (e.g. 9/11).",
    metavar="|".join(PLAYER_FIVE) + "|P",
)


def _tie_default() -> str:
    """The Tie pay of each rule set that changes it, for the help: ``the rule set's: 8, …``."""
    pays = [short_text(PUNTO_BANCO.tie_pays)]
    pays += [f"{r.name} {short_text(r.tie_pays)}" for r in RULE_SETS if r.tie_pays != PUNTO_BANCO.tie_pays]
    return f"the rule set's: {', '.join(pays)}"


# Not made a dataclass again: it adds no field, so the methods made for Game serve it as they are (making
# them again would cost every command's start-up about a millisecond).
class PuntoBanco(Game):
    """Punto banco and its rule sets; its decision is the Player's option on 5 (the big table)."""

    def check_settings(self, values: dict[str, Any]) -> dict[str, Any]:
        """The rule set the settings make (kept as ``rules``), checked in the order the options have always been: the
        rules file, the Player's 5, then the pays; the rebate from its rate and basis."""
        name, text = values.get("rules"), values.get("rules-file")
        if name is not None and text is not None:
            raise_both(RULES, RULES_FILE)
        if text is not None:
            from ..puntobanco.userdefs import parse_rules

            rules = parse_rules(*text)
        else:
            rules = find_rules(name or PUNTO_BANCO.name)
        if values.get("player-5") is not None:
            rules = rules.with_player_five(values["player-5"])
        commission, tie = values.get("commission"), values.get("tie-pays")  # as typed, or exact from Python
        if commission is not None:
            rate = commission if isinstance(commission, Fraction) else parse_commission(commission)
            rules = rules.with_commission(rate)
        if tie is not None:
            rules = rules.with_tie_pays(tie if isinstance(tie, Fraction) else parse_pays(tie, "tie pay"))
        return {**values, "rules": rules, "rules-file": None, **rebate_setting(values)}

    def settings_for(self, rules: Rules, rebate: Rebate | None = None) -> Settings:
        """The settings of a rule set already made (and a rebate): what the library's functions of punto banco
        price under.

        >>> GAME.settings_for(PUNTO_BANCO)["rules"] is PUNTO_BANCO
        True
        """
        values: dict[str, Any] = {s.name: None for s in self.settings}
        values.update(rules=rules, rebate=rebate)
        return Settings(self.name, tuple(values.items()))

    def rules(self, settings: Settings) -> RuleSet:
        """The rule set the settings make."""
        rules: RuleSet = settings["rules"]
        return rules

    def tableau_rules(self, settings: Settings, capability: Capability, tool: str) -> RuleSet:
        """The rule set the settings make: punto banco deals by its tableau."""
        self.require(capability, tool)
        return self.rules(settings)

    def bets(self, settings: Settings) -> Mapping[str, Bet]:
        """The core bets of the rule set, then the side-bet catalog."""
        from ..puntobanco.bets import bet_catalog

        return bet_catalog(self.rules(settings), full=True)

    def default_bets(self, settings: Settings) -> tuple[str, ...]:
        """The core bets of the rule set: Player, Banker, Tie, the pairs, Dragon 7 and Panda 8."""
        from ..puntobanco.bets import bet_catalog

        return tuple(bet_catalog(self.rules(settings)))

    def price(
        self, shoe: Shoe, bets: Sequence[str | Bet] | None, settings: Settings, *, given: str | None = None
    ) -> Analysis:
        """:func:`~exactodds.puntobanco.odds.analyze` under the settings' rule set, with their rebate."""
        from ..puntobanco.odds import analyze

        event = None
        if given is not None:  # loaded only then: its parser (a dataclass, a regex) cost every start-up some 2 ms
            from ..puntobanco.given import Given

            event = Given.parse(given)
        analysis = analyze(shoe, self.rules(settings), bets, given=event)
        rebate = settings.given().get("rebate")
        return analysis if rebate is None else replace(analysis, rebate=rebate)

    def resolve(
        self, bets: Sequence[str | Bet] | None, settings: Settings, *, suits: bool = True, cards: bool = True
    ) -> tuple[PuntoBancoBet, ...]:
        """The bets named as bets of the rule set (``None``: the core bets; ``all``: the catalog)."""
        from ..puntobanco.odds import resolve_bets

        return resolve_bets(self.rules(settings), bets, suits=suits, cards=cards)

    def worked_examples(self, bets: Sequence[Bet], settings: Settings) -> dict[tuple[str, str], WorkedExample]:
        """The first coup, by the tableau of the settings' rules, that settles each outcome (none for a bet on the
        dealt cards beyond the coup): :mod:`~exactodds.puntobanco.examples`."""
        from ..puntobanco.examples import worked_examples

        found = worked_examples(self.rules(settings), cast("Sequence[PuntoBancoBet]", bets))
        return {key: WorkedExample(e.cards, e.deal, f"Player {e.state.player_total}, Banker {e.state.banker_total}:"
                                   + (" a tie" if e.state.winner == "tie" else f" {e.state.winner.title()} wins"))
                for key, e in found.items()}

    def coups(self, rules: Rules) -> TableauCoups:
        """Its coups as the tableau of ``rules`` (a rule set of punto banco) deals them."""
        from ..puntobanco.coups import tableau_coups

        return tableau_coups(cast(RuleSet, rules))

    def prepare(self, bets: Sequence[Bet], settings: Settings) -> None:
        """The compiled pricer of ``bets`` for each tableau a coup may follow, built now rather than the flat table
        (a shoe per card: numpy from the first shoe on)."""
        from ..puntobanco.compiled.flat import expect_many
        from ..puntobanco.coups import tableaux

        for tableau in tableaux(self.rules(settings)):
            expect_many(tableau, cast("Sequence[PuntoBancoBet]", bets))

    def count_rows(
        self, shoes: Sequence[Shoe], bets: Sequence[Bet], settings: Settings
    ) -> list[tuple[list[int], int]]:
        """Every shoe at once: by the compiled kernel where it was built (``flat_counts_many``, 8-deck shoes two a walk;
        shoe by shoe it was some twice as fast as the numpy batch's share of a shoe, ``benchmarks/review.py``), else
        by the numpy batch, one matrix of counts made Python integers row by row."""
        from ..puntobanco.odds import analyze_many, policy_scale

        rules = self.rules(settings)
        scale = policy_scale(rules)
        if _kernel_prices(rules, bets):
            from ..puntobanco.compiled.flat import flat_rows_many

            return flat_rows_many(rules.tableau, cast("Sequence[PuntoBancoBet]", bets), shoes)
        rows = analyze_many(shoes, rules, bets).counts.tolist()
        return [(row, shoe.orderings() * scale) for row, shoe in zip(rows, shoes)]

    def analysis_of(
        self, shoe: Shoe, bets: Sequence[Bet], settings: Settings, counts: Sequence[int], orderings: int
    ) -> Analysis:
        """The analysis of a row of the compiled batch (under a mixed policy on 5, its counts scaled)."""
        from ..puntobanco.odds import assemble

        chosen = self.resolve(bets, settings)
        per_bet, start = [], 0
        for bet in chosen:
            per_bet.append(counts[start : start + len(bet.outcomes)])
            start += len(bet.outcomes)
        analysis = assemble(self.rules(settings), shoe, chosen, per_bet)
        rebate = settings.given().get("rebate")
        return analysis if rebate is None else replace(analysis, rebate=rebate)

    def reference(self, shoe: Shoe, bets: Sequence[Bet], settings: Settings) -> Reference:
        """The reference walk (:mod:`~exactodds.puntobanco.engine`, the plain exhaustive enumeration), against which the
        compiled evaluator of :meth:`price` is checked."""
        from ..crosscheck import Reference
        from ..puntobanco.odds import analyze

        rules = self.rules(settings)
        notes = []
        if rules.player_five == "best":
            notes.append("the holder's best choice on 5 is priced by the reference walk by both methods")
        if any(b.needs_suits for b in bets):
            notes.append("bets on suited pairs are priced by the reference walk by both methods")
        return Reference(
            analyze(shoe, rules, bets, method="reference"), ("compiled", "reference"),
            "compiled evaluator against the reference walk (puntobanco.engine, the plain exhaustive enumeration)",
            "; ".join(notes),
        )

    def published(self, analysis: Analysis, settings: Settings) -> tuple[Citation, ...]:
        """Every figure of ``data/published.toml`` about a bet of ``analysis`` on its very shoe and rule set."""
        from ..crosscheck import Citation
        from ..puntobanco.published import published_figures

        rules, out = self.rules(settings), []
        for figures in analysis.bets:
            for figure in published_figures():
                if figure.applies_to(analysis.shoe, rules, figures.bet):
                    out.append(Citation(figure.bet, figure.figure, figure.printed, figure.exact_text(figures),
                                        figure.matches(figures), figure.source))
        return tuple(out)

    def price_infinite(self, bets: Sequence[Bet], settings: Settings) -> tuple[BetFigures, ...]:
        """:func:`~exactodds.puntobanco.infinite.analyze_infinite` under the rule set's one fixed tableau."""
        from ..errors import ExactOddsError
        from ..puntobanco.infinite import analyze_infinite

        rules = self.rules(settings)
        if rules.player_five == "best" or rules.player_five_draws is not None:
            raise ExactOddsError(
                "the infinite shoe is walked with one fixed tableau: not the holder's best choice or a mixed policy"
                " on the Player's 5"
            )
        return analyze_infinite(rules, self.resolve(bets, settings, suits=False))

    def definitions(self, settings: Settings) -> tuple[tuple[str, str], ...]:
        """Punto banco's terms, from its data: the cards' values (:data:`~exactodds.cards.RANK_VALUES`), a hand's
        total, a natural (the tableau's), the deal, and who wins.

        >>> dict(GAME.definitions(GAME.settings_of({})))["natural"]
        'a hand of two cards totalling 8 or 9: then neither hand draws'
        """
        from ..cards import RANK_VALUES, RANKS

        rules = self.rules(settings)
        values: dict[int, list[str]] = {}
        for rank, value in zip(RANKS, RANK_VALUES):
            values.setdefault(value, []).append(rank.value)
        naturals = sorted(t for t in range(10) if rules.tableau.is_natural(t))
        return (
            ("card values", "; ".join(f"{', '.join(ranks)}: {value}" for value, ranks in sorted(values.items()))
             + " (suits do not count)"),
            ("a hand's total", "the last digit of the sum of its cards' values (a sum of 15 is 5, of 27 is 7)"),
            ("natural", f"a hand of two cards totalling {' or '.join(map(str, naturals))}: then neither hand draws"),
            ("the deal", "a card to the Player, one to the Banker, a second to each in turn; then the third cards the"
             " tableau below calls for, the Player's first"),
            ("the winner", "the hand with the higher total; equal totals are a tie"),
        )

    def rules_table(self, settings: Settings) -> tuple[str, tuple[tuple[str, str], ...]]:
        """The rule set's description, then its whole tableau, row by row, and its pays."""
        rules = self.rules(settings)
        return rules.description, _rule_rows(rules)

    def read_bets(self, text: str, name: str) -> tuple[Bet, ...]:
        """The bets of a bets file over the coup facts and card facts; none may take an id of the catalog."""
        from ..puntobanco.bets import bets_from_text, catalog_ids

        return bets_from_text(text, name, catalog_ids())

    def choose_bets(
        self, named: Sequence[str] | None, files: Sequence[Bet] = ()
    ) -> tuple[str | Bet, ...] | None:
        """The bets named, a bets file's id standing for its bet (an id of the catalog stays the catalog's), then the
        files' bets unless one is named; without a bets file, the ids as named (the notation's reader is not
        loaded)."""
        if not files:
            return super().choose_bets(named, files)
        from ..puntobanco.userdefs import choose_bets

        return choose_bets(named or (), files) or None

    def bet_specs(self) -> Mapping[str, BetSpec]:
        """The side bets of the catalog as written in the bet notation."""
        from ..puntobanco.bets import catalog_specs

        return catalog_specs()

    def read_bet_specs(self, text: str, name: str) -> tuple[BetSpec, ...]:
        """The bets of a bets file as written, over the coup facts and card facts."""
        from ..puntobanco.bets import VOCABULARY, catalog_ids

        return read_bet_specs(text, name, VOCABULARY, catalog_ids())

    def cards_per_coup(self, shoe: Shoe, settings: Settings) -> Fraction | None:
        """4, plus the chance of each third card; ``None`` under the holder's choice on 5 or a mixed policy, which the
        lab does not deal (it deals by value with one fixed tableau).

        >>> float(GAME.cards_per_coup(Shoe.standard(8), GAME.settings_of({})))  # doctest: +ELLIPSIS
        4.9388...
        >>> GAME.cards_per_coup(Shoe.standard(8), GAME.settings_of({"player-5": "best"})) is None
        True
        """
        from ..puntobanco.events import Bet as CoupBet
        from ..puntobanco.events import Event
        from ..puntobanco.odds import analyze

        rules = self.rules(settings)
        if rules.player_five == "best" or rules.player_five_draws is not None:
            return None
        bets = []
        for side in ("player", "banker"):
            third = Event.where({f"{side}_cards": 3})
            bets.append(CoupBet(f"{side}-third", "", (Outcome("yes", third, Fraction(1)),
                                                      Outcome("no", ~third, Fraction(0)))))
        chances = (f.outcomes[0].probability for f in analyze(shoe.without_suits(), rules, bets).bets)
        return 4 + sum(chances, Fraction(0))

    def winner_odds(self, shoe: Shoe, settings: Settings) -> dict[str, Fraction] | None:
        """Banker, Player and a tie on a coup dealt from ``shoe`` under the settings' rule set, exactly.

        >>> odds = GAME.winner_odds(Shoe.standard(8), GAME.settings_of({}))
        >>> str(odds["tie"]), sum(odds.values())
        ('619306544887/6508331087895', Fraction(1, 1))
        """
        from ..puntobanco.bets import winner_bet
        from ..puntobanco.odds import analyze

        (figures,) = analyze(shoe.without_suits(), self.rules(settings), [winner_bet()]).bets
        return {o.outcome.id: o.probability for o in figures.outcomes}

    def rule_sets(self) -> tuple[tuple[str, tuple[str, ...], str, str], ...]:
        """Every rule set of :data:`~exactodds.puntobanco.rules.RULE_SETS`."""
        return tuple((r.name, r.aliases, r.description, r.header()) for r in RULE_SETS)

    def facts(self) -> tuple[tuple[str, str, str], ...]:
        """The coup facts and the card facts."""
        from ..puntobanco.userdefs import facts_help

        return tuple(facts_help())


def _kernel_prices(rules: RuleSet, bets: Sequence[Bet]) -> bool:
    """Whether the compiled kernel prices these bets shoe by shoe: it was built, one tableau deals every coup (no
    holder's choice on the Player's 5), and every bet is a set of coup states by rank (none on suits or the cards).

    >>> from exactodds.puntobanco.rules import PUNTO_BANCO
    >>> _kernel_prices(PUNTO_BANCO.with_player_five("best"), [])
    False
    """
    from ..puntobanco.compiled import native
    from ..puntobanco.events import Bet as CoupBet

    return (native.available() and rules.player_five != "best" and rules.player_five_draws is None
            and all(isinstance(b, CoupBet) and not b.needs_suits and not b.reads_cards for b in bets))


def _rule_rows(rules: RuleSet) -> tuple[tuple[str, str], ...]:
    """The rule set as (rule, value) rows: the tableau's drawing rules, the pays, the option on 5, the tableau's key."""
    t = rules.tableau

    def values(s: Iterable[int]) -> str:
        return ", ".join(str(v) for v in sorted(s)) or "none"

    return (
        ("naturals (both stand)", values(t.natural_totals)),
        ("Player draws on", values(t.player_draws_on)),
        ("Banker draws when the Player stood, on", values(t.banker_draws_when_player_stood)),
        *((f"Banker on {b} draws when the Player's third card is", values(t.banker_draws_against[b]))
          for b in range(8)),
        ("Banker pays", f"{short_text(rules.banker_pays)} to 1 (commission {percent_text(rules.commission, 2)})"),
        ("Tie pays", f"{short_text(rules.tie_pays)} to 1"),
        ("Banker win with a three-card 7 pushes (EZ)", "yes" if rules.banker_three_card_seven_pushes else "no"),
        *((o.event, o.header())
          for o in (*rules.banker_win_overrides, *rules.player_win_overrides, *rules.tie_overrides)),
        ("Player's option on 5", rules.player_five or "as the tableau"),
        ("tableau key", t.key()),
    )


def raise_both(first: Input, second: Input) -> None:
    """Refuse two inputs that say the same thing."""
    raise ExactOddsError(f"give either {first.shown} or {second.shown}, not both (a rules file may name its base)")


GAME = PuntoBanco(
    name=PUNTO_BANCO.name,
    description="Punto banco (mini, midi and big table): the house deals two hands by a fixed tableau;"
    " bets on the Player, the Banker, the Tie and the side bets.",
    aliases=("baccarat",),
    order=0,
    decks=8,
    settings=(RULES, RULES_FILE, PLAYER_5, COMMISSION, TIE_PAYS, REBATE, REBATE_BASIS),
    defaults=(("rules", PUNTO_BANCO.name), ("player-5", "the rule set's"),
              ("commission", "the rule set's (5%, or none where the Banker pays otherwise)"),
              ("tie-pays", _tie_default())),
    capabilities=frozenset({
        "bets", "given", "bets-files", "rule-sets", "coups", "simulate", "tags", "edge-sort", "big-table",
        "infinite-shoe", "countability", "reference", "by-rank", "fixed-pays", "peek", "review",
    }),
    removal="value",
    more_bets="side-bet catalog",
    plot_bets=(("eor", ("dragon-7",)), ("decks", ("banker", "player", "tie")), ("shoe-ev", ("dragon-7",)),
               ("threshold", ("dragon-7",))),
    tables=Tables(
        rule_sets=(PUNTO_BANCO, EZ, SUPER_6),
        par_decks=(1, 2, 4, 6, 8),
        house_edge_decks=tuple(range(1, 13)),
        eor_decks=(6, 8),
        option_decks=(6, 8),
    ),
)
"""Punto banco: 8 decks usual; every rule set of :data:`~exactodds.puntobanco.rules.RULE_SETS`."""
