"""The tracker's steps as a screen and as JSON: the running figures, the cards left, every bet's exact EV, and for a
baccarat game the scoreboard (the five roads, the ask road) with the exact odds of the next coup beside it.

The tracker (:mod:`exactodds.tracker`) sits above this layer: what is read of its steps and
states is written here as protocols (:class:`StepLike`, :class:`StateLike`).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Protocol

from ..analysis import Analysis, BetFigures, Rules
from ..cards import Rank, Shoe
from ..exact import fraction_text, percent_text
from ..roads import DERIVED, SIDES, Result, Roads, ask, roads
from . import shoe_json, shoe_rules_header

#: The most characters of a bad command quoted in its step's ``error`` object.
MAX_ECHO = 80


class StateLike(Protocol):
    """What is shown of a shoe being dealt (see :class:`exactodds.tracker.TrackState`)."""

    @property
    def start(self) -> Shoe: ...
    @property
    def shoe(self) -> Shoe: ...
    @property
    def tally(self) -> tuple[int, ...]: ...
    @property
    def pending(self) -> tuple[Rank, ...]: ...
    @property
    def burned(self) -> int: ...
    @property
    def dealt(self) -> int: ...
    def wins(self) -> dict[str, int]: ...
    def pending_text(self) -> str: ...
    def results(self) -> tuple[Result, ...] | None: ...


class StepLike(Protocol):
    """What is shown of one typed line's step (see :class:`exactodds.tracker.Step`)."""

    @property
    def line(self) -> str: ...
    @property
    def state(self) -> StateLike: ...
    @property
    def analysis(self) -> Analysis | None: ...
    @property
    def error(self) -> str | None: ...
    @property
    def message(self) -> str | None: ...
    @property
    def quit(self) -> bool: ...
    @property
    def next_coup(self) -> dict[str, Fraction] | None: ...


def panel(step: StepLike, places: int) -> list[tuple[str, str]]:
    """The screen after a step, as (style, text) fragments: running figures, cards left by rank, and every bet's EV
    (favourable bets highlighted).

    >>> from exactodds.cards import Shoe
    >>> from exactodds.tracker import Tracker
    >>> text = "".join(t for _, t in panel(Tracker(Shoe.standard(1), bets=["tie"]).step("7"), 4))
    >>> "left 51 of 52" in text and "7:3" in text and "tie" in text
    True
    """
    state = step.state
    figures = running(state)
    wins = figures["wins"]
    out: list[tuple[str, str]] = []
    line = (f"left {figures['left']:,} of {state.start.size:,} · dealt {figures['dealt']:,}"
            f" (burned {figures['burned']:,})")
    if wins:  # a game whose coups are followed: who won them
        line += f" · coups {figures['coups']:,}: " + " · ".join(f"{side} {n:,}" for side, n in wins.items())
    out.append(("class:figures", line))
    if state.pending:
        out.append(("class:pending", f" · coup in progress: {state.pending_text()}"))
    out.append(("", "\n"))
    counts = "  ".join(f"{rank}:{n}" for rank, n in state.shoe.as_dict().items())
    out.append(("class:counts", f"cards left  {counts}\n"))
    results = state.results()
    if results:
        out += scoreboard(roads(results), ask(results), step.next_coup)
    if step.analysis is not None:
        width = max(len(f.bet.id) for f in step.analysis.bets)
        for figures_of_bet in step.analysis.bets:
            ev = figures_of_bet.ev
            shown = ("+" if ev > 0 else "") + percent_text(ev, places)
            text = f"  {figures_of_bet.bet.id:<{width}}  EV {shown:>{places + 7}}"
            rebated = step.analysis.rebated(figures_of_bet)
            if rebated is not None:
                ev = rebated.ev_with_rebate
                text += f"  with rebate {('+' if ev > 0 else '') + percent_text(ev, places):>{places + 7}}"
            if ev > 0:
                out.append(("class:favourable", text + "  ◀ favourable"))
            else:
                out.append(("class:bet", text))
            out.append(("", "\n"))
    return out


def step_json(step: StepLike, places: int = 4) -> dict[str, Any]:
    """One step as a JSON-ready object: the command, then the cards left, every bet's exact EV and the running
    figures, or the error.

    >>> from exactodds.cards import Shoe
    >>> from exactodds.tracker import Tracker
    >>> data = step_json(Tracker(Shoe.standard(1), bets=["tie"]).step("7"))
    >>> data["left"]["counts"]["7"], data["bets"][0]["id"], data["running"]["dealt"]
    (3, 'tie', 1)
    """
    data: dict[str, Any] = {"command": step.line.strip()}
    if step.error is not None:
        if len(data["command"]) > MAX_ECHO:  # a bad line is named, not copied: no output many times the input's size
            data["command"] = data["command"][:MAX_ECHO] + "…"
        data["error"] = step.error
        return data
    if step.quit:
        data["quit"] = True
        return data
    if step.message:
        data["message"] = step.message
    state = step.state
    data["left"] = shoe_json(state.shoe, suited=False)
    if step.analysis is not None:
        data["bets"] = [_bet_json(step.analysis, f, places) for f in step.analysis.bets]
    data["running"] = running(state)
    results = state.results()
    if results is not None:  # a baccarat game's coups: the scoreboard
        asked = ask(results)
        data["roads"] = roads(results).to_json()
        data["ask"] = asked
        if step.next_coup is not None:
            data["next"] = {side: _chance(p, places) for side, p in step.next_coup.items()}
            data["ask_odds"] = {road: {colour: _chance(p, places) for colour, p in chances.items()}
                                for road, chances in ask_odds(asked, step.next_coup).items()}
    return data


