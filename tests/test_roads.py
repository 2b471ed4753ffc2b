"""The scoreboard's five roads (exactodds/roads.py): every rule on sequences whose cells are written by hand, then a
second, plainer implementation (a literal grid walked cell by cell, the derived roads from their definitions) that
must agree on random sequences, and the ask road against the roads one coup later."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from profiles import examples

from exactodds.roads import (
    BeadCell,
    Result,
    ask,
    bead_plate,
    big_road,
    derived_colour,
    derived_road,
    grid_positions,
    results_of,
    roads,
)

DERIVED = {"big_eye_boy": 1, "small_road": 2, "cockroach_pig": 3}


def cells(coups, road):
    """A road of ``coups`` as the JSON's plain lists."""
    return roads(coups).to_json()[road]


# ---------------------------------------------------------------------------------------------
# Reading the coups


def test_results_are_values_and_letters_are_read():
    assert results_of("B p\tT") == (Result("B"), Result("P"), Result("T"))
    marked = Result("P", player_pair=True, natural=True)
    assert results_of(["B", marked]) == (Result("B"), marked)
    assert roads("BPT") == roads([Result("B"), Result("P"), Result("T")])
    with pytest.raises(ValueError, match="B, P or T"):
        Result("X")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="letters B, P, T"):
        results_of("BXP")
    with pytest.raises(ValueError, match="letters B, P, T"):
        results_of(["BP"])
    with pytest.raises(AttributeError):
        Result("B").winner = "P"  # type: ignore[misc]


# ---------------------------------------------------------------------------------------------
# The bead plate


def test_bead_plate_runs_down_columns_of_six_then_right():
    assert cells("BPTBPTBP", "bead_plate") == [
        [0, 0, "B"], [0, 1, "P"], [0, 2, "T"], [0, 3, "B"], [0, 4, "P"], [0, 5, "T"],
        [1, 0, "B"], [1, 1, "P"],
    ]


def test_bead_plate_keeps_the_markers():
    coups = [Result("B", banker_pair=True, natural=True), Result("T", player_pair=True)]
    plate = bead_plate(coups)
    assert plate == (BeadCell(0, 0, coups[0]), BeadCell(0, 1, coups[1]))
    assert plate[0].winner == "B" and plate[0].result.banker_pair and plate[0].result.natural
    assert plate[1].winner == "T" and plate[1].result.player_pair and not plate[1].result.natural


# ---------------------------------------------------------------------------------------------
# The big road


def test_ties_before_any_win_are_counted_on_the_first_cell():
    assert cells("TT", "big_road") == []
    assert cells("TTB", "big_road") == [[0, 0, "B", 2]]
    assert cells("TTBTP", "big_road") == [[0, 0, "B", 3], [1, 0, "P", 0]]


def test_ties_in_the_middle_and_at_the_end_are_counted_on_the_latest_cell():
    assert cells("BTTBPTP", "big_road") == [[0, 0, "B", 2], [0, 1, "B", 0], [1, 0, "P", 1], [1, 1, "P", 0]]
    assert cells("BPTT", "big_road") == [[0, 0, "B", 0], [1, 0, "P", 2]]
    # A tie does not break a streak: the win after it goes on down the column.
    assert cells("BTB", "big_road") == [[0, 0, "B", 1], [0, 1, "B", 0]]


def test_the_big_road_keeps_the_logical_column_and_the_winning_coup():
    win = Result("P", player_pair=True)
    road = big_road([Result("B"), Result("T"), win])
    assert [(c.column, c.depth) for c in road] == [(0, 0), (1, 0)]
    assert road[1].result is win


def test_a_streak_of_seven_or_more_turns_right_on_the_sixth_row():
    assert cells("B" * 8 + "P", "big_road") == [
        [0, 0, "B", 0], [0, 1, "B", 0], [0, 2, "B", 0], [0, 3, "B", 0], [0, 4, "B", 0], [0, 5, "B", 0],
        [1, 5, "B", 0], [2, 5, "B", 0],
        [1, 0, "P", 0],  # the next streak starts at the top of the column after the previous one's start
    ]


