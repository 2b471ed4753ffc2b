"""The live shoe tracker's core: an immutable session state and its exact figures (the commands: :mod:`.commands`).

A :class:`TrackState` is a frozen snapshot of a shoe being dealt: the cards left, the coups
finished, the cards of the coup in progress, and the steps that made it from the start (the
log that :meth:`Tracker.save` writes and :meth:`Tracker.load` replays). Every step makes a new
state that points back at the one before it, so ``undo`` is a step back along that chain; a
state holds only what its own step changed, so a session costs the same memory per step however
long it runs.

The tracker follows any game with bets. Where the game follows its coups (the capability
``coups``: :meth:`~exactodds.game.Game.coups`), cards typed one by one are dealt in the order of
its coup (punto banco's: Player, Banker, Player, Banker, then third cards as the tableau says), so
the tracker knows when a coup ends and who won it, and a whole coup (``P 2 3 9 B 3 4``) is checked
against the game's rules. Where it does not (a player's decision says whether a card is drawn),
the cards typed simply leave the shoe. Burned cards (``burn 5``) leave the shoe outside any coup;
cards burned face down are not typed at all: an unseen card changes nothing that is known, so
the odds of the next coup are those of the cards left, seen or not.

The figures after each step are the game's :meth:`~exactodds.game.Game.price` of the cards left:
the exact EV of each bet on a coup dealt from them (the next coup, once the one in progress, if
any, has ended). The tracker follows ranks only; suits typed (``7h``) are ignored.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..analysis import Analysis, Rules
from ..cards import RANKS, Rank, Shoe
from ..coups import BACCARAT_WINNERS, Coup, Coups, road_result
from ..errors import ExactOddsError, shown
from ..files import check_output, read_regular, shown_path, write_atomic
from ..game import Game, Settings
from ..games import DEFAULT, find_game
from ..inputs import PRECISION
from ..paytable import Bet
from ..present import shoe_json
from ..rebate import Rebate
from ..roads import Result
from .commands import MAX_LINE, Burn, Cards, Command, Control, WholeCoup, help_text, parse_command

__all__ = [
    "FILE_KIND",
    "FILE_VERSION",
    "MAX_FILE",
    "MAX_LINE",
    "TRACK_PRECISION",
    "Burn",
    "Cards",
    "Command",
    "Control",
    "Step",
    "TrackState",
    "Tracker",
    "WholeCoup",
    "help_text",
    "parse_command",
]

#: The name and version written in a saved session, checked when one is loaded.
FILE_KIND = "exactodds-track"
FILE_VERSION = 1
#: The largest saved session or script file read (bytes): some 200,000 steps.
MAX_FILE = 8 << 20
#: The decimal places of each bet's EV in percent (the exact EV beside it has none).
TRACK_PRECISION = replace(PRECISION, high=30, default=4)


def _coups(game: Game, rules: Rules) -> Coups | None:
    """How the game's coups are dealt under ``rules``, or ``None`` where it does not follow them."""
    return game.coups(rules) if game.has("coups") else None