def _chance(p: Fraction, places: int) -> dict[str, str]:
    """An exact probability and its percentage."""
    return {"probability": fraction_text(p), "percent": percent_text(p, places)}


def ask_odds(asked: Mapping[str, Mapping[str, str | None]],
             next_coup: Mapping[str, Fraction]) -> dict[str, dict[str, Fraction]]:
    """The exact probability of each colour each derived road shows after the next coup: the chance of each side
    whose ask road gives that colour (a tie, or a side that adds no mark, adds none).

    >>> asked = {"banker": {"big_eye_boy": "red"}, "player": {"big_eye_boy": "blue"}}
    >>> ask_odds(asked, {"banker": Fraction(1, 2), "player": Fraction(2, 5), "tie": Fraction(1, 10)})["big_eye_boy"]
    {'red': Fraction(1, 2), 'blue': Fraction(2, 5)}
    """
    out: dict[str, dict[str, Fraction]] = {}
    for road in asked["banker"]:
        chances = {"red": Fraction(0), "blue": Fraction(0)}
        for side, _ in SIDES:
            colour = asked[side][road]
            if colour is not None:
                chances[colour] += next_coup[side]
        out[road] = chances
    return out


#: The columns of each road the terminal shows (the latest): the big road's (two characters each), and each derived
#: road's (one character each): 77 characters in all, within an 80-column terminal's line.
BIG_ROAD_COLUMNS = 16
DERIVED_COLUMNS = 13
#: A derived road's marks: red filled, blue hollow, told apart without colours too (a pipe, a screen reader).
_GLYPHS = {"red": "●", "blue": "○"}
_SIDE_STYLE = {"B": "class:banker", "P": "class:player", "red": "class:banker", "blue": "class:player"}


def _latest(cells: list[tuple[int, int, str]], columns: int) -> list[list[str | None]]:
    """The latest ``columns`` columns of a road as six rows of cells (``None``: empty)."""
    first = max(0, max((c for c, _, _ in cells), default=0) - columns + 1)
    grid: list[list[str | None]] = [[None] * columns for _ in range(6)]
    for col, row, value in cells:
        if col >= first:
            grid[row][col - first] = value
    return grid


def scoreboard(board: Roads, asked: Mapping[str, Mapping[str, str | None]],
               next_coup: dict[str, Fraction] | None) -> list[tuple[str, str]]:
    """The roads in the terminal, compact: the big road's latest columns (a cell with ties underlined) and each
    derived road's (red ●, blue ○), six rows side by side; then the next coup's exact odds and the ask road.

    >>> text = "".join(t for _, t in scoreboard(roads("BBPT"), ask("BBPT"), None))
    >>> text.splitlines()[1].startswith("B P")
    True
    """
    big = _latest([(c.col, c.row, c.winner + ("*" if c.ties else "")) for c in board.big_road], BIG_ROAD_COLUMNS)
    derived = [(name, _latest([(c.col, c.row, c.colour) for c in getattr(board, name)], DERIVED_COLUMNS))
               for name, _ in DERIVED]
    out: list[tuple[str, str]] = [("class:figures", f"{'big road':<{2 * BIG_ROAD_COLUMNS}}" + "".join(
        f"{name.replace('_', ' '):<{DERIVED_COLUMNS + 2}}" for name, _ in derived).rstrip() + "\n")]
    for row in range(6):
        for value in big[row]:
            style = "" if value is None else _SIDE_STYLE[value[0]] + (" class:ties" if value.endswith("*") else "")
            out.append((style, (value[0] if value else "·") + " "))
        for _, grid in derived:
            out.append(("", "  "))
            for colour in grid[row]:
                out.append(("" if colour is None else _SIDE_STYLE[colour], _GLYPHS[colour] if colour else "·"))
        out.append(("", "\n"))
    if next_coup is not None:
        out.append(("class:figures", "next coup: " + " · ".join(
            f"{side.title()} {percent_text(p, 4)}" for side, p in next_coup.items()) + "\n"))
    for side, letter in SIDES:
        marks = ", ".join(f"{road.replace('_', ' ')} {asked[side][road] or '—'}" for road, _ in DERIVED)
        out.append(("", f"ask {letter}: {marks}\n"))
    return out


def _bet_json(analysis: Analysis, figures: BetFigures, places: int) -> dict[str, Any]:
    """One bet of a step: its exact EV, and with a rebate its ``rebate`` object; favourable when the EV (with the
    rebate, if any) is positive."""
    data: dict[str, Any] = {"id": figures.bet.id, "ev": fraction_text(figures.ev),
                            "ev_percent": percent_text(figures.ev, places), "favourable": figures.ev > 0}
    rebated = analysis.rebated(figures)
    if rebated is not None:
        data["favourable"] = rebated.ev_with_rebate > 0
        data["rebate"] = rebated.as_json()
    return data


def running(state: StateLike) -> dict[str, Any]:
    """The running figures of the shoe so far: coups, wins per side (none where coups are not followed), cards
    dealt, burned and left."""
    return {
        "coups": sum(state.tally),
        "wins": state.wins(),
        "dealt": state.dealt,
        "burned": state.burned,
        "left": state.shoe.size,
        "in_progress": " ".join(state.pending),
    }


def header(state: StateLike, rules: Rules) -> str:
    """The rules-and-shoe line of the starting shoe (the one header of every report)."""
    return shoe_rules_header(state.start, rules)
