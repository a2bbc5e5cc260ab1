"""The Solitaire Wizard solver's finder: best-first searches for a winning line.

The pruned depth-first pass commits to its first choice at every level; with few or no redeals a
bad early choice (a card played to the tableau that a later draw needed, say) costs the whole
budget under it. Best-first search keeps every position it has generated in a priority queue and
expands the most promising one wherever it lies, so a bad choice costs only the nodes spent on it.

A position's worth: cards home and face-down cards turned count for it, cards still in the stock
cycle and recycles spent count against it (a recycle spends the one resource a limited game has
least of), and each move made costs a little, which turns detours without progress into a cost.
Like Spider's finder, a small portfolio of weightings runs interleaved (engine.solver.spider_best's
`interleave`, turns of a fixed number of nodes), each with its own table, and the first to win
answers. It proves nothing when it runs dry (it tries the pruned move set); the complete
depth-first pass in wizard.py does that.
"""

from __future__ import annotations

import heapq
from typing import NamedTuple
from collections.abc import Callable, Generator, Hashable, Iterable

from .wizard_levels import Node, Step


class Weights(NamedTuple):
    home: int  # per card on a foundation
    down: int  # per face-down tableau card
    cycle: int  # per card in the stock and the waste
    redeal: int  # per recycle spent
    step: int  # per move made (the priority only)


HOMING = Weights(10, 6, 1, 0, 1)
DIGGING = Weights(6, 12, 1, 0, 1)
THRIFTY = Weights(10, 6, 2, 40, 1)  # for limited redeals: a recycle is dear

# Unlimited redeals cost nothing per recycle; limited ones get a weighting that saves them.
PORTFOLIOS = {"unlimited": (HOMING, DIGGING), "limited": (HOMING, THRIFTY, DIGGING)}


def worth(node: Node, w: Weights) -> int:
    board = node[0]
    home = sum(len(slot.cards) for slot in board.foundations)
    down = sum(pile.down for pile in board.tableau)
    cycle = len(board.stock) + len(board.waste)
    return w.home * home - w.down * down - w.cycle * cycle - w.redeal * board.redeals_used


Steps = tuple[Step, ...]
Search = Generator[tuple[int, list[Step] | None], int, int]
Expand = Callable[[Node], Iterable[tuple[Steps, Node]]]


def _search(root: Node, expand: Expand, key: Callable[[Node], Hashable], won: Callable[[Node], bool],
            w: Weights) -> Search:
    """One weighting's best-first search as a coroutine, as spider_best's: sent a number of
    nodes, it searches that many and yields (that number, None), or (nodes, steps) on a win; it
    returns the nodes of its last slice when it runs dry. Ties go to the newest position."""
    seen = {key(root)}
    parents: list[tuple[int, Steps]] = [(-1, ())]  # per generated position: (parent, its steps)
    boards: list[Node | None] = [root]
    depth = [0]
    heap = [(-worth(root, w), 0)]
    fresh = 0
    quota = yield 0, None
    while heap:
        _, negative_index = heapq.heappop(heap)
        index = -negative_index
        board = boards[index]
        assert board is not None, "each position is popped once"
        boards[index] = None  # expanded: only its line back to the root is kept
        for steps, child in expand(board):
            child_key = key(child)
            if child_key in seen:
                continue
            seen.add(child_key)
            fresh += 1
            parents.append((index, steps))
            at = len(parents) - 1
            if won(child):
                yield fresh, _line(parents, at)
                return 0
            boards.append(child)
            depth.append(depth[index] + len(steps))
            heapq.heappush(heap, (w.step * depth[at] - worth(child, w), -at))
            if fresh >= quota:
                quota = yield fresh, None
                fresh = 0
    return fresh


def _line(parents: list[tuple[int, Steps]], index: int) -> list[Step]:
    parts = []
    while index > 0:
        index, steps = parents[index]
        parts.append(steps)
    parts.reverse()
    return [step for part in parts for step in part]


def best_first(root: Node, expand: Expand, key: Callable[[Node], Hashable], won: Callable[[Node], bool],
               w: Weights) -> Search:
    search = _search(root, expand, key, won, w)
    next(search)
    return search
