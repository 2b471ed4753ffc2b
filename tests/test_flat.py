"""The flat evaluator (one shoe, Python integers, no numpy) against the numpy pricer and the reference walk."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from array import array
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from profiles import examples, slow

import exactodds as xo
from exactodds.puntobanco.bets import bet_catalog
from exactodds.puntobanco.compiled import flat, native, pricer
from exactodds.puntobanco.compiled.columns import masks_of
from exactodds.puntobanco.compiled.factors import factor_rows
from exactodds.puntobanco.compiled.kernel import factor_table
from exactodds.puntobanco.rules import BACCARAT_GOLD, EZ, PUNTO_BANCO, RULE_SETS

ROOT = Path(__file__).resolve().parents[1]

#: Every rule set, and some with their pays and tableau changed (commission, tie pay, the Player's 5 fixed).
RULES = [
    *RULE_SETS,
    PUNTO_BANCO.with_commission(Fraction(1, 25)).with_tie_pays(Fraction(9)),
    EZ.with_tie_pays(Fraction(10)),
    PUNTO_BANCO.with_player_five("stand"),
]


@pytest.fixture(scope="module", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory):
    """The flat tables of these tests (one per random tuple of bets) go to a folder of their own."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("EXACTODDS_CACHE", str(tmp_path_factory.mktemp("flat-cache")))
        flat._TABLES.clear()
        yield
    flat._TABLES.clear()


def plain_bets(rules: xo.RuleSet) -> tuple[xo.Bet, ...]:
    """Every bet of the whole catalog that the compiled evaluator prices (not the suited ones, nor the card bets)."""
    return tuple(b for b in bet_catalog(rules, full=True).values() if not b.needs_suits and not b.reads_cards)


small = st.lists(st.integers(0, 12), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6)
#: Shoes of up to 5,200 cards, beyond the int64 bound (1,004 cards) of the numpy pricer.
big = st.lists(st.integers(0, 400), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6)


def test_the_factor_rows_are_the_kernels() -> None:
    for counts in ([4] * 13, [0] * 9 + [1, 0, 0, 5], [800] * 13):
        assert factor_rows(counts) == factor_table(xo.Shoe(tuple(counts)))


@examples(60, 3)
@given(st.one_of(small, big), st.sampled_from(RULES), st.sampled_from(["core", "all", "some"]), st.data())
def test_flat_counts_equal_the_numpy_pricer(counts: list[int], rules: xo.RuleSet, which: str, data) -> None:
    shoe = xo.Shoe(tuple(counts))
    bets = {"core": tuple(bet_catalog(rules).values()), "all": plain_bets(rules)}.get(which)
    if bets is None:  # any few bets in any order (tables are shared between tuples of the same outcomes)
        some = st.lists(st.sampled_from(plain_bets(rules)), min_size=1, max_size=6, unique_by=lambda b: b.id)
        bets = tuple(data.draw(some))
    assert flat.flat_counts(rules.tableau, bets, shoe) == pricer(rules.tableau, bets).counts(shoe)


#: The rules whose tableau is fixed (at the big table the holder's choice on 5 takes the reference walk).
FIXED = [rules for rules in RULES if rules.player_five != "best"]


@examples(40, 2)
@given(small, st.sampled_from(FIXED))
def test_flat_counts_equal_the_reference_walk(counts: list[int], rules: xo.RuleSet) -> None:
    shoe = xo.Shoe(tuple(counts))
    reference = xo.analyze(shoe, rules, method="reference")
    assert flat.flat_counts(rules.tableau, [f.bet for f in reference.bets], shoe) == tuple(
        tuple(o.count for o in f.outcomes) for f in reference.bets
    )


def test_a_huge_shoe_stays_exact() -> None:
    shoe = xo.Shoe.standard(10_000)  # 520,000 cards: counts far beyond int64
    bets = tuple(bet_catalog(PUNTO_BANCO).values())
    counts = flat.flat_counts(PUNTO_BANCO.tableau, bets, shoe)
    assert counts == pricer(PUNTO_BANCO.tableau, bets).counts(shoe)
    assert all(sum(bet) == shoe.orderings() for bet in counts) and shoe.orderings() > 2**63


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    where.mkdir(mode=0o700)
    monkeypatch.setenv("EXACTODDS_CACHE", str(where))
    flat._TABLES.clear()
    yield where
    flat._TABLES.clear()


