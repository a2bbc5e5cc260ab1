"""The full-knowledge solvers over fixed seed ranges: winnable share with a 95% Wilson interval,
unwinnable and unknown counts, time per deal (median, p90, p99, max) and median search nodes.

The seed ranges are fixed so two runs (or two branches) compare like for like; verdicts depend
on the node budget only, never on the machine, so only the times move between runs. Baseline in
the same process: dealing the same seeds (initial_state alone), printed as time per deal, so the
solve times can be read as a ratio to it. `--quick` solves a short range of each (a few minutes
in all); the full run is the figures table of the issue (Spider 1,000 deals per suit count,
Wading Pool 100,000 deals: long; run it alone).
"""

from __future__ import annotations

import statistics
import time

import engine
from engine.solver.figures import HEADER, measure
from engine.compiled import describe
from services.runtime.solver_pool import collector_paused

# (game, variant, full seed count, quick seed count)
CASES = [
    ("wish", {"mode": "standard"}, 2000, 200),
    ("wish", {"mode": "open"}, 2000, 200),
    ("patient-pairs", {"piles": 13}, 300, 100),
    ("patient-pairs", {"piles": 8}, 300, 100),
    ("wading-pool", {}, 100_000, 1000),
    ("spider", {"suits": 1}, 1000, 20),
    ("spider", {"suits": 2}, 1000, 20),
    ("spider", {"suits": 4}, 1000, 10),
    ("wizard", {"redeals": None}, 1000, 30),
    ("wizard", {"redeals": 2}, 1000, 10),
    ("wizard", {"redeals": 1}, 1000, 10),
    ("wizard", {"redeals": 0}, 1000, 10),
]
QUICK_BUDGET = {"spider": 20_000, "wizard": 20_000}  # per deal, so --quick stays short


def _deal_time(game: str, variant: dict, seeds: range) -> float:
    times = []
    for seed in seeds:
        started = time.perf_counter()
        engine.initial_state(game, variant, seed)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    print(describe())
    print(HEADER + f" {'deal ms':>8}")
    for game, variant, full, short in CASES:
        seeds = range(1, (short if quick else full) + 1)
        budget = QUICK_BUDGET.get(game) if quick else None
        with collector_paused():  # as the solver worker and `arena solve` run
            figures = measure(game, variant, seeds, budget)
        print(figures.row() + f" {1000 * _deal_time(game, variant, seeds[:50]):>8.2f}", flush=True)
