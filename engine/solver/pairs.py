"""Exact solver for the pairing games (The Wish, Patient Pairs), with full knowledge of the deal.

A position is fully described by how many cards are left in each pile (cards only ever leave from
the top), so the search memoises dead positions on the tuple of pile heights. Two removals are
safe to make at once without branching, because no other plan can use those cards better:
- the last two cards of a rank, both on top: they can only ever pair with each other;
- all four cards of a rank on top: whichever way they are paired, both pairs go and the same
  heights remain.
Every winning line removes every card, so its length is fixed (16 for The Wish, 26 for Patient
Pairs); the solver answers winnability and gives one winning line as hints. It stops, answering
unknown, after a budget of positions (never reached on a real deal: a few thousand at most).
"""

from __future__ import annotations

from collections import Counter

from msgspec import Struct

from .search import UNKNOWN, UNWINNABLE, WINNABLE


class PairsSolution(Struct, frozen=True):
    result: str  # winnable, unwinnable, or unknown when the budget ran out
    line: tuple[tuple[int, int], ...]  # pile index pairs, in order; empty when not winnable
    positions: int  # positions visited, for the stats and the bench

    @property
    def winnable(self) -> bool:
        return self.result == WINNABLE


class _OutOfBudget(Exception):
    pass


def solve_ranks(piles: list[list[int]], budget: int = 10**9) -> PairsSolution:
    """`piles[i]` lists the ranks of pile i bottom to top. Returns a winning line if one exists."""
    return _PairsSearch(piles, budget).run()


class _PairsSearch:
    def __init__(self, piles: list[list[int]], budget: int) -> None:
        self.budget = budget
        self.piles = piles
        self.heights = [len(pile) for pile in piles]
        self.remaining = Counter(rank for pile in piles for rank in pile)
        self.dead: set[tuple[int, ...]] = set()
        self.line: list[tuple[int, int]] = []
        self.visited = 0

    def run(self) -> PairsSolution:
        if any(count % 2 for count in self.remaining.values()):
            return PairsSolution(UNWINNABLE, (), 0)
        try:
            won = self._search()
        except _OutOfBudget:
            return PairsSolution(UNKNOWN, (), self.visited)
        return PairsSolution(WINNABLE if won else UNWINNABLE, tuple(self.line) if won else (), self.visited)

    def _tops_by_rank(self) -> dict[int, list[int]]:
        by_rank: dict[int, list[int]] = {}
        for i, height in enumerate(self.heights):
            if height:
                by_rank.setdefault(self.piles[i][height - 1], []).append(i)
        return by_rank

    def _search(self) -> bool:
        self.visited += 1
        if self.visited > self.budget:
            raise _OutOfBudget
        forced = 0
        while True:  # the safe removals first; they are undone too if this branch fails
            by_rank = self._tops_by_rank()
            safe = next(
                (tops for rank, tops in by_rank.items() if len(tops) >= 2 and len(tops) == self.remaining[rank]),
                None,
            )
            if safe is None:
                break
            for a, b in zip(safe[0::2], safe[1::2]):
                self._remove(a, b)
                forced += 1
        if not any(self.heights):
            return True
        key = tuple(self.heights)
        if key not in self.dead:
            for tops in by_rank.values():
                for x in range(len(tops)):
                    for y in range(x + 1, len(tops)):
                        self._remove(tops[x], tops[y])
                        if self._search():
                            return True
                        self._restore()
            self.dead.add(key)
        for _ in range(forced):
            self._restore()
        return False

    def _remove(self, a: int, b: int) -> None:
        self.remaining[self.piles[a][self.heights[a] - 1]] -= 2
        self.heights[a] -= 1
        self.heights[b] -= 1
        self.line.append((a, b))

    def _restore(self) -> None:
        a, b = self.line.pop()
        self.heights[a] += 1
        self.heights[b] += 1
        self.remaining[self.piles[a][self.heights[a] - 1]] += 2
