"""Figures over many solves: the winnable share with a 95% Wilson interval, and solve times.

Shared by `arena solve --stats` and bench/bench_solver.py so both print the same table.
"""

from __future__ import annotations

import math
import time
from typing import Any
from collections.abc import Callable

from msgspec import Struct

from ..decider import initial_state
from ..errors import RuleError
from ..state import GameState
from . import Verdict, solve
from .search import UNKNOWN, UNWINNABLE, WINNABLE


def wilson(successes: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a share; honest at 0% and 100%, unlike p +/- 1.96 sd."""
    if total == 0:
        return 0.0, 1.0
    p = successes / total
    centre = p + z * z / (2 * total)
    spread = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total))
    denominator = 1 + z * z / total
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


class Figures(Struct):
    game: str
    variant: dict[str, Any]  # Any: a variant as JSON values; the game's variant_type checks them
    seeds: range
    counts: dict[str, int]
    times: list[float]  # seconds per deal, in seed order
    nodes: list[int]

    def row(self) -> str:
        total = len(self.times)
        wins = self.counts[WINNABLE]
        low, high = wilson(wins, total)
        ordered = sorted(self.times)
        p90 = ordered[min(total - 1, int(0.9 * total))]
        p99 = ordered[min(total - 1, int(0.99 * total))]
        label = ",".join(f"{k}={v}" for k, v in self.variant.items()) or "-"
        seeds = f"{self.seeds.start}..{self.seeds.stop - 1}"
        return (f"{self.game:14} {label:13} {seeds:>12} {100 * wins / total:6.1f}% [{100 * low:5.1f}, {100 * high:5.1f}]"
                f" {self.counts[UNWINNABLE]:>6} {self.counts[UNKNOWN]:>6} {1000 * ordered[total // 2]:>9.1f}"
                f" {1000 * p90:>9.1f} {1000 * p99:>9.1f} {1000 * ordered[-1]:>9.1f} {sorted(self.nodes)[total // 2]:>8}")


HEADER = (f"{'game':14} {'variant':13} {'seeds':>12} {'winnable [95% interval]':>24} {'unwin':>6} {'unknown':>6}"
          f" {'median ms':>9} {'p90 ms':>9} {'p99 ms':>9} {'max ms':>9} {'nodes':>8}")


def measure(game: str, variant: dict[str, Any], seeds: range, budget: int | None = None,  # Any: a variant as JSON values
            on_deal: Callable[[int, GameState, Verdict, float], None] | None = None) -> Figures | RuleError:
    """Solve every seed; `on_deal(seed, state, verdict, seconds)` is called after each."""
    figures = Figures(game, variant, seeds, {WINNABLE: 0, UNWINNABLE: 0, UNKNOWN: 0}, [], [])
    for seed in seeds:
        state = initial_state(game, variant, seed)
        if isinstance(state, RuleError):
            return state
        started = time.perf_counter()
        verdict = solve(state, budget)
        elapsed = time.perf_counter() - started
        if isinstance(verdict, RuleError):
            return verdict
        figures.counts[verdict.result] += 1
        figures.times.append(elapsed)
        figures.nodes.append(verdict.nodes)
        if on_deal is not None:
            on_deal(seed, state, verdict, elapsed)
    return figures
