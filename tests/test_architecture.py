"""The shape of the package: the public API, its layers, no import cycles, no module importing the root."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

import exactodds

PACKAGE = Path(exactodds.__file__).parent


def test_the_public_api_is_small_sorted_and_documented():
    names = exactodds.__all__
    assert len(names) <= 40
    # ruff's RUF022 order: constants, then classes, then functions.
    assert names == sorted(names, key=lambda n: (not n.isupper(), not n[:1].isupper(), n))
    source = (PACKAGE / "__init__.py").read_text(encoding="utf-8")
    documented = set()
    # A constant is documented by the string after it, at the top level or in an ``if TYPE_CHECKING:`` block
    # (a name loaded on first use, such as the type alias Format, is declared there).
    tree = ast.parse(source).body
    blocks = [tree, *(node.body for node in tree if isinstance(node, ast.If))]
    for node, after in (pair for body in blocks for pair in zip(body, body[1:])):
        if isinstance(node, ast.AnnAssign | ast.Assign) and isinstance(after, ast.Expr):
            if isinstance(after.value, ast.Constant) and isinstance(after.value.value, str):
                targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
                documented |= {t.id for t in targets if isinstance(t, ast.Name)}
    for name in names:
        value = getattr(exactodds, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert (value.__doc__ or "").strip(), f"{name} has no docstring"
        else:
            assert name in documented, f"{name} (a constant) has no docstring in exactodds/__init__.py"


def test_removed_names_are_gone_from_the_root():
    # The tables folder's plumbing, the CLI's choices and the lab's internals are not the library's API.
    for name in ("find_tables_dir", "write_tables", "check_tables", "FORMATS", "METHODS", "random_seed", "CHUNK_SHOES"):
        assert not hasattr(exactodds, name)


def _module_name(path: Path, root: Path) -> str:
    """The dotted name of a file under the package ``root``: a package's ``__init__.py`` is the package itself."""
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, root: Path = PACKAGE) -> set[str]:
    """The modules of ``root`` a file imports, at any depth of the file (TYPE_CHECKING and function-local too)."""
    module = _module_name(path, root)
    # A relative import starts from the package the file is in: an ``__init__.py`` is in its own package.
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == root.name}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] == root.name:
                # ``from . import cards`` imports the module exactodds.cards; ``from . import Shoe`` the package.
                names = {f"{target}.{a.name}" for a in node.names}
                submodules = {n for n in names if _module_path(n, root) is not None}
                found |= submodules
                if names - submodules:
                    found.add(target)
    return found


