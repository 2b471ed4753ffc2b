"""The compiled-table cache on disk: verified before it is trusted, rebuilt when it is not, never read from others.

One table is built for the whole module; every test copies its file, damages the copy
in one way and checks that the answer is still exact (the 8-deck Banker win count) and
that the file was rebuilt, or, in a place that is not the user's alone, left alone.
``build`` is replaced by a counter that hands back the table built once, so a rebuild
costs nothing here (the building walk itself is tested in test_compiled.py).
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import multiprocessing
import os
import random
import threading
from pathlib import Path

import numpy as np
import pytest
from profiles import is_slow

from exactodds import Bet, Shoe, find_bet
from exactodds.puntobanco import compiled
from exactodds.puntobanco.compiled import cache, flat, pricing, private
from exactodds.puntobanco.compiled.columns import masks_of
from exactodds.puntobanco.coup import decode_state
from exactodds.puntobanco.rules import PUNTO_BANCO, STANDARD_TABLEAU, Tableau

BANKER_WINS_8_DECKS = 2_292_252_566_437_888
OTHER = Tableau(
    frozenset(range(5)), STANDARD_TABLEAU.banker_draws_when_player_stood, STANDARD_TABLEAU.banker_draws_against
)


def clear() -> None:
    compiled.compiled.cache_clear()
    pricing._state_evaluator.cache_clear()
    pricing._PRICERS.clear()


@pytest.fixture(scope="module")
def tables(once_per_run) -> dict[str, object]:
    return once_per_run("cache-tables", _tables)  # two builds: made by one worker of a distributed run


def _tables() -> dict[str, object]:
    good = compiled.build(STANDARD_TABLEAU)
    # A well-formed, self-consistent file under the standard name that holds another tableau's
    # table: every content check passes, so only where the file lies can tell it is not ours.
    foreign = dataclasses.replace(compiled.build(OTHER), tableau=STANDARD_TABLEAU)
    return {"table": good, "good": cache._encode(good), "foreign": cache._encode(foreign)}


class Builds:
    def __init__(self, table: compiled.CompiledTableau) -> None:
        self.table = table
        self.calls = 0

    def __call__(self, tableau: Tableau) -> compiled.CompiledTableau:
        assert tableau is STANDARD_TABLEAU
        self.calls += 1
        return self.table


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tables: dict[str, object]):
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    folder.chmod(0o700)
    monkeypatch.setenv("EXACTODDS_CACHE", str(folder))
    builds = Builds(tables["table"])  # type: ignore[arg-type]
    monkeypatch.setattr(cache, "build", builds)  # where compiled() finds it
    clear()
    yield folder, folder / f"compiled-{compiled.cache_key(STANDARD_TABLEAU)}.npz", builds
    clear()


def banker_wins() -> int:
    """The 8-deck Banker win count of the table ``compiled()`` loads (or rebuilds) now, through the cache on disk."""
    clear()
    table = compiled.compiled(STANDARD_TABLEAU)  # what the cache layer hands to every evaluator
    content = _content(table)
    if content not in _WINS:  # the count is a function of the table's content: each content is evaluated once
        distribution = compiled.coup_distribution(Shoe.standard(8), STANDARD_TABLEAU)  # prices ``table`` itself
        _WINS[content] = distribution.count(lambda s: s.winner == "banker")
    return _WINS[content]


#: Banker win counts by the content of the table they were counted on (an evaluator takes a tenth of a second).
_WINS: dict[str, int] = {}


def _content(table: compiled.CompiledTableau) -> str:
    """sha256 of all a table holds: its tableau, multisets, states, rows, columns and coefficients."""
    h = hashlib.sha256(repr((table.tableau, table.states)).encode())
    for array in (table.multisets, table.rows, table.cols, table.coefficients):
        h.update(repr((array.dtype.str, array.shape)).encode())
        h.update(np.ascontiguousarray(array).tobytes())
    return h.hexdigest()


def arrays_of(data: bytes) -> dict[str, np.ndarray]:
    with np.load(io.BytesIO(data), allow_pickle=False) as npz:
        return {name: npz[name] for name in npz.files}


def npz_bytes(arrays: dict[str, np.ndarray], redigest: bool) -> bytes:
    """A cache file of these arrays; with ``redigest`` its digest is made to match (a careful forger)."""
    arrays = dict(arrays)
    if redigest:
        arrays["digest"] = np.array(cache._digest(str(arrays["tableau"]), arrays))
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def test_a_good_file_is_used_as_it_is(env, tables) -> None:
    folder, path, builds = env
    path.write_bytes(tables["good"])
    assert banker_wins() == BANKER_WINS_8_DECKS and builds.calls == 0


def test_the_invariant_holds_for_built_tables_and_counts_every_sequence(tables) -> None:
    for data in (tables["good"], tables["foreign"]):  # two tableaux
        a = arrays_of(data)
        assert cache._invariants_hold(a["multisets"], a["state_codes"], a["rows"], a["cols"], a["coefficients"])
    # W rows sum to the orderings of their multiset, 6!/prod m_v!; together, all 10^6 value sequences.
    w_totals = cache._orderings(cache._canonical_multisets(), 6)
    assert w_totals.sum() == 10**6 and w_totals.max() == 720 and w_totals.min() == 1


def _change_one_coefficient(a: dict[str, np.ndarray]) -> None:
    a["coefficients"] = a["coefficients"].copy()
    a["coefficients"][len(a["coefficients"]) // 2] += 1


def _float_coefficients(a: dict[str, np.ndarray]) -> None:
    a["coefficients"] = a["coefficients"].astype(np.float64)


def _reorder_state_codes(a: dict[str, np.ndarray]) -> None:
    a["state_codes"] = a["state_codes"].copy()
    a["state_codes"][[0, 1]] = a["state_codes"][[1, 0]]


def _rows_out_of_range(a: dict[str, np.ndarray]) -> None:
    a["rows"] = a["rows"].copy()
    a["rows"][-1] = 10**6


def _swap_two_coefficients_of_a_row(a: dict[str, np.ndarray]) -> None:
    """Keeps every total of the invariant: only the digest can tell (a forger who also fixes it: see planted files)."""
    rows, cols, coefficients = a["rows"], a["cols"], a["coefficients"].copy()
    pairs = a["state_codes"][cols] & 3
    for i in range(1, len(rows)):
        j = i - 1
        if rows[i] == rows[j] and pairs[i] == pairs[j] and coefficients[i] != coefficients[j]:
            coefficients[[i, j]] = coefficients[[j, i]]
            a["coefficients"] = coefficients
            return
    raise AssertionError("no two cells to swap")


DAMAGES = [_change_one_coefficient, _float_coefficients, _reorder_state_codes, _rows_out_of_range]
#: Each damage with its digest recomputed (only the invariants can catch it), and with the digest left stale: the
#: quick run for the first damage, the slow profile for all (each case rebuilds the table).
DAMAGED = [(d, True) for d in DAMAGES] + [(d, False) for d in (DAMAGES if is_slow() else DAMAGES[:1])]


@pytest.mark.parametrize(("damage", "redigest"), DAMAGED,
                         ids=[f"{d.__name__.lstrip('_')}-digest-{'recomputed' if r else 'stale'}" for d, r in DAMAGED])
def test_a_damaged_table_is_rebuilt_and_rewritten(env, tables, damage, redigest: bool) -> None:
    folder, path, builds = env
    arrays = arrays_of(tables["good"])
    damage(arrays)
    path.write_bytes(npz_bytes(arrays, redigest))
    assert banker_wins() == BANKER_WINS_8_DECKS and builds.calls == 1
    assert path.read_bytes() == tables["good"]  # rewritten: the next run loads it
    assert banker_wins() == BANKER_WINS_8_DECKS and builds.calls == 1


def test_coefficients_swapped_between_states_are_caught_by_the_digest(env, tables) -> None:
    folder, path, builds = env
    arrays = arrays_of(tables["good"])
    _swap_two_coefficients_of_a_row(arrays)
    a = {k: arrays[k] for k in ("state_codes", "rows", "cols", "coefficients")}
    assert cache._invariants_hold(cache._canonical_multisets(), *a.values())  # the invariant cannot see it
    path.write_bytes(npz_bytes(arrays, redigest=False))
    assert banker_wins() == BANKER_WINS_8_DECKS and builds.calls == 1 and path.read_bytes() == tables["good"]


def _swap_two_states(a: dict[str, np.ndarray]) -> None:
    """Swap two whole states (a Banker win, a Player win, the same pair flags) in every row: the invariant holds."""
    from exactodds.puntobanco.compiled.probe import probe_states

    codes = a["state_codes"]
    states = [decode_state(int(c)) for c in codes]
    probed = probe_states(STANDARD_TABLEAU)[0]
    i = next(i for i, s in enumerate(states) if probed.get(s) and s.winner == "banker")
    j = next(j for j, s in enumerate(states) if s.winner == "player" and codes[j] & 3 == codes[i] & 3
             and probed.get(s, 0) != probed[states[i]])  # fmt: skip
    cols = a["cols"].copy()
    cols[a["cols"] == i], cols[a["cols"] == j] = j, i
    order = np.argsort(a["rows"].astype(np.int64) * len(codes) + cols, kind="stable")
    a["rows"], a["cols"], a["coefficients"] = a["rows"][order], cols[order], a["coefficients"][order]


def test_two_states_swapped_with_a_recomputed_digest_are_caught_by_the_probes(env, tables) -> None:
    folder, path, builds = env
    arrays = arrays_of(tables["good"])
    _swap_two_states(arrays)
    a = {k: arrays[k] for k in ("state_codes", "rows", "cols", "coefficients")}
    assert cache._invariants_hold(cache._canonical_multisets(), *a.values())  # the invariant cannot see it
    path.write_bytes(npz_bytes(arrays, redigest=True))  # nor the digest, recomputed
    assert banker_wins() == BANKER_WINS_8_DECKS and builds.calls == 1 and path.read_bytes() == tables["good"]


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(lambda good: good[: len(good) // 2], id="truncated"),
        pytest.param(lambda good: b"", id="empty"),
        pytest.param(lambda good: b"not a table", id="garbage"),
        pytest.param(lambda good: good[:-30], id="no-zip-directory"),
        pytest.param(lambda good: good[:2000] + bytes(1000) + good[3000:], id="zeroed-bytes"),
    ],
)
def test_an_unreadable_file_is_rebuilt_and_rewritten(env, tables, content) -> None:
    folder, path, builds = env
    path.write_bytes(content(tables["good"]))
    assert banker_wins() == BANKER_WINS_8_DECKS and builds.calls == 1 and path.read_bytes() == tables["good"]


def test_a_fifo_in_place_of_the_file_neither_hangs_nor_stays(env, tables) -> None:
    folder, path, builds = env
    os.mkfifo(path)
    answer: list[int] = []
    worker = threading.Thread(target=lambda: answer.append(banker_wins()), daemon=True)
    worker.start()
    worker.join(timeout=20)
    assert not worker.is_alive(), "reading the cache hung on a FIFO"
    assert answer == [BANKER_WINS_8_DECKS] and builds.calls == 1 and path.read_bytes() == tables["good"]


def test_a_symlink_in_place_of_the_file_is_not_followed(env, tables, tmp_path) -> None:
    folder, path, builds = env
    elsewhere = tmp_path / "elsewhere.npz"
    elsewhere.write_bytes(tables["foreign"])
    path.symlink_to(elsewhere)
    assert banker_wins() == BANKER_WINS_8_DECKS and builds.calls == 1
    assert not path.is_symlink() and path.read_bytes() == tables["good"]
    assert elsewhere.read_bytes() == tables["foreign"]


def test_a_file_planted_by_another_user_is_not_read(env, tables, monkeypatch) -> None:
    folder, path, builds = env
    path.write_bytes(tables["foreign"])
    real_fstat = os.fstat

    def fstat(fd: int) -> os.stat_result:  # the file reads as another user's
        st = real_fstat(fd)
        fields = list(st)
        fields[4] = os.getuid() + 1
        return os.stat_result(fields)

    with monkeypatch.context() as patch:
        patch.setattr(os, "fstat", fstat)
        assert banker_wins() == BANKER_WINS_8_DECKS and builds.calls == 1
    assert path.read_bytes() == tables["good"]  # our own folder: the file is replaced by ours


def test_a_file_that_others_may_write_is_not_read(env, tables) -> None:
    folder, path, builds = env
    path.write_bytes(tables["foreign"])
    path.chmod(0o666)
    assert banker_wins() == BANKER_WINS_8_DECKS and builds.calls == 1
    assert path.read_bytes() == tables["good"] and path.stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o1777])
def test_a_folder_that_others_may_write_is_neither_read_nor_written(env, tables, mode: int) -> None:
    folder, path, builds = env
    path.write_bytes(tables["foreign"])
    folder.chmod(mode)
    assert banker_wins() == BANKER_WINS_8_DECKS and builds.calls == 1
    assert path.read_bytes() == tables["foreign"]  # not trusted, not touched
    assert [p.name for p in folder.iterdir()] == [path.name]


def test_a_folder_of_another_user_is_neither_read_nor_written(env, tables, monkeypatch) -> None:
    folder, path, builds = env
    path.write_bytes(tables["foreign"])
    monkeypatch.setattr(os, "getuid", lambda: os.stat(folder).st_uid + 1)
    assert banker_wins() == BANKER_WINS_8_DECKS and builds.calls == 1
    assert path.read_bytes() == tables["foreign"]


def test_a_new_cache_folder_is_private(env, tables, tmp_path, monkeypatch) -> None:
    folder = tmp_path / "deep" / "new"
    monkeypatch.setenv("EXACTODDS_CACHE", str(folder))
    assert banker_wins() == BANKER_WINS_8_DECKS
    assert folder.stat().st_mode & 0o777 == 0o700
    assert [p.read_bytes() for p in folder.iterdir()] == [tables["good"]]


def test_a_relative_xdg_cache_home_is_ignored(env, tables, tmp_path, monkeypatch) -> None:
    folder, path, builds = env
    home, work = tmp_path / "home", tmp_path / "work"
    planted = work / "relative" / "exactodds" / path.name
    planted.parent.mkdir(parents=True, mode=0o700)
    planted.write_bytes(tables["foreign"])
    monkeypatch.chdir(work)
    monkeypatch.delenv("EXACTODDS_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")
    monkeypatch.setenv("HOME", str(home))
    assert compiled.cache_dir() == home / ".cache" / "exactodds"
    assert banker_wins() == BANKER_WINS_8_DECKS and builds.calls == 1
    assert (home / ".cache" / "exactodds" / path.name).read_bytes() == tables["good"]
    assert planted.read_bytes() == tables["foreign"]
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))  # an absolute one is used
    assert compiled.cache_dir() == tmp_path / "xdg" / "exactodds"


@pytest.mark.parametrize("home", ["", None, "relative-home"])
def test_without_a_home_nothing_is_cached_on_disk(env, tables, tmp_path, monkeypatch, home: str | None) -> None:
    folder, path, builds = env
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.delenv("EXACTODDS_CACHE")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    if home is None:
        monkeypatch.delenv("HOME")
    else:
        monkeypatch.setenv("HOME", home)
    assert compiled.cache_dir() is None
    assert banker_wins() == BANKER_WINS_8_DECKS and banker_wins() == BANKER_WINS_8_DECKS and builds.calls == 2
    assert list(work.iterdir()) == [] and list(folder.iterdir()) == []


def test_a_relative_exactodds_cache_is_taken_from_the_current_folder(env, tables, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EXACTODDS_CACHE", "here")
    assert compiled.cache_dir() == tmp_path / "here"
    assert banker_wins() == BANKER_WINS_8_DECKS
    assert len(list((tmp_path / "here").iterdir())) == 1


def test_the_default_folder_made_by_an_earlier_version_under_umask_002_is_tightened(env, tables, tmp_path, monkeypatch):
    folder, path, builds = env
    default = tmp_path / "home" / ".cache" / "exactodds"
    default.mkdir(parents=True)
    default.chmod(0o775)
    (default / path.name).write_bytes(tables["good"])
    monkeypatch.delenv("EXACTODDS_CACHE")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert banker_wins() == BANKER_WINS_8_DECKS and builds.calls == 0  # used at once
    assert default.stat().st_mode & 0o777 == 0o755


# The size cap: the folder keeps the most recently used tables up to $EXACTODDS_CACHE_SIZE bytes.


@pytest.mark.parametrize(
    ("text", "limit"),
    [("", private.DEFAULT_CACHE_LIMIT), ("200000", 200_000), (" 64k ", 65_536), ("3M", 3 << 20), ("1g", 1 << 30),
     ("0", 0), ("-1", private.DEFAULT_CACHE_LIMIT), ("1.5M", private.DEFAULT_CACHE_LIMIT),
     ("lots", private.DEFAULT_CACHE_LIMIT), ("M", private.DEFAULT_CACHE_LIMIT), ("١٢", private.DEFAULT_CACHE_LIMIT)],
)  # fmt: skip
def test_the_size_cap_is_read_from_the_environment(monkeypatch, text: str, limit: int) -> None:
    monkeypatch.setenv("EXACTODDS_CACHE_SIZE", text)
    assert private.cache_limit() == limit


def _bets(*ids: str) -> tuple[Bet, ...]:
    return tuple(find_bet(i, PUNTO_BANCO) for i in ids)


#: Sets of bets whose flat tables are small (50 to 65 kB each), and the exact counts of 8 decks.
SMALL = {name: _bets(name) for name in ("tie", "player", "player-pair", "dragon-7", "panda-8", "banker-pair")}


def _flat_name(bets: tuple[Bet, ...]) -> str:
    return flat._file_name(flat.flat_key(PUNTO_BANCO.tableau, masks_of(bets)[0]))


def _price(name: str) -> tuple[tuple[int, ...], ...]:
    """The counts of 8 decks for SMALL[name] by the flat table, read from the folder (or built and written) afresh."""
    flat._TABLES.clear()
    return flat.flat_counts(PUNTO_BANCO.tableau, SMALL[name], Shoe.standard(8))


def test_the_least_recently_used_tables_go_first_beyond_the_size_cap(env, monkeypatch) -> None:
    folder, path, builds = env
    for name in ("tie", "player", "player-pair"):
        _price(name)  # each built from the compiled table (which is marked used), then written
    # Room for the compiled table and three flat tables, not a fourth.
    monkeypatch.setenv("EXACTODDS_CACHE_SIZE", str(sum(p.stat().st_size for p in folder.iterdir()) + 1000))
    assert _price("tie") == _price("tie")  # tie used again (read from the folder): player is the least recently used
    _price("dragon-7")  # a fourth table is written
    names = {path.name, *(_flat_name(SMALL[n]) for n in ("tie", "player-pair", "dragon-7"))}
    assert {p.name for p in folder.iterdir()} == names
    _price("player")  # built again, written, and now player-pair is the one to go
    names = {path.name, *(_flat_name(SMALL[n]) for n in ("tie", "dragon-7", "player"))}
    assert {p.name for p in folder.iterdir()} == names and builds.calls == 1


def test_the_cap_counts_every_table_and_keeps_the_one_just_written(env, monkeypatch) -> None:
    folder, path, builds = env
    stale, fresh = folder / ".flat-x.bin.abc.tmp", folder / ".compiled-y.npz.def.tmp"
    for temp in (stale, fresh):
        temp.write_bytes(b"half a table")
    os.utime(stale, ns=(0, 0))  # left by a writer killed long ago; the fresh one is being written
    (folder / "notes.txt").write_bytes(bytes(10_000))  # not a table: never counted, never deleted
    monkeypatch.setenv("EXACTODDS_CACHE_SIZE", "1")
    assert banker_wins() == BANKER_WINS_8_DECKS and builds.calls == 1
    assert sorted(p.name for p in folder.iterdir()) == sorted([path.name, fresh.name, "notes.txt"])
    _price("tie")  # the compiled table goes (used before the flat table was written)
    assert sorted(p.name for p in folder.iterdir()) == sorted([_flat_name(SMALL["tie"]), fresh.name, "notes.txt"])


def _price_many(seed: int) -> list[tuple[str, tuple[tuple[int, ...], ...]]]:
    """In a forked process: price the small bet sets again and again in a random order (each a fresh read)."""
    names = list(SMALL)
    random.Random(seed).shuffle(names)
    return [(name, _price(name)) for name in names]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forked workers share the parent's compiled table")
def test_processes_sharing_a_small_cache_evict_each_other_safely(env, monkeypatch) -> None:
    """Three processes at once, room for three of six tables: tables go while others read them, never damaged."""
    folder, path, builds = env
    shoe = Shoe.standard(8)
    expected = {name: pricing.pricer(PUNTO_BANCO.tableau, bets).counts(shoe) for name, bets in SMALL.items()}
    compiled.compiled(STANDARD_TABLEAU)  # in memory: the workers build flat tables from it without reading the folder
    path.unlink()  # (and the cap is for flat tables alone)
    limit = 200_000
    monkeypatch.setenv("EXACTODDS_CACHE_SIZE", str(limit))
    with multiprocessing.get_context("fork").Pool(3) as pool:
        runs = pool.map(_price_many, range(3))
    assert all(counts == expected[name] for run in runs for name, counts in run)
    left = list(folder.iterdir())
    assert left and all(p.name.startswith("flat-") and p.name.endswith(".bin") for p in left)  # no temporary file
    assert sum(p.stat().st_size for p in left) <= limit
    for bets in SMALL.values():  # what is left is whole: it is read, not rebuilt
        if (folder / _flat_name(bets)).exists():
            key = flat.flat_key(PUNTO_BANCO.tableau, masks_of(bets)[0])
            assert flat.decode((folder / _flat_name(bets)).read_bytes(), key) is not None
