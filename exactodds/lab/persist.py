"""A run saved to its ``--output`` file and read back to resume it: written atomically, trusted in nothing.

A resume file is checked against the plan and against what chunks of it can add up to:
its types, ranges and totals; anything else is refused in one sentence.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import ExactOddsError, shown
from ..files import read_regular, shown_path, write_atomic
from .plan import CHUNK_SHOES, MAX_SHOES, SimulationPlan
from .results import EV_BITS, TOTAL_FIELDS, SimulationResult, Totals

#: The largest ``--output`` file ``--resume`` reads (a run's file is a few kB, more when its chunks are scattered).
MAX_RESULT_BYTES = 64 * 2**20
#: The most digits of a saved total (a run's largest, a sum of squares, has about 40).
_TOTAL_DIGITS = 200
_INTEGER = re.compile(rf"-?[0-9]{{1,{_TOTAL_DIGITS}}}")


def _read_run_file(path: str | os.PathLike[str], max_chunks: int) -> Any:
    """The JSON of a run file, read with bounds: a regular file, at most MAX_RESULT_BYTES, no deeper than JSON allows.

    ``max_chunks`` bounds the lists and objects the file may hold (a run of that many chunks
    writes at most one ``[first, last]`` pair per chunk), so no file can make the reader
    build more than the run itself would keep.
    """
    def bad(why: str) -> ExactOddsError:
        return ExactOddsError(f"cannot resume from {shown_path(path)}: {why}")

    try:
        raw = read_regular(path, MAX_RESULT_BYTES, "a simulate output file")
    except OSError as err:
        raise bad(err.strerror or str(err)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise bad("it is not UTF-8 text") from None
    if text.count("[") + text.count("{") > 2 * max_chunks + 10_000:
        raise bad(f"it holds more entries than a run of {max_chunks:,} chunks writes")

    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not a number")

    try:
        return json.loads(text, parse_constant=constant)
    except RecursionError:
        raise bad("its JSON is nested too deeply") from None
    except ValueError as err:
        raise bad(f"not a simulate output file ({err})") from None


def _json_int(value: Any) -> bool:
    """Whether a JSON value is a whole number as JSON writes one (not a bool, a float such as 1e400, or a string)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _canonical(value: Any) -> str:
    # 14 == 14.0 == True-ish comparisons of Python values would let a tampered type through.
    return json.dumps(value, sort_keys=True)


def _shoes_in(lo: int, hi: int, shoes: int, chunk: int) -> int:
    """Shoes in chunks lo..hi of a ``shoes``-shoe run of ``chunk``-shoe chunks (lo within the run)."""
    return min(shoes, (hi + 1) * chunk) - lo * chunk


