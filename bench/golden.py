"""The golden file of the solver: the 100 seeded deals of the benchmark and their values.

``python -m bench.golden`` computes the values once and writes ``tests/engine/golden_deals.json``;
``tests/engine/test_golden.py`` checks a few of them on every run and all of them in ``make
fuzz``. The deals are :func:`bench.analysis.deal`'s, seeds 0 to 99, written out card by card
so the file stands on its own. The values were computed by the search as it stood before the
changes of issue 27 (the C core, every speed-up on, bisected to the value); the plain search
(every speed-up off) does not finish a full deal in hours, and is checked against the minimax
on endgames instead (tests/engine/test_analysis.py). A change to the search that changes one
of these values is wrong.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from bench.analysis import deal
from scorekeeper.engine.analysis import FAST, solve

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "engine" / "golden_deals.json"
SEEDS = range(100)


def entry(seed: int) -> dict[str, Any]:
    """One seeded deal, its value, and the trick boundaries the search took to find it."""
    position = deal(seed)
    search = position.search(FAST)
    started = time.process_time()
    value = solve(position, search)
    return {
        "seed": seed,
        "trump": str(position.trump),
        "leader": position.leader,
        "hands": [sorted(str(card) for card in hand) for hand in position.hands],
        "value": value,
        "nodes": search.nodes,
        "seconds": round(time.process_time() - started, 3),
    }


def main() -> int:
    """Write the golden file (some four minutes of processor time)."""
    deals = []
    for seed in SEEDS:
        deals.append(entry(seed))
        print(seed, deals[-1]["value"], deals[-1]["seconds"], file=sys.stderr, flush=True)
    GOLDEN.write_text(json.dumps({"deals": deals}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
