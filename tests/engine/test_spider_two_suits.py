"""The two-suit portfolio (spider_best.PORTFOLIOS[2]): a tuning deal the old one left unknown at the
default budget is now won early, and the line it gives replays to a win in the engine."""

from __future__ import annotations

import engine
from engine.solver import solve_deal
from engine.solver import spider_best
from engine.solver.spider_best import MACRO_BY_RANK_SHORT, MACRO_COVER_JITTER, MACRO_COVER_OLDEST, MACRO_SHORT
from tests.support.spider_search import play_out

# Seed 2004 (tuning range 2001..2300): unknown at 200,000 nodes with MACRO_SHORT and MACRO_BY_RANK_SHORT.
SEED = 2004


def test_the_two_suit_portfolio_is_macro_short_and_the_two_cover_settings():
    assert spider_best.portfolio_for(2) == (MACRO_SHORT, MACRO_COVER_JITTER, MACRO_COVER_OLDEST)
    assert spider_best.depth_first_beside(2)


def test_a_deal_the_old_portfolio_left_unknown_is_won_and_replays_to_a_win(monkeypatch):
    verdict = solve_deal("spider", {"suits": 2}, SEED, 10_000)
    assert verdict.winnable and verdict.nodes == 5_379
    assert play_out({"suits": 2}, SEED, verdict.line).status == engine.WON
    # The old pair, with the same budget, does not find it (nor did it within 200,000).
    monkeypatch.setitem(spider_best.PORTFOLIOS, 2, (MACRO_SHORT, MACRO_BY_RANK_SHORT))
    assert solve_deal("spider", {"suits": 2}, SEED, 10_000).result == "unknown"