@dataclass(frozen=True)
class TrackState:
    """A shoe being dealt: the cards left, the coups finished, the coup in progress, and the steps since the start.

    >>> state = TrackState.fresh(Shoe.standard(1))
    >>> state.shoe.size, state.dealt, state.previous is None, state.wins()
    (52, 0, True, {'player': 0, 'banker': 0, 'tie': 0})
    """

    start: Shoe
    shoe: Shoe
    #: The coups finished by the step that made this state. A state holds its own step's part only; the whole
    #: (:attr:`coups`, :attr:`log`) is walked back along ``previous``, so no state copies those before it.
    finished: tuple[Coup, ...] = ()
    #: Coups won by each winner of the game's coups (:meth:`wins`), since the start.
    tally: tuple[int, ...] = ()
    #: The cards of the coup in progress, in deal order.
    pending: tuple[Rank, ...] = ()
    burned: int = 0
    #: The step that made this state from the one before, as typed (canonical); ``None`` for a full shoe.
    step: str | None = None
    previous: TrackState | None = field(default=None, repr=False, compare=False)
    #: The game dealt, and the rules its coups follow.
    game: Game = field(default=DEFAULT, repr=False, compare=False)
    rules: Rules | None = field(default=None, repr=False, compare=False)

    @classmethod
    def fresh(cls, shoe: Shoe, game: Game = DEFAULT, rules: Rules | None = None) -> TrackState:
        """A full shoe of ``game`` (under ``rules``, by default its own), known by rank (the tracker follows ranks)."""
        shoe = shoe.without_suits()
        rules = rules if rules is not None else game.rules(game.settings_of({}))
        coups = _coups(game, rules)
        return cls(shoe, shoe, tally=(0,) * len(coups.winners if coups else ()), game=game, rules=rules)

    @property
    def coup_rules(self) -> Coups | None:
        """How the game's coups are dealt under the state's rules (``None``: it does not follow them)."""
        assert self.rules is not None
        return _coups(self.game, self.rules)

    @property
    def dealt(self) -> int:
        """Cards that have left the shoe (coups and burns)."""
        return self.start.size - self.shoe.size

    def wins(self) -> dict[str, int]:
        """Coups won by each side, and ties."""
        coups = self.coup_rules
        return dict(zip(coups.winners, self.tally)) if coups else {}

    @property
    def coups(self) -> tuple[Coup, ...]:
        """The coups finished since the start, in order."""
        return tuple(coup for state in self._since_start() for coup in state.finished)

    def results(self) -> tuple[Result, ...] | None:
        """The coups finished since the start as the scoreboard reads them (:func:`~exactodds.coups.road_result`);
        ``None`` where the game's coups are not baccarat's (no scoreboard).

        Each state keeps its own (in its ``__dict__``: the dataclass is frozen, its fields unchanged), made from the
        nearest state before it that has them: a step costs its own coups, not the shoe's (a loaded session's first
        call walks back once, without recursion).
        """
        coups = self.coup_rules
        if coups is None or set(coups.winners) != set(BACCARAT_WINNERS):
            return None
        chain: list[TrackState] = []
        state: TrackState | None = self
        while state is not None and "_results" not in state.__dict__ and state.step is not None:
            chain.append(state)
            state = state.previous
        done: tuple[Result, ...] = () if state is None or state.step is None else state.__dict__["_results"]
        for later in reversed(chain):
            done += tuple(r for r in map(road_result, later.finished) if r is not None)
            later.__dict__["_results"] = done
        return done

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
        """The coup in progress, by hand (``P 2 3 · B 9``), or an empty string."""
        coups = self.coup_rules
        return coups.progress(self.pending) if coups and self.pending else ""

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

    def apply(self, command: Cards | Burn | WholeCoup, rules: Rules | None = None) -> TrackState:
        """The state after dealing ``command``'s cards, its coups following ``rules`` (by default the state's own);
        an impossible step is a one-line error and changes nothing."""
        state = self if rules is None or rules is self.rules else replace(self, rules=rules)
        coups = state.coup_rules
        if isinstance(command, Burn):
            state._no_coup_in_progress("burn cards")
            return state._next(state._take(command.ranks), (), burned=state.burned + len(command.ranks),
                               step="burn " + " ".join(command.ranks))
        if isinstance(command, WholeCoup):
            if coups is None:
                state.game.require("coups", "a coup typed whole")
            assert coups is not None
            state._no_coup_in_progress("type a whole coup")
            coup = coups.settle(command.hands)
            return state._next(state._take(coup.cards), (coup,), step=coup.text())
        shoe = state._take(command.ranks)
        pending, finished = list(state.pending), []
        for rank in command.ranks:
            if coups is None:  # coups not followed: a card only leaves the shoe
                continue
            pending.append(rank)
            if len(pending) == coups.needs(tuple(pending)):
                finished.append(coups.coup(tuple(pending)))
                pending = []
        return state._next(shoe, tuple(finished), pending=tuple(pending), step=" ".join(command.ranks))

    def _no_coup_in_progress(self, what: str) -> None:
        if self.pending:
            raise ExactOddsError(
                f"a coup is in progress ({self.pending_text()}): deal its cards first, or `undo`, before you {what}"
            )

    def _next(self, shoe: Shoe, finished: tuple[Coup, ...], *, step: str, **changes: Any) -> TrackState:
        coups = self.coup_rules
        winners = coups.winners if coups else ()
        tally = tuple(n + sum(c.winner == side for c in finished) for n, side in zip(self.tally, winners))
        return replace(self, shoe=shoe, finished=finished, tally=tally, step=step, previous=self, **changes)

    def restarted(self) -> TrackState:
        """The full shoe again (the state before it stays reachable by ``undo``)."""
        return replace(TrackState.fresh(self.start, self.game, self.rules), previous=self)