def tie_only() -> tuple[tuple[xo.Bet, ...], tuple[tuple[int, ...], ...]]:
    bets = (xo.find_bet("tie", PUNTO_BANCO),)
    return bets, pricer(PUNTO_BANCO.tableau, bets).counts(xo.Shoe.standard(8))


def test_the_flat_table_is_written_read_back_and_rebuilt_when_damaged(folder: Path, monkeypatch) -> None:
    bets, expected = tie_only()
    assert flat.flat_counts(PUNTO_BANCO.tableau, bets, xo.Shoe.standard(8)) == expected
    (path,) = folder.glob("flat-*.bin")
    good = path.read_bytes()
    masks, _ = masks_of(bets)
    key = flat.flat_key(PUNTO_BANCO.tableau, masks)
    assert flat.encode(flat.decode(good, key)) == good  # read back, byte for byte
    assert flat.decode(good, key + " ") is None  # another key (version, format, tableau or bets) is not read
    builds = []
    real = flat.build_flat
    monkeypatch.setattr(flat, "build_flat", lambda *a: builds.append(1) or real(*a))

    def damaged(data: bytes) -> None:
        path.write_bytes(data)
        flat._TABLES.clear()
        assert flat.flat_counts(PUNTO_BANCO.tableau, bets, xo.Shoe.standard(8)) == expected
        assert path.read_bytes() == good  # rebuilt and rewritten

    damaged(good[:-7])  # truncated
    flipped = bytearray(good)
    flipped[-3] ^= 1
    damaged(bytes(flipped))  # the digest no longer matches
    assert len(builds) == 2
    flat._TABLES.clear()
    assert flat.flat_counts(PUNTO_BANCO.tableau, bets, xo.Shoe.standard(8)) == expected and len(builds) == 2


def test_a_changed_coefficient_with_a_recomputed_digest_fails_the_check(folder: Path) -> None:
    bets, expected = tie_only()
    masks, layout = masks_of(bets)
    table = flat.build_flat(PUNTO_BANCO.tableau, masks)
    (c, rows), *rest = table.columns[0]
    forged = flat.FlatTable(table.key, table.index, (((c + 1, rows), *rest), *table.columns[1:]))
    path = folder / flat._file_name(table.key)
    path.write_bytes(flat.encode(forged))  # well formed, digest and key right: only the content is wrong
    path.chmod(0o600)
    with pytest.raises(ValueError, match="failed its check"):
        flat.FlatPricer(forged, layout).counts(xo.Shoe.standard(8))
    with pytest.raises(ValueError, match="failed its check"):  # a batch's rows are checked as they are taken
        flat.FlatPricer(forged, layout).rows_many([xo.Shoe.standard(8)] * 3)
    assert flat.flat_counts(PUNTO_BANCO.tableau, bets, xo.Shoe.standard(8)) == expected
    assert flat.decode(path.read_bytes(), table.key) is not None and path.read_bytes() == flat.encode(table)


def test_a_flat_table_in_a_shared_folder_is_neither_read_nor_written(folder: Path) -> None:
    bets, expected = tie_only()
    folder.chmod(0o777)
    try:
        assert flat.flat_counts(PUNTO_BANCO.tableau, bets, xo.Shoe.standard(8)) == expected
        assert not list(folder.glob("flat-*.bin"))
    finally:
        folder.chmod(0o700)


def test_bet_tuples_sharing_a_table_keep_their_own_layouts() -> None:
    """(player, banker, tie) and (player, tie) have the same four sets of states, in one order: one table."""
    player, banker, tie, pair = (xo.find_bet(i, PUNTO_BANCO) for i in ("player", "banker", "tie", "player-pair"))
    shoe = xo.Shoe.standard(6).remove("7,7,K")
    for bets in ((player, banker, tie), (player, tie), (tie, player), (banker,), (player, tie, banker), (pair, tie)):
        assert flat.flat_counts(PUNTO_BANCO.tableau, bets, shoe) == pricer(PUNTO_BANCO.tableau, bets).counts(shoe)
    analysis = xo.analyze(xo.Shoe.standard(8), bets=["player", "tie"])
    assert analysis.bet("tie").outcomes[0].count == 475627426473216


