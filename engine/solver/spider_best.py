"""The Spider solver's first pass: best-first searches for a winning line, several at once.

Depth-first search commits to its first choice at every level and, in Spider, spends its whole
budget under one bad early move. Best-first search keeps every position it has generated in a
priority queue and always expands the most promising one, wherever it lies in the tree, so one bad
choice costs only the nodes spent on it. A position's priority is its worth (below) less a little
per move made, which turns long detours without progress into a cost.

A position's worth is a sum over columns, so a move changes it by the worth of the two columns it
touches (a deal: all ten). A column is worth less for each face-down card (each must be turned)
and each break in its face-up part (two cards, one on the other, not in suit: each must be undone
before a run can clear), and more when it is empty (room to reorganise). A cleared run outweighs
everything. Cards still in the stock count as breaks to come, so a deal costs little once nothing
better is left.

Which position looks best is a matter of weights, and the number of nodes a deal needs swings
widely with small changes of them (one setting wins a deal in 2,000 nodes that another does not
win in 50,000). So a portfolio of settings runs interleaved, a slice of nodes each in turn, each
with its own table of positions, and the first to win answers: the cost is the portfolio's size
times the nodes of the luckiest setting, which is far less than the nodes of a typical one.

Moves tried: a whole run onto any card one rank higher, part of a run onto its own suit, a whole
run off a card into the first empty column, and a deal; or, for a setting marked `macro`, the
macro-moves of spider.py's depth-first pass (a move that only shifts a run is tried only with
the progress it enables), which leave fewer positions of equal worth to wander among: on two and
four suits those settings win with far fewer nodes. This pass proves nothing when it runs out of
positions (it skips moves); the complete pass in spider.py does that.

A search can also be given phase limits (`limits`, spider_restarts.PHASE_LIMITS): a position a
deal led to begins a phase, and once the positions of that phase have had their share of
expansions the rest of them are dropped. Without them a four-suit search that reaches the end of
the stock in a position it cannot clear spends most of its nodes on that position's phase.
"""

from __future__ import annotations

import heapq
import zlib
from typing import Final, NamedTuple, TypeVar
from collections.abc import Callable, Generator, Iterator

from .spider_board import Node, Step, Steps, apply_deal, apply_move

DEAL = "deal"
SLICE = 500  # nodes a setting searches before the next one takes its turn
Deals = tuple[tuple[int, ...], ...]  # the stock, deal by deal
Expand = Callable[[Node], Iterator[tuple[Steps, Node]]]  # a node's children as (steps, child)
_NO_COLUMNS: Final[list[int]] = []  # what by_code gives for a missing code (never changed)


class Weights(NamedTuple):
    down: int  # per face-down card
    brk: int  # per break of two face-up cards not in suit, when the upper is one rank lower
    odd: int  # per break where the upper card is not one rank lower either
    empty: int  # per empty column
    stock: int  # per card still in the stock
    step: int  # per move made (the priority only)
    dig: int  # per face-down card and face-up sequence above it (buried cards cost more)
    newest_first: bool  # among equal priorities, the latest generated first (else the oldest)
    macro: bool = False  # children: spider.py's macro-moves instead of this module's single moves
    cover: int = 0  # per movable run (face-up cards between breaks) lying over a face-down card
    jitter: int = 0  # up to this much added to a position's priority, read off its key's CRC-32
    salt: int = 0  # ... mixed with this, so settings that differ only here rank equals apart


CLEAR = 1000  # per cleared run, whatever the setting

