"""The live shoe tracker's core: an immutable session state and its exact figures (the commands: :mod:`.commands`).

A :class:`TrackState` is a frozen snapshot of a shoe being dealt: the cards left, the coups
finished, the cards of the coup in progress, and the steps that made it from the start (the
log that :meth:`Tracker.save` writes and :meth:`Tracker.load` replays). Every step makes a new
state that points back at the one before it, so ``undo`` is a step back along that chain; a
state holds only what its own step changed, so a session costs the same memory per step however
long it runs.

Cards typed one by one are dealt in the order of the game (Player, Banker, Player, Banker,
then third cards as the tableau says, :func:`~exactodds.puntobanco.rules.deal_coup`), so the tracker knows
when a coup ends and who won it. A whole coup (``P 2 3 9 B 3 4``) is checked against the
tableau. Burned cards (``burn 5``) leave the shoe outside any coup; cards burned face down are
not typed at all: an unseen card changes nothing that is known, so the odds of the next coup
are those of the cards left, seen or not.

The figures after each step are :func:`~exactodds.puntobanco.odds.analyze` of the cards left: the
exact EV of each bet on a coup dealt from them (the next coup, once the one in progress, if
any, has ended). The tracker follows ranks only; suits typed (``7h``) are ignored.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..analysis import Analysis
from ..cards import RANK_VALUES, RANKS, Rank, Shoe
from ..errors import ExactOddsError
from ..files import check_output, read_regular, write_atomic
from ..present import shoe_json
from ..puntobanco.events import Bet
from ..puntobanco.odds import analyze, resolve_bets
from ..puntobanco.rules import RuleSet, Tableau, deal_coup
from ..rebate import Rebate
from .commands import HELP, MAX_LINE, Burn, Cards, Command, Control, WholeCoup, parse_command

__all__ = [
    "FILE_KIND",
    "FILE_VERSION",
    "HELP",
    "MAX_FILE",
    "MAX_LINE",
    "SIDES",
    "Burn",
    "Cards",
    "Command",
    "Control",
    "FinishedCoup",
    "Step",
    "TrackState",
    "Tracker",
    "WholeCoup",
    "parse_command",
    "pending_cards",
    "settle",
    "tableaux",
]

#: The name and version written in a saved session, checked when one is loaded.
FILE_KIND = "exactodds-track"
FILE_VERSION = 1
#: The largest saved session or script file read (bytes): some 200,000 steps.
MAX_FILE = 8 << 20
SIDES = ("player", "banker", "tie")

def _value(rank: Rank) -> int:
    return RANK_VALUES[RANKS.index(rank)]


@dataclass(frozen=True)
class FinishedCoup:
    """A coup dealt to its end: both hands and the winner (``player``, ``banker`` or ``tie``)."""

    player: tuple[Rank, ...]
    banker: tuple[Rank, ...]
    winner: str

    def text(self) -> str:
        """The coup as typed: ``P 2 3 9 B 3 4``."""
        return " ".join(["P", *self.player, "B", *self.banker])


def settle(player: tuple[Rank, ...], banker: tuple[Rank, ...], tableaux: tuple[Tableau, ...]) -> FinishedCoup:
    """The coup these hands make, if some tableau of ``tableaux`` deals them; else a one-line error.

    >>> from exactodds.puntobanco.rules import STANDARD_TABLEAU as T
    >>> settle(tuple(map(Rank, "239")), tuple(map(Rank, "34")), (T,)).winner
    'banker'
    >>> settle(tuple(map(Rank, "23")), tuple(map(Rank, "34")), (T,))
    Traceback (most recent call last):
    ...
    exactodds.errors.ExactOddsError: not a legal coup: with Player 2 3 (5) and Banker 3 4 (7) the tableau deals ...
    """
    # The values in deal order: P1 B1 P2 B2, then the Player's third card, then the Banker's;
    # deal_coup reads a third card only when its side draws, so a missing one is padded with 0.
    values = [_value(r) for r in (player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:])]
    values += [0] * (6 - len(values))
    dealt = None
    for tableau in tableaux:
        p_total, b_total, p_cards, b_cards = deal_coup(values, tableau)
        if (p_cards, b_cards) == (len(player), len(banker)):
            winner = "player" if p_total > b_total else "banker" if b_total > p_total else "tie"
            return FinishedCoup(player, banker, winner)
        dealt = (p_cards, b_cards)
    assert dealt is not None
    p2, b2 = (sum(_value(r) for r in hand[:2]) % 10 for hand in (player, banker))
    raise ExactOddsError(
        f"not a legal coup: with Player {' '.join(player[:2])} ({p2}) and Banker {' '.join(banker[:2])} ({b2})"
        f" the tableau deals the Player {dealt[0]} cards and the Banker {dealt[1]}"
    )


def pending_cards(values: tuple[int, ...], tableau: Tableau) -> int:
    """How many cards the coup whose first cards are worth ``values`` (in deal order) takes in all.

    >>> from exactodds.puntobanco.rules import STANDARD_TABLEAU as T
    >>> pending_cards((9, 0), T), pending_cards((9, 0, 9, 9), T), pending_cards((2, 3, 3, 4, 9), T)
    (6, 4, 5)
    """
    if len(values) < 4:
        return 6  # not known before the four first cards: at most six
    # At k cards, every draw decision that needs only the first k is known; the padding is never read for it.
    _, _, p_cards, b_cards = deal_coup([*values, 0, 0][:6], tableau)
    return p_cards + b_cards


@dataclass(frozen=True)
class TrackState:
    """A shoe being dealt: the cards left, the coups finished, the coup in progress, and the steps since the start.

    >>> state = TrackState.fresh(Shoe.standard(1))
    >>> state.shoe.size, state.dealt, state.previous is None
    (52, 0, True)
    """

    start: Shoe
    shoe: Shoe
    #: The coups finished by the step that made this state. A state holds its own step's part only; the whole
    #: (:attr:`coups`, :attr:`log`) is walked back along ``previous``, so no state copies those before it.
    finished: tuple[FinishedCoup, ...] = ()
    #: Coups won by the Player, the Banker, and ties, since the start.
    tally: tuple[int, int, int] = (0, 0, 0)
    #: The cards of the coup in progress, in deal order.
    pending: tuple[Rank, ...] = ()
    burned: int = 0
    #: The step that made this state from the one before, as typed (canonical); ``None`` for a full shoe.
    step: str | None = None
    previous: TrackState | None = field(default=None, repr=False, compare=False)

    @classmethod
    def fresh(cls, shoe: Shoe) -> TrackState:
        """A full shoe, known by rank (the tracker follows ranks)."""
        shoe = shoe.without_suits()
        return cls(shoe, shoe)

    @property
    def dealt(self) -> int:
        """Cards that have left the shoe (coups and burns)."""
        return self.start.size - self.shoe.size

    def wins(self) -> dict[str, int]:
        """Coups won by each side, and ties."""
        return dict(zip(SIDES, self.tally))

    @property
    def coups(self) -> tuple[FinishedCoup, ...]:
        """The coups finished since the start, in order."""
        return tuple(coup for state in self._since_start() for coup in state.finished)

    @property
    def log(self) -> tuple[str, ...]:
        """The steps that made this state from ``start``, as typed (canonical): what a saved session replays."""
        return tuple(state.step for state in self._since_start() if state.step is not None)

    def _since_start(self) -> list[TrackState]:
        """The states of the steps since the full shoe (the start, or the last ``new shoe``), oldest first."""
        states: list[TrackState] = []
        state: TrackState | None = self
        while state is not None and state.step is not None:
            states.append(state)
            state = state.previous
        return states[::-1]

    def pending_text(self) -> str:
        """The coup in progress, by hand (``P 2 3 · B 9``), or an empty string.

        A coup waits for a fifth card only when the Player draws (else it ends at four or five
        cards), so a fifth card held in progress is always the Player's third.
        """
        if not self.pending:
            return ""
        player, banker = self.pending[0:4:2] + self.pending[4:5], self.pending[1:4:2]
        return f"P {' '.join(player)}" + (f" · B {' '.join(banker)}" if banker else "")

    def _take(self, ranks: tuple[Rank, ...]) -> Shoe:
        """The shoe less ``ranks``; a card the shoe lacks, or a shoe left too small to deal, is a one-line error."""
        counts = list(self.shoe.counts)
        for rank in ranks:
            i = RANKS.index(rank)
            if counts[i] == 0:
                held, asked = self.shoe.counts[i], ranks.count(rank)
                raise ExactOddsError(
                    f"the shoe holds {held} × {rank.value}, not {asked}: nothing was changed" if held else
                    f"the shoe holds no {rank.value} any more: nothing was changed"
                )
            counts[i] -= 1
        left = sum(counts)
        if left < Shoe.MIN_CARDS:
            raise ExactOddsError(
                f"that would leave {left} card{'s' * (left != 1)}, fewer than a coup needs"
                f" ({Shoe.MIN_CARDS}): type `new shoe`"
            )
        return Shoe(tuple(counts))

    def apply(self, command: Cards | Burn | WholeCoup, rules: RuleSet) -> TrackState:
        """The state after dealing ``command``'s cards; an impossible step is a one-line error and changes nothing."""
        if isinstance(command, Burn):
            self._no_coup_in_progress("burn cards")
            return self._next(self._take(command.ranks), (), burned=self.burned + len(command.ranks),
                              step="burn " + " ".join(command.ranks))
        if isinstance(command, WholeCoup):
            self._no_coup_in_progress("type a whole coup")
            coup = settle(command.player, command.banker, tableaux(rules))
            shoe = self._take(command.player + command.banker)
            return self._next(shoe, (coup,), step=coup.text())
        shoe = self._take(command.ranks)
        pending, coups = list(self.pending), []
        for rank in command.ranks:
            pending.append(rank)
            values = tuple(_value(r) for r in pending)
            if len(pending) == pending_cards(values, rules.tableau):
                drew = _player_drew(values, rules.tableau)  # deal order: P1 B1 P2 B2, P3 if drawn, then B3
                player = (pending[0], pending[2], *pending[4:5]) if drew else (pending[0], pending[2])
                banker = (pending[1], pending[3], *pending[5 if drew else 4 :])
                coups.append(settle(player, banker, (rules.tableau,)))
                pending = []
        return self._next(shoe, tuple(coups), pending=tuple(pending), step=" ".join(command.ranks))

    def _no_coup_in_progress(self, what: str) -> None:
        if self.pending:
            raise ExactOddsError(
                f"a coup is in progress ({self.pending_text()}): deal its cards first, or `undo`, before you {what}"
            )

    def _next(self, shoe: Shoe, finished: tuple[FinishedCoup, ...], *, step: str, **changes: Any) -> TrackState:
        p, b, t = (n + sum(c.winner == side for c in finished) for n, side in zip(self.tally, SIDES))
        return replace(self, shoe=shoe, finished=finished, tally=(p, b, t), step=step, previous=self, **changes)

    def restarted(self) -> TrackState:
        """The full shoe again (the state before it stays reachable by ``undo``)."""
        return TrackState(self.start, self.start, previous=self)


