"""The lab's plots: a bet's exact EV through simulated shoes (``shoe-ev``), a count's win rate by threshold.

Both come from shoes dealt by the lab for a seed (the same seed gives the same shoes, so
the same file): the EV of each coup is exact (the cards unseen priced exhaustively); the
win rates are estimates with their standard errors, and are drawn as such.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from ..cards import Shoe
from ..exact import fraction_text, percent_text
from ..lab.chunk import price_chunk
from ..lab.figures import house_edges
from ..lab.plan import SimulationPlan
from ..lab.scan import ScanResult, parse_scan, scan_thresholds
from ..render import shoe_rules_header
from ..rules import PUNTO_BANCO, RuleSet
from .common import caption, new_figure, plot_format, save_figure

#: Cards per bin of the shoe-ev plot (a quarter deck).
BIN_CARDS = 13
#: The band drawn around the median EV: from this percentile to its complement.
BAND = 10
#: A z of 1.96: the error bars of the threshold plot are 95% intervals (normal approximation).
Z95 = 1.96


@dataclass(frozen=True)
class ShoeEvSample:
    """The exact EV of one bet before every coup of some simulated shoes, and where in the shoe each coup came.

    ``seen[i]`` is the number of cards gone from the shoe before coup i (dealt or burned),
    ``ev[i]`` the bet's exact EV then (as a float, for drawing), ``positive[i]`` whether that
    EV is above 0 (decided exactly).
    """

    plan: SimulationPlan
    seen: np.ndarray
    ev: np.ndarray
    positive: np.ndarray
    #: The bet's exact EV on the full shoe.
    full_ev: Fraction

    @property
    def share_positive(self) -> Fraction:
        """The share of the coups dealt where the bet's exact EV is positive (a statistic of these shoes)."""
        return Fraction(int(np.count_nonzero(self.positive)), len(self.positive))


def shoe_ev_sample(plan: SimulationPlan) -> ShoeEvSample:
    """Deal and price ``plan``'s shoes (its first bet), keeping the exact EV before each coup.

    >>> plan = SimulationPlan.from_options(Shoe.standard(8), bets=["dragon-7"], shoes=3, seed=1)
    >>> sample = shoe_ev_sample(plan)
    >>> int(sample.seen.min()), len(sample.ev) == len(sample.positive) > 200, 0 < sample.share_positive < 1
    (0, True, True)
    """
    work = plan.work()
    seen, ev, positive = [], [], []
    for index in range(plan.chunk_count):
        priced = price_chunk(work, index)
        seen.append(plan.shoe.size - priced.remaining)
        ev.append(priced.num[:, 0].astype(np.float64) / (priced.orderings.astype(np.float64) * priced.scale))
        positive.append(priced.num[:, 0] > 0)
    bet = plan.bets[0]
    full = -house_edges(plan.shoe, plan.rules, [bet])[bet.id]
    return ShoeEvSample(plan, np.concatenate(seen), np.concatenate(ev), np.concatenate(positive), full)


def _source(plan: SimulationPlan) -> str:
    burn = f", burn {plan.burn}" if plan.burn else ""
    return f"Source: exactodds simulate, {plan.shoes:,} shoes, seed {plan.seed}, cut card {plan.cut_card}{burn}"


def shoe_ev_figure(sample: ShoeEvSample) -> Any:
    """The shoe-ev plot of ``sample``: EV against cards seen (points, median and band), and the share above 0."""
    figure, (top, bottom) = new_figure()
    plan, bet = sample.plan, sample.plan.bets[0].id
    top.scatter(sample.seen, sample.ev * 100, s=2, alpha=0.12, color="tab:blue", linewidths=0, rasterized=True,
                label="a coup (exact EV of the cards unseen)")  # fmt: skip
    edges = np.arange(0, int(sample.seen.max()) + BIN_CARDS + 1, BIN_CARDS)
    which = np.digitize(sample.seen, edges) - 1
    centres, median, low, high, share = [], [], [], [], []
    for k in range(len(edges) - 1):
        inside = which == k
        if np.count_nonzero(inside) < 10:
            continue
        values = sample.ev[inside] * 100
        centres.append((edges[k] + edges[k + 1]) / 2)
        median.append(np.median(values))
        low.append(np.percentile(values, BAND))
        high.append(np.percentile(values, 100 - BAND))
        share.append(np.count_nonzero(sample.positive[inside]) / np.count_nonzero(inside) * 100)
    top.fill_between(centres, low, high, color="tab:orange", alpha=0.25,
                     label=f"{BAND}th to {100 - BAND}th percentile")  # fmt: skip
    top.plot(centres, median, color="tab:orange", linewidth=2, label="median")
    full = float(sample.full_ev) * 100
    top.axhline(full, color="tab:red", linestyle="--", linewidth=1,
                label=f"full shoe (exact): {percent_text(sample.full_ev, 4)}")  # fmt: skip
    top.axhline(0, color="black", linewidth=0.8)
    # The last coups of a shoe reach extreme EVs: the axis shows the middle 99.5% of the coups (the rest are few).
    low_limit, high_limit = np.percentile(sample.ev * 100, [0.25, 99.75])
    margin = (high_limit - low_limit) * 0.05
    top.set_ylim(min(low_limit, full) - margin, max(high_limit, 0) + margin)
    top.set_ylabel(f"EV of {bet} (% of the bet)")
    top.set_title(f"{bet}: exact EV before each coup, through the shoe", fontsize=11)
    top.legend(loc="upper left", fontsize=8)
    bottom.bar(centres, share, width=BIN_CARDS * 0.9, color="tab:green")
    bottom.set_ylabel("EV > 0 (% of coups)")
    bottom.set_xlabel("cards gone from the shoe before the coup (dealt or burned)")
    share = percent_text(sample.share_positive, 2)
    caption(figure, f"{_source(plan)}; {shoe_rules_header(plan.shoe, plan.rules)}. EV > 0 on {share} of"
                    f" {len(sample.ev):,} coups (the axis shows the middle 99.5% of them).")  # fmt: skip
    return figure


