"""One suit's tie-breaking copies of DOWN_HEAVY (`DOWN_HEAVY_JITTER`, `_B` in spider_best): on two
tuning deals the portfolio left unknown at 200,000 nodes, a copy wins alone where the plain
DOWN_HEAVY does not, the portfolio with them wins in a few thousand nodes, and the line replays."""

from __future__ import annotations

import engine
from engine.solver import solve_deal
from engine.solver.spider_best import BASE, DOWN_HEAVY, DOWN_HEAVY_JITTER, DOWN_HEAVY_JITTER_B, PORTFOLIOS
from tests.support.spider_search import play_out, search_alone

# One-suit tuning deals (outside the evaluation seeds 101..1100), unknown at the default budget of
# 200,000 nodes with the portfolio before the copies (DOWN_HEAVY, BASE), and the copy that wins
# each alone within 2,000 nodes: the portfolio with them wins 2128 in 9,172 nodes, 2829 in 7,336.
WON_BY_COPY = {2128: DOWN_HEAVY_JITTER, 2829: DOWN_HEAVY_JITTER_B}


def _alone(seed: int, weights, budget: int):
    """One single-move setting's best-first search alone on a one-suit deal: (won, steps, nodes)."""
    return search_alone(1, seed, weights, budget)


def test_one_suit_runs_the_tie_breaking_copies_beside_the_plain_settings():
    assert PORTFOLIOS[1] == (DOWN_HEAVY, BASE, DOWN_HEAVY_JITTER, DOWN_HEAVY_JITTER_B)
    for copy in (DOWN_HEAVY_JITTER, DOWN_HEAVY_JITTER_B):
        assert copy._replace(jitter=0, salt=0) == DOWN_HEAVY


def test_the_tie_breaking_copies_win_alone_where_the_plain_setting_does_not():
    for seed, copy in WON_BY_COPY.items():
        won, _, nodes = _alone(seed, copy, 10_000)
        assert won is True and nodes < 2_000
        assert _alone(seed, DOWN_HEAVY, 10_000)[0] is None


def test_deals_unknown_before_are_won_and_their_lines_replay_to_a_win():
    for seed in WON_BY_COPY:
        verdict = solve_deal("spider", {"suits": 1}, seed, 20_000)
        assert verdict.result == "winnable" and verdict.nodes < 10_000
        assert play_out({"suits": 1}, seed, verdict.line).status == engine.WON
