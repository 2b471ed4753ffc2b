"""The lit-card multiplier baccarats (Lightning, Golden Wealth, Prosperity Tree): punto banco's deal, a fee, and
multipliers on the cards of a random virtual deck, priced exactly.

The model (docs/lit.md, with its sources). A fee f is paid on every bet on top of the stake, so a
unit staked costs 1 + f, and the figures here are per unit *paid* (stake and fee): the RTP is the
expected return over 1 + f, the EV is RTP − 1. n identities of a virtual 52-card deck are lit
(n fixed or drawn from a law), each with an independent multiplier from a law; a card of the
shoe whose rank and suit match carries it, and the multipliers of the lit cards in the hand that
pays multiply (:mod:`.law`). A bet wins M·w (w its base pay) less a fixed commission c:

- Player: a Player win returns 1 + M; Banker: a Banker win returns 0.95 + M (the 5% off the base
  pay only); on a tie both return the stake (the fee is kept);
- Tie: a tie returns 1 + t·M over every card of both hands;
- Player Pair, Banker Pair: the side's first two cards of one rank return 1 + b·M over those two.

Each winning outcome is split by the identity pattern of the paying cards (a hand 7♠ 7♠ 2♦ is
(2, 1)): its net pay is a random variable whose exact law the lit layer gives
(:class:`~exactodds.betfile.Multiplier` with ``applies = "net"``), and the shoe's counts of each
pattern come from :func:`exactodds.puntobanco.lit.pattern_counts`. So every figure of the
analysis (EV, variance, hit frequency, top award) is exact and read as any other bet's.

>>> from exactodds.games import find_game
>>> game = find_game("lightning")
>>> settings = game.settings_of({"lit-count": "1", "multipliers": "2"})
>>> f = game.price(Shoe.standard(1), ["player"], settings).bet("player")
>>> f.ev < 0, sum(o.count for o in f.outcomes) == Shoe.standard(1).orderings()
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from ...analysis import GLI_GAMES, Analysis, BetFigures, BetNote, require_suits
from ...betfile import ALL_BETS, Multiplier
from ...cards import Shoe
from ...errors import ExactOddsError, by_case, unknown_name
from ...exact import decimal_text, fraction_text, grouped, one_in_text, parse_rate, percent_text, short_text
from ...game import Game, Settings
from ...inputs import Input
from ...paytable import Bet, Event, Outcome, named_bets
from ...records import record
from .law import STANDARD_DECK, LitLaw, counts_text, pairs_text, read_counts, read_multipliers

if TYPE_CHECKING:
    from ...puntobanco.lit import PatternCounts

LIT_COUNT = Input("lit-count", "text", 'How many cards are lit each round: a number ("5") or its law'
                  ' ("1:20%,2:20%,3:20%,4:20%,5:20%").', metavar="LAW")
MULTIPLIERS = Input("multipliers", "text", 'The law of a lit card\'s multiplier, e.g. "2:40%,3:40%,5:15%,8:5%" (exact:'
                    ' 1/3, 40%, 0.4).', metavar="LAW")
FEE = Input("fee", "pay", "The fee paid on every bet on top of the stake, e.g. 20%.")
LAWS_FILE = Input("laws-file", "file", 'The laws from a TOML file: lit_count = "1:1/5,2:4/5" (or a number),'
                  ' multipliers = "2:40%,3:60%", fee = "20%" (each exact, as typed on the command line).')
#: The keys of a laws file, and the setting each gives.
_LAW_KEYS = {"lit_count": LIT_COUNT, "multipliers": MULTIPLIERS, "fee": FEE}
#: The bets of a lit-card game, in order: (id, name, base pay w (None: the Tie's or the pairs' pay), commission c).
_BETS = (
    ("player", "Player", 1, Fraction(0)),
    ("banker", "Banker", 1, Fraction(1, 20)),
    ("tie", "Tie", None, Fraction(0)),
    ("player-pair", "Player Pair", None, Fraction(0)),
    ("banker-pair", "Banker Pair", None, Fraction(0)),
)


def partitions(n: int, largest: int | None = None) -> list[tuple[int, ...]]:
    """The identity patterns of n cards: the partitions of n, largest part first.

    >>> partitions(3)
    [(3,), (2, 1), (1, 1, 1)]
    """
    largest = n if largest is None else largest
    if n == 0:
        return [()]
    return [(k, *rest) for k in range(min(n, largest), 0, -1) for rest in partitions(n - k, k)]


def pattern_words(pattern: tuple[int, ...]) -> str:
    """A pattern in words: ``3 different cards``, ``a card twice and 1 other``.

    >>> pattern_words((1, 1, 1)), pattern_words((2, 1)), pattern_words((3,)), pattern_words((2, 2))
    ('3 different cards', 'a card twice and 1 other', 'a card 3 times', '2 cards twice each')
    """
    repeated = [e for e in pattern if e > 1]
    single = len(pattern) - len(repeated)
    if not repeated:
        return f"{single} different cards"
    if len(set(repeated)) == 1:
        e = repeated[0]
        times = "twice" if e == 2 else f"{e} times"
        head = f"a card {times}" if len(repeated) == 1 else f"{len(repeated)} cards {times} each"
    else:
        head = " and ".join(f"a card {'twice' if e == 2 else f'{e} times'}" for e in repeated)
    return head + (f" and {single} other{'s' if single > 1 else ''}" if single else "")


class LitRules(NamedTuple):
    """The rules a lit-card game is priced under: its name, fee, pays and random layer (the header line's)."""

    game: str
    fee: Fraction
    tie: Fraction
    pair: Fraction
    law: LitLaw

    @property
    def name(self) -> str:
        """The game's name."""
        return self.game

    def header(self) -> str:
        """The game, its fee, pays and law, for the header line."""
        return (f"{self.game} · fee {percent_text(self.fee, 0)} · tie {short_text(self.tie)}:1 · pairs"
                f" {short_text(self.pair)}:1 · {self.law.text}")

    def as_dict(self) -> dict[str, object]:
        """The rules as JSON values (exact fractions as text)."""
        return {"name": self.game, "fee": fraction_text(self.fee), "tie_pays": fraction_text(self.tie),
                "pair_pays": fraction_text(self.pair), "lit_count": counts_text(self.law.counts),
                "multipliers": pairs_text(self.law.multipliers), "virtual_deck": self.law.deck}

    def policy(self) -> dict[str, str]:
        """No decisions: none."""
        return {}


@record(eq=False)
class LitGame(Game):
    """A lit-card multiplier baccarat: punto banco's deal and bets, a fee, and a law of lit cards and multipliers."""

    #: The fee, the Tie's and the pairs' base pays, as published.
    fee: Fraction = Fraction(1, 5)
    tie_pays: Fraction = Fraction(5)
    pair_pays: Fraction = Fraction(9)
    #: The lit count and the multipliers' law when none is given (as typed: see :data:`LIT_COUNT`).
    lit_count: str = "5"
    multipliers: str = "2"
    #: Where the default laws come from (none is published), in words.
    assumed: str = "not published"
    settings: tuple[Input, ...] = (LIT_COUNT, MULTIPLIERS, FEE, LAWS_FILE)
    capabilities: frozenset[Any] = frozenset({"bets", "lit-law"})

    def check_settings(self, values: dict[str, Any]) -> dict[str, Any]:
        """The settings read: the laws checked (``Error:`` on a law that does not add up, a count beyond the deck,
        a multiplier not positive), the fee a rate from 0."""
        out = values = {**values, **_read_laws_file(values), "laws-file": None}
        if values.get("lit-count") is not None:
            out["lit-count"] = read_counts(str(values["lit-count"]))
        if values.get("multipliers") is not None:
            out["multipliers"] = read_multipliers(str(values["multipliers"]))
        if values.get("fee") is not None:
            fee = values["fee"]
            out["fee"] = fee if isinstance(fee, Fraction) else parse_rate(str(fee), "fee", "20% or 1/5")
        return out

    def default_of(self, name: str) -> str | None:
        """The defaults in words: the published fee; the laws this preset assumes (they are not published)."""
        return {"lit-count": self.lit_count if "," not in self.lit_count else f"{self.lit_count} ({self.assumed})",
                "multipliers": f"{self.multipliers} ({self.assumed})", "fee": percent_text(self.fee, 0)}.get(name)

    def rules(self, settings: Settings) -> LitRules:
        """The fee, pays and law priced: those given, else the preset's."""
        given = settings.given()
        law = LitLaw(given.get("lit-count") or read_counts(self.lit_count),
                     given.get("multipliers") or read_multipliers(self.multipliers))
        return LitRules(self.name, given.get("fee", self.fee), self.tie_pays, self.pair_pays, law)

    def rules_table(self, settings: Settings) -> tuple[str, tuple[tuple[str, str], ...]]:
        """The model and its assumptions written out, as a report's rules (a regulator asks for "all assumptions,
        probability models, and methods used"): the description, then each rule, pay and law.

        >>> from exactodds.games import find_game
        >>> game = find_game("prosperity-tree")
        >>> dict(game.rules_table(game.settings_of({}))[1])["multipliers"][:37]
        '2:15/16,3:1/16 (not published: ×3 one'
        """
        rules = self.rules(settings)
        given = settings.given()
        law, fee = rules.law, percent_text(rules.fee, 0)
        description = (
            f"{self.description} Model: a fee of {fee} is paid on every bet on top of the stake, and every figure is"
            " per unit paid (stake and fee): RTP = expected return / (1 + fee). Each round the lit count n is drawn"
            f" from its law and n of the {law.deck} identities (rank and suit) of a virtual deck are lit, all"
            " n-subsets alike; each lit identity gets an independent multiplier from its law. A card of the shoe"
            " whose rank and suit match carries it; the multipliers of the lit cards in the hand that pays multiply"
            " (two copies of a lit identity: m²), M = 1 with none. The shoe is counted exactly (ordered six-card"
            " draws by the identity pattern of the paying cards); the law of M given a pattern is exact."
        )
        rows = (
            ("game", self.name),
            ("fee", f"{fee} of the stake, on every bet, kept on a push"),
            ("Player", "a Player win returns 1 + M (M over the Player's hand); a tie returns the stake"),
            ("Banker", "a Banker win returns 0.95 + M (the 5% off the base pay only); a tie returns the stake"),
            ("Tie", f"a tie returns 1 + {short_text(rules.tie)}·M, M over every card of both hands"),
            ("pairs", f"the side's first two cards of one rank return 1 + {short_text(rules.pair)}·M, M over those"
             " two cards"),
            ("lit count", counts_text(law.counts) + ("" if "lit-count" in given or "," not in self.lit_count
                                                     else f" ({self.assumed})")),
            ("multipliers", pairs_text(law.multipliers) + ("" if "multipliers" in given else f" ({self.assumed})")),
            ("virtual deck", f"{law.deck} identities (rank and suit), none lit twice in a round"),
        )
        return description, rows

    def bets(self, settings: Settings) -> Mapping[str, Bet]:
        """Its five bets, each winning outcome split by the pattern of the cards it reads."""
        return lit_bets(self.rules(settings))

    def resolve(
        self, bets: Sequence[str | Bet] | None, settings: Settings, *, suits: bool = True, cards: bool = True
    ) -> tuple[Bet, ...]:
        """The bets named (``None`` or ``all``: every bet); every one needs a shoe known by suit."""
        bets = named_bets(bets)
        catalog = self.bets(settings)
        if bets is None:
            return tuple(catalog.values())
        chosen: dict[str, Bet] = {}
        for bet in bets:
            if bet == ALL_BETS:
                chosen.update(catalog)
            elif isinstance(bet, str) and by_case(bet, catalog) in catalog:  # in any case
                chosen[by_case(bet, catalog)] = catalog[by_case(bet, catalog)]
            elif isinstance(bet, Bet) and bet.id in catalog and catalog[bet.id] == bet:
                chosen[bet.id] = bet
            else:
                named = bet if isinstance(bet, str) else bet.id
                raise unknown_name("bet", named, list(catalog), aliases=[ALL_BETS],
                                   more=f"these are the bets of {self.name}")
        return tuple(chosen.values())

    def price(
        self, shoe: Shoe, bets: Sequence[str | Bet] | None, settings: Settings, *, given: str | None = None
    ) -> Analysis:
        """Every outcome of each bet counted exactly on ``shoe`` (known by suit), its pay's law from the settings."""
        if given is not None:
            self.require("given", "--given")
        chosen = self.resolve(bets, settings)
        require_suits(shoe, chosen)
        if shoe.size < 6:
            raise ExactOddsError(f"a coup is counted over six cards; this shoe holds {shoe.size}")
        counts = _counts(shoe)
        rules = self.rules(settings)
        figures = [BetFigures.of_counts(bet, outcome_counts(counts, bet), counts.orderings) for bet in chosen]
        notes = tuple(note for f in figures for note in lit_notes(counts, rules, f))
        return Analysis(rules, shoe, tuple(figures), rebate=settings.given().get("rebate"), notes=notes)


def _read_laws_file(values: Mapping[str, Any]) -> dict[str, Any]:
    """The settings a laws file gives (``--laws-file``, a request's ``laws_toml``), each as its option's text; a key
    it has that an option gives too is an error, as is any other key or a float (not exact).

    >>> _read_laws_file({"laws-file": ('lit_count = 5\\nmultipliers = "2:1/2,3:1/2"', "laws.toml")})["lit-count"]
    '5'
    """
    given = values.get("laws-file")
    if given is None:
        return {}
    from ...files import shown_path
    from ...tomldata import load_toml

    text, name = given
    where = shown_path(name)
    out: dict[str, Any] = {}
    for key, value in load_toml(text, name).items():
        setting = _LAW_KEYS.get(key)
        if setting is None:
            raise ExactOddsError(f"{where}: unknown key {key!r}: a laws file has {', '.join(_LAW_KEYS)}")
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise ExactOddsError(f"{where}: {key} is a text such as \"2:40%,3:60%\" (exact), or a whole number")
        if values.get(setting.name) is not None:
            raise ExactOddsError(f"give {setting.shown} or {key} in {LAWS_FILE.shown}, not both")
        out[setting.name] = str(value)
    return out


@lru_cache(maxsize=16)
def _counts(shoe: Shoe) -> Any:
    """The shoe's lit-card statistics under punto banco's standard tableau, kept for the last shoes priced (the law
    only changes the pays)."""
    from ...puntobanco.lit import pattern_counts
    from ...puntobanco.rules import PUNTO_BANCO

    return pattern_counts(shoe, PUNTO_BANCO.tableau)


#: The sizes of the cards each bet's multiplier reads: a hand's 2 or 3, a tie's 4 to 6, a pair's 2.
_SIZES = {"player": (2, 3), "banker": (2, 3), "tie": (4, 5, 6), "player-pair": (2,), "banker-pair": (2,)}


def patterns_of(bet_id: str, deck: int) -> tuple[tuple[int, ...], ...]:
    """The patterns of a bet's winning outcomes: of the sizes it reads on the standard deck, where every card of a
    shoe has its identity in the deck; of every smaller size too on a smaller virtual deck (cards outside it never
    light, so they leave no mark).

    >>> patterns_of("player-pair", 52), patterns_of("player-pair", 3)
    (((2,), (1, 1)), ((), (1,), (2,), (1, 1)))
    """
    sizes = _SIZES[bet_id] if deck == STANDARD_DECK else range(max(_SIZES[bet_id]) + 1)
    return tuple(p for n in sizes for p in partitions(n))


def outcome_counts(counts: PatternCounts, bet: Bet) -> list[int]:
    """Each outcome's count of one of the five bets (of :func:`lit_bets`) from the shoe's lit-card statistics."""
    ids = [o.id for o in bet.outcomes]
    won = won_counts(counts, bet.id)
    out = [won.get(tuple(int(e) for e in i.split("-")[1:]), 0) if i.startswith("win")
           else 0 for i in ids]
    rest = {
        "player": {"tie": counts.ties, "lose": counts.banker_total},
        "banker": {"tie": counts.ties, "lose": counts.player_total},
        "tie": {"lose": counts.player_total + counts.banker_total},
    }.get(bet.id, {"lose": counts.orderings - sum(counts.pair.values())})
    out = [rest.get(i, n) for i, n in zip(ids, out)]
    if sum(out) != counts.orderings:  # a pattern the bet has no outcome for: cannot be on its own virtual deck
        raise ExactOddsError(f"{bet.id}: its outcomes do not settle every coup of this shoe")
    return out


def base_pay(rules: LitRules, bet_id: str) -> Fraction:
    """What a bet's win pays before its multiplier (w of 1 + w·M − c): 1 on Player and Banker, the Tie's and the
    pairs' pays.

    >>> from exactodds.games import find_game
    >>> base_pay(find_game("prosperity-tree").rules(find_game("prosperity-tree").settings_of({})), "player-pair")
    Fraction(10, 1)
    """
    base = next(b for i, _, b, _ in _BETS if i == bet_id)
    return Fraction(base) if base is not None else rules.tie if bet_id == "tie" else rules.pair


def commission_of(bet_id: str) -> Fraction:
    """The commission c a bet's win gives back (the Banker's 5%, off the base pay only).

    >>> commission_of("banker"), commission_of("tie")
    (Fraction(1, 20), Fraction(0, 1))
    """
    return next(c for i, _, _, c in _BETS if i == bet_id)


def won_counts(counts: PatternCounts, bet_id: str) -> dict[tuple[int, ...], int]:
    """A bet's winning draws by the pattern of the cards it reads: the Player's hand on a Player win, the Banker's on
    a Banker win, both hands on a tie, a side's first two cards of one rank for a pair."""
    return {"player": counts.player, "banker": counts.banker, "tie": counts.tie}.get(bet_id, counts.pair)


def expected_return(counts: PatternCounts, rules: LitRules, bet_id: str) -> Fraction:
    """A bet's RTP from the moments of its patterns' multipliers alone (no law of pays): Σ count·(1 + w·E[M] − c)
    over its wins, plus the stake back on a tie for Player and Banker, over the orderings and 1 + f. The same
    figure as 1 + EV of :func:`lit_bets`' bet, by another route (``fit-rtp`` evaluates it many times)."""
    w, commission = base_pay(rules, bet_id), commission_of(bet_id)
    total = sum((n * (1 + w * rules.law.moment(pattern, 1) - commission) for pattern, n in won_counts(counts, bet_id)
                 .items()), Fraction(0))
    if bet_id in ("player", "banker"):
        total += counts.ties  # the stake back; the fee is kept
    return total / counts.orderings / (1 + rules.fee)


@lru_cache(maxsize=32)
def lit_bets(rules: LitRules) -> Mapping[str, Bet]:
    """The five bets under ``rules``: per winning pattern, the law of its net pay per unit paid (stake and fee)."""
    cost = 1 + rules.fee
    out: dict[str, Bet] = {}
    for bet_id, name, _, commission in _BETS:
        w = base_pay(rules, bet_id)
        side = "Player" if bet_id.startswith("player") else "Banker"
        outcomes = []
        for pattern in patterns_of(bet_id, rules.law.deck):
            law = rules.law.law(pattern)
            nets = [(1 + w * m - commission) / cost - 1 for m in law]
            what = ("Player wins" if bet_id == "player" else "Banker wins" if bet_id == "banker" else "tie"
                    if bet_id == "tie" else f"{side} pair")
            cards = "the hand" if bet_id in ("player", "banker") else "the cards" if bet_id == "tie" else "the pair"
            event = Event(f"{what}; {cards}: {pattern_words(pattern)}")
            multiplier = Multiplier(tuple(nets), tuple(law.values()), "net")
            outcomes.append(Outcome("-".join(("win", *map(str, pattern))), event, (1 + w - commission) / cost - 1,
                                    multiplier))
        if bet_id in ("player", "banker"):
            other = "Banker" if bet_id == "player" else "Player"
            outcomes.append(Outcome("tie", Event("tie: the stake back, the fee kept"), 1 / cost - 1))
            outcomes.append(Outcome("lose", Event(f"{other} wins"), Fraction(-1)))
        else:
            outcomes.append(Outcome("lose", Event("otherwise"), Fraction(-1)))
        pays = f"{short_text(w)}:1 × the lit cards' multipliers"
        fee = f"{percent_text(rules.fee, 0)} fee"
        description = f"{name}: {pays} ({fee}; figures per unit paid, stake and fee)"
        out[bet_id] = Bet(bet_id, description, tuple(outcomes), needs_suits=True)
    return out


def lit_share(counts: PatternCounts, law: LitLaw, bet_id: str) -> Fraction | None:
    """The share of a bet's wins whose paying cards hold a lit card (``None`` when it never wins): a pattern of k
    distinct identities holds none with chance q(0, k) (:meth:`~.law.LitLaw.lit_chance`)."""
    won = won_counts(counts, bet_id)
    total = sum(won.values())
    lit = sum((n * (1 - law.lit_chance(0, len(pattern))) for pattern, n in won.items()), Fraction(0))
    return None if total == 0 else lit / total


def lit_notes(counts: PatternCounts, rules: LitRules, figures: BetFigures) -> tuple[BetNote, ...]:
    """What a lit-card bet adds to its figures: the share of its wins holding a lit card, the whole law of its net
    pay per unit paid, and its top award (on the stake, as advertised, and per unit paid) with its exact chance and
    GLI-11's check (an award rarer than once in 100 million games needs its odds displayed)."""
    bet = figures.bet.id
    share = lit_share(counts, rules.law, bet)
    law = figures.pay_law
    top, chance = law[-1]
    on_stake = (top + 1) * (1 + rules.fee) - 1  # net per unit paid back to the stake's: (1 + w·M − c) − 1
    meets = chance * GLI_GAMES >= 1
    share_text = "—" if share is None else percent_text(share, 4)
    return (
        BetNote(bet, "lit_share", "wins holding a lit card", share_text, "—" if share is None else fraction_text(share),
                None if share is None else fraction_text(share)),
        BetNote(bet, "pay_law", "net pays", f"{grouped(len(law))} values", "the law: --format json",
                {"values": [fraction_text(v) for v, _ in law], "probabilities": [fraction_text(p) for _, p in law]}),
        BetNote(bet, "top_award", "top award on the stake",
                f"{short_text(on_stake)}:1 ({short_text(top)} per unit paid), 1 in {one_in_text(chance)}"
                + ("" if meets else " (rarer than once in 100 million games: GLI-11 asks that its odds be displayed)"),
                fraction_text(chance),
                {"stake_pays": fraction_text(on_stake), "net": fraction_text(top), "probability": fraction_text(chance),
                 "probability_decimal": decimal_text(chance, 16), "one_in": one_in_text(chance),
                 "displayed_odds_needed": not meets}),
    )