def _module_path(name: str, root: Path = PACKAGE) -> Path | None:
    path = root.parent.joinpath(*name.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@cache
def _graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Each module of the package ``root`` and the modules of the package it imports (read once per run)."""
    files = {_module_name(path, root): path for path in root.rglob("*.py")}
    return {name: {i for i in _imports(path, root) if i in files and i != name} for name, path in files.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of a graph: its strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(cycles)


def test_no_module_of_the_package_imports_its_root():
    """``import exactodds`` (or ``from . import x`` in a top-level module) from inside would import everything."""
    graph = _graph()
    offenders = sorted(name for name, imported in graph.items() if name != "exactodds" and "exactodds" in imported)
    assert offenders == []


def test_no_import_cycles():
    assert _cycles(_graph()) == []


def _tree(root: Path, files: dict[str, str]) -> Path:
    """A package ``pkg`` under ``root`` with the given files (path: source), for the guard's own tests."""
    for name, source in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    return root / "pkg"


def test_the_cycle_guard_sees_the_imports_of_a_package_init_and_inside_functions(tmp_path):
    """Cycles through an ``__init__``'s relative import (at both levels) and a function-level import are found."""
    package = _tree(tmp_path, {
        "__init__.py": "from .a import f\n",
        "a.py": "def f():\n    from . import REGISTRY\n    return REGISTRY\n",
        "sub/__init__.py": "from ..b import g\n",
        "b.py": "def g():\n    from .sub import h\n    return h\n",
        "c.py": "from . import a\nfrom .sub import h\n",
    })
    graph = _graph(package)
    assert graph == {"pkg": {"pkg.a"}, "pkg.a": {"pkg"}, "pkg.sub": {"pkg.b"}, "pkg.b": {"pkg.sub"},
                     "pkg.c": {"pkg.a", "pkg.sub"}}
    assert _cycles(graph) == [["pkg", "pkg.a"], ["pkg.b", "pkg.sub"]]


def test_the_cycle_guard_passes_a_tree_without_cycles(tmp_path):
    package = _tree(tmp_path, {
        "__init__.py": "from .a import f\nfrom .sub import h\n",
        "a.py": "def f():\n    from .b import g\n    return g\n",
        "sub/__init__.py": "from ..b import g\nh = g\n",
        "b.py": "import pkg.c\ng = 1\n",
        "c.py": "",
    })
    assert _cycles(_graph(package)) == []
    assert _graph(package)["pkg.b"] == {"pkg.c"}


#: The most lines of a module, and of a function: from its ``def`` line to its last line, decorators left out and
#: its docstring counted (a nested function counts in its own right and inside the function that holds it).
MAX_MODULE_LINES, MAX_FUNCTION_LINES = 500, 80
#: What may stay past a limit while the change that splits it is under way, by the names the test prints
#: (``exactodds/cli.py``, ``exactodds/games/model.py:_count``): empty now. The test fails while a listed item is
#: already within its limit, so the list cannot go stale.
OVER_THE_LIMIT: set[str] = set()


def _functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, int]]:
    """Every function of a module, nested ones included, by qualified name (``Class.method``), with its length."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.ClassDef):
            yield from _functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            yield f"{prefix}{node.name}", node.end_lineno - node.lineno + 1  # lineno is the def, after decorators
            yield from _functions(node, f"{prefix}{node.name}.")
        else:
            yield from _functions(node, prefix)


def _sizes(root: Path) -> dict[str, int]:
    """The length of every module (``path``) and function (``path:name``) under ``root``, by its name in the lists."""
    sizes = {}
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root.parent).as_posix()
        source = path.read_text(encoding="utf-8")
        sizes[name] = len(source.splitlines())
        sizes |= {f"{name}:{function}": lines for function, lines in _functions(ast.parse(source))}
    return sizes


def _over_the_limits(sizes: dict[str, int]) -> dict[str, int]:
    """The modules and functions longer than their limit."""
    return {k: n for k, n in sizes.items() if n > (MAX_FUNCTION_LINES if ":" in k else MAX_MODULE_LINES)}


def test_modules_and_functions_stay_short():
    """At most 500 lines a module and 80 a function, every module and function of the package but OVER_THE_LIMIT.

    A function's lines are counted from its ``def`` to its last line: its decorators are left
    out, its docstring and comments are counted, and so are the functions nested in it (which
    are also held to the limit on their own).
    """
    sizes = _sizes(PACKAGE)
    over = _over_the_limits(sizes)
    assert sorted(set(over) - OVER_THE_LIMIT) == [], "split these by concept (docs/development.md)"
    stale = sorted(item for item in OVER_THE_LIMIT if item not in over)
    assert stale == [], f"within the limits now (or gone): remove them from OVER_THE_LIMIT ({sizes.keys() & stale})"


def test_the_size_guard_counts_from_the_def_to_the_last_line(tmp_path):
    """Decorators are left out, docstrings and nested functions counted; methods are named by their class."""
    long = ["@decorator", "@another", "def long():", '    """Doc."""', *(f"    x{i} = {i}" for i in range(77))]
    long.append("    return x0")
    short = ["class C:", "    def m(self):", "        def inner():", "            pass"]
    source = "\n".join([*long, "", "", *short]) + "\n"  # long: 80 lines from its def; the module 88
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(source, encoding="utf-8")
    sizes = _sizes(tmp_path / "pkg")
    assert sizes == {"pkg/m.py": 88, "pkg/m.py:long": 80, "pkg/m.py:C.m": 3, "pkg/m.py:C.m.inner": 2}
    assert _over_the_limits(sizes) == {}
    assert _over_the_limits({**sizes, "pkg/m.py:long": 81, "pkg/m.py": 501}) == {"pkg/m.py:long": 81, "pkg/m.py": 501}


def test_import_linter_contracts_hold():
    pytest.importorskip("importlinter")
    from importlinter.cli import lint_imports

    assert lint_imports(config_filename=str(PACKAGE.parent / "pyproject.toml")) == 0


def test_the_root_loads_lazily_and_no_submodule_shares_a_name_of_the_api():
    """Importing a submodule sets it as an attribute of its package: a submodule of the root named like a name of
    the API would hide it (``exactodds.render`` the function, not a package), so none may be."""
    import subprocess
    import sys

    submodules = {p.stem if p.suffix == ".py" else p.name for p in PACKAGE.iterdir()
                  if (p.suffix == ".py" or (p / "__init__.py").is_file()) and p.stem != "__init__"}
    assert not submodules & set(exactodds.__all__)
    code = (
        "import sys, exactodds\n"
        "assert 'exactodds.puntobanco.odds' not in sys.modules and 'numpy' not in sys.modules\n"
        "import exactodds.present.odds, exactodds.puntobanco.closed_forms, exactodds.present.eor\n"
        "from exactodds import closed_forms, render\n"
        "assert render is exactodds.render is sys.modules['exactodds.present.odds'].render\n"
        "assert closed_forms is exactodds.closed_forms\n"
        "assert all(getattr(exactodds, name) is not None for name in exactodds.__all__)\n"
        "assert set(exactodds.__all__) <= set(dir(exactodds))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=PACKAGE.parent, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    with pytest.raises(AttributeError):
        exactodds.no_such_name  # noqa: B018