def _player_drew(values: tuple[int, ...], tableau: Tableau) -> bool:
    return deal_coup([*values, 0, 0][:6], tableau)[2] == 3


def tableaux(rules: RuleSet) -> tuple[Tableau, ...]:
    """The tableaux a live coup may follow: the rules' own, and with the Player's option on 5 either way when he
    chooses (``best``) or follows a mixed policy.

    >>> from exactodds.puntobanco.rules import BIG_TABLE, PUNTO_BANCO
    >>> len(tableaux(PUNTO_BANCO)), len(tableaux(BIG_TABLE))
    (1, 2)
    """
    if rules.player_five == "best" or rules.player_five_draws is not None:
        return (rules.tableau.with_player_five(True), rules.tableau.with_player_five(False))
    return (rules.tableau,)


@dataclass(frozen=True)
class Step:
    """What one typed line did: the command, then the state's figures, or the one-line error (state unchanged)."""

    line: str
    state: TrackState
    analysis: Analysis | None = None
    error: str | None = None
    message: str | None = None
    quit: bool = False


class Tracker:
    """A tracking session: the rules and bets, the current state, and the exact figures after every step.

    >>> t = Tracker(Shoe.standard(1))
    >>> step = t.step("P 2 3 9 B 3 4")
    >>> step.state.wins()["banker"], step.state.shoe.size, step.analysis.bet("banker").ev == analyze(
    ...     Shoe.standard(1).remove("2,3,9,3,4"), bets=["banker"]).bet("banker").ev
    (1, 47, True)
    >>> t.step("K K K K K K K K").error
    'the shoe holds 4 × K, not 8: nothing was changed'
    """

    def __init__(
        self, shoe: Shoe, rules: RuleSet | None = None, bets: Any = None, rebate: Rebate | None = None
    ) -> None:
        from ..puntobanco.rules import PUNTO_BANCO

        self.rules = rules if rules is not None else PUNTO_BANCO
        #: A rebate: every bet's EV is also shown with it, and a bet is favourable when that EV is positive.
        self.rebate = rebate
        self.bets: tuple[Bet, ...] = resolve_bets(self.rules, bets, suits=False, cards=False)
        suited = [b.id for b in self.bets if b.needs_suits]
        if suited:
            raise ExactOddsError(f"the tracker follows ranks, not suits: {', '.join(suited)} cannot be tracked")
        self.state = TrackState.fresh(shoe)
        from ..puntobanco.compiled.flat import expect_many

        for tableau in tableaux(self.rules):  # a shoe per card: the numpy pricer from the first, not the flat table
            expect_many(tableau, self.bets)

    def figures(self, state: TrackState | None = None) -> Analysis:
        """The exact figures of every bet on a coup dealt from the cards left (the compiled pricer, built once), with
        the session's rebate."""
        return replace(analyze((state or self.state).shoe, self.rules, self.bets), rebate=self.rebate)

    def step(self, line: str) -> Step:
        """Do what ``line`` says; bad input is a :class:`Step` with an ``error``, never an exception."""
        try:
            command = parse_command(line)
            if command is None:
                return Step(line, self.state, message="")
            message = None
            if isinstance(command, Control):
                if command.name == "quit":
                    return Step(line, self.state, quit=True)
                if command.name == "help":
                    return Step(line, self.state, self.figures(), message=HELP)
                if command.name == "save":
                    self.save(command.path)
                    return Step(line, self.state, self.figures(), message=f"saved to {command.path}")
                if command.name == "undo":
                    if self.state.previous is None:
                        raise ExactOddsError("nothing to undo")
                    state = self.state.previous
                elif command.name == "new shoe":
                    state = self.state.restarted()
                else:
                    state = self.load(command.path)
                    message = f"loaded {command.path}"
            else:
                state = self.state.apply(command, self.rules)
            analysis = self.figures(state)
        except ExactOddsError as err:
            return Step(line, self.state, error=str(err))
        self.state = state
        return Step(line, state, analysis, message=message)

    def document(self) -> dict[str, Any]:
        """The session as a JSON-ready object: the starting shoe, the rules, the steps since the start, the cards
        left."""
        return {
            "format": FILE_KIND,
            "version": FILE_VERSION,
            "rules": self.rules.header(),
            "start": shoe_json(self.state.start, suited=False),
            "steps": list(self.state.log),
            "left": shoe_json(self.state.shoe, suited=False),
        }

    def save(self, path: str | Path) -> None:
        """Write the session to ``path`` (``~`` expanded) as JSON, atomically; the path checked as every output's
        (:func:`exactodds.files.check_output`: its folder must exist, no FIFO, no ``name/``)."""
        data = (json.dumps(self.document(), indent=2) + "\n").encode()
        target = check_output(os.path.expanduser(os.fspath(path)))
        try:
            write_atomic(target, data)
        except OSError as err:
            raise ExactOddsError(f"cannot save to {path}: {err.strerror or err}") from None

    def load(self, path: str | Path) -> TrackState:
        """The state a saved session describes, replayed step by step from its starting shoe and checked."""
        try:  # a regular file only, read with a bound: a FIFO or `/dev/zero` is an error at once, not a hang
            raw = read_regular(_user_path(path, "load"), MAX_FILE, "a saved session")
        except OSError as err:
            raise ExactOddsError(f"cannot load {path}: {err.strerror or err}") from None
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise ExactOddsError(f"cannot load {path}: it is not JSON") from None
        return self.replay(data, str(path))

    def replay(self, data: Any, name: str = "the session") -> TrackState:
        """The state a session document (:meth:`document`) describes; anything amiss is a one-line error."""

        def bad(why: str) -> ExactOddsError:
            return ExactOddsError(f"cannot load {name}: {why}")

        if not isinstance(data, dict) or data.get("format") != FILE_KIND:
            raise bad(f"it is not a saved tracker session (no \"format\": \"{FILE_KIND}\")")
        if data.get("version") != FILE_VERSION:
            raise bad(f"version {data.get('version')!r} is not {FILE_VERSION}")
        if data.get("rules") != self.rules.header():
            raise bad(f"it was saved under other rules ({str(data.get('rules'))[:80]}): start track with those")
        steps = data.get("steps")
        if not isinstance(steps, list) or not all(isinstance(s, str) for s in steps):
            raise bad('"steps" must be a list of strings')
        start = _counts(data.get("start"), bad, "start")
        state = TrackState.fresh(start)
        for number, text in enumerate(steps, 1):
            try:
                command = parse_command(text)
                if not isinstance(command, Cards | Burn | WholeCoup):
                    raise ExactOddsError("only cards, burns and whole coups are saved")
                state = state.apply(command, self.rules)
            except ExactOddsError as err:
                raise bad(f"step {number} ({text[:40]!r}): {err}") from None
        if _counts(data.get("left"), bad, "left") != state.shoe:
            raise bad('its "left" counts are not what its steps leave')
        return state


def _user_path(path: str | Path, verb: str) -> Path:
    """The file a user named (``~`` expanded); a name no file can have is a one-line error."""
    if "\x00" in str(path):
        raise ExactOddsError(f"cannot {verb} {str(path)!r}: a file name cannot hold a NUL character")
    try:
        return Path(path).expanduser()
    except RuntimeError as err:  # ~someone who does not exist
        raise ExactOddsError(f"cannot {verb} {path}: {err}") from None


def _counts(part: Any, bad: Any, key: str) -> Shoe:
    counts = part.get("counts") if isinstance(part, dict) else None
    if not isinstance(counts, dict) or set(counts) != {r.value for r in RANKS}:
        raise bad(f'"{key}" needs "counts" for each rank A, 2, …, 9, T, J, Q, K')
    if not all(type(n) is int and 0 <= n <= Shoe.MAX_CARDS for n in counts.values()):
        raise bad(f'the "{key}" counts must be whole numbers ≥ 0')
    try:
        return Shoe(tuple(counts[r.value] for r in RANKS))
    except ExactOddsError as err:
        raise bad(f'"{key}": {err}') from None