def _forged(table: flat.FlatTable, j: int, k: int) -> flat.FlatTable:
    """``table`` with its columns j and k swapped: well formed, and encoded with its digest recomputed."""
    columns = list(table.columns)
    columns[j], columns[k] = columns[k], columns[j]
    return flat.FlatTable(table.key, table.index, tuple(columns))


def test_swapped_outcome_columns_with_a_recomputed_digest_are_rejected_and_rebuilt(folder: Path, monkeypatch) -> None:
    """The Banker's win and loss columns swapped (every bet still adds up): Banker -35.58% until the probes."""
    monkeypatch.setattr(flat, "_PRICED", {})  # this process's first shoes of these bets: the flat table prices them
    bets = (xo.find_bet("banker", PUNTO_BANCO),)
    shoe = xo.Shoe.standard(8)
    expected = pricer(PUNTO_BANCO.tableau, bets).counts(shoe)
    assert flat.flat_counts(PUNTO_BANCO.tableau, bets, shoe) == expected
    (path,) = folder.glob("flat-*.bin")
    good = path.read_bytes()
    masks, layout = masks_of(bets)
    key = flat.flat_key(PUNTO_BANCO.tableau, masks)
    path.write_bytes(flat.encode(_forged(flat.decode(good, key), *layout[0][:2])))
    flat._TABLES.clear()
    assert flat.decode(path.read_bytes(), key) is not None  # it passes every check of its form
    edge = xo.analyze(shoe, bets=["banker"]).bet("banker").house_edge_percent(2)
    assert edge == "1.06%"  # not 35.58%
    assert path.read_bytes() == good  # rejected, rebuilt and rewritten
    flat._TABLES.clear()
    assert flat.flat_counts(PUNTO_BANCO.tableau, bets, shoe) == expected


@pytest.fixture(params=["kernel", "python"])
def probe_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The probe check by the compiled kernel (where it was built), then by the byte search of the runs."""
    from exactodds.puntobanco.compiled import native

    if request.param == "kernel" and native._probe is None:
        pytest.skip("the compiled kernel (with flat_probe) was not built here")
    if request.param == "python":
        monkeypatch.setattr(native, "_probe", None)
    return str(request.param)


@pytest.mark.parametrize("rules", [PUNTO_BANCO, EZ], ids=["punto-banco", "ez"])
def test_any_two_swapped_columns_of_the_core_bets_are_rejected(
    folder: Path, rules: xo.RuleSet, probe_path: str
) -> None:
    from exactodds.puntobanco.compiled.probe import FlatProbe

    bets = tuple(bet_catalog(rules).values())
    masks, _ = masks_of(bets)
    table = flat.build_flat(rules.tableau, masks)
    probe = FlatProbe.of(table.index, rules.tableau, masks)
    swaps = 0
    for j in range(len(masks)):
        for k in range(j):
            forged = _forged(table, j, k)
            if forged.columns == table.columns:
                continue  # two equal columns (the Player's and the Banker's pair): a harmless swap
            swaps += 1
            assert not probe.holds(forged), (j, k)
    assert probe.holds(table) and swaps >= 40


def test_a_probe_row_moved_to_another_run_or_repeated_is_caught(probe_path: str) -> None:
    """The check sums a probe row's coefficients wherever it appears in a column: moved or repeated, it is seen."""
    from exactodds.puntobanco.compiled.probe import FlatProbe

    bets = tuple(bet_catalog(PUNTO_BANCO).values())
    masks, _ = masks_of(bets)
    table = flat.build_flat(PUNTO_BANCO.tableau, masks)
    probe = FlatProbe.of(table.index, PUNTO_BANCO.tableau, masks)
    j, column = next((j, c) for j, c in enumerate(table.columns) if len(c) > 1)
    row = next(r for rows in probe.rows for r in rows if any(r in run for _, run in column))
    (c, run), *others = sorted(column, key=lambda one: row not in one[1])  # the run holding the row first
    moved = [(c, array("H", [r for r in run if r != row])), *((d, array("H", [*rest, row])) if i == 0 else (d, rest)
                                                               for i, (d, rest) in enumerate(others))]  # fmt: skip
    repeated = [(c, array("H", [*run, row])), *others]
    for forged in (moved, repeated):
        columns = list(table.columns)
        columns[j] = tuple(forged)
        assert not probe.holds(flat.FlatTable(table.key, table.index, tuple(columns)))


