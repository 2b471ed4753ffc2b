"""The baccarat scoreboard's five roads, from the coups' results: pure functions over immutable values, one home.

A coup's result is a `Result` (the winner, ``"B"``, ``"P"`` or ``"T"``, and its markers: the pairs, a natural);
plain letters are read too (`results_of`). Cells are ``(col, row, …)`` on a grid six rows deep (row 0 the top).

- **Bead plate**: every coup a cell, in columns of six, top to bottom then left to right.
- **Big road**: Banker and Player wins only. A streak runs down its column; a change of winner starts a new column.
  A tie opens no cell: it is counted on the latest cell (ties before the first win on the first cell, when it comes).
  A streak that reaches the sixth row, or finds the cell below it taken, turns right along its row (the *dragon
  tail*) and stays on that row.
- **Derived roads** (big eye boy, small road, cockroach pig: k = 1, 2, 3 columns back) read the big road's *logical*
  columns (the streaks and their lengths, whatever the dragon tails drew). A big road entry at logical column c
  and row r makes a mark when (c ≥ k and r ≥ 1) or c ≥ k + 1: every entry from the one at (k, 1) or at (k + 1, 0),
  whichever comes first. A new column (r = 0) is red when columns c − 1 and c − 1 − k are as long as each other
  ("even"), blue if not; further down (r ≥ 1) it is red when column c − k has a cell at row r ("present"), blue
  when column c − k ends exactly at row r − 1 ("absent"), red when it is shorter still ("straight fall"). Each
  derived road is drawn as the big road is: a change of colour starts a column, six rows, dragon tails.
- **Ask road**: the mark each derived road would make if the next coup were a Banker win, or a Player win (`ask`).

Conventions where the sources are silent (they draw the big road; they do not say how a program must break ties
of layout): a dragon tail keeps to its row (it never drops again when the cells below it are free); a new streak
starts at row 0 of the column right after the previous streak's starting column, and when a dragon tail already
holds that cell it moves further right, to the first column whose top cell is free. A tail never meets another
cell on its row: an older tail crossing the new streak's column stops the streak above it, so every newer tail runs
above the older ones (the tests check that no two cells ever share a place).

Sources (public descriptions of the casino scoreboards; none is a standard, and they agree on these rules):

- The Wizard of Odds, "Baccarat Score Boards" (the Venetian's signs): bead plate, big road, big eye boy, small
  road, cockroach pig; a streak that bumps into a dragon along the bottom turns right, whatever its row. Read in
  copies at https://internetradiomercedes.com/games/baccarat/history and
  https://lirudiarefcate.netlify.app/baccarat-chart-reading (paraphrased at https://baccaratboard.com).
- https://138qiu.com/statistics/roads-of-baccarat/index.html: six rows, a streak of seven or more goes sideways
  (the "dragon tail"); ties as a slash on the previous win, pairs as dots.
- https://www.sikwin.in/sikwin-casino-baccarat-game-rules-five-road-rules/: the five roads; big eye boy from the
  second row of the second column (or the first row of the third), the small road from the third column; "even",
  "gap" (present or absent) and "straight drop".
- https://zeanpanan.com/baccarat/scorecard/CockroachRoad.htm: the cockroach road compares with three columns back,
  from row 2 of column 4 of the big road, or row 1 of column 5 when that cell is empty.
- https://baccarat-vip.gamicorp.com/?lang=en: the bead plate's markers (the pairs' dots, a natural).
- World Gaming Magazine #55 (2018), https://wgm8.com/media/digital_magazine/wgm-issue-55/20-21: the derived roads'
  history (Casino Lisboa, Macau, the 1970s).

Everything is linear in the number of coups: each road is built in one pass, each cell placed in O(1) amortised.

>>> r = roads("BBTPPB")
>>> [cell[:4] for cell in r.big_road]
[(0, 0, 'B', 0), (0, 1, 'B', 1), (1, 0, 'P', 0), (1, 1, 'P', 0), (2, 0, 'B', 0)]
>>> r.big_eye_boy
(RoadCell(col=0, row=0, colour='red'), RoadCell(col=0, row=1, colour='red'))
>>> ask("BBTPPB")["player"]
{'big_eye_boy': 'blue', 'small_road': 'blue', 'cockroach_pig': None}
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, cycle, repeat
from operator import ne, not_
from typing import Literal, NamedTuple, TypeVar

Winner = Literal["B", "P", "T"]
Side = Literal["B", "P"]
Colour = Literal["red", "blue"]

#: How deep every road is: a column holds six cells.
ROWS = 6
#: The derived roads, each with k, how many columns back it looks.
DERIVED: tuple[tuple[str, int], ...] = (("big_eye_boy", 1), ("small_road", 2), ("cockroach_pig", 3))
#: The sides `ask` asks about, by their names in its answer.
SIDES: tuple[tuple[str, Side], ...] = (("banker", "B"), ("player", "P"))

_Cell = TypeVar("_Cell", bound=tuple[object, ...])


@dataclass(frozen=True, slots=True)
class Result:
    """One coup's result: the winner (``"B"``, ``"P"`` or ``"T"``), the pairs dealt, and whether a hand was natural.

    >>> Result("B", banker_pair=True)
    Result(winner='B', banker_pair=True, player_pair=False, natural=False)
    """

    winner: Winner
    banker_pair: bool = False
    player_pair: bool = False
    natural: bool = False

    def __post_init__(self) -> None:
        if self.winner not in ("B", "P", "T"):
            raise ValueError(f"a coup's winner is B, P or T, not {self.winner!r}")


# The three plain results, made once: reading letters makes no new objects.
_PLAIN = {letter: Result(letter) for letter in ("B", "P", "T")}


def results_of(coups: Iterable[Result | str]) -> tuple[Result, ...]:
    """The coups as `Result` values: each a `Result` or a letter (B, P, T, either case; a string is read by letter).

    >>> [r.winner for r in results_of("bp T")], results_of([Result("P", natural=True)])[0].natural
    (['B', 'P', 'T'], True)
    """
    out: list[Result] = []
    for coup in coups:
        if isinstance(coup, Result):
            out.append(coup)
        elif isinstance(coup, str) and coup.strip() == "":
            continue  # spaces between letters
        else:
            plain = _PLAIN.get(coup.strip().upper()) if isinstance(coup, str) else None
            if plain is None:
                raise ValueError(f"a coup is a Result or one of the letters B, P, T, not {coup!r}")
            out.append(plain)
    return tuple(out)


class BeadCell(NamedTuple):
    """A cell of the bead plate: its place and the coup's whole `Result` (the winner and the markers).

    >>> BeadCell(0, 1, Result("T")).winner
    'T'
    """

    col: int
    row: int
    result: Result

    @property
    def winner(self) -> Winner:
        """The coup's winner, ``"B"``, ``"P"`` or ``"T"``.

        >>> BeadCell(0, 0, Result("P")).winner
        'P'
        """
        return self.result.winner


class BigRoadCell(NamedTuple):
    """A cell of the big road: its place, the winner, the ties counted on it, its logical column and row
    (``column``, ``depth``: the streak and the place in it, whatever a dragon tail drew) and the winning coup.

    >>> big_road("BBB")[2]
    BigRoadCell(col=0, row=2, winner='B', ties=0, column=0, depth=2, result=Result(winner='B', banker_pair=False, \
player_pair=False, natural=False))
    """

    col: int
    row: int
    winner: Side
    ties: int
    column: int
    depth: int
    result: Result


class RoadCell(NamedTuple):
    """A cell of a derived road: its place and its colour, ``"red"`` or ``"blue"``.

    >>> RoadCell(0, 0, "red").colour
    'red'
    """

    col: int
    row: int
    colour: Colour


def _cells(kind: type[_Cell], rows: Iterable[tuple[object, ...]]) -> tuple[_Cell, ...]:
    """Cells of a kind made straight from plain tuples: `tuple.__new__` skips the named tuple's constructor, a call in
    Python per cell (the roads of 500 coups are some 2,000 cells), which would take most of the time."""
    return tuple(map(tuple.__new__, repeat(kind), rows))


def _places(new_streaks: Iterable[bool]) -> tuple[list[int], list[int]]:
    """The columns and the rows of a road's entries, from whether each starts a new streak: the one placement rule
    of the big road and the derived roads, in amortised O(1) an entry."""
    taken: set[tuple[int, int]] = set()
    cols: list[int] = []
    rows: list[int] = []
    start = col = row = -1  # start: the column where the current streak started
    tail = False  # whether the current streak has turned right
    for new in new_streaks:
        if new or start < 0:
            # A new streak: row 0 of the column after the previous streak's start, or further right past a tail
            # that holds that top cell (the scan passes only cells left of every later start: linear in all).
            col = start + 1
            while (col, 0) in taken:
                col += 1
            start, row, tail = col, 0, False
        elif not tail and row + 1 < ROWS and (col, row + 1) not in taken:
            row += 1  # down the column
        else:
            col += 1  # the dragon tail: the sixth row reached or the cell below taken; it keeps to its row after
            tail = True
        taken.add((col, row))
        cols.append(col)
        rows.append(row)
    return cols, rows


def _changes(labels: Sequence[Hashable]) -> Iterator[bool]:
    """Whether each label differs from the one before it (the first always does): where a new streak starts."""
    return map(ne, labels, chain((object(),), labels))


def grid_positions(labels: Iterable[Hashable]) -> tuple[tuple[int, int], ...]:
    """The places of a road's entries, a change of label starting a new column (the big road's and derived layout).

    >>> grid_positions("BBBBBBBBP")
    ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 5), (2, 5), (1, 0))
    """
    return tuple(zip(*_places(_changes(list(labels)))))


def bead_plate(coups: Iterable[Result | str]) -> tuple[BeadCell, ...]:
    """The bead plate: coup i at column i // 6, row i % 6, ties included.

    >>> [cell[:2] for cell in bead_plate("BPTBPTB")][-2:]
    [(0, 5), (1, 0)]
    """
    results = results_of(coups)
    return _cells(BeadCell, zip([i // ROWS for i in range(len(results))], cycle(range(ROWS)), results))


class _Wins(NamedTuple):
    """The big road's entries as lists of plain values, before any layout: each win's side, logical column and row
    (depth), the ties counted on it and its coup; and the logical columns' lengths."""

    sides: list[Side]
    columns: list[int]
    depths: list[int]
    ties: list[int]
    results: list[Result]
    lengths: list[int]


