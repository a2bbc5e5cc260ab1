"""Timing helpers shared by the benchmarks."""

from __future__ import annotations

import gc
import time


def per_second(items: list, budget: float, *actions, chunks: int = 20) -> list[float]:
    """Items per second of each action over the same `items`, interleaved, within about `budget` s.

    The items are cut into fixed chunks; each round times every action on each chunk in turn (the
    order alternating between rounds), and each (action, chunk) keeps its fastest time. A rate is
    all items over the sum of an action's best chunk times. On a shared machine a slow pass
    measures the neighbours; interleaving gives the figures compared in a ratio the same chances.
    """
    if not items:
        return [float("nan")] * len(actions)
    size = -(-len(items) // min(chunks, len(items)))
    parts = [items[i : i + size] for i in range(0, len(items), size)]
    best = [[float("inf")] * len(parts) for _ in actions]
    gc.collect()
    gc.disable()  # as timeit does: a collection would land on whichever figure triggers it
    try:
        started, rounds = time.perf_counter(), 0
        while rounds < 2 or time.perf_counter() - started < budget:
            order = list(enumerate(actions))
            for index, part in enumerate(parts):
                for which, action in order if rounds % 2 == 0 else order[::-1]:
                    part_started = time.perf_counter()
                    for item in part:
                        action(item)
                    best[which][index] = min(best[which][index], time.perf_counter() - part_started)
            rounds += 1
    finally:
        gc.enable()
    return [len(items) / sum(times) for times in best]