def test_the_kernel_s_probe_sums_are_the_runs_coefficients_row_by_row() -> None:
    """native.probe_sums against the runs read in Python: every row of a small table, in every column."""
    from exactodds.puntobanco.compiled import native

    if native._probe is None:
        pytest.skip("the compiled kernel (with flat_probe) was not built here")
    masks, _ = masks_of(tuple(bet_catalog(PUNTO_BANCO).values())[:4])
    table = flat.build_flat(PUNTO_BANCO.tableau, masks)
    rows = list(range(0, len(table.index[0]), 7))
    expected = [[sum(c * run.count(r) for c, run in column) for column in table.columns] for r in rows]
    assert native.probe_sums(table, rows) == expected
    twice = flat.FlatTable("k", table.index, tuple((*column, *column) for column in table.columns))
    assert native.probe_sums(twice, rows[:3]) == [[2 * x for x in sums] for sums in expected[:3]]
    with pytest.raises(ValueError, match="not distinct"):
        native.probe_sums(table, [1, 1])


@slow
def test_the_probes_tell_apart_every_two_different_columns_of_the_catalog() -> None:
    """Under every rule set and tableau, two outcome columns of the whole catalog alike on every probe are equal."""
    from exactodds.puntobanco.compiled.probe import FlatProbe

    empty = (array("H"), array("H"), array("H"))
    for rules in [*RULE_SETS, PUNTO_BANCO.with_player_five("stand"), BACCARAT_GOLD.with_player_five("stand")]:
        masks, _ = masks_of(plain_bets(rules))
        expected = FlatProbe.of(empty, rules.tableau, masks).expected
        alike: dict[tuple[int, ...], list[int]] = {}
        for j, mask in enumerate(masks):
            alike.setdefault(tuple(e[j] for e in expected), []).append(mask)
        for group in (g for g in alike.values() if len(g) > 1):  # such as the Player's pair and the Banker's
            table = flat.build_flat(rules.tableau, group)
            assert all(column == table.columns[0] for column in table.columns), group


def test_suited_bets_are_refused() -> None:
    with pytest.raises(xo.ExactOddsError, match="knows ranks, not suits"):
        flat.flat_pricer(PUNTO_BANCO.tableau, [xo.find_bet("perfect-pair", PUNTO_BANCO)])


