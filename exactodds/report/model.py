"""The whole report as one value: the figures of every bet, the mix, the cross-checks and the stamp."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from ..analysis import Analysis, Rules
from ..cards import Shoe
from ..crosscheck import Citation
from ..errors import ExactOddsError, shown
from ..game import Game, Settings, WorkedExample
from ..paytable import Bet
from ..present import shoe_rules_header
from ..version import __version__
from .checks import CountCheck, cross_check
from .lab import Exposure, LabOptions, LabSection, exposure, run_lab
from .sheet import BetSheet, Mix, MixSheet, bet_sheets, canonical_json, digest, provenance


@dataclass(frozen=True)
class Cover:
    """What a report says of itself for its filing: a title, the operator it is for, who prepared it, and its date
    (ISO, ``YYYY-MM-DD``: the day it was made unless given). Text from the user: data in every format.

    >>> Cover(title="Dragon 7 par sheet", date="2026-12-06").lines()
    ['Date: 2026-12-06']
    """

    title: str | None = None
    operator: str | None = None
    prepared_by: str | None = None
    date: str = ""

    def fields(self) -> list[tuple[str, str]]:
        """The cover's fields under the title, those given: operator, preparer, date."""
        named = (("Operator", self.operator), ("Prepared by", self.prepared_by), ("Date", self.date or None))
        return [(label, value) for label, value in named if value]

    def lines(self) -> list[str]:
        """The cover's lines under the title."""
        return [f"{label}: {value}" for label, value in self.fields()]


def parse_date(text: str) -> str:
    """A report's date, checked: an ISO calendar date (``2026-12-06``), as given.

    >>> parse_date("2026-12-06")
    '2026-12-06'
    """
    from datetime import date

    try:
        return date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise ExactOddsError(f"--date {shown(text, 40)!r} is a date written YYYY-MM-DD, e.g. 2026-12-06") from None


@dataclass(frozen=True)
class Report:
    """Everything a math report shows, computed exactly once; the writers only lay it out."""

    game: Game
    settings: Settings
    analysis: Analysis
    sheets: tuple[BetSheet, ...]
    mix: MixSheet | None
    min_rtp: Fraction | None
    #: The cross-check run on the counts (which one: :attr:`CountCheck.kind`).
    check: CountCheck
    published: tuple[Citation, ...]
    command: str
    #: The lab's advantage-play figures (estimates), when asked for.
    lab: LabSection | None = None
    version: str = __version__
    #: The command line's options of the game, shoe, settings and bets files (quoted for a shell): a command the
    #: report prints beside a figure takes them, so that it reproduces that figure.
    setup: str = ""
    cover: Cover = Cover()

    @cached_property
    def exposure(self) -> Exposure | None:
        """The advantage-play exposure of the bets (a game with the capability ``tags``), or ``None``."""
        return exposure(self.game, self.settings, self.shoe, self.bets)

    @cached_property
    def examples(self) -> dict[tuple[str, str], WorkedExample]:
        """A real coup for each outcome of each bet, by (bet id, outcome id), as the game finds them."""
        return self.game.worked_examples(self.bets, self.settings)

    @property
    def title(self) -> str:
        """The report's title: the cover's, else what it reports on."""
        return self.cover.title or f"Math report: {', '.join(b.id for b in self.bets)}"

    @property
    def author(self) -> str:
        """Its author, as a document's metadata says: who prepared it, else the program."""
        return self.cover.prepared_by or f"exactodds {self.version}"

    @property
    def shoe(self) -> Shoe:
        """The shoe."""
        return self.analysis.shoe

    @property
    def rules(self) -> Rules:
        """The rules the bets are priced under."""
        return self.analysis.rules

    @property
    def bets(self) -> tuple[Bet, ...]:
        """The bets, in report order."""
        return tuple(s.bet for s in self.sheets)

    @property
    def digest(self) -> str:
        """sha256 of the rules, shoe and pay tables, and the rebate if any (see :func:`~.sheet.digest`)."""
        return digest(self.shoe, self.rules, self.bets, self.analysis.rebate)

    @property
    def stamp(self) -> str:
        """The stamp on every page: version and the first 16 hex digits of the digest."""
        return f"exactodds {self.version} · sha256 {self.digest[:16]}"

    @property
    def name(self) -> str:
        """What the document is, as its pages' header names it."""
        return "Math report"

    @property
    def footer(self) -> str:
        """The line at the foot of every page: the shoe and the rules."""
        return shoe_rules_header(self.shoe, self.rules)

    @property
    def provenance_json(self) -> str:
        """The canonical JSON that is hashed."""
        return canonical_json(provenance(self.shoe, self.rules, self.bets, self.analysis.rebate))


def make_report(
    game: Game,
    settings: Settings,
    shoe: Shoe,
    bets: Sequence[str | Bet] | None,
    *,
    mix: Mix | None = None,
    min_rtp: Fraction | None = None,
    command: str = "",
    lab: LabOptions | None = None,
    setup: str = "",
    cover: Cover | None = None,
) -> Report:
    """Price the game's bets (and those of the mix) on ``shoe`` under ``settings``, run the cross-checks (and the lab,
    capability ``simulate``), and hold it all in a :class:`Report`.

    With a rebate among the settings each bet's EV is also given with it, and the lab plays with it.

    >>> from exactodds.games import find_game
    >>> game = find_game("dragon-tiger")
    >>> r = make_report(game, game.settings_of({}), Shoe.standard(1), ["tie"], command="exactodds report")
    >>> r.sheets[0].bet.id, r.check.agree, r.check.kind
    ('tie', True, 'sums')
    """
    if lab is not None:
        game.require("simulate", "--lab-shoes")
    chosen = list(game.resolve(bets, settings, suits=shoe.suited))
    if mix is not None:
        for bet_id, _ in mix.weights:
            if not any(b.id == bet_id for b in chosen):
                chosen += game.resolve([bet_id], settings)
    if not chosen:
        raise ExactOddsError("no bet to report: give --bet ID")
    # The lab first: its options are checked (and its shoes dealt) before the longer cross-check.
    lab_section = None if lab is None else run_lab(game, settings, shoe, tuple(chosen), lab)
    check, analysis = cross_check(game, settings, shoe, tuple(chosen))  # the analysis checked
    mix_sheet = None
    if mix is not None:
        mix_sheet = MixSheet(mix, tuple(analysis.bet(bet_id) for bet_id, _ in mix.weights), analysis.rebate)
    return Report(
        game,
        settings,
        analysis,
        bet_sheets(analysis, min_rtp),
        mix_sheet,
        min_rtp,
        check,
        game.published(analysis, settings),
        command,
        lab_section,
        setup=setup,
        cover=_dated(cover or Cover()),
    )


def _dated(cover: Cover) -> Cover:
    """The cover with its date: as given, else today's."""
    if cover.date:
        return cover
    from dataclasses import replace
    from datetime import date

    return replace(cover, date=date.today().isoformat())
