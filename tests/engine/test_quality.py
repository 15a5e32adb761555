"""The engine stays pure and strictly typed: no web or database import, mypy --strict clean."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from mypy import api as mypy_api

ENGINE = Path(__file__).resolve().parents[2] / "scorekeeper" / "engine"


def test_the_engine_imports_no_flask_or_sqlalchemy() -> None:
    imported: set[str] = set()
    for source in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Import):
                imported.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    assert imported, "no imports found: wrong folder?"
    assert not imported & {"flask", "flask_sqlalchemy", "sqlalchemy", "wtforms", "flask_wtf"}


@pytest.mark.lint
def test_mypy_strict_passes_on_the_engine() -> None:
    report, errors, status = mypy_api.run(["--strict", "--no-incremental", str(ENGINE)])
    assert status == 0, report + errors
    assert "Success: no issues found" in report
