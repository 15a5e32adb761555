"""The shape of the package (docs/decisions/architecture.md, "The layout").

One-way layers, no import cycle, and every module where the README's tree says. The size of
functions is ruff's (C901 and the PLR09 family, pyproject.toml), not a cap on modules."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorekeeper"


@pytest.mark.lint
def test_the_layers_import_one_way() -> None:
    """import-linter's contracts of pyproject.toml: the layers import one way.

    api and home over groups and cards over rubbers and bidding over the background work over
    web over the engine, never back."""
    lint = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert "0 broken" in lint.stdout, lint.stdout


def test_no_module_imports_itself_round_a_cycle() -> None:
    """Every import, at the top of a module or inside a function, leads nowhere back."""
    graph = grimp.build_graph("scorekeeper")
    # A package importing its own submodules is how a package is built, and how its init_app
    # registers the routes they add to its blueprint: those imports are no way back.
    for package in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(package)):
            if imported.startswith(package + "."):
                graph.remove_import(importer=package, imported=imported)
    cycles = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back:
                cycles.append((importer, *back))
    assert not cycles, cycles


TREE_DESCRIPTIONS = 26
"""The README tree's column of descriptions: a line indented this far carries one on."""


def the_readme_tree() -> set[str]:
    """Return every path the README's tree names, folders ending in "/".

    The tree is the first code block under "## What is where": two spaces of indent per level,
    a name, then its description; a line indented as far as the descriptions carries one on."""
    readme = (ROOT / "README.md").read_text()
    where = readme[readme.index("## What is where") :]
    tree = where.split("```")[1].splitlines()[1:]
    paths: set[str] = set()
    parents: list[str] = []
    for line in tree:
        indent = len(line) - len(line.lstrip())
        if not line.strip() or indent >= TREE_DESCRIPTIONS:
            continue
        depth = indent // 2
        parents[depth:] = [line.split()[0]]
        paths.add("".join(parents))
    return paths


def test_the_readme_names_every_package_and_module() -> None:
    tree = the_readme_tree()
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT)
        named = f"{relative.parent}/" if path.name == "__init__.py" else str(relative)
        if named not in tree:
            missing.append(named)
    assert missing == []


def test_the_readme_tree_names_only_what_is_there() -> None:
    assert sorted(path for path in the_readme_tree() if not (ROOT / path).exists()) == []