BASE = Weights(12, 8, 8, 14, 7, 1, 0, True)
DOWN_HEAVY = Weights(16, 8, 8, 14, 8, 1, 0, True)  # turning cards first
# DIGGING and BREADTH are in no portfolio now; kept to compare new settings against.
SHORT_LINES = Weights(12, 8, 8, 14, 7, 2, 0, True)  # a higher price per move
BY_RANK = Weights(12, 4, 10, 14, 7, 1, 0, True)  # an off-suit card one rank lower is half a break
DIGGING = Weights(6, 4, 10, 30, 9, 1, 3, True)  # buried cards and empty columns count most
BREADTH = Weights(12, 8, 8, 14, 7, 0, 0, False)  # no price per move, the oldest of equals first
MACRO_SHORT = SHORT_LINES._replace(macro=True)  # over the depth-first pass's macro-moves
MACRO_BY_RANK_SHORT = BY_RANK._replace(step=2, macro=True)  # BY_RANK's worth, SHORT_LINES's price
# MACRO_SHORT at a price of 3 per move, and each run of face-up cards lying over a face-down card
# costs (a move to undo before the card turns): the newest of equals first, or the oldest.
MACRO_COVER_SHORT = MACRO_SHORT._replace(cover=6, step=3)
MACRO_COVER_OLDEST = MACRO_COVER_SHORT._replace(newest_first=False)
# MACRO_COVER_SHORT with a little of its priority read off the key: positions of (nearly) equal
# worth are taken in another order, so two of them search apart (like restarts) where
# MACRO_COVER_SHORT twice would search the same positions.
MACRO_COVER_JITTER = MACRO_COVER_SHORT._replace(jitter=12, salt=3)
MACRO_COVER_JITTER_B = MACRO_COVER_SHORT._replace(jitter=6, salt=7)
# One suit: DOWN_HEAVY twice more, breaking near-ties by the key's CRC-32 as MACRO_COVER_JITTER does
# (two salts), so each searches apart from the plain DOWN_HEAVY, which keeps its turns (the wins of
# the copies and of the plain settings overlap only in part).
DOWN_HEAVY_JITTER = DOWN_HEAVY._replace(jitter=12, salt=3)
DOWN_HEAVY_JITTER_B = DOWN_HEAVY._replace(jitter=12, salt=7)

# Per number of suits in the deck, the settings that run beside the pruned depth-first pass of
# spider.py: chosen on seeds 1 to 20 of each suit count (four suits: 1 to 40; docs/solvers.md
# gives the figures on other seeds). Two macro settings at a price of 2 per move: on two suits
# they won all 20 with 70,000 nodes in all, where the four single-move settings took 325,000
# (82,000 at a price of 1). On one suit macro settings did worse than these two. On four suits,
# each setting alone at 100,000 nodes: MACRO_SHORT won 15 of 40, MACRO_COVER_SHORT 27,
# MACRO_COVER_OLDEST 32 (more in docs/solvers.md); the depth-first pass 2 of 20. So four suits run
# two cover settings and no depth-first pass: at first MACRO_COVER_OLDEST and MACRO_COVER_SHORT
# (37 of 40 within 100,000 nodes each, 33 of 1001..1040); now two MACRO_COVER_SHORTs that break
# ties apart, MACRO_COVER_JITTER and MACRO_COVER_JITTER_B (39 of 40, 33 of 1001..1040; alone 32 and
# 29 of 1..40 where MACRO_COVER_SHORT won 27). One suit adds the two tie-breaking copies of
# DOWN_HEAVY after its plain pair (chosen on seeds 2001..3000: 14 of 1,000 unknown before, 4 after;
# the same two copies in place of the pair lost deals the pair had won). Two suits: the four-suit
# cover settings won 12 and 11 of the 13 deals MACRO_SHORT, MACRO_BY_RANK_SHORT and the depth-first
# pass left unknown on 2001..2300, each alone within 70,000 nodes, but lost some MACRO_SHORT wins; so
# MACRO_SHORT and both cover settings (MACRO_COVER_JITTER, MACRO_COVER_OLDEST) beside it: 299 of 300
# where the pair won 287 (docs/solvers.md).
PORTFOLIOS = {
    1: (DOWN_HEAVY, BASE, DOWN_HEAVY_JITTER, DOWN_HEAVY_JITTER_B),
    2: (MACRO_SHORT, MACRO_COVER_JITTER, MACRO_COVER_OLDEST),
    4: (MACRO_COVER_JITTER, MACRO_COVER_JITTER_B),
}
DEPTH_FIRST_BESIDE = {1, 2}  # suit counts where it takes turns beside the portfolio


def portfolio_for(suits: int) -> tuple[Weights, ...]:
    return PORTFOLIOS.get(suits, PORTFOLIOS[4])


def depth_first_beside(suits: int) -> bool:
    """Whether spider.py's pruned depth-first pass takes turns beside the portfolio."""
    return suits in DEPTH_FIRST_BESIDE