def _wins(results: Iterable[Result]) -> _Wins:
    """The streaks of Banker and Player wins, in one pass; a tie counted on the latest win, or the first one."""
    wins = _Wins([], [], [], [], [], [])
    lengths, ties = wins.lengths, wins.ties
    before = 0  # the ties before the first win
    last = ""
    for result in results:
        winner = result.winner
        if winner == "T":
            if ties:
                ties[-1] += 1
            else:
                before += 1
            continue
        if winner == last:
            lengths[-1] += 1
        else:
            lengths.append(1)
            last = winner
        wins.sides.append("B" if winner == "B" else "P")
        wins.columns.append(len(lengths) - 1)
        wins.depths.append(lengths[-1] - 1)
        ties.append(0)
        wins.results.append(result)
    if ties:
        ties[0] += before  # ties before any win: on the first cell, when it comes
    return wins


def _big_road(wins: _Wins) -> tuple[BigRoadCell, ...]:
    """The big road of the streaks (see `big_road`): a new column where the depth is 0."""
    cols, rows = _places(map(not_, wins.depths))
    return _cells(BigRoadCell, zip(cols, rows, wins.sides, wins.ties, wins.columns, wins.depths, wins.results))


def big_road(coups: Iterable[Result | str]) -> tuple[BigRoadCell, ...]:
    """The big road: a column per streak of Banker or Player wins, ties counted on the latest cell, dragon tails.

    >>> [cell[:4] for cell in big_road("TTBTP")]
    [(0, 0, 'B', 3), (1, 0, 'P', 0)]
    """
    return _big_road(_wins(results_of(coups)))