def shoe_ev_plot(
    output: str | Path,
    *,
    shoe: Shoe | None = None,
    rules: RuleSet = PUNTO_BANCO,
    bet: str = "dragon-7",
    shoes: int = 200,
    seed: int = 1,
    cut_card: int = 14,
    burn: int | str = 0,
) -> Path:
    """Write the ``shoe-ev`` plot: ``bet``'s exact EV through ``shoes`` simulated shoes, to a PNG or SVG file.

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "ev.svg"
    >>> shoe_ev_plot(out, shoes=2).read_bytes()[:5]
    b'<?xml'
    """
    plot_format(output)  # refuse a bad name before dealing
    plan = SimulationPlan.from_options(shoe or Shoe.standard(8), rules, bets=[bet], strategies=["perfect"],
                                       shoes=shoes, seed=seed, cut_card=cut_card, burn=burn)  # fmt: skip
    return save_figure(shoe_ev_figure(shoe_ev_sample(plan)), output)


def threshold_figure(scan: ScanResult, bet: str) -> Any:
    """The threshold plot of ``scan`` for ``bet``: win rate per 100 coups by threshold (95% bars) and bets per 100."""
    perfect, rows = scan.figures(bet)
    best = scan.best(bet)
    x = [float(t) for t in scan.thresholds]
    rate = [float(f.ev_per_100) for f in rows]
    bars = [Z95 * f.ev_per_100_se for f in rows]
    figure, (top, bottom) = new_figure()
    top.errorbar(x, rate, yerr=bars, marker="o", markersize=4, capsize=3, color="tab:blue",
                 label="count: win rate ± 95% (estimate)")  # fmt: skip
    top.axhline(float(perfect.ev_per_100), color="tab:green", linestyle="--", linewidth=1,
                label=f"perfect play (the bound): {float(perfect.ev_per_100):.3f}")  # fmt: skip
    top.axhline(0, color="black", linewidth=0.8)
    k = scan.thresholds.index(best)
    top.plot([x[k]], [rate[k]], marker="*", markersize=16, color="tab:red", linestyle="none",
             label=f"best: true count >= {fraction_text(best)}")  # fmt: skip
    top.set_ylabel("win rate (units per 100 coups dealt)")
    edge = perfect.house_edge
    edge_text = "" if edge is None else f"; house edge without a count {percent_text(edge, 4)} (exact)"
    top.set_title(f"{bet}: a count's win rate by true-count threshold{edge_text}", fontsize=10)
    top.legend(loc="best", fontsize=8)
    bottom.plot(x, [float(f.bets_per_100) for f in rows], marker="o", markersize=3, color="tab:purple")
    bottom.set_ylabel("bets per 100 coups")
    bottom.set_xlabel("true-count threshold (bet when running count / decks unseen >= it)")
    tags = ",".join(str(t) for t in scan.plan.counts[bet].tags[:10])
    caption(figure, f"{_source(scan.plan)}, every threshold on the same shoes; tags {tags};"
                    f" {shoe_rules_header(scan.plan.shoe, scan.plan.rules)}")  # fmt: skip
    return figure


def threshold_plot(
    output: str | Path,
    *,
    shoe: Shoe | None = None,
    rules: RuleSet = PUNTO_BANCO,
    bet: str = "dragon-7",
    tags: str = "0,0,0,-1,-1,-1,-1,2,2,0",
    thresholds: str | Sequence[Fraction] = "0:10:1",
    shoes: int = 1000,
    seed: int = 1,
    cut_card: int = 14,
    burn: int | str = 0,
) -> Path:
    """Write the ``threshold`` plot: the count ``tags`` on ``bet`` scanned over ``thresholds``, to a PNG or SVG file.

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "tc.png"
    >>> threshold_plot(out, shoes=2, thresholds="0:2:1").read_bytes()[:4]
    b'\\x89PNG'
    """
    plot_format(output)
    scanned = parse_scan(thresholds) if isinstance(thresholds, str) else tuple(thresholds)
    plan = SimulationPlan.from_options(shoe or Shoe.standard(8), rules, bets=[bet], tags=[tags],
                                       thresholds=[fraction_text(scanned[0])], shoes=shoes, seed=seed,
                                       cut_card=cut_card, burn=burn)  # fmt: skip
    scan = scan_thresholds(plan, scanned)
    return save_figure(threshold_figure(scan, plan.bet_ids[0]), output)