def test_a_tail_that_meets_a_column_and_a_streak_that_meets_the_tail():
    # Eight Banker wins: a tail under columns 1 and 2. Seven Player wins: column 1 runs down to row 4 (row 5 is the
    # tail's) and turns right there, over the tail. Five Banker wins: column 2 stops at row 3 (row 4 is taken by the
    # Player's tail) and turns right on row 3. A Player win then starts column 3 at its top, above both tails.
    coups = "B" * 8 + "P" * 7 + "B" * 5 + "P"
    assert [cell[:3] for cell in cells(coups, "big_road")] == [
        [0, 0, "B"], [0, 1, "B"], [0, 2, "B"], [0, 3, "B"], [0, 4, "B"], [0, 5, "B"], [1, 5, "B"], [2, 5, "B"],
        [1, 0, "P"], [1, 1, "P"], [1, 2, "P"], [1, 3, "P"], [1, 4, "P"], [2, 4, "P"], [3, 4, "P"],
        [2, 0, "B"], [2, 1, "B"], [2, 2, "B"], [2, 3, "B"], [3, 3, "B"],
        [3, 0, "P"],
    ]
    assert [(c.column, c.depth) for c in big_road(coups)][-2:] == [(2, 4), (3, 0)]  # logical: the streaks as dealt


