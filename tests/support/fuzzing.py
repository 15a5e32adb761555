"""What every fuzz test shares.

Hypothesis' settings and generated cases detached from their strategy.

Schemathesis hands the same object to every case drawn from a ``const`` or ``enum`` schema (its
JSON-Schema generator builds them with ``st.just`` and ``st.sampled_from``): a negative body of
an operation whose only valid body is ``{}`` is one dict, shared by every case that draws it. A
test that aims such a case in place (puts a real id into its body) edits the strategy's value,
and the next case that draws it sees the aimed body, which its negative-mode filter now
rejects: Hypothesis sees the same choices draw differently and stops with
``FlakyStrategyDefinition``. So a case is aimed only after :func:`detach` gave it copies of its
own; what a strategy draws for a seed then depends on the seed alone.
"""

from __future__ import annotations

import copy
import os
from collections.abc import MutableMapping
from typing import Any

from hypothesis import HealthCheck, seed, settings

FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "100"))
"""Generated cases per API operation and per HTML form; ``make fuzz`` runs many more."""

FUZZ_SETTINGS = settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    # A failure prints the case and the @reproduce_failure line that replays it; Hypothesis'
    # database (.hypothesis/ in the checkout) also replays it first on the next run.
    print_blob=True,
    # CI tries the same cases on every run, so a submission is never refused by a case found by
    # chance in code it did not touch; every other run (make test, make fuzz) tries new ones.
    derandomize=os.environ.get("CI") == "true",
)

FUZZ_SEED = int(os.environ["FUZZ_SEED"]) if os.environ.get("FUZZ_SEED") else None
"""The seed of every fuzz test's cases, when set: CI gives each database's run its own, so the
two runs try different cases (tests/README.md)."""


def fuzzed(test: Any) -> Any:
    """Decorate a ``@given`` test with FUZZ_SETTINGS, and FUZZ_SEED's seed when it is set."""
    test = FUZZ_SETTINGS(test)
    return test if FUZZ_SEED is None else seed(FUZZ_SEED)(test)


GENERATED_PARTS = ("path_parameters", "headers", "cookies", "query", "body")
"""The parts of a schemathesis case that its strategy generated."""


def detach(case: Any) -> Any:
    """Give ``case`` copies of its generated parts; return the case.

    Changing them then leaves the strategy's own values as they were drawn."""
    for name in GENERATED_PARTS:
        value = getattr(case, name, None)
        if isinstance(value, MutableMapping | list):
            setattr(case, name, copy.deepcopy(value))
    return case
