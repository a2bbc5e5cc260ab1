"""Solvers with full knowledge of the deal: is a position winnable, and a winning line from it.

One interface for every game: ``solve(state, budget)`` (or ``solve_deal(game, variant, seed,
budget)``) answers a Verdict: winnable with a line of intents the engine replays to a win,
unwinnable (every reachable position was searched), or unknown (the budget of search nodes ran
out first). The budget counts nodes, never time, so a verdict is the same on every machine and
every run: a daily-deal picker can rely on it. The solver reads only the state it is given (the
full board, face-down cards and stock order included: that is what full knowledge means).
Hints and the point of no return for finished games live in engine.solver.advice.
Which games have a solver, and which search serves each, is the registry's answer (each game's
rules say `has_solver` and `solver`), not a list here.
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct

from ..decider import initial_state
from ..errors import NOT_SUPPORTED, RuleError, rule_error
from ..intents import AnyIntent, PairIntent
from ..registry import all_rules, rules_for
from ..state import IN_PROGRESS, WON, GameState
from .search import UNKNOWN, UNWINNABLE, WINNABLE

# Nodes a solve may visit when the caller names no budget, per search: a few seconds at most on one
# core; enough for nearly every deal, except four-suit Spider (see docs/solvers.md for its share). Spider
# with one or two suits takes more (spider.BUDGETS_BY_SUITS: see default_budget). Four suits' 500,000
# keeps the p99 within 10 s of one core (compiled, the collector paused, the restarts and phase limits
# past 200,000 of spider_restarts): on seeds 101..1100 it proves 97.0% with a p99 of 7.9 s; 600,000
# proved 97.5% with a p99 of 9.3 s and a max of 11.4 s, too near the goal.
DEFAULT_BUDGETS = {"pairs": 1_000_000, "spider": 500_000, "wading-pool": 1_000_000, "wizard": 200_000}


class Verdict(Struct, frozen=True):
    result: str  # "winnable", "unwinnable" or "unknown"
    line: tuple[AnyIntent, ...] = ()  # intents that win from the given state, in order (winnable only)
    nodes: int = 0  # search nodes visited: the measure the budget is counted in

    @property
    def winnable(self) -> bool:
        return self.result == WINNABLE


def solvable_games() -> list[str]:
    return [rules.game_id for rules in all_rules() if rules.has_solver]


def default_budget(state: GameState) -> int:
    """The budget of a solve whose caller names none: DEFAULT_BUDGETS, or Spider's for the suit count
    of its board (spider.BUDGETS_BY_SUITS; four suits keep DEFAULT_BUDGETS["spider"])."""
    rules = rules_for(state.game)
    solver = None if isinstance(rules, RuleError) else rules.solver
    if solver is None:
        raise KeyError(f"{state.game} has no solver")
    if solver == "spider":
        from .spider import BUDGETS_BY_SUITS, suits_of

        return BUDGETS_BY_SUITS.get(suits_of(state.board), DEFAULT_BUDGETS[solver])
    return DEFAULT_BUDGETS[solver]


def solve(state: GameState, budget: int | None = None) -> Verdict | RuleError:
    """Solve from `state` (not only from the deal): the line is a hint for the rest of the game."""
    rules = rules_for(state.game)
    if isinstance(rules, RuleError) or not rules.has_solver or rules.solver not in _SOLVERS:
        return rule_error(NOT_SUPPORTED, f"no solver for {state.game}; solvable: {', '.join(solvable_games())}")
    if budget is None:
        budget = default_budget(state)
    if not isinstance(budget, int) or isinstance(budget, bool) or budget < 1:
        return rule_error("bad_budget", f"the budget is a number of search nodes, at least 1, not {budget!r}")
    if state.status == WON:
        return Verdict(WINNABLE, (), 0)
    if state.status != IN_PROGRESS:
        return Verdict(UNWINNABLE, (), 0)  # lost (no move is left) or abandoned
    result, line, nodes = _SOLVERS[rules.solver](state, budget)
    return Verdict(result, line, nodes)


def solve_deal(game: str, variant: dict[str, Any] | None, seed: int, budget: int | None = None) -> Verdict | RuleError:  # Any: a variant as JSON values
    state = initial_state(game, variant, seed)
    return state if isinstance(state, RuleError) else solve(state, budget)


def _pairs(state: GameState, budget: int) -> tuple[str, tuple[AnyIntent, ...], int]:
    from .pairs import solve_ranks

    found = solve_ranks([[card.rank for card in pile.cards] for pile in state.board.piles], budget)
    return found.result, tuple(PairIntent(a, b) for a, b in found.line), found.positions


def _spider(state: GameState, budget: int) -> tuple[str, tuple[AnyIntent, ...], int]:
    from .spider import solve_board

    return solve_board(state.board, budget)


def _wading_pool(state: GameState, budget: int) -> tuple[str, tuple[AnyIntent, ...], int]:
    from .wading_pool import solve_board

    return solve_board(state.board, budget)


def _wizard(state: GameState, budget: int) -> tuple[str, tuple[AnyIntent, ...], int]:
    from .wizard import solve_board

    return solve_board(state.board, state.variant, budget)


_SOLVERS = {"pairs": _pairs, "spider": _spider, "wading-pool": _wading_pool, "wizard": _wizard}

__all__ = ["UNKNOWN", "UNWINNABLE", "WINNABLE", "Verdict", "default_budget", "solvable_games", "solve", "solve_deal"]
