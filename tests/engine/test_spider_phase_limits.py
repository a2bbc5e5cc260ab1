"""Phase limits of Spider's best-first searches (spider_best's `limits`, spider_restarts.PHASE_LIMITS):
a position a deal led to begins a phase; once its phase has had its share of expansions the rest of
it is dropped; the root's phase has its own share while a deal is left; the limits come on only past
the first round, so a budget up to it searches as before; and past it they win four-suit deals the
searches without them do not."""

from __future__ import annotations

import engine
from engine.games.spider import RUNS_TO_WIN
from engine.solver import solve_deal, spider, spider_restarts
from engine.solver.spider import DEAL
from engine.solver.spider_best import MACRO_COVER_JITTER, best_first, interleave
from engine.solver.spider_board import apply_deal
from engine.solver.spider_restarts import FIRST_ROUND, PHASE_LIMITS, PhaseLimits, phase_limits_of
from tests.support.spider_search import deal_root, play_out


def _expanded(suits: int, seed: int, limits: list[int], budget: int, root=None):
    """Search MACRO_COVER_JITTER alone with `limits`: (expanded nodes, the last step that made each
    position the search generated, keyed by position key)."""
    start, deals, search = deal_root(suits, seed)
    root = root or start
    expanded = []
    made_by: dict[bytes, object] = {}

    def expand(node):
        expanded.append(node)
        for steps, child in search.expand_pruned(node):
            made_by.setdefault(search.key(child), steps[-1])
            yield steps, child

    interleave([best_first(root, deals, RUNS_TO_WIN, search.key, MACRO_COVER_JITTER, expand, limits)], budget)
    return expanded, made_by, search


def test_a_share_of_one_expands_each_phase_entry_and_nothing_else_of_its_phase():
    # Deal 101, four suits: with every phase after the root's limited to one expansion, each node
    # expanded past the root's phase is a position a deal led to; with no limits most are not.
    for limits, only_entries in (([0, 1, 1, 1, 1, 1], True), ([], False)):
        expanded, made_by, search = _expanded(4, 101, limits, 20_000)
        later = [node for node in expanded if node[2] > 0]
        assert later, "the search must get past the first deal for this test to mean anything"
        entries = [node for node in later if made_by[search.key(node)] == DEAL]
        assert (len(entries) == len(later)) is only_entries, (len(entries), len(later))


def test_a_phase_has_its_share_per_deals_left_and_the_root_phase_its_own():
    # The root's phase is capped only while a deal is left after it: from a position after the last
    # deal (a share of 1 for the root's phase and for no deal left) the search still expands on.
    root, deals, _ = deal_root(4, 101)
    node = root
    for deal in deals:
        node = apply_deal(node, deal)
    expanded, _, _ = _expanded(4, 101, [1, 1], 5_000, root=node)
    assert len(expanded) > 1
    # From the deal, a share of 1 for the root's phase: the root alone is expanded before the first deal.
    expanded, _, _ = _expanded(4, 118, [1], 5_000)
    assert sum(1 for n in expanded if n[2] == 0) == 1 and len(expanded) > 1
    # Only the last phase capped (a share of 1 with no deal left): every position expanded after the
    # last deal is one the last deal led to; the phases before it are searched freely.
    expanded, made_by, search = _expanded(4, 118, [0, 1], 10_000)  # 118 reaches the last deal sooner
    last = [n for n in expanded if n[2] == len(deals)]
    assert last and all(made_by[search.key(n)] == DEAL for n in last)
    assert any(made_by[search.key(n)] != DEAL for n in expanded if 0 < n[2] < len(deals))


def test_the_limits_come_on_past_the_first_round_for_four_suits_only():
    assert PHASE_LIMITS == {4: PhaseLimits(3_000, (300, 1_000, 5_000, 5_000, 5_000))}
    assert phase_limits_of(4) == [3_000, 300, 1_000, 5_000, 5_000, 5_000]
    assert phase_limits_of(1) == phase_limits_of(2) == []
    assert FIRST_ROUND == 200_000


def test_four_suits_within_the_first_round_search_as_before(monkeypatch):
    # Deal 101 is won in 21,922 nodes, within the first round: the same verdict, node for node, as with
    # no phase limits at all (limits on from the first node would search other positions).
    now = solve_deal("spider", {"suits": 4}, 101, 30_000)
    monkeypatch.setitem(spider_restarts.PHASE_LIMITS, 4, ())
    assert solve_deal("spider", {"suits": 4}, 101, 30_000) == now and now.nodes == 21_922


def test_past_the_first_round_the_limits_win_a_deal_the_searches_without_them_do_not(monkeypatch):
    # Deal 245, four suits: unknown at 400,000 nodes without the limits; with the first round cut to
    # 2,000 nodes (200,000 in the solver) the limits win it, and its line replays to a win.
    monkeypatch.setattr(spider, "FIRST_ROUND", 2_000)
    verdict = solve_deal("spider", {"suits": 4}, 245, 150_000)
    assert verdict.winnable and verdict.nodes == 50_862
    assert play_out({"suits": 4}, 245, verdict.line).status == engine.WON
    monkeypatch.setitem(spider_restarts.PHASE_LIMITS, 4, ())
    assert solve_deal("spider", {"suits": 4}, 245, verdict.nodes).result == "unknown"


def test_the_root_phases_share_wins_a_deal_stuck_before_its_first_deal(monkeypatch):
    # Deal 162, four suits: its searches spend nearly all their expansions before the first deal. With
    # the first round cut to 2,000 nodes the root's share of 3,000 wins it; the other limits alone do not.
    monkeypatch.setattr(spider, "FIRST_ROUND", 2_000)
    verdict = solve_deal("spider", {"suits": 4}, 162, 100_000)
    assert verdict.winnable and verdict.nodes == 59_719
    assert play_out({"suits": 4}, 162, verdict.line).status == engine.WON
    limits = PHASE_LIMITS[4]
    monkeypatch.setitem(spider_restarts.PHASE_LIMITS, 4, PhaseLimits(0, limits.by_deals_left))
    assert solve_deal("spider", {"suits": 4}, 162, 150_000).result == "unknown"
