"""A table's log reviewed wager by wager: every coup checked, every wager priced exactly and settled, and per bettor
the verdict: luck, or play at positive EV (docs/review.md).

:func:`review` reads the records (:mod:`.log`), keeps each shoe open while its records come (:mod:`.shoes`) and
hands each closed shoe to the :class:`~.verdict.Verdict`; a bad line stops it (``Error: line N: …``) unless
``skip_bad``, which counts it. Punto banco is reviewed, under any of its rule sets (a shoe names its own) and with
the bets of bets files.

>>> from exactodds.review.log import records
>>> log = ['{"shoe": "a", "decks": 1}', '{"shoe": "a", "coup": 1, "player": "2 3 9", "banker": "3 4"}',
...        '{"shoe": "a", "coup": 1, "who": "x", "bet": "banker", "stake": "10", "net": "9.5"}']
>>> verdict = review(records(log))
>>> verdict.wagers, verdict.findings
(1, [])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from ..errors import ExactOddsError, shown
from ..game import Settings
from ..games import DEFAULT, find_game
from ..paytable import Bet
from ..rebate import Rebate
from .log import BadRecord, Burn, Dealt, End, Record, Start, Wager
from .shoes import ClosedShoe, OpenShoe
from .tally import ShoeTally, shoe_tally
from .verdict import PERMUTATIONS, Verdict

#: The most shoes open at once (a log interleaves the shoes of its tables; a shoe closes at its end record).
MAX_OPEN = 10_000


class Reviewer:
    """The shoes of a log as its records come: each opened, fed and closed; the bets looked up under each shoe's
    rules (and the bets files'), each once. A closed shoe is handed on as what it adds to the verdict (:meth:`tally`),
    its priced wagers kept with ``keep_wagers`` (the CSV's rows)."""

    def __init__(self, settings: Settings | None = None, file_bets: Sequence[Bet] = (),
                 keep_wagers: bool = False) -> None:
        self.keep_wagers = keep_wagers
        self.game = DEFAULT if settings is None else find_game(settings.game)
        self.game.require("review", "review")
        self.settings = settings if settings is not None else self.game.settings_of({})
        self.file_bets = {bet.id: bet for bet in file_bets}
        self.open: dict[str, OpenShoe] = {}
        self._settings: dict[str | None, Settings] = {None: self.settings}
        self._bets: dict[tuple[str | None, str], Bet] = {}
        self.rebate: Rebate | None = self.settings.given().get("rebate")

    def settings_of(self, rules: str | None) -> Settings:
        """The settings of a shoe that names ``rules`` (``None``: the review's own)."""
        found = self._settings.get(rules)
        if found is None:
            given = {**self.settings.given(), "rules": rules}
            found = self._settings[rules] = self.game.settings_of(given)
        return found

    def bet(self, bet_id: str, rules: str | None) -> Bet:
        """A bet by id under a shoe's rules: the bets files' first, then the rule set's catalog; a bet the review
        cannot settle from the log (one paid by a random multiplier) is refused.
        """
        key = (rules, bet_id)
        found = self._bets.get(key)
        if found is None:
            settings = self.settings_of(rules)
            named = self.file_bets.get(bet_id, bet_id)
            (found,) = self.game.resolve([named], settings, suits=True, cards=True)
            if any(o.multiplier is not None for o in found.outcomes):
                raise ExactOddsError(f"bet {bet_id} pays a random multiplier: its settlement cannot be checked")
            self._bets[key] = found
        return found

    def feed(self, record: Record) -> ClosedShoe | None:
        """One record; a shoe it closes (its end, or its id starting again) comes back closed."""
        if isinstance(record, Start):
            closed = self.close(record.shoe) if record.shoe in self.open else None
            if len(self.open) >= MAX_OPEN:
                raise ExactOddsError(f"more than {MAX_OPEN:,} shoes are open at once: end each shoe with"
                                     ' {"shoe": …, "end": true}')
            settings = self.settings_of(record.rules)
            self.open[record.shoe] = OpenShoe(record, self.game.rules(settings), settings)  # type: ignore[arg-type]
            return closed
        shoe = self.open.get(record.shoe)
        if shoe is None:
            raise ExactOddsError(f"shoe {shown(record.shoe, 40)!r} has not started: a shoe starts with a line such"
                                 f' as {{"shoe": "{shown(record.shoe, 20)}", "decks": 8}}')
        if isinstance(record, Wager):  # the commonest first: a log is mostly wagers and coups
            shoe.wagers.append((record, self.bet(record.bet, shoe.start.rules)))
        elif isinstance(record, Dealt):
            shoe.deal(record)
        elif isinstance(record, End):
            return self.close(record.shoe)
        elif isinstance(record, Burn):
            shoe.burn(record)
        return None

    def close(self, shoe_id: str) -> ClosedShoe:
        """Close an open shoe: its coups priced, its wagers settled."""
        return self.open.pop(shoe_id).close(self.game)

    def tally(self, shoe: ClosedShoe) -> ShoeTally:
        """What a closed shoe adds to the verdict."""
        return shoe_tally(shoe, self.rebate, self.keep_wagers)

    def close_all(self) -> Iterator[ClosedShoe]:
        """Close every shoe still open (the end of the log), in the order they started."""
        for shoe_id in list(self.open):
            yield self.close(shoe_id)


class Sink:
    """Where a review's events go, in the order one process meets them: a closed shoe's tally (its bad lines, then its
    wagers into the verdict, then ``shoe_done``) and a bad line (an ``Error:`` naming it, or with ``skip_bad``
    counted and listed)."""

    def __init__(self, verdict: Verdict, skip_bad: bool, shoe_done: Callable[[ShoeTally], None] | None) -> None:
        self.verdict, self.skip_bad, self.shoe_done = verdict, skip_bad, shoe_done

    def done(self, shoe: ShoeTally) -> None:
        """A shoe closed."""
        for line, error in shoe.bad:
            self.bad(line, error)
        self.verdict.add_tally(shoe)
        if self.shoe_done is not None:
            self.shoe_done(shoe)

    def bad(self, line: int, error: str) -> None:
        """A bad line."""
        if not self.skip_bad:
            raise ExactOddsError(f"line {line}: {error} (--skip-bad goes on past bad lines, and counts them)")
        self.verdict.bad_line(line, error)


def events(reviewer: Reviewer, records: Iterable[Record | BadRecord]) -> Iterator[tuple[int, ShoeTally | str]]:
    """What the records make happen, each with the line it happens at: a shoe closed by a record (its tally), or a
    bad line's error (the shoes still open at the end of the log are closed by :meth:`Reviewer.close_all`)."""
    for record in records:
        if isinstance(record, BadRecord):
            yield record.line, record.error
            continue
        try:
            closed = reviewer.feed(record)
        except ExactOddsError as err:
            yield record.line, str(err)
            continue
        if closed is not None:
            yield record.line, reviewer.tally(closed)


def review(
    records: Iterable[Record | BadRecord], settings: Settings | None = None, file_bets: Sequence[Bet] = (), *,
    skip_bad: bool = False, seed: int = 0, permutations: int = PERMUTATIONS,
    shoe_done: Callable[[ShoeTally], None] | None = None, keep_wagers: bool = False,
) -> Verdict:
    """The verdict on a log's records: each shoe reviewed as it closes (``shoe_done`` is told each, in order, with its
    priced wagers if ``keep_wagers``); a bad line is an ``Error:`` naming it, or with ``skip_bad`` counted and
    listed."""
    reviewer = Reviewer(settings, file_bets, keep_wagers)
    verdict = Verdict(seed=seed, permutations=permutations, rebate=reviewer.rebate)
    sink = Sink(verdict, skip_bad, shoe_done)
    for line, event in events(reviewer, records):
        if isinstance(event, str):
            sink.bad(line, event)
        else:
            sink.done(event)
    for closed in reviewer.close_all():
        sink.done(reviewer.tally(closed))
    return verdict
