"""Solver time per deal and the winnable share, for The Wish and Patient Pairs.

Baseline in the same process: dealing the same seeds (initial_state alone), so the ratio shows what
solving costs on top of setting the deal up.
"""

from __future__ import annotations

import statistics
import time

import engine
from engine.solver import solve

CASES = [("wish", {"mode": "standard"}), ("wish", {"mode": "open"}), ("patient-pairs", {"piles": 13}),
         ("patient-pairs", {"piles": 8})]


def _solve_times(game: str, variant: dict, seeds: range) -> tuple[list[float], int, list[float]]:
    solve_times, deal_times, wins = [], [], 0
    for seed in seeds:
        started = time.perf_counter()
        state = engine.initial_state(game, variant, seed)
        dealt = time.perf_counter()
        solution = solve(state)
        done = time.perf_counter()
        deal_times.append(dealt - started)
        solve_times.append(done - dealt)
        wins += solution.winnable
    return solve_times, wins, deal_times


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    print(f"{'game':15} {'variant':18} {'deals':>6} {'winnable':>9} {'median ms':>10} {'p90 ms':>8} "
          f"{'max ms':>8} {'solve/deal':>10}")
    for game, variant in CASES:
        count = 200 if quick else (2000 if game == "wish" else 300)
        times, wins, deals = _solve_times(game, variant, range(1, count + 1))
        ordered = sorted(times)
        ratio = statistics.median(times) / statistics.median(deals)
        label = ",".join(f"{k}={v}" for k, v in variant.items())
        print(f"{game:15} {label:18} {count:>6} {100 * wins / count:>8.1f}% {1000 * statistics.median(times):>10.3f} "
              f"{1000 * ordered[int(0.9 * count)]:>8.2f} {1000 * ordered[-1]:>8.2f} {ratio:>9.1f}x")