def derived_colour(lengths: Sequence[int], column: int, depth: int, k: int) -> Colour | None:
    """The mark of the big road entry at logical ``column`` and row ``depth`` on the road k columns back, given the
    lengths of the big road's logical columns (those before ``column``; no other is read); None where that road makes
    no mark yet.

    >>> derived_colour([1, 1], 2, 0, 1), derived_colour([2, 3], 1, 2, 1), derived_colour([1, 1], 1, 0, 1)
    ('red', 'blue', None)
    """
    if depth == 0:
        if column < k + 1:
            return None
        # "Even": the two columns before the new one, k apart, as long as each other.
        return "red" if lengths[column - 1] == lengths[column - 1 - k] else "blue"
    if column < k:
        return None
    # Column c − k: a cell at this row is red ("present"); ending at the row above, blue ("absent"); shorter still,
    # red again ("straight fall"). So blue exactly when it is as long as this entry's row number.
    return "blue" if lengths[column - k] == depth else "red"


def _derived(wins: _Wins, k: int) -> tuple[RoadCell, ...]:
    """The derived road k columns back of the streaks (see `derived_road`)."""
    # The final lengths serve every entry: an entry reads only the columns before its own, whole by then.
    marks = [m for m in map(derived_colour, repeat(wins.lengths), wins.columns, wins.depths, repeat(k)) if m]
    cols, rows = _places(_changes(marks))
    return _cells(RoadCell, zip(cols, rows, marks))


