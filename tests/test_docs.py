"""The documentation cannot drift: the CLI reference is regenerated and compared, the README stays short."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _gen_cli() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_cli", DOCS / "gen_cli.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cli_reference_is_current() -> None:
    committed = (DOCS / "cli.md").read_text(encoding="utf-8")
    assert committed == _gen_cli().render(), (
        "docs/cli.md does not match the commands' --help; regenerate it with: python docs/gen_cli.py"
    )


def test_cli_reference_covers_every_command() -> None:
    from exactodds.cli import cli

    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    for name in cli.all_commands():
        assert f"## exactodds {name}\n" in text


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
