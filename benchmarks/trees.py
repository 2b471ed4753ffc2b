"""What the benchmarks that time an old tree against this one share: a commit's files, and the modules of punto
banco's machinery in either layout of the package (a worker imports them from whichever tree is on its path).

Commit cbef35e moved punto banco's machinery into ``exactodds/puntobanco/`` (``analysis.py``'s ``analyze`` into
``puntobanco/odds.py``) and ``render/`` to ``present/``; the older trees (05c9f09 and before), which the benchmarks'
baselines are, have them at the package's root.
"""

from __future__ import annotations

import importlib
import subprocess
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
#: Each module a worker imports by its short name: its place since the restructure first, then its place before.
LAYOUTS = {
    "bets": ("exactodds.puntobanco.bets", "exactodds.bets"),
    "compiled": ("exactodds.puntobanco.compiled", "exactodds.compiled"),
    "odds": ("exactodds.puntobanco.odds", "exactodds.analysis"),
    "odds_json": ("exactodds.present.odds_json", "exactodds.render.odds_json"),
    "rules": ("exactodds.puntobanco.rules", "exactodds.rules"),
}


def machinery(name: str) -> ModuleType:
    """The module ``name`` of :data:`LAYOUTS` from the tree of the ``exactodds`` imported: at its new place if the
    tree has it, else at its old one.

    The place is chosen by the tree's files, not by trying an import: an editable install of another tree would
    answer for a module this tree lacks (its finder maps every ``exactodds.*``), and an import error of the new
    place (a bug, a missing dependency) must not fall back. The module imported must be in the tree.
    """
    import exactodds

    tree = Path(exactodds.__file__).resolve().parent
    for dotted in LAYOUTS[name]:
        where = tree.joinpath(*dotted.split(".")[1:])
        if (where / "__init__.py").is_file() or where.with_suffix(".py").is_file():
            module = importlib.import_module(dotted)
            if not Path(str(module.__file__)).resolve().is_relative_to(tree):
                raise RuntimeError(f"{dotted} was imported from {module.__file__}, not from the tree {tree}")
            return module
    raise ModuleNotFoundError(f"none of {', '.join(LAYOUTS[name])} in the tree {tree}")


def is_from(path: str, tree: Path, name: str) -> bool:
    """Whether ``path`` (a module's ``__file__``) is module ``name`` of :data:`LAYOUTS` in ``tree`` (either layout)."""
    found = Path(path).resolve()
    for dotted in LAYOUTS[name]:
        base = tree.resolve().joinpath(*dotted.split("."))
        if found in (base / "__init__.py", base.with_suffix(".py")):
            return True
    return False


def extract(ref: str, into: Path) -> bool:
    """``git archive ref | tar -x`` into a folder; false when there is no git checkout or no such commit."""
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    except (OSError, subprocess.CalledProcessError):
        return False
    return True


def worker_output(args: list[str], env: dict[str, str], cwd: str) -> str:
    """The stdout of a worker process; its stderr's end in the error when it fails (not a bare exit status)."""
    done = subprocess.run(args, env=env, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"the worker {' '.join(args[1:])} failed (PYTHONPATH={env.get('PYTHONPATH')}):\n"
                           f"{done.stderr[-3000:]}")  # fmt: skip
    return done.stdout
