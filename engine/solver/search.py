"""The depth-first search every full-knowledge solver shares, with a transposition table and a
deterministic node budget.

A game supplies three functions over its own node type:
- ``expand(node)``: the children, best first, as ``(steps, child)`` where ``steps`` is a tuple of
  the game's moves that lead there (a macro-move, or a move followed by the safe moves it allows);
- ``key(node)``: a hashable canonical form; two nodes with one key have the same future;
- ``won(node)``.

Why a visited set is enough for exactness: every node whose key is in the set has either been
explored to the end without a win or lies on the current path, and a path that revisits a node
can be shortened, so skipping it never loses a win. The search stops after ``budget`` nodes and
says so; it never looks at a clock, so a verdict is a pure function of the position and budget.
"""

from __future__ import annotations

from typing import Any, TypeVar
from collections.abc import Callable, Hashable, Iterable

from msgspec import Struct

WINNABLE, UNWINNABLE, UNKNOWN = "winnable", "unwinnable", "unknown"


class SearchResult(Struct, frozen=True):
    result: str  # WINNABLE, UNWINNABLE or UNKNOWN
    steps: tuple[Any, ...]  # Any: each solver's own steps (SearchResult is shared); the game's moves from the root to a win, flattened; () unless WINNABLE
    nodes: int  # distinct nodes visited (the root included)


N = TypeVar("N")  # a solver's own node (a board, or a board and a flag)
S = TypeVar("S")  # a solver's own step (an intent, a compact move tuple, ...)


def depth_first(
    root: N,
    expand: Callable[[N], Iterable[tuple[tuple[S, ...], N]]],
    key: Callable[[N], Hashable],
    won: Callable[[N], bool],
    budget: int,
    seen: set[Hashable] | None = None,
) -> SearchResult:
    """Search from `root` (its own steps already applied by the caller).

    `seen` may be passed in to share a table between calls (a hint after a hint, say); nodes in
    it are treated as already explored.
    """
    if won(root):
        return SearchResult(WINNABLE, (), 1)
    seen = set() if seen is None else seen
    seen.add(key(root))
    nodes = 1
    path: list[tuple[S, ...]] = []
    stack = [iter(expand(root))]
    while stack:
        for steps, child in stack[-1]:
            child_key = key(child)
            if child_key in seen:
                continue
            seen.add(child_key)
            nodes += 1
            path.append(steps)
            if won(child):
                return SearchResult(WINNABLE, tuple(step for part in path for step in part), nodes)
            if nodes >= budget:
                return SearchResult(UNKNOWN, (), nodes)
            stack.append(iter(expand(child)))
            break
        else:
            stack.pop()
            if path:
                path.pop()
    return SearchResult(UNWINNABLE, (), nodes)

