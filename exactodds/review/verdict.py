"""The verdict on a table's log: per bettor and bet, luck against skill; per table and shoe, hold against theory.

Luck is the actual net less the expected net, whose SD is exact in square: Var = Σ stake² · Var(bet's net per unit)
over the wagers (independent given the cards seen before each coup). The question a game-protection analyst asks,
was the bet played *selectively* at positive EV, is a test of "stakes independent of EV" that does not assume
normality: a permutation test of S = Σ stake · EV over every coup the bettor was at the table (from his first wager
on the bet to his last, in each shoe; a stake of 0 where he did not bet it, so that choosing *when* to bet counts as
much as how much), the stakes shuffled within each shoe (the first and last wagers, which mark the run, fixed; the
others among the coups between them: :func:`_sparse_test`), seeded: the same log gives the same p-value. A bet is
flagged when p ≤ :data:`FLAG_P` over at least :data:`FLAG_MIN` wagers with the stakes rising with the EV: one flag in
a thousand bettors who bet blind. The permutation test, the correlation and the slope are statistics (decimals,
computed in floats), not exact figures; every money figure is exact.
"""

from __future__ import annotations

import heapq
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..exact import decimal_text, fraction_text, sqrt_decimal_text
from ..rebate import Rebate
from .shoes import ClosedShoe, Finding
from .tally import ShoeTally, TableTally, Tally, shoe_tally

#: A bet is flagged when the permutation test's p-value is at most this (one-sided: stakes rising with the EV) ...
FLAG_P = Fraction(1, 1000)
#: ... over at least this many wagers of the bettor on the bet.
FLAG_MIN = 20
#: The permutations of the test: p is (1 + the shuffles with S as large as the log's) / (1 + this), at least 1/10,000.
PERMUTATIONS = 9_999
#: The shuffles as large as the log's after which the test stops (Besag and Clifford's sequential p-value).
ENOUGH = 10


