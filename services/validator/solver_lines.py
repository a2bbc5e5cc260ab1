"""The solver's winning line length for a daily's deal: what the review's total check weighs a win against.

One solve per deal (game, variant, seed) and process, kept: a day's challenge deals every ranked
attempt the same cards, so its first verified win pays for the solve and the rest read it. The solve
runs in the server's solver worker (seconds of CPU for Spider, never on the event loop), with the
node budget the deal was chosen with (winnable.DAILY_BUDGETS), so the answer is the same on every
process and run. An unknown answer (the budget ran out), a game without a solver or a deal that does
not deal is None: no length check for that deal.

Only ranked daily attempts are looked up: casual wins each have a deal of their own (a solve per win would
buy nothing), and a race's deal is one race's.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from typing import Any

from engine import RuleError
from engine.rules import variant_key
from engine.solver import solve

from ..games.entries import DAILY, GameCreated
from ..games.record import start_state
from ..runtime.solver_pool import in_solver_worker
from ..tournaments.winnable import DAILY_BUDGETS

DealKey = tuple[str, str, int]
Solve = Callable[..., Coroutine[Any, Any, int | None]]  # a coroutine: it becomes a task others may wait on


def line_length(created: GameCreated) -> int | None:
    """The solver's winning line's length from the game's deal; None when it has no answer."""
    start = start_state(created)
    if isinstance(start, RuleError):
        return None
    verdict = solve(start, DAILY_BUDGETS.get(created.game))
    if isinstance(verdict, RuleError) or not verdict.winnable:
        return None
    return len(verdict.line)


async def _in_worker(created: GameCreated) -> int | None:
    return await in_solver_worker(line_length, created)


class SolverLines:
    """`await lines(created)`: the line length for a ranked daily attempt's deal (None for any other game)."""

    def __init__(self, solve_deal: Solve = _in_worker, *, keep: int = 512) -> None:
        self._solve = solve_deal
        self._keep = keep  # deals remembered (a day has one per challenge)
        self._known: OrderedDict[DealKey, asyncio.Future[int | None]] = OrderedDict()

    async def __call__(self, created: GameCreated) -> int | None:
        if created.kind != DAILY or not created.ranked:  # an unranked win is never on a board to review
            return None
        key = (created.game, variant_key(created.variant), created.seed)
        known = self._known.get(key)
        if known is None:  # the first to ask solves; those asking meanwhile wait for the same answer
            known = asyncio.get_running_loop().create_task(self._solve(created))
            self._known[key] = known
            while len(self._known) > self._keep:
                self._known.popitem(last=False)
        else:
            self._known.move_to_end(key)
        try:
            return await asyncio.shield(known)
        except Exception:
            self._known.pop(key, None)  # a solver worker lost (a stop): asked again next time
            raise