def test_a_new_streak_whose_top_cell_a_tail_holds_moves_further_right():
    # A staircase of tails, each stopping the next streak one row higher, until a streak starting at column 5 finds
    # the cell below it taken at once and runs right along row 0, through columns 6 and 7. The next streak would
    # start at column 6 (right after the previous start, 5): both top cells are the tail's, so it starts at column 8.
    coups = "B" * 7 + "P" * 6 + "B" * 5 + "P" * 4 + "B" * 3 + "P" * 3 + "B" + "P"
    assert [cell[:2] for cell in cells(coups, "big_road")] == [
        [0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [1, 5],  # 7 B
        [1, 0], [1, 1], [1, 2], [1, 3], [1, 4], [2, 4],  # 6 P
        [2, 0], [2, 1], [2, 2], [2, 3], [3, 3],  # 5 B
        [3, 0], [3, 1], [3, 2], [4, 2],  # 4 P
        [4, 0], [4, 1], [5, 1],  # 3 B
        [5, 0], [6, 0], [7, 0],  # 3 P: a tail on the top row
        [8, 0],  # B: columns 6 and 7 are the tail's at the top
        [9, 0],  # P: the column right after the previous start
    ]


def test_grid_positions_is_the_big_roads_layout():
    coups = "B" * 7 + "P" * 6 + "B" * 5 + "TPPPP"
    assert list(grid_positions(c.winner for c in big_road(coups))) == [c[:2] for c in big_road(coups)]


# ---------------------------------------------------------------------------------------------
# The derived roads: where each starts, and its colours


@pytest.mark.parametrize(("coups", "road", "expected"), [
    # Big eye boy (k = 1): from the entry at column 1 row 1, or at column 2 row 0.
    ("BP", "big_eye_boy", []),
    ("BBP", "big_eye_boy", []),
    ("BPP", "big_eye_boy", [[0, 0, "blue"]]),  # (1, 1): column 0 ends at row 0
    ("BPB", "big_eye_boy", [[0, 0, "red"]]),  # (2, 0): columns 1 and 0 as long
    # Small road (k = 2): from column 2 row 1, or column 3 row 0.
    ("BPB", "small_road", []),
    ("BPPB", "small_road", []),  # (1, 1) and (2, 0) are too early
    ("BPBB", "small_road", [[0, 0, "blue"]]),  # (2, 1)
    ("BPBP", "small_road", [[0, 0, "red"]]),  # (3, 0): columns 2 and 0 as long
    # Cockroach pig (k = 3): from column 3 row 1, or column 4 row 0.
    ("BPBP", "cockroach_pig", []),
    ("BPBPP", "cockroach_pig", [[0, 0, "blue"]]),  # (3, 1)
    ("BPBPB", "cockroach_pig", [[0, 0, "red"]]),  # (4, 0): columns 3 and 0 as long
])
def test_where_each_derived_road_starts(coups, road, expected):
    assert cells(coups, road) == expected


def test_a_new_column_is_red_when_the_two_columns_before_it_are_as_long():
    assert cells("BPB", "big_eye_boy") == [[0, 0, "red"]]  # columns 1 and 0: 1 and 1
    assert cells("BBPB", "big_eye_boy") == [[0, 0, "blue"]]  # 1 and 2
    assert cells("BBPBPB", "cockroach_pig") == [[0, 0, "blue"]]  # columns 3 and 0: 1 and 2
    assert cells("BBPPBBP", "small_road") == [[0, 0, "red"], [0, 1, "red"]]  # (2, 1) present; (3, 0): 2 and 2


def test_further_down_present_absent_and_straight_fall():
    # Column 1 against column 0 (two long): row 1 has a cell there (red), row 2 is just past its end (blue),
    # row 3 is further still (red: the straight fall). A change of colour starts a new column of the derived road.
    assert cells("BBPP", "big_eye_boy") == [[0, 0, "red"]]
    assert cells("BBPPP", "big_eye_boy") == [[0, 0, "red"], [1, 0, "blue"]]
    assert cells("BBPPPP", "big_eye_boy") == [[0, 0, "red"], [1, 0, "blue"], [2, 0, "red"]]
    # The small road reads column 0 from column 2: rows 1 (blue, just past its end) and 2 (red, shorter still).
    assert cells("BPBBB", "small_road") == [[0, 0, "blue"], [1, 0, "red"]]
    assert cells("BPBBB", "big_eye_boy") == [[0, 0, "red"], [1, 0, "blue"], [2, 0, "red"]]


def test_derived_roads_read_the_logical_columns_not_the_dragon_tails():
    # Column 0 holds eight wins, drawn as six and a tail: the derived roads see a column eight long.
    coups = "B" * 8 + "P" * 9
    assert cells(coups, "big_eye_boy") == [
        [0, 0, "red"], [0, 1, "red"], [0, 2, "red"], [0, 3, "red"], [0, 4, "red"], [0, 5, "red"], [1, 5, "red"],
        [1, 0, "blue"],  # row 8 of column 1: column 0 ends at row 7
    ]


def test_a_derived_road_has_dragon_tails_too():
    chop = "BP" * 5  # ten columns of one: every new column is "even", red
    assert cells(chop, "big_eye_boy") == [[0, r, "red"] for r in range(6)] + [[1, 5, "red"], [2, 5, "red"]]
    assert cells(chop, "small_road") == [[0, r, "red"] for r in range(6)] + [[1, 5, "red"]]
    assert cells(chop, "cockroach_pig") == [[0, r, "red"] for r in range(6)]


def test_derived_road_and_derived_colour_are_the_roads_own():
    coups = "BBPPPBPBBBBPPBPBPPP"
    made = roads(coups)
    for name, k in DERIVED.items():
        assert derived_road(coups, k) == getattr(made, name)
    assert derived_colour([3, 1], 2, 1, 2) == "red" and derived_colour([1, 1], 2, 1, 2) == "blue"


# ---------------------------------------------------------------------------------------------
# The ask road and the JSON


def test_the_ask_road():
    assert ask("BBPPP") == {
        "banker": {"big_eye_boy": "blue", "small_road": None, "cockroach_pig": None},  # (2, 0): 3 and 2 differ
        "player": {"big_eye_boy": "red", "small_road": None, "cockroach_pig": None},  # (1, 3): straight fall
    }
    assert ask("BPBPBPT") == {
        "banker": {"big_eye_boy": "red", "small_road": "red", "cockroach_pig": "red"},  # (6, 0): all even
        "player": {"big_eye_boy": "blue", "small_road": "blue", "cockroach_pig": "blue"},  # (5, 1): just past
    }
    nothing = {"big_eye_boy": None, "small_road": None, "cockroach_pig": None}
    assert ask("") == ask("TT") == ask("B") == {"banker": nothing, "player": nothing}


def test_the_json_shape():
    made = roads([Result("B", banker_pair=True), Result("T"), "P", "P", "B", "P", "P"]).to_json()
    assert made == {
        "bead_plate": [[0, 0, "B"], [0, 1, "T"], [0, 2, "P"], [0, 3, "P"], [0, 4, "B"], [0, 5, "P"], [1, 0, "P"]],
        "big_road": [[0, 0, "B", 1], [1, 0, "P", 0], [1, 1, "P", 0], [2, 0, "B", 0], [3, 0, "P", 0], [3, 1, "P", 0]],
        # Logical columns 1, 2, 1, 2 long. Big eye boy: (1, 1) just past column 0; (2, 0) 2 and 1; (3, 0) 1 and 2;
        # (3, 1) just past column 2: four blues. Small road: (3, 0) columns 2 and 0, 1 and 1; (3, 1) column 1 has
        # row 1: two reds. Cockroach pig: (3, 1) just past column 0.
        "big_eye_boy": [[0, 0, "blue"], [0, 1, "blue"], [0, 2, "blue"], [0, 3, "blue"]],
        "small_road": [[0, 0, "red"], [0, 1, "red"]],
        "cockroach_pig": [[0, 0, "blue"]],
        "markers": [[0, 0, "banker_pair"]],
    }
    assert list(made) == ["bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_pig", "markers"]


# ---------------------------------------------------------------------------------------------
# A second, plainer implementation: a literal grid, the derived roads from their definitions


def plain_layout(labels):
    """Walk a literal grid (a dict of the cells taken): down while the cell below is free and the streak has not
    left its first column, else right; a change of label starts at the top of the first free column after the
    previous streak's first column."""
    grid, out, start, here, last = {}, [], -1, None, object()
    for label in labels:
        if label != last:
            col = start + 1
            while (col, 0) in grid:
                col += 1
            start, here = col, (col, 0)
        else:
            col, row = here
            turned = col != start  # a streak that has left its first column is in its tail
            here = (col, row + 1) if not turned and row + 1 < 6 and (col, row + 1) not in grid else (col + 1, row)
        assert here not in grid, "two cells in one place"
        grid[here] = label
        out.append(list(here))
        last = label
    return out


def plain_roads(letters):
    """The five roads of a string of B, P, T, as JSON, by the plain reading of the rules."""
    bead = [[i // 6, i % 6, w] for i, w in enumerate(letters)]
    wins, ties, before = [], [], 0
    for w in letters:
        if w == "T":
            if ties:
                ties[-1] += 1
            else:
                before += 1
        else:
            wins.append(w)
            ties.append(0)
    if ties:
        ties[0] += before
    big = [[*place, w, t] for place, w, t in zip(plain_layout(wins), wins, ties)]
    # The logical big road: a dict of (column, row) -> winner, and each entry's (column, row) in order.
    logical, entries, col, row = {}, [], -1, 0
    for i, w in enumerate(wins):
        col, row = (col, row + 1) if i and wins[i - 1] == w else (col + 1, 0)
        logical[(col, row)] = w
        entries.append((col, row))

    def height(c):
        return sum(1 for (x, _) in logical if x == c)

    out = {"bead_plate": bead, "big_road": big}
    for name, k in DERIVED.items():
        colours, started = [], False
        for c, r in entries:
            started = started or (c, r) in ((k, 1), (k + 1, 0))
            if not started:
                continue
            if r == 0:
                colours.append("red" if height(c - 1) == height(c - 1 - k) else "blue")
            elif (c - k, r) in logical:
                colours.append("red")
            elif (c - k, r - 1) in logical:
                colours.append("blue")
            else:
                colours.append("red")
        out[name] = [[*place, colour] for place, colour in zip(plain_layout(colours), colours)]
    out["markers"] = []  # letters carry no markers
    return out


# Random sequences: plain letters, and runs (long streaks, to draw dragon tails and make them meet).
letters = st.text(alphabet="BPT", max_size=300)
runs = st.lists(st.tuples(st.sampled_from("BPT"), st.integers(1, 12)), max_size=60).map(
    lambda rs: "".join(w * n for w, n in rs)[:300])
sequences = st.one_of(letters, runs)


@examples(500, 60)
@given(sequences)
def test_the_roads_agree_with_the_plain_implementation(coups):
    made = roads(coups).to_json()
    assert made == plain_roads(coups)
    for name, road in made.items():
        if name != "markers":
            assert len({tuple(cell[:2]) for cell in road}) == len(road)  # no two cells in one place


def test_a_long_seeded_shoe_agrees_with_the_plain_implementation():
    rng = random.Random(20240611)
    coups = "".join(rng.choices("BPT", weights=(458, 446, 96), k=1000))
    coups += "B" * 40 + "P" * 9 + "B" * 8 + "P" * 7 + "B" * 6 + "P" * 5 + "BP" * 30  # tails that meet
    assert roads(coups).to_json() == plain_roads(coups)


@examples(500, 60)
@given(sequences)
def test_the_ask_road_is_the_next_mark_of_each_derived_road(coups):
    before = roads(coups).to_json()
    asked = ask(coups)
    for side, letter in (("banker", "B"), ("player", "P")):
        after = roads(coups + letter).to_json()
        for road in DERIVED:
            assert after[road][:len(before[road])] == before[road]  # one coup more never moves a cell
            new = after[road][len(before[road]):]
            assert len(new) <= 1
            assert asked[side][road] == (new[0][2] if new else None)