@dataclass
class Verdict:
    """The review of a whole log, fed shoe by shoe (:meth:`add`), read at the end (:meth:`as_json`)."""

    seed: int = 0
    permutations: int = PERMUTATIONS
    #: The rebate the casino pays apart from the wagers' nets, if any: its figures are given beside the others.
    rebate: Rebate | None = None
    tallies: dict[tuple[str, str], Tally] = field(default_factory=dict)
    tables: dict[str, TableTally] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    shoes: int = 0
    coups: int = 0
    wagers: int = 0
    bad_lines: int = 0
    #: Per bet, its EV per unit at every coup priced, shoe after shoe (a statistic's input: floats, 8 bytes a coup).
    evs: dict[str, array[float]] = field(default_factory=dict)
    #: Per shoe with a wager, in the order they closed: its id, table, wagers, stake, the bettors' net and expected net.
    shoe_results: list[tuple[str, str, int, Fraction, Fraction, Fraction]] = field(default_factory=list)
    _bettors: list[dict[str, Any]] | None = field(default=None, init=False, repr=False, compare=False)

    def add(self, shoe: ClosedShoe) -> None:
        """A closed shoe's wagers, coups and findings."""
        self.add_tally(shoe_tally(shoe, self.rebate))

    def add_tally(self, part: ShoeTally) -> None:
        """What a closed shoe adds (:func:`shoe_tally`, made where it closed): its sums merged, its places moved past
        the shoes before it."""
        self._bettors = None
        self.shoes += 1
        self.coups += part.coups
        self.wagers += part.wagers
        self.findings += part.findings
        if part.wagers:
            self.shoe_results.append((part.shoe, part.table, part.wagers, *part.result))
        table = self.tables.setdefault(part.table, TableTally(part.table))
        table.shoes += 1
        table.wagers += part.wagers
        for mine, parts in zip(table.sums, part.table_sums):
            if parts:
                mine.merge(parts)
        offsets = {}
        for bet, evs in part.evs.items():
            column = self.evs.setdefault(bet, array("d"))
            offsets[bet] = len(column)
            column.extend(evs)
        for b in part.bettors:
            tally = self.tallies.get((b.who, b.bet))
            if tally is None:
                tally = self.tallies[b.who, b.bet] = Tally(b.who, b.bet)
            tally.wagers += b.wagers
            for mine, parts in zip(tally.sums, b.sums):
                if parts:
                    mine.merge(parts)
            before, run = tally.coups, b.last - b.first + 1
            tally.shoes += 1
            tally.coups += run
            start = offsets[b.bet] + b.first - 1
            tally.spans.extend((start, start + run))
            # Each wager's place among the tally's coups: the coups of the shoes before, then its place in this run.
            tally.at.extend(before + place for place in b.at)
            tally.staked.extend(b.staked)
            tally.result.extend(b.results)

    def coups_of(self, key: tuple[str, str]) -> tuple[list[float], list[float], bytearray]:
        """A bettor's bet at every coup he was at the table: his stake (0 where he did not bet), the bet's EV per unit,
        and the result by the coup's cards (:data:`RESULTS`)."""
        tally = self.tallies[key]
        evs = self.evs.get(tally.bet, array("d"))
        spans = tally.spans
        ev = [x for i in range(0, len(spans), 2) for x in evs[spans[i]:spans[i + 1]]]
        stakes = [0.0] * tally.coups
        results = bytearray(tally.coups)  # NOT_BET is 0
        for at, stake, result in zip(tally.at, tally.staked, tally.result):
            stakes[at], results[at] = stake, result
        return stakes, ev, results

    def bad_line(self, line: int, error: str) -> None:
        """A line skipped (``--skip-bad``): counted, and listed with the findings."""
        self.bad_lines += 1
        self.findings.append(Finding("bad-line", line, "", None, error))

    def bettors(self) -> list[dict[str, Any]]:
        """Per bettor and bet, in order of who then bet: the exact sums, luck and its z, the edge, the share of stake
        at positive EV, the stake–EV statistics and the flag, the win rates and the ideal (the tests run once, until a
        shoe more is added)."""
        if self._bettors is None:
            self._bettors = [_bettor(t, self.evs, self.seed, self.permutations, self.rebate is not None)
                             for _, t in sorted(self.tallies.items())]
        return list(self._bettors)

    def as_json(self) -> dict[str, Any]:
        """The whole verdict as JSON values (exact figures as fractions, with decimals beside)."""
        return {
            "log": {"shoes": self.shoes, "coups": self.coups, "wagers": self.wagers, "bad_lines": self.bad_lines},
            "findings": [{"kind": f.kind, "line": f.line, "shoe": f.shoe, "coup": f.coup, "reason": f.reason}
                         for f in self.findings],
            "bettors": self.bettors(),
            "tables": [_table(t, self.rebate is not None) for _, t in sorted(self.tables.items())],
            "shoes": [_shoe(*row) for row in self.shoe_results],
            "rebate": None if self.rebate is None else self.rebate.as_json(),
            "test": {"statistic": "sum of stake × EV", "permutations": self.permutations, "seed": self.seed,
                     "flag_p": fraction_text(FLAG_P), "flag_min_wagers": FLAG_MIN},
        }


def _exact(x: Fraction, places: int = 4) -> dict[str, str]:
    return {"exact": fraction_text(x), "decimal": decimal_text(x, places)}


