"""The shape of the package (docs/decisions.md, "The layout").

One-way layers, no import cycle, and every module where the README's map says. The size of
functions is ruff's (C901 and the PLR09 family, pyproject.toml), not a cap on modules."""

from __future__ import annotations

import re
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

    api and home over groups over rubbers and bidding over analysis over web over the engine,
    never back."""
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
    cycles = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            # A package importing its own submodule is how a package is built, not a cycle.
            if back and not imported.startswith(importer + "."):
                cycles.append((importer, *back))
    assert not cycles, cycles


def test_the_readme_names_every_package_and_module() -> None:
    readme = (ROOT / "README.md").read_text()
    where = readme[readme.index("## What is where") :]
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT)
        name = relative.parent if path.name == "__init__.py" else relative
        named = str(name) + ("/" if path.name == "__init__.py" else "")
        short = path.name if path.name != "__init__.py" else None
        assert named in where or (short and re.search(rf"`{re.escape(short)}`", where)), named