def derived_road(coups: Iterable[Result | str], k: int) -> tuple[RoadCell, ...]:
    """The derived road looking k columns back: big eye boy (k = 1), small road (2), cockroach pig (3).

    >>> derived_road("BPBPB", 1)
    (RoadCell(col=0, row=0, colour='red'), RoadCell(col=0, row=1, colour='red'), RoadCell(col=0, row=2, colour='red'))
    """
    return _derived(_wins(results_of(coups)), k)


@dataclass(frozen=True, slots=True)
class Roads:
    """The five roads of a sequence of coups (made by `roads`); `to_json` gives them as plain lists.

    >>> roads("BP").big_road[1].winner
    'P'
    """

    bead_plate: tuple[BeadCell, ...]
    big_road: tuple[BigRoadCell, ...]
    big_eye_boy: tuple[RoadCell, ...]
    small_road: tuple[RoadCell, ...]
    cockroach_pig: tuple[RoadCell, ...]

    def to_json(self) -> dict[str, list[list[int | str]]]:
        """The roads as JSON: ``[col, row, winner]`` per bead, ``[col, row, winner, ties]`` per big road cell,
        ``[col, row, colour]`` per derived road cell, and ``[col, row, marker]`` per marker of a bead (``banker_pair``,
        ``player_pair``, ``natural``).

        >>> roads("BTP").to_json()
        {'bead_plate': [[0, 0, 'B'], [0, 1, 'T'], [0, 2, 'P']], 'big_road': [[0, 0, 'B', 1], [1, 0, 'P', 0]], \
'big_eye_boy': [], 'small_road': [], 'cockroach_pig': [], 'markers': []}
        """
        out: dict[str, list[list[int | str]]] = {
            "bead_plate": [[c.col, c.row, c.result.winner] for c in self.bead_plate],
            "big_road": [[c.col, c.row, c.winner, c.ties] for c in self.big_road],
        }
        for name, _ in DERIVED:
            cells: tuple[RoadCell, ...] = getattr(self, name)
            out[name] = [[c.col, c.row, c.colour] for c in cells]
        out["markers"] = [[c.col, c.row, marker] for c in self.bead_plate for marker, on in (
            ("banker_pair", c.result.banker_pair), ("player_pair", c.result.player_pair),
            ("natural", c.result.natural)) if on]
        return out


def roads(coups: Iterable[Result | str]) -> Roads:
    """The five roads of a sequence of coups (`Result` values or letters), each built in one pass.

    >>> len(roads("BBPPBT").bead_plate), len(roads("BBPPBT").small_road)
    (6, 0)
    """
    results = results_of(coups)
    wins = _wins(results)
    return Roads(bead_plate(results), _big_road(wins), *(_derived(wins, k) for _, k in DERIVED))


def ask(coups: Iterable[Result | str]) -> dict[str, dict[str, Colour | None]]:
    """The ask road: the mark each derived road would make next if the next coup were a Banker win, or a Player win.

    >>> ask("BPB")
    {'banker': {'big_eye_boy': 'blue', 'small_road': 'blue', 'cockroach_pig': None}, \
'player': {'big_eye_boy': 'red', 'small_road': 'red', 'cockroach_pig': None}}
    """
    wins = _wins(results_of(coups))  # the logical columns are enough: no layout
    lengths, last = wins.lengths, wins.sides[-1] if wins.sides else None
    answer: dict[str, dict[str, Colour | None]] = {}
    for name, side in SIDES:
        if side == last:  # the streak goes on: its column, one row further down
            column, depth = len(lengths) - 1, lengths[-1]
        else:  # a new column (or the very first win, which no derived road marks)
            column, depth = len(lengths), 0
        answer[name] = {road: derived_colour(lengths, column, depth, k) for road, k in DERIVED}
    return answer
