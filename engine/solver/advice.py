"""Advice built on the solvers: a hint for the next move, and where a finished game was lost.

Both take full-knowledge states (the engine's own), so they are for the server or for a replay
viewer after the game, never for a client that must not see face-down cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from msgspec import Struct

from ..decider import play
from ..errors import RuleError
from ..intents import AnyIntent
from ..state import GameState
from . import Verdict, solve
from .search import UNKNOWN, UNWINNABLE, WINNABLE


class Hint(Struct, frozen=True):
    result: str  # winnable (move is the next move of a winning line), unwinnable, unknown
    move: AnyIntent | None
    nodes: int


def hint(state: GameState, budget: int | None = None) -> Hint | RuleError:
    """The next move of a winning line from here; or None with unwinnable ("no winning line from
    here", proven) or unknown (the budget ran out). A won game has no next move (winnable, None)."""
    verdict = solve(state, budget)
    if isinstance(verdict, RuleError):
        return verdict
    return Hint(verdict.result, verdict.line[0] if verdict.line else None, verdict.nodes)


class NoReturn(Struct, frozen=True):
    """`index`: the 0-based index in `intents` of the first move after which the position was no
    longer winnable; None when the game never became unwinnable (result "never") or when a
    position's verdict stayed unknown (result "unknown"). `found` says it was pinned down."""

    result: str  # "found", "never", "deal" (not winnable from the start) or "unknown"
    index: int | None
    nodes: int


def point_of_no_return(start: GameState, intents: Sequence[AnyIntent], budget: int | None = None) -> NoReturn | RuleError:
    """Replay `intents` from `start` and find the first move that left no winning line.

    Without undo, winnability can only be lost, never regained (a win from a later position is a
    win from every earlier one), so a binary search over the positions needs about log2(n)
    solves. A game with undos (Spider) can come back to a winnable position; then every position
    is solved in turn, each distinct board once. `budget` is per solve.
    """
    positions = [start]
    for intent in intents:
        played = play(intent, positions[-1])
        if isinstance(played, RuleError):
            return played
        positions.append(played[0])
    nodes = 0
    verdicts: dict[int, Verdict] = {}

    def verdict(index: int) -> Verdict | RuleError:
        nonlocal nodes
        if index not in verdicts:
            found = solve(positions[index], budget)
            if isinstance(found, RuleError):
                return found
            verdicts[index] = found
            nodes += found.nodes
        return verdicts[index]

    first = verdict(0)
    if isinstance(first, RuleError):
        return first
    if first.result == UNWINNABLE:
        return NoReturn("deal", None, nodes)  # lost from the deal: no move is to blame
    if any(position.undos for position in positions):
        return _scan(positions, verdict, lambda: nodes)
    last = verdict(len(positions) - 1)
    if isinstance(last, RuleError):
        return last
    if last.result == WINNABLE:
        return NoReturn("never", None, nodes)
    if first.result == UNKNOWN or last.result == UNKNOWN:
        return NoReturn(UNKNOWN, None, nodes)
    low, high = 0, len(positions) - 1  # positions[low] winnable, positions[high] unwinnable
    while high - low > 1:
        middle = (low + high) // 2
        found = verdict(middle)
        if isinstance(found, RuleError):
            return found
        if found.result == UNKNOWN:
            return NoReturn(UNKNOWN, None, nodes)
        if found.result == WINNABLE:
            low = middle
        else:
            high = middle
    return NoReturn("found", high - 1, nodes)


def _scan(positions: Sequence[GameState], verdict: Callable[[int], Verdict | RuleError],
          nodes: Callable[[], int]) -> NoReturn | RuleError:
    boards: dict[Any, Verdict | RuleError] = {}  # board (a game-specific Struct, hashable) -> its verdict
    for index in range(1, len(positions)):
        board = positions[index].board
        found = boards.get(board)
        if found is None:
            found = boards[board] = verdict(index)
        if isinstance(found, RuleError):
            return found
        if found.result == UNKNOWN:
            return NoReturn(UNKNOWN, None, nodes())
        if found.result == UNWINNABLE:
            return NoReturn("found", index - 1, nodes())
    return NoReturn("never", None, nodes())
