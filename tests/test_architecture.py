"""The shape of the package (docs/decisions.md, "The layout"): one-way layers, no import cycle,
no module too long to read, and every module where the README's map says."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorekeeper"


def test_the_layers_import_one_way() -> None:
    """import-linter's contracts of pyproject.toml: api and home over groups over rubbers
    over web over the engine, never back."""
    lint = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert "0 broken" in lint.stdout, lint.stdout


def test_the_readme_names_every_package_and_module() -> None:
    readme = (ROOT / "README.md").read_text()
    where = readme[readme.index("## What is where") :]
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT)
        name = relative.parent if path.name == "__init__.py" else relative
        named = str(name) + ("/" if path.name == "__init__.py" else "")
        short = path.name if path.name != "__init__.py" else None
        assert named in where or (short and re.search(rf"`{re.escape(short)}`", where)), named
