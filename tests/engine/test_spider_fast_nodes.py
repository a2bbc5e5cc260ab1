"""Cheaper Spider nodes, the same search: the fast paths of spider_board and spider.py against
plain references on positions reached by random play, and four-suit deals that search exactly the
nodes they did before (counts recorded with the code before these paths), their lines replaying
to a win in the engine."""

from __future__ import annotations

import random

import engine
from engine.solver import solve_deal
from engine.solver.spider import _tops
from engine.solver.spider_best import moves
from engine.solver.spider_board import RUN, _FULL, apply_deal, apply_move, run_length, run_lengths
from tests.support.spider_search import deal_root


def _apply_move_before(node, src, dst, count):
    """apply_move as it was written before (min and max, _ends_in_run as a call)."""
    cols, downs, dealt, cleared = node
    source = cols[src]
    rest = source[:-count]
    moved = cols[dst] + source[-count:]
    dst_down = downs[dst]
    if len(moved) - dst_down >= RUN and _FULL.get(moved[-1]) == moved[-RUN:]:
        moved = moved[:-RUN]
        dst_down = min(dst_down, max(len(moved) - 1, 0))
        cleared += 1
    new_cols, new_downs = list(cols), list(downs)
    new_cols[src], new_cols[dst] = rest, moved
    new_downs[src], new_downs[dst] = min(downs[src], max(len(rest) - 1, 0)), dst_down
    return tuple(new_cols), tuple(new_downs), dealt, cleared


def _onto_before(tops, rank):
    """What a rank's list of _tops gave before: the columns whose top is of `rank`, suit by suit."""
    for suit in range(4):
        for dst in tops.get(suit * 16 + rank, ()):
            yield dst, suit * 16 + rank


def _random_positions(suits, seed, count):
    """Positions of a random walk over the best-first pass's single moves from deal `seed`."""
    node, deals, _ = deal_root(suits, seed)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        choices = moves(node[0], node[1], node[2] < len(deals))
        if not choices:
            node = deal_root(suits, seed)[0]
            continue
        move = rng.choice(choices)
        if move == "deal":
            node = apply_deal(node, deals[node[2]])
        else:
            assert apply_move(node, *move) == _apply_move_before(node, *move)
            node = apply_move(node, *move)
        out.append(node)
    return out


def _walked_positions():
    """(search, node) over random walks of one, two and four suits, the search of the walk's deal."""
    for suits in (1, 2, 4):
        search = deal_root(suits, 7 + suits)[2]
        for node in _random_positions(suits, 7 + suits, 600):
            yield search, node


def test_the_fast_paths_give_what_the_plain_code_gives():
    laterals = 0
    for search, node in _walked_positions():
        cols, downs = node[0], node[1]
        runs = run_lengths(cols, downs)
        assert runs == [run_length(col, down) for col, down in zip(cols, downs)]
        tops, empty, by_rank = _tops(cols, downs)
        for src, dst, count in search.lateral(node, (tops, empty, by_rank), runs):
            middle = apply_move(node, src, dst, count)  # expand_pruned takes dst's run as count
            assert run_length(middle[0][dst], middle[1][dst]) == count
            laterals += 1
        assert empty == [i for i, col in enumerate(cols) if not col]
        for rank in range(1, 15):
            assert list(by_rank.get(rank, ())) == list(_onto_before(tops, rank))
    assert laterals > 100  # the walk reaches positions with lateral moves


def test_the_pairs_left_out_are_the_node_itself():
    # expand_pruned leaves out a lateral move followed by the same run moved straight back (the
    # first move clearing nothing): each such pair would give the node being expanded, which
    # every search has already seen, so leaving it out changes no count and no order.
    left_out = 0
    for search, node in _walked_positions():
        cols, downs = node[0], node[1]
        tops = _tops(cols, downs)
        runs = run_lengths(cols, downs)
        expected = []
        for src, dst, count in search.lateral(node, tops, runs):
            middle = apply_move(node, src, dst, count)
            after = list(runs)
            after[src], after[dst] = run_length(middle[0][src], middle[1][src]), count
            for second in search.progress_at(middle, src, after):
                if second == (dst, src, count) and middle[3] == node[3]:
                    assert apply_move(middle, *second) == node
                    left_out += 1
                else:
                    expected.append(((src, dst, count), second))
        children = list(search.expand_pruned(node))
        assert sorted(steps for steps, _ in children if len(steps) == 2) == sorted(expected)  # by gain
        assert all(child != node for _, child in children)
    assert left_out > 10  # the walk reaches such pairs (20 of them)


def test_four_suit_deals_search_the_nodes_they_did_and_replay_to_a_win():
    # Tuning deals 2001, 2017 and 2018 at the four-suit default budget: nodes as the code before
    # these fast paths counted them (the same searches, only cheaper nodes).
    for seed, nodes in ((2001, 10_221), (2017, 9_294), (2018, 14_070)):
        verdict = solve_deal("spider", {"suits": 4}, seed)
        assert (verdict.result, verdict.nodes) == ("winnable", nodes), seed
        state = engine.initial_state("spider", {"suits": 4}, seed)
        for intent in verdict.line:
            played = engine.play(intent, state)
            assert not isinstance(played, engine.RuleError), (intent, played)
            state = played[0]
        assert state.status == engine.WON