def column_worth_of(w: Weights) -> Callable[[bytes, int], int]:
    down_w, brk_w, odd_w, empty_w, dig_w = w.down, w.brk, w.odd, w.empty, w.dig
    cover_w = w.cover

    def column_worth(col: bytes, down: int) -> int:
        if not col:
            return empty_w
        cost = 0
        breaks = 0
        previous = col[down]
        for card in col[down + 1 :]:
            if card != previous - 1:
                cost += brk_w if (card & 15) == (previous & 15) - 1 else odd_w
                breaks += 1
            previous = card
        if not down:
            return -cost
        return -down_w * down - cost - dig_w * down * (breaks + 1) - cover_w * (breaks + 1)

    return column_worth


def moves(cols: tuple[bytes, ...], downs: tuple[int, ...], deal_possible: bool) -> list[Step]:
    """The moves this pass tries, as (src, dst, count) or DEAL."""
    by_rank: list[list[int]] = [[] for _ in range(15)]
    by_code: dict[int, list[int]] = {}
    empty = -1
    runs: list[int] = []
    for i, col in enumerate(cols):
        n = len(col)
        if not n:
            if empty < 0:
                empty = i
            runs.append(0)
            continue
        down = downs[i]
        top = col[-1]
        by_rank[top & 15].append(i)
        by_code.setdefault(top, []).append(i)
        j = n - 1
        while j > down and col[j - 1] == col[j] + 1:
            j -= 1
        runs.append(n - j)
    out: list[Step] = []
    for src, col in enumerate(cols):
        length = runs[src]
        if not length:
            continue
        for dst in by_rank[(col[-length] & 15) + 1]:
            if dst != src:
                out.append((src, dst, length))
        for count in range(1, length):
            for dst in by_code.get(col[-count] + 1, _NO_COLUMNS):
                out.append((src, dst, count))
        if empty >= 0 and len(col) > length:
            out.append((src, empty, length))
    if deal_possible and empty < 0:
        out.append(DEAL)
    return out


def _search(root: Node, deals: Deals, runs_to_win: int, key: Callable[[Node], bytes], w: Weights,
            expand: Expand | None, limits: list[int]) -> Generator[tuple[int, list[Step] | None], int, int]:
    """One setting's best-first search as a coroutine: sent a number of nodes, it searches that
    many and yields (that number, None), or yields (nodes, steps) as soon as it wins. It returns
    the nodes of its last slice when it runs dry. The children are this module's single moves,
    or with `expand` that function's (steps, child) pairs (spider.py's macro-moves).

    `limits` (empty: none; a caller may fill it between turns): phases' shares of expansions, the
    root's phase first (capped only while a deal is left after it), then per deals left after the
    deal that began a phase (0 or past the end: no cap); counted from when they came on, and past
    a share the phase's positions are dropped as they come up."""
    column_worth = column_worth_of(w)
    # A column's worth, per face-down count and column: positions share most of their columns, so
    # each is counted once (the same sums, a dict lookup instead of a walk). Counts never grow.
    worth_by_down: list[dict[bytes, int]] = [{} for _ in range(max(root[1], default=0) + 1)]
    step_w, stock_w = w.step, w.stock
    order = -1 if w.newest_first else 1
    spread, salt = w.jitter + 1, w.salt  # CRC-32, not hash(): the same on every run and machine
    seen = {key(root)}
    parents: list[tuple[int, Steps]] = [(-1, ())]  # per generated position: (parent, steps)
    nodes_of: list[Node | None] = [root]
    entry = [0]  # per generated position: the position its phase began with (0: the root)
    spent: dict[int, int] = {}  # expansions per phase entry, while `limits` are on
    last = len(deals)
    stock = sum(len(d) for d in deals[root[2]:])
    values = [root[3] * CLEAR - stock_w * stock + sum(column_worth(c, d) for c, d in zip(root[0], root[1]))]
    heap = [(-values[0], 0, 0)]
    fresh = 0
    quota = yield 0, None
    while heap:
        index = heapq.heappop(heap)[2]
        node = nodes_of[index]
        assert node is not None  # a heap entry is pushed once, so its node is expanded once
        nodes_of[index] = None  # expanded: only its line back to the root is kept
        cols, downs, dealt, cleared = node
        if limits:
            begun = entry[index]
            left = last - dealt
            slot = 0 if not begun else 1 + left  # (the root's phase, with no deal left, is all there is)
            if slot < len(limits) and limits[slot] and (begun or left):
                share = spent[begun] = spent.get(begun, 0) + 1
                if share > limits[slot]:
                    continue  # its phase has had its share: dropped
        value = values[index] - step_w
        children = _single(node, deals) if expand is None else expand(node)
        for steps, child in children:
            child_key = key(child)
            if child_key in seen:
                continue
            seen.add(child_key)
            fresh += 1
            parents.append((index, steps))
            at = len(parents) - 1
            entry.append(entry[index] if child[2] == dealt else at)
            if child[3] >= runs_to_win:
                yield fresh, _line(parents, at)
                return 0
            # The worth changes only in the columns a step touched (the others are the same objects).
            ccols, cdowns = child[0], child[1]
            gain = CLEAR * (child[3] - cleared)
            if child[2] != dealt:
                gain += stock_w * sum(len(d) for d in deals[dealt:child[2]])
            for i, col in enumerate(ccols):
                down = cdowns[i]
                if col is not cols[i] or down != downs[i]:
                    known = worth_by_down[down]
                    worth = known.get(col)
                    if worth is None:
                        worth = known[col] = column_worth(col, down)
                    known = worth_by_down[downs[i]]
                    before = known.get(cols[i])
                    if before is None:
                        before = known[cols[i]] = column_worth(cols[i], downs[i])
                    gain += worth - before
            child_value = value + gain
            nodes_of.append(child)
            values.append(child_value)
            bonus = zlib.crc32(child_key, salt) % spread if spread > 1 else 0  # keys are bytes (key_of)
            heapq.heappush(heap, (-child_value - bonus, order * at, at))
            if fresh >= quota:
                quota = yield fresh, None
                fresh = 0
    return fresh


