"""Full-knowledge Spider solver (1, 2 and 4 suits): the face-down cards and the stock are known.

Two passes, both counted in one budget of search nodes:

1. Searches for a winning line that skip moves, run in turns of a few hundred nodes each
   (spider_best.interleave), the first to win answering:
   - a depth-first search over macro-moves, each child ordered by a score of the position it
     leads to (spider_board: cleared runs, face-down cards, empty columns, links). A macro-move
     is a short sequence ending in progress: a run put on its own suit (the whole run, so a link
     is gained), a card turned over, a column emptied. A move that only shifts a run onto another
     suit or into an empty column, showing a face-up card, is tried only together with a
     progress move it enables from that column. Runs are never split, except that the top card
     alone may fill an empty column before a deal. This one wins most one- and two-suit deals in
     a few hundred nodes (on four suits it wins few, so it does not run there);
   - best-first searches (spider_best), one per weighting of the deck's suit count, over single
     moves or over the macro-moves above, which win where the depth-first search is stuck under
     an early mistake;
   - past the first 200,000 nodes: short restarts of jittered settings (two series on one and two
     suits, one on four), every restart breaking near-ties its own way (spider_restarts), beside
     the searches above; on four suits every best-first search then has phase limits too (each
     phase, from the start or a deal up to the next deal, gets a share of expansions, then the
     rest of it is dropped; spider_restarts).
2. If every pass-1 search runs out of moves without a win (that proves nothing, since they
   skipped moves), a complete depth-first pass over every legal move with what is left of the
   budget. Only this pass may answer unwinnable. Its only reductions are exact: once the stock
   is empty, columns are interchangeable, so the key sorts them, a run goes only into the first
   empty column, and a whole column never moves into an empty one.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Final
from collections.abc import Callable, Iterator

from ..games.spider import COLUMN_NAMES, RUNS_TO_WIN
from ..games.spider_board import SpiderBoard
from ..intents import AnyIntent, DealIntent, MoveIntent
from .search import UNKNOWN, WINNABLE, depth_first
from .spider_best import Expand, Search, best_first, depth_first_beside, interleave, portfolio_for
from .spider_restarts import FIRST_ROUND, phase_limits_of, restart_nodes_of, restarted_for, restarts, turns_of
from .spider_board import (
    Move, Node, Steps, apply_deal, apply_move, code_of, deal_gain, key_of, make_node, move_gain, run_length,
    run_lengths,
)

DEAL = "deal"

# Nodes a solve visits when its caller names no budget, per suit count of the deck (four suits:
# engine.solver.DEFAULT_BUDGETS["spider"], 500,000). Past 200,000 nodes every suit count adds short
# restarts (spider_restarts; four suits since 2026-12-02). On the tuning deals the portfolio left
# unknown at 200,000 nodes (one suit: 4 of 2001..3000; two suits: 6 of 2001..2300 and 3001..3400) the portfolio alone won 3 and 4
# within 2,000,000 nodes, with the restarts all 10 within 782,000 (docs/solvers.md). A deal won
# within 200,000 nodes is searched exactly as before; a deal that stays unknown costs some 40 to 80 s of CPU.
# A second series of restarts (spider_restarts.RESTARTED) won the fresh deals that stayed unknown.
BUDGETS_BY_SUITS = {1: 1_000_000, 2: 1_000_000}


Tops = tuple[dict[int, list[int]], list[int], dict[int, list[tuple[int, int]]]]  # as _tops gives
# A child to build: (gain, its steps, the node its last step applies to: the node expanded, or the
# position after the first of two moves).
Ranked = tuple[int, Steps, Node]
_NO_COLUMNS: Final[list[int]] = []  # what a table of Tops gives for a missing key (never changed)
_NO_ENDS: Final[list[tuple[int, int]]] = []


def _tops(cols: tuple[bytes, ...], downs: tuple[int, ...]) -> Tops:
    """Columns by the code of their face-up top card, the empty columns, and per rank the
    (column, top code) pairs of that rank in the order moves onto them are tried: suit by suit, then left to right."""
    ends: list[tuple[int, int]] = []
    empty: list[int] = []
    for i, col in enumerate(cols):
        if not col:
            empty.append(i)
        elif len(col) > downs[i]:
            ends.append((col[-1], i))
    ends.sort()  # by suit within a rank (a code is suit * 16 + rank), then left to right
    tops: dict[int, list[int]] = {}
    by_rank: dict[int, list[tuple[int, int]]] = {}
    for top, i in ends:
        tops.setdefault(top, []).append(i)
        by_rank.setdefault(top & 15, []).append((i, top))
    return tops, empty, by_rank


class SpiderSearch:
    def __init__(self, deals: tuple[tuple[int, ...], ...], runs_to_win: int) -> None:
        self.deals = deals
        self.runs_to_win = runs_to_win

    def won(self, node: Node) -> bool:
        return node[3] >= self.runs_to_win

    def key(self, node: Node) -> bytes:
        return key_of(node, len(self.deals))

    def _build(self, ranked: list[Ranked]) -> Iterator[tuple[Steps, Node]]:
        """Children best first, each built only when the search gets to it."""
        ranked.sort(key=itemgetter(0), reverse=True)  # stable: equal gains keep their order
        for _, steps, base in ranked:
            last = steps[-1]
            if isinstance(last, str):  # DEAL
                yield steps, apply_deal(base, self.deals[base[2]])
            else:
                src, dst, count = last
                yield steps, apply_move(base, src, dst, count)

    def _deal(self, node: Node, empty: list[int]) -> list[Ranked]:
        if node[2] < len(self.deals) and not empty:
            return [(deal_gain(node[0], self.deals[node[2]]), (DEAL,), node)]
        return []

    # Pass 1 -------------------------------------------------------------------------------

    def progress(self, node: Node, table: Tops, runs: list[int]) -> list[Move]:
        """Whole runs onto their own suit, and runs that turn a card or empty a column onto any
        card one rank higher or into an empty column (`table` as _tops, `runs` as run_lengths give)."""
        cols, downs = node[0], node[1]
        tops, empty, by_rank = table
        moves: list[Move] = []
        for src, col in enumerate(cols):
            length = runs[src]
            if not length:
                continue
            head = col[-length]
            reveals = len(col) == length or len(col) - length == downs[src]  # empties or turns a card
            for dst in tops.get(head + 1, _NO_COLUMNS):
                moves.append((src, dst, length))
            if reveals:
                for dst, top in by_rank.get((head & 15) + 1, _NO_ENDS):
                    if top != head + 1:
                        moves.append((src, dst, length))
                if empty and len(col) > length:
                    moves.append((src, empty[0], length))
        return moves

    def progress_at(self, node: Node, at: int, runs: list[int]) -> list[Move]:
        """The progress moves from or onto column `at`, whose top card is face up, in the order
        progress gives them (what a lateral move off `at` enables): one pass over the columns'
        ends, without the table of tops, as this runs once per lateral move (a third of a node)."""
        cols, downs = node[0], node[1]
        at_col = cols[at]
        at_top = at_col[-1]
        at_rank = at_top & 15
        length = runs[at]
        want = at_col[-length] + 1  # the card at's run goes onto in suit
        rank = want & 15  # ... and in rank
        reveals = len(at_col) == length or len(at_col) - length == downs[at]
        before: list[Move] = []  # runs onto `at` from columns left of it
        after: list[Move] = []  # ... and right of it
        same: list[int] = []
        kin: list[tuple[int, int]] = []
        empty = -1
        for dst, col in enumerate(cols):
            if dst == at:
                continue
            count = runs[dst]
            if not count:  # empty, or no face-up card
                if not col and empty < 0:
                    empty = dst
                continue
            top = col[-1]
            if top == want:
                same.append(dst)
            elif reveals and (top & 15) == rank:
                kin.append((top, dst))
            head = col[-count]
            if head + 1 == at_top or ((head & 15) + 1 == at_rank
                                      and (len(col) == count or len(col) - count == downs[dst])):
                (before if dst < at else after).append((dst, at, count))
        moves = before
        for dst in same:
            moves.append((at, dst, length))
        if reveals:
            kin.sort()
            for _, dst in kin:
                moves.append((at, dst, length))
            if empty >= 0 and len(at_col) > length:
                moves.append((at, empty, length))
        moves.extend(after)
        return moves

    def lateral(self, node: Node, table: Tops, runs: list[int]) -> list[Move]:
        """Whole runs moved off a face-up card they do not continue in suit."""
        cols, downs = node[0], node[1]
        _, empty, by_rank = table
        moves: list[Move] = []
        for src, col in enumerate(cols):
            length = runs[src]
            if not length or len(col) == length or len(col) - length == downs[src]:
                continue
            head = col[-length]
            for dst, top in by_rank.get((head & 15) + 1, _NO_ENDS):
                if top != head + 1:
                    moves.append((src, dst, length))
            if empty:
                moves.append((src, empty[0], length))
        return moves

    def expand_pruned(self, node: Node) -> Iterator[tuple[Steps, Node]]:
        cols, downs = node[0], node[1]
        table = _tops(cols, downs)
        runs = run_lengths(cols, downs)
        ranked: list[Ranked] = []
        for move in self.progress(node, table, runs):
            src, dst, count = move  # not move_gain(cols, downs, *move): a splat is a generic call
            ranked.append((move_gain(cols, downs, src, dst, count), (move,), node))
        for first in self.lateral(node, table, runs):
            src, dst, count = first
            middle = apply_move(node, src, dst, count)
            gain = move_gain(cols, downs, src, dst, count)
            after = list(runs)  # a move changes the runs of its two columns only: on dst the run
            after[src] = run_length(middle[0][src], middle[1][src])  # lies off suit or alone
            after[dst] = count
            # Moving the run straight back gives this node again (when the first move cleared
            # nothing): a position every search has seen, so it is left out before it is built.
            undo = (dst, src, count) if middle[3] == node[3] else None
            for second in self.progress_at(middle, src, after):
                if second == undo:
                    continue
                back, onto, moved = second
                ranked.append((gain + move_gain(middle[0], middle[1], back, onto, moved), (first, second), middle))
        empty = table[1]
        if empty and node[2] < len(self.deals):  # columns must be filled before the next deal
            for src, col in enumerate(cols):
                length = runs[src]
                counts = {count for count in (1, length) if 1 <= count <= length and count < len(col)}
                for count in sorted(counts):
                    ranked.append((move_gain(cols, downs, src, empty[0], count), ((src, empty[0], count),), node))
        ranked.extend(self._deal(node, empty))
        return self._build(ranked)

    # Pass 2 -------------------------------------------------------------------------------

    def expand_complete(self, node: Node) -> Iterator[tuple[Steps, Node]]:
        cols, downs = node[0], node[1]
        _, empty, by_rank = _tops(cols, downs)
        stock_left = node[2] < len(self.deals)
        ranked: list[Ranked] = []
        for src, col in enumerate(cols):
            for count in range(1, run_length(col, downs[src]) + 1):
                head = col[-count]
                targets = [dst for dst, _ in by_rank.get((head & 15) + 1, _NO_ENDS) if dst != src]
                if stock_left:
                    targets += empty
                elif count < len(col):
                    targets += empty[:1]
                for dst in targets:
                    ranked.append((move_gain(cols, downs, src, dst, count), ((src, dst, count),), node))
        ranked.extend(self._deal(node, empty))
        return self._build(ranked)


def _depth_first(root: Node, expand: Expand, key: Callable[[Node], bytes], won: Callable[[Node], bool]) -> Search:
    """engine.solver.search.depth_first as a coroutine of spider_best.interleave (its pass-1 use:
    running dry proves nothing, so it returns instead of answering unwinnable)."""
    seen = {key(root)}
    fresh = 0
    path: list[Steps] = []
    stack = [iter(expand(root))]
    quota = yield 0, None
    while stack:
        for steps, child in stack[-1]:
            child_key = key(child)
            if child_key in seen:
                continue
            seen.add(child_key)
            fresh += 1
            path.append(steps)
            if won(child):
                yield fresh, [step for part in path for step in part]
                return 0
            stack.append(iter(expand(child)))
            if fresh >= quota:
                quota = yield fresh, None
                fresh = 0
            break
        else:
            stack.pop()
            if path:
                path.pop()
    return fresh


def suits_of(board: SpiderBoard) -> int:
    return len({card.suit for pile in board.columns for card in pile.cards} | {card.suit for card in board.stock})


def solve_board(board: SpiderBoard, budget: int) -> tuple[str, tuple[AnyIntent, ...], int]:
    cols = [tuple(code_of(card) for card in pile.cards) for pile in board.columns]
    stock = [code_of(card) for card in board.stock]
    deals = tuple(tuple(stock[i : i + len(cols)]) for i in range(0, len(stock), len(cols)))
    root = make_node(cols, [pile.down for pile in board.columns], 0, board.cleared_runs)
    search = SpiderSearch(deals, RUNS_TO_WIN)
    if search.won(root):
        return WINNABLE, (), 1
    suits = suits_of(board)
    first = []
    if depth_first_beside(suits):
        first.append(_depth_first(root, search.expand_pruned, search.key, search.won))
        next(first[0])
    limits: list[int] = []  # the phase limits, for every best-first search: on past FIRST_ROUND
    first += [best_first(root, deals, RUNS_TO_WIN, search.key, w, search.expand_pruned if w.macro else None, limits)
              for w in portfolio_for(suits)]
    restarted = restarted_for(suits)
    if not restarted:  # the portfolio alone, to the end of the budget
        won, steps, nodes = interleave(first, budget, 1)
    else:  # the portfolio alone for FIRST_ROUND nodes, then restarts take turns beside it
        won, steps, nodes = interleave(first, min(budget, FIRST_ROUND), 1)
        if won is None and budget > nodes:
            limits.extend(phase_limits_of(suits))
            # A series per setting, listed `turns` times: its turns in a row (interleave drops each listing once dry).
            for w in restarted:
                series = restarts(root, deals, RUNS_TO_WIN, search.key, w, search.expand_pruned if w.macro else None,
                                  restart_nodes_of(suits), limits)
                first += [series] * turns_of(suits)
            won, steps, nodes = interleave(first, budget, nodes)
    if won is False:  # every pass-1 search ran dry: only the complete pass can tell
        found = depth_first(root, search.expand_complete, search.key, search.won, max(budget - nodes, 1))
        result, steps, nodes = found.result, list(found.steps), nodes + found.nodes
    else:
        result = WINNABLE if won else UNKNOWN
    if result != WINNABLE:
        return result, (), nodes
    line = tuple(
        DealIntent() if isinstance(step, str) else MoveIntent(COLUMN_NAMES[step[0]], COLUMN_NAMES[step[1]], step[2])
        for step in steps
    )
    return result, line, nodes
