"""The exact analysis' figures: a full deal's value and a whole record's analysis.

Each is set against the plain search (every speed-up off, pure Python) timed in the same run
on endgames of 6 tricks. The budgets are of processor time (issue 27: a deal's value median
0.1 s, p95 1 s, worst 5 s; a record's p95 3 s), which a busy machine does not stretch as it
does the wall clock; the table gives both.

``python -m bench.analysis`` prints them alone; ``make bench`` adds them to the other figures.
Deals and records come from fixed seeds (the deals are those of tests/engine/golden_deals.json),
so two runs measure the same work. A deal that passes ``BENCH_ANALYSIS_CAP`` seconds is stopped
and counted at the cap (the figure then understates the tail, and says how many were stopped).
"""

from __future__ import annotations

import json
import os
import random
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench.figures import Figure, figure, table
from scorekeeper.engine import RuleSet, Suit, deck, legal_cards, trick_winner, verify_record
from scorekeeper.engine.analysis import (
    FAST,
    PLAIN,
    Options,
    OutOfTime,
    Position,
    analyse_record,
    compiled_core,
    solve,
)

DEALS = int(os.environ.get("BENCH_ANALYSIS_DEALS", "100"))
RECORDS = int(os.environ.get("BENCH_ANALYSIS_RECORDS", "20"))
ENDGAMES = int(os.environ.get("BENCH_ANALYSIS_ENDGAMES", "10"))
CAP = float(os.environ.get("BENCH_ANALYSIS_CAP", "300"))
RULES = RuleSet()
PYTHON = Options(compiled=False)


def deal(seed: int, cards: int = 10) -> Position:
    """A random deal of ``cards`` a hand (the first ``4 * cards`` of a shuffled deck)."""
    rnd = random.Random(seed)
    order = list(deck(RULES))
    rnd.shuffle(order)
    hands = tuple(frozenset(order[cards * seat : cards * seat + cards]) for seat in range(4))
    return Position(rnd.choice(list(Suit)), rnd.randrange(4), hands, RULES)


def played_out(seed: int) -> tuple[str, int, list[list[str]]]:
    """A full deal played out with random legal cards: trump, first leader, the 10 tricks."""
    position = deal(seed)
    rnd = random.Random(seed + 1)
    hands = [set(hand) for hand in position.hands]
    leader = position.leader
    tricks = []
    for _ in range(10):
        trick = []
        for step in range(4):
            seat = (leader + step) % 4
            allowed = sorted(legal_cards(hands[seat], trick[0].suit if trick else None), key=str)
            card = rnd.choice(allowed)
            hands[seat].discard(card)
            trick.append(card)
        tricks.append([str(card) for card in trick])
        leader = (leader + trick_winner(trick, position.trump, RULES)) % 4
    return str(position.trump), position.leader, tricks


CPU: list[float] = []
"""The processor seconds of each timed run, beside its wall-clock seconds: on a shared machine
the two part, and the table says both."""


def _timed(work: Callable[[float], object]) -> tuple[float, bool]:
    """Seconds ``work(deadline)`` took, and whether it finished within the cap."""
    start, cpu = time.perf_counter(), time.process_time()
    try:
        work(time.monotonic() + CAP)
    except OutOfTime:
        CPU.append(time.process_time() - cpu)
        return CAP, False
    CPU.append(time.process_time() - cpu)
    return time.perf_counter() - start, True


def _p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _value(position: Position, options: Options) -> Callable[[float], object]:
    return lambda deadline: solve(position, position.search(options), deadline)


def _record(seed: int) -> Callable[[float], object]:
    trump, leader, tricks = played_out(seed)
    record = verify_record(trump, leader, tricks, RULES)

    def work(deadline: float) -> object:
        analysis = analyse_record(record, RULES, FAST, deadline)
        if not analysis.complete:
            raise OutOfTime
        return analysis

    return work


def endgame_ratio(options: Options) -> tuple[float, float, float]:
    """Median seconds on the 6-trick endgames: with ``options``, plain, and the plain ÷ it."""
    fast, plain = [], []
    for seed in range(ENDGAMES):
        position = deal(1000 + seed, 6)
        fast.append(_timed(_value(position, options))[0])
        plain.append(_timed(_value(position, PLAIN))[0])
    median_fast, median_plain = statistics.median(fast), statistics.median(plain)
    return median_fast, median_plain, median_plain / median_fast


def resident_peak() -> float:
    """The process's resident high-water mark in MiB, huge pages and all (Linux's VmHWM).

    Not getrusage's ru_maxrss: Linux carries that over exec from the process that forked this
    one, so a child of ``make bench`` (some 340 MiB, with its 10,000 rubbers) would report the
    parent's size, not its own."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # not Linux


def analysis_figures() -> list[Figure]:
    """The figures of docs/performance.md's exact analysis rows."""
    core = "C core" if compiled_core() else "pure Python (the C core was not built)"
    fast6, plain6, ratio = endgame_ratio(FAST)
    python6, _, python_ratio = endgame_ratio(PYTHON)
    endgames = (
        f"6-trick endgames: {fast6 * 1000:.1f} ms ({core}), {python6 * 1000:.0f} ms (Python, "
        f"speed-ups on, {python_ratio:.0f}x the plain), plain search {plain6 * 1000:.0f} ms"
    )
    CPU.clear()
    values = [_timed(_value(deal(seed), FAST)) for seed in range(DEALS)]
    value_cpu = CPU[:]
    CPU.clear()
    records = [_timed(_record(seed)) for seed in range(RECORDS)]
    record_cpu = CPU[:]
    figures = [figure("analysis: 6-trick endgame, plain ÷ solver", ratio, 10, ">=", "", endgames)]
    for name, runs, cpu, budgets, what in (
        (
            "analysis: a full deal's value",
            values,
            value_cpu,
            {"median": 0.1, "p95": 1.0, "worst": 5.0},
            f"{DEALS} random deals",
        ),
        (
            "analysis: a whole record, 40 positions and best cards",
            records,
            record_cpu,
            {"median": 1.0, "p95": 3.0},
            f"{RECORDS} random records (random legal play)",
        ),
    ):
        times = [seconds for seconds, _ in runs]
        stopped = sum(1 for _, done in runs if not done)
        detail = (
            f"{what}, {core}, processor time; wall clock median {statistics.median(times):.2f}"
            f" s, p95 {_p95(times):.2f} s, worst {max(times):.2f} s"
            + (f"; {stopped} stopped at the {CAP:.0f} s cap" if stopped else "; none stopped")
        )
        measured = {"median": statistics.median(cpu), "p95": _p95(cpu), "worst": max(cpu)}
        for which, budget in budgets.items():
            figures.append(figure(f"{name}, {which}", measured[which], budget, "<=", "s", detail))
    peak = resident_peak()
    figures.append(
        figure(
            "analysis: peak memory of the process",
            peak,
            256,
            "<=",
            "MiB",
            "resident set high-water mark of the process that ran only the analyses above (make"
            " bench runs them in a process of their own): the interpreter, the engine and the"
            " tables as resident, a table on huge pages counted whole",
        )
    )
    return figures


def main() -> int:
    """Print the table, or with ``--json`` the figures as JSON (how ``make bench`` takes them)."""
    figures = analysis_figures()
    print(json.dumps(figures) if "--json" in sys.argv[1:] else table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