def load_result(path: str | os.PathLike[str], plan: SimulationPlan) -> SimulationResult:
    """Read a stopped (or finished) run of ``plan`` from its ``--output`` file, to resume it.

    The file must hold the same run: the same shoe, rules, bets, strategies, counts,
    dealing rules and seed; the number of shoes may grow when the chunks done keep their size.
    Nothing in the file is trusted: its types, ranges and totals are checked against the
    plan and against what chunks of it can add up to, and anything else is refused.
    """

    def bad(why: str) -> ExactOddsError:
        return ExactOddsError(f"cannot resume from {shown_path(path)}: {why}")

    data = _read_run_file(path, plan.chunk_count)
    try:
        saved = data["simulation"]
        state = data["state"]
        ranges = state["chunks_done"]
        raw_totals = state["totals"]
        old_shoes = saved["shoes"]
    except (KeyError, TypeError, IndexError):
        raise bad("not a simulate output file (it lacks the run, its chunks done or its totals)") from None
    if not isinstance(saved, dict) or not isinstance(ranges, list) or not isinstance(raw_totals, dict):
        raise bad("not a simulate output file (malformed run, chunks done or totals)")
    mine = json.loads(json.dumps(plan.identity()))
    # A key of the run that only some runs have (a rebate) is another run whichever side has it.
    for key in [*mine, *(k for k in saved if k not in mine and k != "shoes")]:
        if key not in saved or key not in mine or _canonical(saved[key]) != _canonical(mine[key]):
            raise bad(f"it holds another run ({key.replace('_', ' ')} differs)")
    if not _json_int(old_shoes) or not 1 <= old_shoes <= MAX_SHOES:
        raise bad(f"its number of shoes must be a whole number from 1 to {MAX_SHOES:,}, not {shown(repr(old_shoes))}")
    chunk = plan.chunk_shoes
    old_count = -(-old_shoes // chunk)
    done: set[int] = set()
    shoes_done = 0
    previous = -1
    for item in ranges:
        # Each [first, last] is checked before it is expanded: no range reaches past the run's chunks.
        if not (isinstance(item, list) and len(item) == 2 and all(_json_int(x) for x in item)):
            raise bad(f"a chunk range must be [first, last] in whole numbers, not {str(item)[:40]}")
        lo, hi = item
        if not previous < lo <= hi:
            raise bad(f"the chunk ranges must be increasing and disjoint, not {item} after chunk {previous}")
        if hi >= old_count or hi >= plan.chunk_count:
            raise bad(
                f"chunk {hi} is not a chunk of its {old_shoes:,}-shoe run and of this {plan.shoes:,}-shoe run"
            )
        shoes = _shoes_in(lo, hi, old_shoes, chunk)
        if shoes != _shoes_in(lo, hi, plan.shoes, chunk):
            raise bad(
                f"its {old_shoes:,} shoes do not split into the chunks of a {plan.shoes:,}-shoe run"
            )
        shoes_done += shoes
        done.update(range(lo, hi + 1))
        previous = hi
    totals = _checked_totals(raw_totals, plan, shoes_done, bad)
    return SimulationResult(plan, totals, done)


def _checked_totals(
    data: dict[str, Any], plan: SimulationPlan, shoes_done: int, bad: Callable[[str], ExactOddsError]
) -> Totals:
    """Totals read from a run file, refused unless chunks of ``plan`` holding ``shoes_done`` shoes could add up to them.

    What every chunk's totals satisfy, and so their sums: the shoes are those of the chunks
    done; each shoe deals at least 2 coups (the one that brings out the cut card and one
    more) and at most one per 4 cards; a bet is placed at most once a coup (every coup under
    ``always``); a placed bet wins or loses at most its largest net pay, and its EV is at most
    that too; ``perfect`` bets only at a positive EV; a sum of squares of n per-shoe totals
    is at least the square of their sum over n (Cauchy–Schwarz) and at most the square of
    the sum of their bounds; ``combined`` adds the bets' counts, wins and EVs.
    """
    shoes, coups, cells = data.get("shoes"), data.get("coups"), data.get("cells")
    if not (_json_int(shoes) and _json_int(coups) and isinstance(cells, dict)):
        raise bad("its totals must hold whole numbers of shoes and coups and a table of cells")
    assert isinstance(shoes, int) and isinstance(coups, int)
    if shoes != shoes_done:
        raise bad(f"its totals count {shoes:,} shoes, but its chunks done hold {shoes_done:,}")
    size = plan.shoe.size
    if not 2 * shoes <= coups <= shoes * (size // 4):
        raise bad(f"{coups:,} coups cannot come from {shoes:,} shoes of {size} cards")
    result = SimulationResult(plan)
    keys = result.keys() if shoes else []
    names = {f"{s}/{b}": (s, b) for s, b in keys}
    if set(cells) != set(names):
        raise bad("its totals do not hold one cell per strategy and bet of the run")
    pays = plan.pays
    scale = pays.scale
    largest = {b: int(max(abs(net) for net in nets) * scale) for b, nets in zip(pays.ids, pays.nets)}
    parsed: dict[tuple[str, str], list[int]] = {}
    for name, (strategy, bet) in names.items():
        values = cells[name]
        if not isinstance(values, dict) or set(values) != set(TOTAL_FIELDS):
            raise bad(f"its cell {name} must hold {', '.join(TOTAL_FIELDS)}")
        row = []
        for f in TOTAL_FIELDS:
            text = values[f]
            if not isinstance(text, str) or not _INTEGER.fullmatch(text):
                raise bad(f"its {f} for {name} must be a whole number in decimal digits, not {shown(text)!r}")
            row.append(int(text))
        parsed[(strategy, bet)] = row
    one = 2**EV_BITS
    for (strategy, bet), (placed, won, won_sq, ev, ev_sq) in parsed.items():
        if bet == "combined":
            parts = [parsed[(strategy, b)] for b in plan.bet_ids]
            sums = [sum(p[i] for p in parts) for i in (0, 1, 3)]
            if [placed, won, ev] != sums:
                raise bad(f"its combined totals for {strategy} are not the sums of its bets'")
            win_bound = sum(p[0] * largest[b] for p, b in zip(parts, plan.bet_ids))
            ev_bound = sum(p[0] * -(-largest[b] * one // scale) for p, b in zip(parts, plan.bet_ids))
        else:
            if not 0 <= placed <= coups or (strategy == "always" and placed != coups):
                raise bad(f"{placed:,} {bet} bets under {strategy} cannot come from {coups:,} coups")
            win_bound = placed * largest[bet]
            ev_bound = placed * -(-largest[bet] * one // scale)  # each coup's EV, rounded, is at most its largest pay
            if strategy == "perfect" and ev < 0:
                raise bad(f"perfect play bets {bet} only at a positive EV, yet its EV total is negative")
        for total, squares, bound in ((won, won_sq, win_bound), (ev, ev_sq, ev_bound)):
            if abs(total) > bound or not total * total <= squares * shoes or squares > bound * bound:
                raise bad(f"its totals for {strategy} on {bet} are not what any shoes can add up to")
    return Totals(shoes, coups, parsed)


def save_result(result: SimulationResult, path: str | os.PathLike[str]) -> None:
    """Write the run as JSON atomically: to a temporary file beside ``path``, then renamed over it."""
    target = Path(path)
    try:
        write_atomic(target, result.render("json").encode("utf-8"))
    except OSError as err:
        raise ExactOddsError(f"cannot write {target}: {err.strerror or err}") from None


def saved_seed(path: str | os.PathLike[str], max_chunks: int = -(-MAX_SHOES // CHUNK_SHOES)) -> int | None:
    """The seed of the run saved in ``path`` (None when the file holds none); a file that cannot be a run is refused.

    ``max_chunks`` bounds what the reader builds (see :func:`load_result`).
    """
    data = _read_run_file(path, max_chunks)
    run = data.get("simulation") if isinstance(data, dict) else None
    seed = run.get("seed") if isinstance(run, dict) else None
    if seed is None:
        return None
    if not _json_int(seed) or seed < 0:
        raise ExactOddsError(f"cannot resume from {shown_path(path)}: its seed must be a whole number 0 or more, not"
                             f" {shown(repr(seed))}")
    return int(seed)
