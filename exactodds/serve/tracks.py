"""Live tracking over HTTP: tracking sessions in memory, each a :class:`~exactodds.tracker.Tracker`, capped in
number and dropped after an idle time.

A step is exactly the JSON object ``track --script -`` writes for the same line. The tracker's
``save`` and ``load`` commands name files on the server: they are refused here (no path from a
request is ever opened); ``GET /tracks/{id}`` gives the session as ``save`` would write it.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import ExactOddsError
from ..present.tracker import header, step_json
from ..tracker import Step, Tracker
from ..tracker.commands import Control, parse_command
from .replies import Full, NotFound

#: The most tracking sessions held at once.
MAX_TRACKS = 100
#: Seconds a session may sit idle before it is dropped.
IDLE_SECONDS = 30 * 60


@dataclass
class Session:
    """One tracking session: its tracker, the decimal places of its steps, its last step and when it was last used.

    Mutable on purpose: a session changes with each command, under its own lock.
    """

    tracker: Tracker
    places: int
    last: dict[str, Any]
    used: float
    lock: threading.Lock = field(default_factory=threading.Lock)


class Tracks:
    """The sessions by id: created, stepped, read and deleted from many threads at once.

    >>> from exactodds.cards import Shoe
    >>> tracks = Tracks()
    >>> new = tracks.create(Tracker(Shoe.standard(1), bets=["tie"]), 4)
    >>> status, step = tracks.step(new["id"], "7")
    >>> status, step["running"]["dealt"]
    (200, 1)
    >>> tracks.step(new["id"], "save /tmp/x.json")[0]
    400
    """

    def __init__(
        self, limit: int = MAX_TRACKS, idle: float = IDLE_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit, self.idle, self.clock = limit, idle, clock
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def create(self, tracker: Tracker, places: int) -> dict[str, Any]:
        """A new session for ``tracker``: its id and its first step (the starting shoe, with the header line)."""
        first = step_json(tracker.first_step(), places)
        first["header"] = header(tracker.state, tracker.rules)
        with self._lock:
            self._expire()
            if len(self._sessions) >= self.limit:
                raise Full(f"{self.limit} tracking sessions are open, the most this server holds: DELETE one, or"
                           f" wait for one to expire ({self.idle / 60:g} minutes idle)")
            key = secrets.token_urlsafe(12)
            self._sessions[key] = Session(tracker, places, first, self.clock())
        return {"id": key, "step": first}

    def step(self, key: str, line: str) -> tuple[int, dict[str, Any]]:
        """Do one command in session ``key``: (200, the step) or (400, the step with its error); ``quit`` ends it."""
        session = self._get(key)
        refusal = _refused(line)
        with session.lock:
            step = Step(line, session.tracker.state, error=refusal) if refusal else session.tracker.step(line)
            data = step_json(step, session.places)
            if step.error is None and not step.quit:
                session.last = data
            session.used = self.clock()
        if step.quit:
            self.delete(key)
        return (400 if step.error is not None else 200), data

    def get(self, key: str) -> dict[str, Any]:
        """Session ``key``: its id, the session as ``save`` writes it, its last step, and the coups so far."""
        session = self._get(key)
        with session.lock:
            session.used = self.clock()
            return {"id": key, "session": session.tracker.document(), "step": session.last,
                    "coups": session.tracker.history()}

    def delete(self, key: str) -> dict[str, Any]:
        """End session ``key``."""
        with self._lock:
            if self._sessions.pop(key, None) is None:
                raise _not_found(key)
        return {"id": key, "deleted": True}

    def __len__(self) -> int:
        """The sessions open now (the expired ones dropped first)."""
        with self._lock:
            self._expire()
            return len(self._sessions)

    def _get(self, key: str) -> Session:
        """Session ``key``, or :class:`NotFound`."""
        with self._lock:
            self._expire()
            session = self._sessions.get(key)
        if session is None:
            raise _not_found(key)
        return session

    def _expire(self) -> None:
        """Drop the sessions idle for longer than :attr:`idle` (the caller holds the lock)."""
        now = self.clock()
        for key in [k for k, s in self._sessions.items() if now - s.used > self.idle]:
            del self._sessions[key]


def _not_found(key: str) -> NotFound:
    """The refusal of an unknown session, its id cut to a line's worth."""
    shown = key if len(key) <= 40 else key[:40] + "…"
    return NotFound(f"no tracking session {shown!r}: it was deleted, it expired, or it never existed")


def _refused(line: str) -> str | None:
    """Why ``line`` is not taken over HTTP (a file named on the server, or more than one line), or ``None``."""
    if "\n" in line or "\r" in line:
        return "a command is one line: send each line in a request of its own"
    try:
        command = parse_command(line)
    except ExactOddsError:
        return None  # the tracker gives the error, as track does (a line too long among them)
    if isinstance(command, Control) and command.name in ("save", "load"):
        return f"{command.name} reads or writes a file on the server, which a request may not name: GET the" \
            " session instead"
    return None