@dataclass(frozen=True)
class Step:
    """What one typed line did: the command, then the state's figures, or the one-line error (state unchanged)."""

    line: str
    state: TrackState
    analysis: Analysis | None = None
    error: str | None = None
    message: str | None = None
    quit: bool = False
    #: The exact probability of each winner of the next coup (a coup dealt from the cards left), where the game
    #: prices it (:meth:`~exactodds.game.Game.winner_odds`).
    next_coup: dict[str, Fraction] | None = None


class Tracker:
    """A tracking session: the game, its settings and bets, the current state, and the exact figures after every step.

    ``game`` and ``settings`` say what is dealt (by default punto banco, under ``rules``, a rule set of its own, and
    a ``rebate``: the library's older form); ``bets`` are the game's bets followed (``None``: its default bets that a
    shoe known by rank prices).

    >>> t = Tracker(Shoe.standard(1))
    >>> step = t.step("P 2 3 9 B 3 4")
    >>> from exactodds.games import DEFAULT
    >>> step.state.wins()["banker"], step.state.shoe.size, step.analysis.bet("banker").ev == DEFAULT.price(
    ...     Shoe.standard(1).remove("2,3,9,3,4"), ["banker"], DEFAULT.settings_of({})).bet("banker").ev
    (1, 47, True)
    >>> t.step("K K K K K K K K").error
    'the shoe holds 4 × K, not 8: nothing was changed'
    """

    def __init__(
        self, shoe: Shoe, rules: Rules | None = None, bets: Any = None, rebate: Rebate | None = None, *,
        game: Game | None = None, settings: Settings | None = None,
    ) -> None:
        if settings is None:
            game = game or DEFAULT
            settings = game.settings_of({}) if rules is None and rebate is None else game.settings_for(
                rules if rules is not None else game.rules(game.settings_of({})), rebate)
        self.game: Game = game or find_game(settings.game)
        self.settings = settings
        self.rules = self.game.rules(settings)
        self.bets: tuple[Bet, ...] = self.game.resolve(bets, settings, suits=False, cards=False)
        if bets is None:  # the game's default bets: those a shoe known by rank prices
            self.bets = tuple(bet for bet in self.bets if not bet.needs_suits)
        suited = [b.id for b in self.bets if b.needs_suits]
        if suited:
            raise ExactOddsError(f"the tracker follows ranks, not suits: {', '.join(suited)} cannot be tracked")
        self.state = TrackState.fresh(shoe, self.game, self.rules)
        coups = self.state.coup_rules
        #: The words of ``help``.
        self.help = help_text(coups, self.game.name)
        self._hands = coups.hands if coups else ()
        self.game.prepare(self.bets, settings)  # a shoe per card: what prices each fast, built once

    def first_step(self) -> Step:
        """The step that shows the full shoe before anything is typed (it builds the pricer, once a session)."""
        return Step("start", self.state, self.figures(), next_coup=self.winner_odds())

    def history(self) -> list[dict[str, Any]]:
        """The coups finished since the start, each numbered, as typed whole, and who won it (the page's history)."""
        return [{"coup": n, "text": coup.text(), "winner": coup.winner} for n, coup in enumerate(self.state.coups, 1)]

    def figures(self, state: TrackState | None = None) -> Analysis:
        """The exact figures of every bet on a coup dealt from the cards left (the game's pricing, with the
        session's rebate, if any)."""
        return self.game.price((state or self.state).shoe, self.bets, self.settings)

    def step(self, line: str) -> Step:
        """Do what ``line`` says; bad input is a :class:`Step` with an ``error``, never an exception."""
        try:
            command = parse_command(line, self._hands)
            if command is None:
                return Step(line, self.state, message="")
            message = None
            if isinstance(command, Control):
                if command.name == "quit":
                    return Step(line, self.state, quit=True)
                if command.name in ("help", "save"):
                    if command.name == "save":
                        self.save(command.path)
                    text = self.help if command.name == "help" else f"saved to {command.path}"
                    return Step(line, self.state, self.figures(), message=text, next_coup=self.winner_odds())
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
                state = self.state.apply(command)
            analysis = self.figures(state)
            next_coup = self.winner_odds(state)
        except ExactOddsError as err:
            return Step(line, self.state, error=str(err))
        self.state = state
        return Step(line, state, analysis, message=message, next_coup=next_coup)

    def winner_odds(self, state: TrackState | None = None) -> dict[str, Fraction] | None:
        """The exact probability of each winner of a coup dealt from the cards left, where the game prices it and
        the scoreboard is kept (a baccarat game's coups)."""
        state = state or self.state
        if state.results() is None:
            return None
        return self.game.winner_odds(state.shoe, self.settings)

    def document(self) -> dict[str, Any]:
        """The session as a JSON-ready object: the game (unless it is the default, as a command names none), the
        starting shoe, the rules, the steps since the start, the cards left."""
        game = {} if self.game is DEFAULT else {"game": self.game.name}
        return {
            "format": FILE_KIND,
            "version": FILE_VERSION,
            **game,
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
            raise ExactOddsError(f"cannot save to {shown_path(path)}: {err.strerror or err}") from None

    def load(self, path: str | Path) -> TrackState:
        """The state a saved session describes, replayed step by step from its starting shoe and checked."""
        try:  # a regular file only, read with a bound: a FIFO or `/dev/zero` is an error at once, not a hang
            raw = read_regular(_user_path(path, "load"), MAX_FILE, "a saved session")
        except OSError as err:
            raise ExactOddsError(f"cannot load {shown_path(path)}: {err.strerror or err}") from None
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise ExactOddsError(f"cannot load {shown_path(path)}: it is not JSON") from None
        return self.replay(data, str(path))

    def replay(self, data: Any, name: str = "the session") -> TrackState:
        """The state a session document (:meth:`document`) describes; anything amiss is a one-line error."""

        def bad(why: str) -> ExactOddsError:
            return ExactOddsError(f"cannot load {shown_path(name)}: {why}")

        if not isinstance(data, dict) or data.get("format") != FILE_KIND:
            raise bad(f"it is not a saved tracker session (no \"format\": \"{FILE_KIND}\")")
        if data.get("version") != FILE_VERSION:
            raise bad(f"version {shown(repr(data.get('version')))} is not {FILE_VERSION}")
        game = data.get("game", DEFAULT.name)
        if game != self.game.name:
            raise bad(f"it was saved for the game {shown(game)!r}, not {self.game.name}: start track --game"
                      f" {shown(game)}")
        if data.get("rules") != self.rules.header():
            raise bad(f"it was saved under other rules ({shown(data.get('rules'), 80)}): start track with those")
        steps = data.get("steps")
        if not isinstance(steps, list) or not all(isinstance(s, str) for s in steps):
            raise bad('"steps" must be a list of strings')
        start = _counts(data.get("start"), bad, "start")
        state = TrackState.fresh(start, self.game, self.rules)
        for number, text in enumerate(steps, 1):
            try:
                command = parse_command(text, self._hands)
                if not isinstance(command, Cards | Burn | WholeCoup):
                    raise ExactOddsError("only cards, burns and whole coups are saved")
                state = state.apply(command)
            except ExactOddsError as err:
                raise bad(f"step {number} ({shown(text)!r}): {err}") from None
        if _counts(data.get("left"), bad, "left") != state.shoe:
            raise bad('its "left" counts are not what its steps leave')
        return state


def _user_path(path: str | Path, verb: str) -> Path:
    """The file a user named (``~`` expanded); a name no file can have is a one-line error."""
    if "\x00" in str(path):
        raise ExactOddsError(f"cannot {verb} {shown_path(str(path))!r}: a file name cannot hold a NUL character")
    try:
        return Path(path).expanduser()
    except RuntimeError as err:  # ~someone who does not exist
        raise ExactOddsError(f"cannot {verb} {shown_path(path)}: {err}") from None


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
