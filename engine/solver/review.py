"""The solver's review of a finished game: for every step, was the position still winnable?

Given the states of a replay (the deal, then the position after each logged event) it answers,
per step, winnable / unwinnable / unknown with full knowledge of the deal, the point of no return
(the step whose move left no winning line, never to come back), and the shortest winning line it
came to know (from the deal, or the player's moves up to a step and the solver's line from there).

The work is bounded by node budgets, never by time: a fixed budget per solve and a fixed total,
so a review is the same on every run and machine. Few solves are needed, because verdicts carry
along the line: if a move leads to a winnable position, the position before it was winnable too,
and a move from an unwinnable position leads to an unwinnable one. Only an undo (Spider) breaks
that chain (it brings back an earlier board, and the solver's moves include no undo); equal
boards share one verdict. So without undo a review is a binary search
(about log2(steps) solves); with undo it spreads its solves over the stretches still unknown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from msgspec import Struct

from ..errors import RuleError
from ..events import AnyEvent, MoveUndone
from ..registry import rules_for
from ..state import ABANDONED, GameState
from . import solve
from .search import UNKNOWN, UNWINNABLE, WINNABLE


class Budget(Struct, frozen=True):
    per_solve: int  # search nodes one position may take
    total: int  # search nodes the whole review may take


# Small on purpose: a review runs on request, on the server, a second or two at most on one core
# (Spider and Solitaire Wizard search about 15,000 nodes a second, the pairing games ten times that).
REVIEW_BUDGETS = {
    "pairs": Budget(100_000, 600_000),
    "spider": Budget(1_500, 12_000),
    "wading-pool": Budget(20_000, 200_000),
    "wizard": Budget(4_000, 30_000),
}

FOUND, NEVER, DEAL = "found", "never", "deal"


class Review(Struct, frozen=True):
    verdicts: tuple[str, ...]  # per step (0 = the deal): winnable, unwinnable or unknown
    searched: tuple[int, ...]  # the steps the solver searched; the others' verdicts follow from them
    point_of_no_return: str  # found, never (still winnable at the end), deal (never winnable), unknown
    lost_at: int | None  # found: the step whose move left no winning line (its move number)
    shortest_line: int | None  # moves of the shortest winning line the review knows, if any
    nodes: int
    budget: Budget


def review(states: Sequence[GameState], events: Sequence[AnyEvent], budget: Budget | None = None) -> Review | RuleError:
    """Review a replay: `states[0]` the deal, `states[k]` the position after `events[k - 1]`."""
    assert len(states) == len(events) + 1, "one state per event, and the deal"
    rules = rules_for(states[0].game)
    if isinstance(rules, RuleError):
        return rules
    budget = budget or REVIEW_BUDGETS.get(rules.solver, Budget(10_000, 100_000))
    forward = [not isinstance(event, MoveUndone) for event in events]  # forward[k]: step k -> k + 1
    boards: dict[Any, int] = {}  # board -> its number; a board is a game-specific Struct, hashable
    board_of = [boards.setdefault(state.board, len(boards)) for state in states]  # equal boards, one number
    verdicts = [UNKNOWN] * len(states)
    known = [UNKNOWN] * len(boards)  # per board: searched, or carried from a step that has it
    searched: list[int] = []
    shortest: int | None = None
    nodes = 0

    def search(step: int) -> RuleError | None:
        nonlocal nodes, shortest
        found = solve(_as_position(states[step]), max(1, min(budget.per_solve, budget.total - nodes)))
        if isinstance(found, RuleError):
            return found
        nodes += found.nodes
        searched.append(step)
        if found.result != UNKNOWN:
            known[board_of[step]] = found.result
        if found.winnable and (found.line or step == 0):
            line = states[step].moves + len(found.line)
            shortest = line if shortest is None else min(shortest, line)
        _spread(board_of, forward, verdicts, known)
        return None

    last = len(states) - 1
    for step in dict.fromkeys((last, 0)):  # the end is cheap (won or lost); the deal gives a line
        failed = search(step)
        if failed is not None:
            return failed
    while nodes < budget.total:
        next_step = _next_to_search(verdicts, searched, board_of)
        if next_step is None:
            break
        failed = search(next_step)
        if failed is not None:
            return failed
    result, lost_at = _no_return(verdicts)
    return Review(tuple(verdicts), tuple(sorted(searched)), result, lost_at, shortest, nodes, budget)


def _as_position(state: GameState) -> GameState:
    """A resigned game's board is as it was before the resign: judge the board, not the give-up."""
    if state.status != ABANDONED:
        return state
    rules = rules_for(state.game)
    assert not isinstance(rules, RuleError), rules
    return msgspec.structs.replace(state, status=rules.outcome(state.board, state.variant))


def _spread(board_of: list[int], forward: list[bool], verdicts: list[str], known: list[str]) -> None:
    """Verdicts carried along every forward move, and to every step with the same board, until
    nothing changes."""
    changed = True
    while changed:
        changed = False
        for step, board in enumerate(board_of):  # an undo brings a board back: its verdict comes with it
            if verdicts[step] == UNKNOWN and known[board] != UNKNOWN:
                verdicts[step], changed = known[board], True
            elif verdicts[step] != UNKNOWN and known[board] == UNKNOWN:
                known[board], changed = verdicts[step], True
        for step, moved_on in enumerate(forward):
            if not moved_on:
                continue
            if verdicts[step + 1] == WINNABLE and verdicts[step] != WINNABLE:
                verdicts[step], changed = WINNABLE, True
            if verdicts[step] == UNWINNABLE and verdicts[step + 1] != UNWINNABLE:
                verdicts[step + 1], changed = UNWINNABLE, True


def _next_to_search(verdicts: list[str], searched: list[int], board_of: list[int]) -> int | None:
    """The middle of the longest stretch of steps still unknown whose boards were not searched yet
    (a bisection while the line has no undo), or None when there is none left."""
    tried = {board_of[step] for step in searched}
    best: tuple[int, int] | None = None
    start = None
    for step in range(len(verdicts) + 1):
        open_step = step < len(verdicts) and verdicts[step] == UNKNOWN and board_of[step] not in tried
        if open_step and start is None:
            start = step
        elif not open_step and start is not None:
            if best is None or step - start > best[1] - best[0]:
                best = (start, step)
            start = None
    return None if best is None else (best[0] + best[1] - 1) // 2


def _no_return(verdicts: list[str]) -> tuple[str, int | None]:
    if verdicts[-1] == WINNABLE:
        return NEVER, None
    if verdicts[0] == UNWINNABLE:
        return DEAL, None
    if verdicts[-1] != UNWINNABLE:
        return UNKNOWN, None
    last_winnable = max((step for step, verdict in enumerate(verdicts) if verdict == WINNABLE), default=None)
    if last_winnable is None or any(v != UNWINNABLE for v in verdicts[last_winnable + 1:]):
        return UNKNOWN, None
    return FOUND, last_winnable + 1
