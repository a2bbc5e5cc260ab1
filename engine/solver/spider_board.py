"""The Spider solver's own board: bytes and tuples of small ints, cheap to copy, hash and compare.

A card is a code ``suit * 16 + rank``, so "same suit, one rank lower" is "code - 1", and a column
is a ``bytes`` of codes: slicing and joining them are single C calls, so the key of a node is one
join of its columns (a profile of the search found building keys card by card its largest cost).
A node is ``(columns, downs, dealt, cleared)``: the columns bottom to top, the face-down count of
each, the deals made from the (fully known) stock and the runs cleared. The
search orders moves by their gain (move_gain), read off the two column ends a move touches, so a
child is built only when the search reaches it. The moves and the automatic flip and clearing follow engine/games/spider.py exactly;
the tests replay every line the solver finds through the engine.
"""

from __future__ import annotations

from typing import Final, Union

from collections.abc import Iterable

from ..cards import FRENCH_SUITS, Card

# Final: compiled with mypyc (setup.py), these are inlined as C constants, and every local below has
# a declared or inferred type (int, bytes, tuples of them), so the compiled code indexes, compares and
# adds natively instead of through Python's generic operations.
RUN: Final = 13
SUIT_INDEX = {suit: index for index, suit in enumerate(FRENCH_SUITS)}
# A complete King-to-Ace run of each suit, as the last 13 codes of a column.
_FULL: Final[dict[int, bytes]] = {suit * 16 + 1: bytes(suit * 16 + rank for rank in range(13, 0, -1)) for suit in range(4)}

# Weights of the move order: a cleared run beats anything; turning a face-down card is the
# progress that matters most; then an emptied column, a same-suit link, a link in another suit.
# A deal covers ten cards, so it costs, less the links it happens to make.
W_CLEAR: Final = 200
W_DOWN: Final = 6
W_EMPTY: Final = 8
W_SUIT: Final = 3
W_RANK: Final = 1
W_DEAL: Final = 12

Node = tuple[tuple[bytes, ...], tuple[int, ...], int, int]  # (columns, downs, dealt, cleared)
# The searches' steps, typed for mypyc (setup.py): with the types the compiled code unpacks tuples
# and compares ints natively; untyped, each is a generic Python operation.
Move = tuple[int, int, int]  # (src, dst, count)
Step = Union[Move, str]  # a move, or "deal"
Steps = tuple[Step, ...]  # the steps of one child: one move or deal, or a macro-move's two moves


def code_of(card: Card) -> int:
    return SUIT_INDEX[card.suit] * 16 + card.rank


def _link(lower: int, upper: int) -> int:
    """What it is worth that `upper` lies on `lower`."""
    if upper == lower - 1:
        return W_SUIT
    return W_RANK if (upper & 15) == (lower & 15) - 1 else 0


def move_gain(cols: tuple[bytes, ...], downs: tuple[int, ...], src: int, dst: int, count: int) -> int:
    """The change a move makes to the position's worth, read off the two ends it touches."""
    col = cols[src]
    cut = len(col) - count  # index of the moving run's head
    head = col[cut]
    if cut == 0:
        gain = W_EMPTY
    elif cut == downs[src]:
        gain = W_DOWN  # the card beneath turns over
    else:
        gain = -_link(col[cut - 1], head)
    target = cols[dst]
    if not target:
        return gain - W_EMPTY
    gain += _link(target[-1], head)
    if head == target[-1] - 1 and (col[-1] & 15) == 1 and _completes(target, downs[dst], count):
        gain += W_CLEAR
    return gain


def _completes(target: bytes, down: int, count: int) -> bool:
    """Would an Ace-ended run of `count` cards, put on this column in suit, complete K..A?"""
    need = RUN - count
    return len(target) - down >= need and run_length(target, down) >= need


def deal_gain(cols: tuple[bytes, ...], deal: tuple[int, ...]) -> int:
    gain = -W_DEAL
    for col, card in zip(cols, deal):
        if col:
            gain += _link(col[-1], card)
    return gain


def run_length(col: bytes, down: int) -> int:
    """Same-suit descending face-up cards at the top of the column (0 if none is face up)."""
    n = len(col)
    if n <= down:
        return 0
    i = n - 1
    while i > down and col[i - 1] == col[i] + 1:
        i -= 1
    return n - i


def _ends_in_run(col: bytes, down: int) -> bool:
    return len(col) - down >= RUN and _FULL.get(col[-1]) == col[-RUN:]


def run_lengths(cols: tuple[bytes, ...], downs: tuple[int, ...]) -> list[int]:
    """run_length of every column, in one loop (once per expanded node)."""
    runs: list[int] = []
    for col, down in zip(cols, downs):
        n = len(col)
        if n <= down:
            runs.append(0)
            continue
        i = n - 1
        while i > down and col[i - 1] == col[i] + 1:
            i -= 1
        runs.append(n - i)
    return runs


def make_node(cols: Iterable[Iterable[int]], downs: Iterable[int], dealt: int, cleared: int) -> Node:
    """A node from columns given as any sequences of codes (bytes, tuples)."""
    return tuple(bytes(col) for col in cols), tuple(downs), dealt, cleared


def apply_move(node: Node, src: int, dst: int, count: int) -> Node:
    cols, downs, dealt, cleared = node
    source = cols[src]
    rest = source[:-count]
    moved = cols[dst] + source[-count:]
    dst_down = downs[dst]
    # Only a move onto dst can complete a run (_ends_in_run, written out: this runs once a child).
    if len(moved) - dst_down >= RUN and _FULL.get(moved[-1]) == moved[-RUN:]:
        moved = moved[:-RUN]
        if dst_down >= len(moved):  # the card beneath turns over (none is left: 0)
            dst_down = len(moved) - 1 if moved else 0
        cleared += 1
    src_down = downs[src]
    if src_down >= len(rest):  # the same as min(down, max(len(rest) - 1, 0))
        src_down = len(rest) - 1 if rest else 0
    new_cols, new_downs = list(cols), list(downs)
    new_cols[src], new_cols[dst] = rest, moved
    new_downs[src], new_downs[dst] = src_down, dst_down
    return tuple(new_cols), tuple(new_downs), dealt, cleared


def apply_deal(node: Node, deal: tuple[int, ...]) -> Node:
    """One card onto each column from the left, then clear complete runs column by column, as
    the engine does, until none is left."""
    cols, downs, dealt, cleared = node
    new_cols = [col + bytes((deal[i],)) if i < len(deal) else col for i, col in enumerate(cols)]
    new_downs = list(downs)
    found = True
    while found:
        found = False
        for i, col in enumerate(new_cols):
            if _ends_in_run(col, new_downs[i]):
                new_cols[i] = col[:-RUN]
                new_downs[i] = min(new_downs[i], max(len(col) - RUN - 1, 0))
                cleared += 1
                found = True
    return tuple(new_cols), tuple(new_downs), dealt + 1, cleared


_BYTE = [bytes((value,)) for value in range(256)]  # bytes((value,)), made once


def key_of(node: Node, deals_total: int) -> bytes:
    """The node as bytes. Once the stock is gone the columns are interchangeable, so they are
    sorted; before that a deal tells them apart, so their order stays."""
    cols, downs, dealt, cleared = node
    if dealt < deals_total:  # no code is 0xff, so the joined columns read back unambiguously
        return bytes((dealt, cleared, *downs)) + b"\xff".join(cols)
    parts = sorted([_BYTE[down] + col for col, down in zip(cols, downs)])
    return bytes((dealt, cleared)) + b"\xff".join(parts)