def _bettor(t: Tally, evs: dict[str, array[float]], seed: int, permutations: int, rebate: bool) -> dict[str, Any]:
    import numpy as np

    stake, net = t.stake.value(), t.net.value()
    expected, variance, ideal = t.expected.value(), t.variance.value(), t.ideal.value()
    luck = net - expected
    z = None
    if variance > 0:
        size = sqrt_decimal_text(luck * luck / variance, 4)
        z = ("-" if luck < 0 else "") + size
    every = np.frombuffer(evs.get(t.bet, array("d")), dtype=np.float64)
    spans = np.frombuffer(t.spans, dtype=np.int64).reshape(-1, 2)
    ev = np.concatenate([every[a:b] for a, b in spans]) if len(spans) else np.zeros(0)
    at = np.frombuffer(t.at, dtype=np.int64)
    runs = np.cumsum(spans[:, 1] - spans[:, 0]) if len(spans) else np.zeros(0, dtype=np.int64)
    runs = np.stack([runs - (spans[:, 1] - spans[:, 0]), runs], axis=1) if len(spans) else np.zeros((0, 2), np.int64)
    slope, correlation, p = _sparse_test(ev, at, np.frombuffer(t.staked, dtype=np.float64), seed, permutations,
                                         spans=runs)
    flagged = (t.wagers >= FLAG_MIN and p is not None and p <= FLAG_P and correlation is not None
               and correlation > 0)
    mean_stake = stake / t.wagers
    paid = {}
    if rebate:  # what the casino owes beside the nets, and the player's expected net and edge with it
        due, owed = t.rebate_due.value(), t.rebate_expected.value()
        paid = {"rebate_due": _exact(due), "expected_rebate": _exact(owed),
                "expected_net_with_rebate": _exact(expected + owed),
                "edge_with_rebate": _exact((expected + owed) / stake, 6)}
    return {
        "who": t.who, "bet": t.bet, "wagers": t.wagers, "stake": fraction_text(stake),
        "net": fraction_text(net), "expected_net": _exact(expected), "luck": _exact(luck),
        "luck_sd": sqrt_decimal_text(variance, 4), "z": z,
        "edge": _exact(expected / stake, 6), "stake_at_positive_ev": _exact(t.stake_positive.value() / stake, 4),
        "slope": None if slope is None else f"{slope:.6g}",
        "correlation": None if correlation is None else f"{correlation:.4f}",
        "p_value": None if p is None else decimal_text(p, 4), "flagged": flagged,
        "shoes": t.shoes, "coups": t.coups,
        "per_100_coups": _exact(100 * expected / t.coups, 4), "per_shoe": _exact(expected / t.shoes, 4),
        "ideal_per_100_coups": _exact(100 * mean_stake * ideal / t.coups, 4), **paid,
    }


def _table(t: TableTally, rebate: bool) -> dict[str, Any]:
    stake, net = t.stake.value(), t.net.value()
    hold = None if not stake else -net / stake
    theory = None if not stake else -t.expected.value() / stake
    out = {"table": t.table, "shoes": t.shoes, "wagers": t.wagers, "stake": fraction_text(stake),
           "casino_net": fraction_text(-net), "hold": None if hold is None else _exact(hold, 6),
           "theoretical_hold": None if theory is None else _exact(theory, 6)}
    if rebate:  # the casino's hold once it has paid the rebate it owes, and the hold it expects with it
        due, owed = t.rebate_due.value(), t.rebate_expected.value()
        out |= {"rebate_due": _exact(due),
                "hold_with_rebate": None if not stake else _exact(-(net + due) / stake, 6),
                "theoretical_hold_with_rebate": None if not stake else _exact(-(t.expected.value() + owed) / stake, 6)}
    return out


def _shoe(shoe: str, table: str, wagers: int, stake: Fraction, net: Fraction, expected: Fraction) -> dict[str, Any]:
    return {"shoe": shoe, "table": table, "wagers": wagers, "stake": fraction_text(stake),
            "casino_net": fraction_text(-net), "hold": _exact(-net / stake, 6),
            "theoretical_hold": _exact(-expected / stake, 6)}


def worst_shoes(verdict: Verdict, most: int) -> list[dict[str, Any]]:
    """The shoes whose hold falls furthest below the theoretical hold (the casino's worst against its expectation),
    at most ``most`` of them, worst first (ties in the order the shoes closed), as the verdict's JSON gives them.

    >>> worst_shoes(Verdict(), 10)
    []
    """
    rows = verdict.shoe_results  # the few worst picked out, not every shoe sorted
    order = heapq.nsmallest(most, range(len(rows)), key=lambda i: (hold_against_theory(rows[i]), i))
    return [_shoe(*rows[i]) for i in order]


