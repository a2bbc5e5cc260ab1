"""Short restarts past the portfolio's first round (engine/solver/spider_restarts.py), and the
default budgets of one and two suits: a restart is its setting with the next salt, searched alone;
a budget up to the first round searches as before; deals the portfolio left unknown at 200,000
nodes are won by the restarts beside it, and their lines replay to a win in the engine."""

from __future__ import annotations

import engine
from engine.games.spider import COLUMN_NAMES, RUNS_TO_WIN
from engine.intents import DealIntent, MoveIntent
from engine.solver import default_budget, solve_deal
from engine.solver import spider, spider_restarts
from engine.solver.spider import DEAL
from engine.solver.spider_best import DOWN_HEAVY_JITTER, MACRO_COVER_JITTER, interleave
from engine.solver.spider_restarts import FIRST_SALT, RESTART_NODES, restarted_for, restarts
from tests.support.spider_search import deal_root, play_out, search_alone


def _restarts_alone(suits: int, seed: int, budget: int):
    """The suit count's series of restarts alone on a deal: (won, steps, nodes) as interleave answers."""
    root, deals, search = deal_root(suits, seed)
    w = restarted_for(suits)
    return interleave([restarts(root, deals, RUNS_TO_WIN, search.key, w, search.expand_pruned if w.macro else None)],
                      budget)


def _intents(steps):
    return [DealIntent() if step == DEAL else MoveIntent(COLUMN_NAMES[step[0]], COLUMN_NAMES[step[1]], step[2])
            for step in steps]


def test_one_and_two_suits_restart_their_jittered_setting_and_four_suits_do_not():
    assert restarted_for(1) == DOWN_HEAVY_JITTER and restarted_for(2) == MACRO_COVER_JITTER
    assert restarted_for(4) is None
    assert FIRST_SALT not in (DOWN_HEAVY_JITTER.salt, MACRO_COVER_JITTER.salt)


def test_a_restart_is_its_setting_with_the_next_salt_searched_alone():
    # Tuning deal 2625 (one suit, unknown at 200,000 nodes before): salts 11 and 12 do not win
    # within a restart's 10,000 nodes, salt 13 wins in 1,850; so the series wins in its third restart.
    for salt in (FIRST_SALT, FIRST_SALT + 1):
        assert search_alone(1, 2625, DOWN_HEAVY_JITTER._replace(salt=salt), RESTART_NODES)[0] is None
    won, steps, nodes = search_alone(1, 2625, DOWN_HEAVY_JITTER._replace(salt=FIRST_SALT + 2), RESTART_NODES)
    assert won is True and nodes == 1_850
    assert _restarts_alone(1, 2625, 50_000) == (True, steps, 2 * RESTART_NODES + 1_850)
    assert play_out({"suits": 1}, 2625, _intents(steps)).status == engine.WON


def test_a_budget_up_to_the_first_round_searches_as_before(monkeypatch):
    # Deal 107 (one suit) is won in 10,189 nodes by the portfolio: the same verdict with no restarts at all.
    now = solve_deal("spider", {"suits": 1}, 107, 20_000)
    monkeypatch.setitem(spider_restarts.RESTARTED, 1, None)
    assert solve_deal("spider", {"suits": 1}, 107, 20_000) == now and now.nodes == 10_189


def test_restarts_beside_the_portfolio_win_a_deal_it_left_unknown(monkeypatch):
    # Tuning deal 3144 (two suits) was unknown even at 2,000,000 nodes before the restarts; the
    # first restart (salt 11) wins it alone in 9,799 nodes. With the first round cut to 2,000 nodes
    # (200,000 in the solver: some ten seconds here) the restarts take every fifth turn after it:
    # they win in their 20th turn, after 20 turns of 500 nodes of each of the other four searches.
    monkeypatch.setattr(spider, "FIRST_ROUND", 2_000)
    assert _restarts_alone(2, 3144, 20_000)[2] == 9_799
    verdict = solve_deal("spider", {"suits": 2}, 3144, 100_000)
    assert verdict.winnable and verdict.nodes == 2_000 + 4 * 20 * 500 + 9_799
    assert play_out({"suits": 2}, 3144, verdict.line).status == engine.WON


def test_one_and_two_suits_default_to_a_million_nodes_and_four_suits_to_200_000():
    budgets = {suits: default_budget(engine.initial_state("spider", {"suits": suits}, 1)) for suits in (1, 2, 4)}
    assert budgets == {1: 1_000_000, 2: 1_000_000, 4: 200_000}
    assert spider_restarts.FIRST_ROUND == 200_000
