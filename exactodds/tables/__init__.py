"""The reference tables: par sheets, house edge by decks, effect of removal, coup breakdowns, closed forms.

:func:`generate_tables` makes every file of the ``tables/`` folder in memory (bytes,
identical on every run and machine: exact arithmetic, decimals by integer rounding,
tables laid out by hand, ``\\n`` line ends); :func:`write_tables` writes them
atomically (a temporary file in the same folder, then a rename) and
:func:`check_tables` says which committed files are stale, missing or extra.
Nothing here prints: progress goes to an optional callback.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from ..cards import Shoe
from ..eor import effect_of_removal
from ..present.eor import render_eor
from ..puntobanco.rules import RuleSet
from .common import (
    DATA_PLACES,
    EOR_DECKS,
    INDEX_TITLE,
    MD_PLACES,
    PAR_DECKS,
    PAR_GAMES,
    PAR_RULES,
    SIDE_NAME,
    SIDE_RULES,
    Progress,
    _Cache,
    _decks_name,
    _decks_text,
    _json,
    side_bet_ids,
)
from .coups import _coup_sources, cards_per_coup, coup_files, winner_by_total
from .decisions import GAME_MODELS, OPTION_DECKS, game_files, game_path, option_files
from .folder import TablesStatus, check_tables, ensure_tables_dir, write_tables
from .house_edge import house_edge_files, side_house_edge_files
from .index import index_markdown
from .par import game_par_files, par_sheet_csv, par_sheet_json, par_sheet_markdown


def generate_tables(
    progress: Progress | None = None, *, game_models: tuple[str, ...] = GAME_MODELS, parallel: bool = False
) -> dict[str, bytes]:
    """Make every file of the ``tables/`` folder: a mapping from relative path (``/``-separated) to bytes.

    Deterministic: the same code gives the same bytes. Reports each step to ``progress``.
    ``game_models`` chooses which chemin de fer models are solved (all by default; the quick
    test run solves only model A1, leaving the finite-shoe models to the slow profile).
    With ``parallel`` (and a second core, and ``fork``), the largest chemin de fer model and the
    big table's option are made in one worker process while this one makes the other tables:
    the same files, each made by the same code, collected in the same order.
    """
    background = _game_worker(game_models) if parallel else None
    try:
        return _generate(progress, game_models, background)
    finally:
        if background is not None:
            background[0].shutdown(cancel_futures=True)


#: The chemin de fer models solved in the worker: B3 (2.4 s) beside the big table's option (0.35 s) is about
#: what this process does meanwhile (the par sheets and the rest, about 2.5 s; A1 and B2 here take 0.7 s).
_WORKER_MODELS = frozenset({"B3"})


def _game_worker(
    models: tuple[str, ...], in_worker: frozenset[str] = _WORKER_MODELS
) -> tuple[Any, dict[str, Any]] | None:
    """Start game tables (those of ``models`` also ``in_worker``, the big table's option) in a forked worker.

    ``None`` on one core or without ``fork``: then every table is made in this process.
    """
    import multiprocessing
    import os

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if cores < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return None
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork"))
    jobs = {model: pool.submit(game_files, model) for model in models if model in in_worker}
    jobs.update({f"option {decks}": pool.submit(option_files, decks) for decks in OPTION_DECKS})
    return pool, jobs


def _generate(
    progress: Progress | None, game_models: tuple[str, ...], background: tuple[Any, dict[str, Any]] | None
) -> dict[str, bytes]:
    from ..present.closed_forms import render_closed_forms_json, render_closed_forms_markdown
    from ..puntobanco.closed_forms import closed_forms

    cache = _Cache()
    steps: list[tuple[str, Callable[[], dict[str, str]]]] = []

    def par(rules: RuleSet, decks: int, side: bool = False) -> dict[str, str]:
        analysis = cache.analysis(Shoe.standard(decks), rules, side=side)
        base = f"par/{SIDE_NAME if side else rules.name}-{_decks_name(decks)}"
        return {
            f"{base}.md": par_sheet_markdown(analysis, title=SIDE_NAME if side else None),
            f"{base}.csv": par_sheet_csv(analysis),
            f"{base}.json": _json(par_sheet_json(analysis)),
        }

    def eor(rules: RuleSet, decks: int) -> dict[str, str]:
        result = effect_of_removal(Shoe.standard(decks), rules)
        base = f"eor/{rules.name}-{_decks_name(decks)}"
        title = f"# Effect of removal: {rules.name}, {_decks_text(decks)}\n\n"
        markdown = render_eor(result, "markdown", MD_PLACES).replace("# ", "", 1)
        return {
            f"{base}.md": title + markdown,
            f"{base}.csv": render_eor(result, "csv", DATA_PLACES),
            f"{base}.json": render_eor(result, "json", DATA_PLACES),
        }

    def closed() -> dict[str, str]:
        forms = closed_forms()
        return {
            "closed-forms.md": render_closed_forms_markdown(forms),
            "closed-forms.json": render_closed_forms_json(forms),
        }

    for rules in PAR_RULES:
        for decks in PAR_DECKS:
            steps.append((f"par sheet: {rules.name}, {_decks_text(decks)}", partial(par, rules, decks)))
    for decks in PAR_DECKS:
        steps.append((f"par sheet: side bets, {_decks_text(decks)}", partial(par, SIDE_RULES, decks, True)))
    for rules in PAR_RULES:
        steps.append((f"house edge by decks: {rules.name}", partial(house_edge_files, rules, cache)))
    steps.append(("house edge by decks: side bets", partial(side_house_edge_files, cache)))
    for rules in PAR_RULES:
        for decks in EOR_DECKS:
            steps.append((f"effect of removal: {rules.name}, {_decks_text(decks)}", partial(eor, rules, decks)))
    steps.append(("coup breakdowns", lambda: coup_files(_coup_sources())))
    steps.append(("closed forms in the number of decks", closed))
    for model in game_models:
        solved = partial(game_files, model) if background is None or model not in background[1] else (
            background[1][model].result
        )
        steps.append((f"chemin de fer solved: model {model}", solved))
    for decks in OPTION_DECKS:
        option = partial(option_files, decks) if background is None else background[1][f"option {decks}"].result
        steps.append((f"the big table's option on 5: {_decks_text(decks)}", option))
    for game in PAR_GAMES:
        for decks in game.tables.par_decks:
            steps.append((f"par sheet: {game.name}, {_decks_text(decks)}", partial(game_par_files, game, decks)))

    files: dict[str, str] = {}
    for i, (label, step) in enumerate(steps, 1):
        if progress is not None:
            progress(f"[{i:>2}/{len(steps) + 1}] {label}")
        files.update(step())
    if progress is not None:
        progress(f"[{len(steps) + 1:>2}/{len(steps) + 1}] index (README.md)")
    # The index lists every file of the folder, also those of models left out of this run.
    left_out = [game_path(m, ext) for m in GAME_MODELS if m not in game_models for ext in ("md", "csv", "json")]
    files["README.md"] = index_markdown([*files, *left_out, "README.md"])
    return {path: files[path].encode("utf-8") for path in sorted(files)}


__all__ = [
    "DATA_PLACES",
    "INDEX_TITLE",
    "MD_PLACES",
    "TablesStatus",
    "cards_per_coup",
    "check_tables",
    "ensure_tables_dir",
    "generate_tables",
    "side_bet_ids",
    "winner_by_total",
    "write_tables",
]