def _run(code: str, cache: Path) -> str:
    env = dict(os.environ, EXACTODDS_CACHE=str(cache), PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout  # fmt: skip


def _command(*commands: list[str]) -> str:
    """A process that runs each command line in turn, then says which of numpy, sympy and tomllib it imported."""
    runs = "".join(f"cli.main({args!r}, standalone_mode=False)\n" for args in commands)
    return (
        f"import sys\nfrom exactodds.cli import cli\n{runs}"
        "print('numpy' in sys.modules, 'sympy' in sys.modules, 'tomllib' in sys.modules)"
    )


@pytest.fixture(scope="module")
def first_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A cache folder filled by a first ``odds`` run (its tables built, in a second), and what that run printed."""
    cache = tmp_path_factory.mktemp("filled") / "cache"
    return cache, _run(_command(["odds", "--format", "json"]), cache)


@pytest.fixture
def filled(first_run: tuple[Path, str], tmp_path: Path) -> Path:
    """A copy of the filled cache folder, for one test."""
    return Path(shutil.copytree(first_run[0], tmp_path / "cache"))


def test_the_odds_command_does_not_import_numpy_once_its_flat_table_is_cached(first_run, filled: Path) -> None:
    assert first_run[1].splitlines()[-1].startswith("True")  # the very first run builds the tables (numpy)
    # Then (one process): no numpy, nor for the default report, which shares them; nor tomllib (the core bets file's
    # data is made ahead, exactodds/parsed.py).
    again = _run(_command(["odds", "--format", "json"], []), filled)
    assert again.splitlines()[-1] == "False False False"
    assert again.startswith(xo.render(xo.analyze(xo.Shoe.standard(8)), "json"))
    assert again.removeprefix(xo.render(xo.analyze(xo.Shoe.standard(8)), "json")).startswith(
        xo.render(xo.analyze(xo.Shoe.standard(8)), "table"))


#: The start of a process that runs as where the compiled kernel was not built.
NO_KERNEL = "from exactodds.puntobanco.compiled import native\nnative._kernel = None\n"


def test_the_first_shoes_take_the_flat_table_and_later_ones_the_numpy_pricer(filled: Path) -> None:
    """Without the compiled kernel: FLAT_SHOES shoes of one bet tuple are priced without numpy, the next one loads
    it; the figures agree."""
    code = (
        NO_KERNEL + "import sys\nimport exactodds as xo\nfrom exactodds.puntobanco.compiled.flat import FLAT_SHOES\n"
        "a = [xo.analyze(xo.Shoe.standard(8).remove(['7'] * i)) for i in range(FLAT_SHOES)]\n"
        "print('numpy' in sys.modules)\n"
        "b = xo.analyze(xo.Shoe.standard(8).remove(['7'] * FLAT_SHOES))\n"
        "c = xo.analyze(xo.Shoe.standard(8), method='reference')\n"
        "print('numpy' in sys.modules, a[0] == c, b == xo.analyze(b.shoe, method='reference'))"
    )
    assert _run(code, filled).split() == ["False", "True", "True", "True"]


def test_with_the_kernel_every_shoe_takes_the_flat_table_and_numpy_is_never_loaded(filled: Path) -> None:
    """Where the compiled kernel is built, it prices every shoe within its proof, the first as the fortieth (and a
    caller expecting many shoes too): no numpy; the figures are the reference walk's."""
    if not native.available():
        pytest.skip("the compiled kernel was not built here")
    code = (
        "import sys\nimport exactodds as xo\nfrom exactodds.puntobanco.compiled.flat import FLAT_SHOES, expect_many\n"
        "from exactodds.puntobanco.odds import resolve_bets\nfrom exactodds.puntobanco.rules import PUNTO_BANCO\n"
        "expect_many(PUNTO_BANCO.tableau, resolve_bets(PUNTO_BANCO, None))\n"
        "a = [xo.analyze(xo.Shoe.standard(8).remove(['7'] * (i % 30) + ['K'] * (i // 30))) for i in range(40)]\n"
        "print('numpy' in sys.modules, a[-1] == xo.analyze(a[-1].shoe, method='reference'))"
    )
    assert _run(code, filled).split() == ["False", "True"]


def test_a_caller_that_expects_many_shoes_gets_the_numpy_pricer_at_once(filled: Path) -> None:
    """Without the compiled kernel, with the flat table at hand (a fresh cache would load numpy to build the tables
    in any case)."""
    code = (
        NO_KERNEL + "import sys\nimport exactodds as xo\nfrom exactodds.puntobanco.compiled.flat import expect_many\n"
        "from exactodds.puntobanco.odds import resolve_bets\nfrom exactodds.puntobanco.rules import PUNTO_BANCO\n"
        "expect_many(PUNTO_BANCO.tableau, resolve_bets(PUNTO_BANCO, None))\n"
        "a = xo.analyze(xo.Shoe.standard(8))\n"
        "print('numpy' in sys.modules)"
    )
    assert _run(code, filled).split() == ["True"]


def test_columns_with_the_same_runs_are_walked_once_and_priced_as_the_whole_table() -> None:
    bets = tuple(xo.find_bet(i, PUNTO_BANCO) for i in ("player", "player-pair", "banker-pair"))
    made = flat.flat_pricer(PUNTO_BANCO.tableau, bets)
    table = made.table
    pairs = [table.columns[k] for k in (*made.layout[1], *made.layout[2])]
    assert pairs[:2] == pairs[2:]  # the Player's pair and the Banker's: the same runs (exchangeable positions)
    assert len(made._walked.columns) == len(table.columns) - 2  # each walked once
    for shoe in (xo.Shoe.standard(8), xo.Shoe((3, 0, 5, 1, 9, 2, 2, 0, 4, 7, 1, 1, 6)), xo.Shoe((10**20,) * 13)):
        whole = table.evaluate(shoe.counts, kernel=False)  # every column, in Python integers
        assert made.counts(shoe) == tuple(tuple(whole[k] for k in slots) for slots in made.layout)
