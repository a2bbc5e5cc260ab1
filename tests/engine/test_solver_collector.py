"""The solvers make no reference cycles, which is what lets a process that only solves pause Python's cyclic
collector during a search (services/runtime/solver_pool.py: a full collection walks every position a search keeps, a
sixth of a long Spider search's CPU). A search that made cycles would, with the collector paused, hold their
memory until the search ended: this fails first."""

from __future__ import annotations

import gc

import pytest

from engine.solver import solvable_games, solve_deal

# Each solver, and the variants that take other paths through it (Spider's suit counts, the Wizard's last
# pass, which only limited redeals reach); small budgets: a cycle would show in the first hundred nodes.
CASES = [(game, {}) for game in solvable_games()] + [
    ("spider", {"suits": 1}), ("spider", {"suits": 2}), ("wizard", {"redeals": 0}), ("wizard", {"redeals": 1}),
]


@pytest.mark.parametrize(("game", "variant"), CASES, ids=[f"{g}-{v}" for g, v in CASES])
def test_a_search_leaves_no_garbage_cycles(game, variant):
    gc.collect()
    was_on = gc.isenabled()
    gc.disable()
    try:
        verdicts = [solve_deal(game, variant, seed, 3_000) for seed in (1, 2, 3)]
        found = gc.collect()
    finally:
        if was_on:
            gc.enable()
    assert all(not isinstance(v, Exception) and v.nodes > 0 for v in verdicts)
    assert found == 0, f"{found} objects in cycles after three {game} searches"


def test_spider_restarts_leave_no_garbage_cycles(monkeypatch):
    """The restarts past the first round (spider_restarts) drop each restart's search unfinished when the next
    begins: with the first round cut to 1,000 nodes the searches above reach them within their budget."""
    from engine.solver import spider

    monkeypatch.setattr(spider, "FIRST_ROUND", 1_000)
    gc.collect()
    gc.disable()
    try:
        verdicts = [solve_deal("spider", {"suits": suits}, 299, 30_000) for suits in (2, 4)]
        found = gc.collect()
    finally:
        gc.enable()
    assert all(v.nodes > 1_000 for v in verdicts)  # past the first round, into the restarts
    assert found == 0, f"{found} objects in cycles after searches with restarts"


def test_the_check_sees_a_cycle_when_there_is_one():
    """The same check on a search that does make a cycle (a closure that calls itself), so the test above
    can fail."""
    def make_cycle() -> None:
        def walk(n: int) -> int:
            return 0 if n == 0 else walk(n - 1)
        walk(3)

    gc.collect()
    gc.disable()
    try:
        make_cycle()
        found = gc.collect()
    finally:
        gc.enable()
    assert found > 0
