"""How an operation is declared: its summary, its body, and its decorators' order."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from scorekeeper.api.operations import EDIT_KEY, ApiBlueprint, refusals


class Body(BaseModel):
    """A body."""

    key: str = ""


def test_the_summary_is_the_docstrings_first_paragraph_and_a_body_may_be_optional() -> None:
    bp = ApiBlueprint("example", __name__)

    @bp.operation("DELETE /examples/<example_id>", "deleteExample")
    @bp.takes(Body | None, security=EDIT_KEY)
    @bp.answers(200, "Gone.", Body, refusals(key="No key."))
    def delete(example_id: str) -> str:
        """Delete an example,
        on two lines.

        What it does besides."""  # noqa: D205  a summary on two lines, as a long one is
        return example_id

    (operation,) = bp.operations
    assert (operation.method, operation.rule) == ("delete", "/examples/<example_id>")
    assert operation.summary == "Delete an example, on two lines."
    assert (operation.body, operation.body_required, operation.security) == (Body, False, EDIT_KEY)
    assert operation.endpoint == "example.delete"
    assert list(operation.responses) == [200, 400, 403, 413, 422]


def test_a_declaration_above_its_operation_is_refused() -> None:
    bp = ApiBlueprint("example", __name__)
    with pytest.raises(TypeError, match="below its @operation"):

        @bp.takes(Body)
        @bp.operation("POST /examples", "createExample")
        @bp.answers(201, "Made.", Body)
        def create() -> str:
            """Make an example."""
            return ""


def test_an_operation_without_a_docstring_is_refused() -> None:
    bp = ApiBlueprint("example", __name__)
    with pytest.raises(TypeError, match="no docstring"):

        @bp.operation("GET /examples", "listExamples")
        @bp.answers(200, "The examples.", Body)
        def examples() -> str:
            return ""
