"""Exact solver for Wading Pool: every card is face up, so the deal is the whole truth.

Cards are codes ``suit * 16 + rank``, so "one rank lower in the same suit" is "code - 1".

The one rule that makes it small: a run headed by X going onto X+1 of its suit (the only move
onto a card, since each card exists once) is always safe to make at once. Proof sketch: from the
position after it, every plan from the position before can be copied move for move, reading "the
X-run on X+1" for "the X-run where it lay". Runs of any length move and split freely, so nothing
the X-run could do from its old place (go onto X+1, go into an empty pile, part of it go
somewhere) is lost, nothing could ever be put on the card it uncovered except what could be put
there anyway, and a winning position has X on X+1. So the search only branches on moves into an
empty pile, and only into the first one (empty piles are alike), and never moves a whole pile
(the same position again). Piles are interchangeable, so the key sorts them.

The tests check the unwinnable answers against a plain breadth-first search on reduced decks.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..cards import FRENCH_SUITS
from ..games.wading_pool import PILE_NAMES, WadingPoolBoard
from ..intents import AnyIntent, MoveIntent
from .search import WINNABLE, SearchResult, depth_first

Piles = tuple[tuple[int, ...], ...]
Move = tuple[int, int, int]  # (src, dst, count)


def run_length(pile: tuple[int, ...]) -> int:
    """Same-suit descending cards at the top of the pile."""
    if not pile:
        return 0
    length = 1
    while length < len(pile) and pile[-length - 1] == pile[-length] + 1:
        length += 1
    return length


def apply_move(piles: Piles, move: Move) -> Piles:
    src, dst, count = move
    out = list(piles)
    out[dst] = piles[dst] + piles[src][-count:]
    out[src] = piles[src][:-count]
    return tuple(out)


def _join(piles: Piles) -> Move | None:
    """A move of a run onto its same-suit successor, the first in pile order, or None."""
    tops = {pile[-1]: index for index, pile in enumerate(piles) if pile}
    for src, pile in enumerate(piles):
        length = run_length(pile)
        for count in range(1, length + 1):
            dst = tops.get(pile[-count] + 1)
            if dst is not None and dst != src:
                return src, dst, count
    return None


def close(piles: Piles) -> tuple[tuple[Move, ...], Piles]:
    """Make the safe joins until none is left."""
    steps: list[Move] = []
    move = _join(piles)
    while move is not None:
        steps.append(move)
        piles = apply_move(piles, move)
        move = _join(piles)
    return tuple(steps), piles


class WadingPoolSearch:
    def __init__(self, full_run: int = 13) -> None:
        self.full_run = full_run  # 13 for the game; smaller for the tests' reduced decks

    def won(self, piles: Piles) -> bool:
        return all(not pile or (len(pile) == self.full_run and run_length(pile) == self.full_run) for pile in piles)

    @staticmethod
    def key(piles: Piles) -> Piles:
        return tuple(sorted(piles))

    @staticmethod
    def expand(piles: Piles) -> Iterator[tuple[tuple[Move, ...], Piles]]:
        empty = next((i for i, pile in enumerate(piles) if not pile), None)
        if empty is None:
            return iter(())
        children = []
        for src, pile in enumerate(piles):
            for count in range(1, min(run_length(pile), len(pile) - 1) + 1):
                move = (src, empty, count)
                steps, child = close(apply_move(piles, move))
                children.append(((move, *steps), child))
        # Moves that let more joins follow first: they tend to lead straight to a win.
        children.sort(key=lambda item: -len(item[0]))
        return iter(children)

    def solve(self, piles: Piles, budget: int) -> SearchResult:
        steps, root = close(piles)
        found = depth_first(root, self.expand, self.key, self.won, budget)
        return SearchResult(found.result, steps + found.steps if found.result == WINNABLE else (), found.nodes)


SUIT_INDEX = {suit: index for index, suit in enumerate(FRENCH_SUITS)}


def solve_board(board: WadingPoolBoard, budget: int) -> tuple[str, tuple[AnyIntent, ...], int]:
    piles = tuple(tuple(SUIT_INDEX[card.suit] * 16 + card.rank for card in pile.cards) for pile in board.piles)
    found = WadingPoolSearch().solve(piles, budget)
    line = tuple(MoveIntent(PILE_NAMES[src], PILE_NAMES[dst], count) for src, dst, count in found.steps)
    return found.result, line, found.nodes
