"""The documentation cannot drift: the generated pages and blocks are made again and compared, the README stays
short."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import re
from fnmatch import fnmatch
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from exactodds.game import Game
from exactodds.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


@cache
def _gen_docs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_docs", DOCS / "gen_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("page", _gen_docs().pages(), ids=lambda page: page.name)
def test_every_generated_page_and_block_is_current(page):
    """docs/cli.md and docs/api.md, and every page holding a generated block, are what the code renders."""
    committed = page.read_text(encoding="utf-8") if page.exists() else ""
    assert committed == _gen_docs().render(page), (
        f"{page.relative_to(ROOT)} does not match the code it is made from; regenerate it with: python docs/gen_docs.py"
    )


def test_every_block_is_on_a_page_and_every_page_names_known_blocks():
    gen = _gen_docs()
    found = [name for page in gen.pages() if page not in gen.PAGES
             for name in gen.blocks_in(page.read_text(encoding="utf-8"))]
    assert sorted(set(found)) == sorted(gen.BLOCKS), "each block of BLOCKS on a page, and no other"
    with pytest.raises(ValueError, match="unknown block 'nope'"):
        gen.with_blocks("<!-- generated: nope -->\n<!-- /generated -->\n", "a page")
    with pytest.raises(ValueError, match="no <!-- /generated -->"):
        gen.with_blocks("<!-- generated: games -->\nleft open\n", "a page")


def test_a_block_is_made_again_and_the_text_around_it_kept():
    gen = _gen_docs()
    page = "# Title\n\nBefore.\n\n<!-- generated: formats -->\nstale text\n<!-- /generated -->\n\nAfter.\n"
    made = gen.with_blocks(page, "a page")
    assert made.startswith("# Title\n\nBefore.\n\n<!-- generated: formats -->\n\n| command | formats |")
    assert made.endswith("|\n\n<!-- /generated -->\n\nAfter.\n") and "stale text" not in made
    assert gen.with_blocks(made, "a page") == made


def test_cli_reference_covers_every_command():
    from exactodds.cli import cli

    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    for name in cli.all_commands():
        assert f"## exactodds {name}\n" in text


def test_api_reference_covers_every_endpoint_with_its_keys_and_every_setting():
    from exactodds.request import settings_inputs
    from exactodds.serve.endpoints import ENDPOINTS
    from exactodds.serve.schemas import ANSWERS

    text = (DOCS / "api.md").read_text(encoding="utf-8")
    for endpoint in ENDPOINTS:
        section = text.split(f"\n## `{endpoint.method} {endpoint.path}`\n", 1)[1].split("\n## ", 1)[0]
        for key in endpoint.keys or ():
            assert f"`{key}`" in section, (endpoint.path, key)
        for key in ANSWERS[endpoint.answer].get("properties", {}):
            assert f"| `{key}` |" in section, (endpoint.path, key)
    settings = text.split("\n## The games' settings\n", 1)[1]
    for setting in settings_inputs():  # each with its help, as on the command line
        assert f"| `{setting.key}` |" in settings and setting.help in settings


def test_the_games_table_lists_every_game_with_its_settings():
    from exactodds.games import GAMES

    text = (DOCS / "games.md").read_text(encoding="utf-8")
    for game in GAMES:
        row = next(line for line in text.splitlines() if re.match(rf"^\| \[?`{game.name}`", line))
        assert all(f"`{setting.option}`" in row for setting in game.settings), game.name


def test_the_side_bet_table_has_a_row_and_a_source_for_each_bet_of_the_catalog_beyond_the_core():
    from exactodds.betfile import packaged_text
    from exactodds.puntobanco.bets import side_catalog

    gen = _gen_docs()
    text = (DOCS / "side-bets.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([^`]+)` \| .* \| ([0-9.]+%) \| (.+) \|$", text, re.M)
    assert [bet_id for bet_id, _, _ in rows] == [bet.id for bet in side_catalog()]
    sources = gen.bet_sources(packaged_text("side-bets.toml"))
    assert all(source == sources[bet_id] for bet_id, _, source in rows)
    # A source comes from the bet's own comment, or from the bet it follows when it has none.
    assert gen.bet_sources("# Source: A\n[bets.x]\n\n[bets.y]\n# B\n# Source: C\n[bets.z]\n") == {
        "x": "A", "y": "A", "z": "C"}
    with pytest.raises(ValueError, match="side-bets.toml:2: the comment above a bet ends with"):
        gen.bet_sources("# no source\n[bets.x]\n")


def _prose(text: str) -> list[str]:
    """The hand-written units of a page: each paragraph, list item and table row outside the generated blocks and the
    code (console examples are checked by running them), but the rows of the module table (docs/development.md), which
    say what each module holds."""
    text = re.sub(r"<!-- generated: [\w-]+ -->.*?<!-- /generated -->", "", text, flags=re.S)
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    units = [unit for paragraph in re.split(r"\n\s*\n", text)
             for unit in re.split(r"\n(?=\s*(?:[-*|]|\d+\.) )", paragraph)]
    return [unit for unit in units if not unit.lstrip().startswith("| `exactodds/")]


def test_no_hand_written_text_lists_a_registry_whole():
    """A registry's names are listed only by a generated block (or the command that lists them): a paragraph, list item
    or table row that names every kind of plot, every format of the report, every capability or every game with bets
    is a hand-made list, stale at the next name. (Registries of two or three common words, as the image formats or the
    analysis formats, are left out: too many sentences name them all for other reasons.)"""
    from exactodds.game import CAPABILITIES
    from exactodds.games import with_capability
    from exactodds.plot import KINDS
    from exactodds.present.formats import REPORT_FORMATS

    registries = {
        "the kinds of plot": [rf"`{kind}`" for kind in KINDS],
        "the formats of the report": [rf"\b{f}\b" + ("|markdown" if f == "md" else "") for f in REPORT_FORMATS],
        "the capabilities": [rf"`{name}`" for name in CAPABILITIES],
        "the games with bets": [rf"\b{g.name}\b|\b{g.name.replace('-', ' ')}\b" for g in with_capability("bets")],
    }
    gen = _gen_docs()
    found = [f"{page.relative_to(ROOT)}: {what}: {unit.strip()[:120]}…"
             for page in gen._hand_written() for unit in _prose(page.read_text(encoding="utf-8"))
             for what, names in registries.items() if all(re.search(name, unit, re.I) for name in names)]
    assert not found, "generate these lists (docs/gen_docs.py's BLOCKS) or link to one:\n" + "\n".join(found)


def test_readme_is_short() -> None:
    size = len((ROOT / "README.md").read_bytes())
    assert size <= 10_240, f"README.md is {size} bytes; the limit is 10,240: move detail to docs/"


def test_readme_quick_start_is_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Quick start\n\n```\w*\n(.*?)```", readme, re.S)
    assert block is not None
    assert block.group(1).splitlines() == ["pip install . && exactodds", "pip install '.[test]' && pytest"]


def test_every_page_is_in_the_nav() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r":\s*([\w-]+\.md)\s*$", nav, re.M))
    pages = {p.name for p in DOCS.glob("*.md")}
    assert listed == pages


def test_no_citation_outside_the_repository() -> None:
    # The project must stand on its own: rules and published figures are cited from their
    # in-repository copies (docs/rules.md, tests/data/published.md), never from a sibling folder.
    offenders = []
    for folder in ("exactodds", "tests", "docs", "benchmarks", "examples", "tables"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in {".py", ".md", ".txt", ".toml"} and path != Path(__file__).resolve():
                text = path.read_text(encoding="utf-8")
                if "../shared" in text or "GAME.md" in text:
                    offenders.append(str(path.relative_to(ROOT)))
    for name in ("README.md", "pyproject.toml", "mkdocs.yml"):
        text = (ROOT / name).read_text(encoding="utf-8")
        if "../shared" in text or "GAME.md" in text:
            offenders.append(name)
    assert not offenders, f"cite docs/rules.md or tests/data/published.md instead: {offenders}"


def test_every_page_with_examples_is_collected() -> None:
    # A page's >>> examples run only if pytest collects the page: a page that gains examples
    # but is not in testpaths would show code that no test has ever run.
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert "--doctest-glob=*.md" in config["addopts"]
    pages = {f"docs/{p.name}" for p in DOCS.glob("*.md") if ">>> " in p.read_text(encoding="utf-8")}
    assert pages and pages <= set(config["testpaths"]), f"add to testpaths: {sorted(pages - set(config['testpaths']))}"


# ---------------------------------------------------------------------------------------------
# The map of the package (docs/development.md) is the package: its module table and its layer diagram

PACKAGE = ROOT / "exactodds"


def _development_section(heading: str) -> str:
    """The text of one section of docs/development.md, from its heading to the next heading."""
    text = (DOCS / "development.md").read_text(encoding="utf-8")
    return text.split(f"\n{heading}\n", 1)[1].split("\n#", 1)[0]


def _table_rows() -> list[tuple[str, str]]:
    """The module table's rows: the path each names (``exactodds/…``) and what it says, in the page's order."""
    return re.findall(r"^\| `(exactodds/[^`]+)` \| (.+) \|$", _development_section("## The package"), re.M)


def _files(folder: Path, pattern: str) -> set[str]:
    """The files of ``folder`` (at any depth) matching ``pattern``, by their path inside it."""
    return {p.relative_to(folder).as_posix() for p in folder.rglob(pattern)
            if p.is_file() and "__pycache__" not in p.parts}


def test_the_module_table_has_a_row_for_every_module_and_none_for_what_is_gone():
    """One row per top-level module and per subpackage (whose row names each of its modules), a row per kind of
    data file (``exactodds/data/*.toml``, naming each), nothing else; listed from the bottom layer up."""
    rows = _table_rows()
    table = dict(rows)
    assert len(table) == len(rows), "a path has two rows"
    modules = {f"exactodds/{name}" for name in _files(PACKAGE, "*.py") if "/" not in name}
    packages = {f"exactodds/{name.removesuffix('__init__.py')}" for name in _files(PACKAGE, "*/__init__.py")}
    data = {f"exactodds/{name}" for name in _files(PACKAGE, "*") if "/" in name and not name.endswith(".py")}
    # A game's module and its bets file are the registry's (the generated table of docs/games.md lists the games):
    # the table may name them, as it names the machinery they stand on, but a new game needs no row.
    games = {f"exactodds/games/{info.name}.py" for info in pkgutil.iter_modules([str(PACKAGE / "games")])
             if isinstance(getattr(importlib.import_module(f"exactodds.games.{info.name}"), "GAME", None), Game)}
    games |= {f"exactodds/data/{game.bets_file}" for game in GAMES if getattr(game, "bets_file", None)}
    have = (modules | packages | data) - games
    # A row of data is a pattern (exactodds/data/*.toml): it stands for the files it names.
    named = {f"{path.rpartition('/')[0]}/{name}" for path, text in table.items() if "*" in path
             for name in re.findall(r"`([^`]+)`", text) if fnmatch(name, path.rpartition("/")[2])}
    listed = {path for path in table if "*" not in path} | named
    assert not have - listed, f"add rows to the module table of docs/development.md: {sorted(have - listed)}"
    assert not listed - have - games, f"the module table names what does not exist: {sorted(listed - have - games)}"
    for package in packages:
        files = {p.name for p in (ROOT / package).glob("*.py")}  # its own modules (a subpackage has its own row)
        said = set(re.findall(r"`([\w/]+\.py)`", table[package]))
        registry = {g.rpartition("/")[2] for g in games if g.startswith(package)}
        unnamed = sorted(files - said - {"__init__.py"} - registry)
        assert not unnamed, f"the row of {package} does not name {unnamed}"
        assert not said - files, f"the row of {package} names what does not exist: {sorted(said - files)}"
    # From the bottom layer up: a row's layer (pyproject's import-linter layers, 0 the top) is never below the last.
    layers = _contract_layers("exactodds")
    layer_of = {name: i for i, layer in enumerate(layers) for name in re.split(r"[|:]", layer.replace(" ", ""))}
    names = [name for path, _ in rows
             if (name := path.removeprefix("exactodds/").removesuffix("/").removesuffix(".py")) in layer_of]
    late = [name for i, name in enumerate(names) if any(layer_of[name] > layer_of[up] for up in names[:i])]
    assert not late, f"list the module table from the bottom layer up (pyproject's layers): move up {late}"


def _contract_layers(container: str) -> list[str]:
    """The layers of pyproject's import-linter contract on ``container``, top first."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    return next(c["layers"] for c in config["contracts"] if c.get("containers") == [container])


def test_the_layer_diagram_is_the_import_linter_contract():
    """The diagram of docs/development.md draws pyproject's layers, top first, and the command line's inside."""
    block = re.search(r"\n```\n(.*?)```", _development_section("### Layers"), re.S)
    assert block is not None
    drawn, inside = [], []
    for line in block.group(1).splitlines():
        layer, _, note = line.partition("(inside: ")
        drawn.append(" ".join(layer.split()))
        inside += [note.removesuffix(")")] if note else []
    layers = [" ".join(layer.split()) for layer in _contract_layers("exactodds")]
    assert drawn == layers, "draw pyproject's layers in docs/development.md, top first:\n" + "\n".join(layers)
    assert inside == [cli := " > ".join(_contract_layers("exactodds.cli"))], f"draw cli's inside as (inside: {cli})"


def test_the_user_docs_name_no_internal_work_item():
    """The pages a user reads (all but the developers' guide) and the README say what the program does, never which
    of the project's work items made it."""
    import re

    pages = [p for p in DOCS.glob("*.md") if p.name != "development.md"] + [ROOT / "README.md"]
    found = [(p.name, m.group(0)) for p in pages for m in re.finditer(r"\b[Ii]ssues? #?\d+", p.read_text("utf-8"))]
    assert not found, found