def _single(node: Node, deals: Deals) -> Iterator[tuple[Steps, Node]]:
    cols, downs, dealt, _ = node
    for move in moves(cols, downs, dealt < len(deals)):
        if isinstance(move, str):  # DEAL
            yield (move,), apply_deal(node, deals[dealt])
        else:
            src, dst, count = move  # not apply_move(node, *move): a splat is a generic call
            yield (move,), apply_move(node, src, dst, count)


def _line(parents: list[tuple[int, Steps]], index: int) -> list[Step]:
    parts: list[Steps] = []
    while index > 0:
        index, steps = parents[index]
        parts.append(steps)
    parts.reverse()  # (not reversed(): mypyc cannot compile a loop over it here)
    line: list[Step] = []
    for part in parts:
        line.extend(part)
    return line


Search = Generator[tuple[int, list[Step] | None], int, int]


def best_first(root: Node, deals: Deals, runs_to_win: int, key: Callable[[Node], bytes],
               w: Weights, expand: Expand | None = None, limits: list[int] | None = None) -> Search:
    """A primed _search; `limits` is read at every expansion, so a caller may fill it later."""
    search = _search(root, deals, runs_to_win, key, w, expand, [] if limits is None else limits)
    next(search)
    return search


S = TypeVar("S")  # a game's step: interleave runs Spider's searches and the Wizard's alike


def interleave(searches: list[Generator[tuple[int, list[S] | None], int, int]], budget: int, used: int = 0
               ) -> tuple[bool | None, list[S], int]:
    """Run primed searches in turns of SLICE nodes: (True, steps, nodes) for the first to win;
    (False, [], nodes) when all ran dry without a win (this proves nothing); (None, [], nodes)
    when `budget` nodes (counting `used` already) were spent first. The turns are in a fixed
    order, so the answer depends on the position and the budget only."""
    nodes = used
    searches = list(searches)
    while searches:
        for search in list(searches):
            if nodes >= budget:
                return None, [], nodes
            try:
                fresh, line = search.send(min(SLICE, budget - nodes))
            except StopIteration as stop:
                nodes += stop.value or 0  # None: it ran dry in an earlier call
                searches.remove(search)
                continue
            nodes += fresh
            if line is not None:
                return True, line, nodes
    return (None if nodes >= budget else False), [], nodes