def hold_against_theory(row: tuple[str, str, int, Fraction, Fraction, Fraction]) -> Fraction:
    """A shoe's hold minus its theoretical hold (negative: the casino held less than it expected), exactly: the
    bettors' expected net less their net, over the stake."""
    _, _, _, stake, net, expected = row
    return (expected - net) / stake


def stake_ev_test(stakes: Sequence[float], evs: Sequence[float], seed: int = 0, permutations: int = PERMUTATIONS,
                  enough: int = ENOUGH) -> tuple[float | None, float | None, Fraction | None]:
    """The slope of stake on EV, their correlation, and the one-sided permutation p-value of S = Σ stake · EV (the
    stakes shuffled among the coups, seeded); ``None`` where undefined (fewer than 3 coups, or the stakes or the EVs
    all the same).

    The shuffles stop early, as Besag and Clifford's sequential test does (Biometrika 78, 1991): once ``enough`` of
    them have S as large as the log's, at the l-th shuffle, p = enough / l; else, after every one of them, p = (1 +
    hits) / (1 + permutations). A bettor who bets blind is done in some tens of shuffles; only a suspicious one takes
    them all, so a large log costs little more than its suspects.

    >>> slope, r, p = stake_ev_test([1.0, 1.0, 5.0, 5.0] * 10, [-0.1, -0.1, 0.2, 0.2] * 10)
    >>> round(r, 6), p <= Fraction(1, 1000)
    (1.0, True)
    """
    import numpy as np

    s = np.asarray(stakes, dtype=np.float64)
    at = np.flatnonzero(s)
    return _sparse_test(np.asarray(evs, dtype=np.float64), at, s[at], seed, permutations, enough)


def _sparse_test(e: Any, at: Any, staked: Any, seed: int, permutations: int, enough: int = ENOUGH,
                 spans: Any = None) -> tuple[float | None, float | None, Fraction | None]:
    """:func:`stake_ev_test` with the stakes given where they are not 0 (``staked`` at the places ``at`` among the
    coups whose EVs are ``e``): a shuffle of the stakes among the n coups is a draw of len(at) distinct places for
    them, so each costs the bettor's wagers, not his coups (a bettor at the table for 800,000 coups bets on few).

    With ``spans`` (the bettor's run of coups in each shoe, as (start, stop) in ``e``), the test is stratified: a
    run's first and last coups are the first and last wagers that made it, so they stay where they are, and the
    other stakes of a run are shuffled among its inner coups only. Under "stakes independent of EV" those stakes are
    then exchangeable among those coups, and the test is exact; shuffled across the whole run, or across shoes, the
    two ends' EVs and a shoe's EVs (which move together as the shoe is dealt) would widen the log's S beyond the
    shuffles' and give small p-values to bettors who bet blind.
    """
    import numpy as np

    n, m = len(e), len(at)
    if n < 3:
        return None, None, None
    total = float(staked.sum())
    mean_s, mean_e = total / n, float(e.mean())
    de = e - mean_e
    ee = float(de @ de)
    ss = float(staked @ staked) - n * mean_s * mean_s  # Σ (s − s̄)², the zeros' share included
    if ee == 0 or ss <= 1e-12 * (float(staked @ staked) + 1):  # the EVs all the same, or the stakes
        return None, None, None
    s_e = float(staked @ e[at])
    cov = s_e - total * mean_e  # Σ (s − s̄)(e − ē) = Σ s·e − ē Σ s
    slope = cov / ee
    correlation = cov / (ss * ee) ** 0.5
    rng = np.random.default_rng(seed)
    if spans is None:
        def shuffled() -> float:
            return float(staked @ e[rng.choice(n, size=m, replace=False)])
    else:
        inner = _inner_strata(np.asarray(spans, dtype=np.int64).reshape(-1, 2), at)
        if inner is None:
            return slope, correlation, None  # no stake inside a run: nothing to shuffle
        which, lows, sizes = inner
        moved = staked[which]
        s_e = float(moved @ e[at[which]])
        shuffled = _stratified(rng, e, moved, lows, sizes)
    observed = s_e - 1e-9 * (abs(s_e) + 1)  # a shuffle as large within rounding counts (a tie too)
    hits = 0
    for done in range(1, permutations + 1):
        if shuffled() >= observed:
            hits += 1
            if hits >= enough:
                return slope, correlation, Fraction(enough, done)
    return slope, correlation, Fraction(1 + hits, 1 + permutations)


