"""The tracker's steps as a screen and as JSON: the running figures, the cards left, every bet's exact EV.

The tracker (:mod:`exactodds.tracker`) sits above this layer: what is read of its steps and
states is written here as protocols (:class:`StepLike`, :class:`StateLike`).
"""

from __future__ import annotations

from typing import Any, Protocol

from ..analysis import Analysis, BetFigures, Rules
from ..cards import Rank, Shoe
from ..exact import fraction_text, percent_text
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
    return data


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