def _inner_strata(spans: Any, at: Any) -> tuple[Any, Any, Any] | None:
    """The stakes strictly inside a run (their indices in ``at``), and for each the first inner coup of its run and
    the number of inner coups; ``None`` when there are none."""
    import numpy as np

    run = np.searchsorted(spans[:, 0], at, side="right") - 1  # the run of each stake (the runs are in order)
    starts, stops = spans[run, 0], spans[run, 1]
    which = np.flatnonzero((at > starts) & (at < stops - 1))
    if not len(which):
        return None
    return which, starts[which] + 1, stops[which] - starts[which] - 2


def _stratified(rng: Any, e: Any, stakes: Any, lows: Any, sizes: Any) -> Any:
    """A function giving S for one shuffle: each stake a place among its run's inner coups, no two stakes of a run on
    one coup, every such placing as likely as any other.

    A run where the stakes fill more than a quarter of the coups is shuffled whole (random keys sorted, run by run,
    the first places of each run taken); in a sparser run each stake draws a place and the stakes that land on a
    taken one draw again (a law invariant under any shuffle of the run's coups, hence uniform; few draw twice).
    """
    import numpy as np

    runs, first, run_of, counts = np.unique(lows, return_index=True, return_inverse=True, return_counts=True)
    dense = counts[run_of] * 4 > sizes
    # The dense runs: their inner coups in a row, each tagged with its run's rank, and the places taken in each.
    dense_runs = np.unique(run_of[dense])
    run_sizes, run_counts = sizes[first[dense_runs]], counts[dense_runs]  # a run's stakes share its size
    coups = np.concatenate([np.arange(runs[j], runs[j] + n) for j, n in zip(dense_runs, run_sizes)]) \
        if len(dense_runs) else np.zeros(0, dtype=np.int64)
    tags = np.repeat(np.arange(len(dense_runs), dtype=np.float64), run_sizes)
    starts = np.concatenate([[0], np.cumsum(run_sizes)[:-1]]) if len(dense_runs) else np.zeros(0, dtype=np.int64)
    take = np.concatenate([np.arange(b, b + k) for b, k in zip(starts, run_counts)]) \
        if len(dense_runs) else np.zeros(0, dtype=np.int64)
    dense_stakes = stakes[dense][np.argsort(run_of[dense], kind="stable")]
    sparse_stakes, sparse_lows, sparse_sizes = stakes[~dense], lows[~dense], sizes[~dense]

    def shuffled() -> float:
        total = 0.0
        if len(dense_stakes):
            order = np.argsort(tags + rng.random(len(tags)), kind="stable")  # each run's coups in a random order
            total += float(dense_stakes @ e[coups[order[take]]])
        if len(sparse_stakes):
            places = sparse_lows + (rng.random(len(sparse_stakes)) * sparse_sizes).astype(np.int64)
            while True:
                _, first = np.unique(places, return_index=True)
                if len(first) == len(places):
                    break
                again = np.ones(len(places), dtype=bool)
                again[first] = False  # the first stake on each coup keeps it; the others draw again
                k = np.flatnonzero(again)
                places[k] = sparse_lows[k] + (rng.random(len(k)) * sparse_sizes[k]).astype(np.int64)
            total += float(sparse_stakes @ e[places])
        return total

    return shuffled
