"""Winnability checks for choosing a daily's deal: (game, variant, seed) -> is the deal winnable?

A daily must be a deal proven winnable with full knowledge: the game's solver, within a fixed budget
of search nodes (never a time limit, so the same secret always picks the same deal), must answer
"winnable"; an "unknown" counts as not proven and the counter steps on. For a game without a solver
the check falls back to "not lost at the deal" (the engine's own outcome of the starting position),
which proves nothing more than that a first move exists. Each check says whether it is a proof
(`proves`), so a challenge records how its deal was chosen.

A game's solver is plugged in with `register_check(game, check)`; the last one registered wins.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import LOST, RuleError, initial_state
from engine.solver import solvable_games, solve

WinnableFn = Callable[[str, dict[str, Any], int], bool]  # Any: JSON

EXACT_SOLVER = "exact_solver"
NOT_LOST_AT_DEAL = "not_lost_at_deal"
WEAK = "weak"  # a daily's fallback: not lost as dealt, only where ARENA_DAILY_WEAK_CHECK allows it
# Counters a daily's pick tries with a proving check. Past them the day is not prepared (logged) unless
# the weak fallback is allowed: with Spider four suits, the hardest, some 5 deals in 6 are proven
# within DAILY_BUDGETS, so 16 refusals in a row come about once in 10**12 days.
PROOF_COUNTERS = 16


@dataclass(frozen=True)
class WinnabilityCheck:
    name: str  # recorded with the challenge: how its deal was chosen
    proves: bool  # True when a True answer proves the deal winnable
    is_winnable: WinnableFn

    def __call__(self, game: str, variant: dict[str, Any], seed: int) -> bool:  # Any: a variant's JSON values
        return self.is_winnable(game, variant, seed)


def _solved_winnable(game: str, variant: dict[str, Any], seed: int) -> bool:  # Any: a variant's JSON values
    state = initial_state(game, variant, seed)
    if isinstance(state, RuleError):
        raise ValueError(f"cannot deal {game} {variant} #{seed}: {state.message}")
    solution = solve(state, DAILY_BUDGETS.get(game))
    if isinstance(solution, RuleError):
        raise ValueError(f"no solver for {game}: {solution.message}")
    return solution.winnable


def _not_lost_at_deal(game: str, variant: dict[str, Any], seed: int) -> bool:  # Any: a variant's JSON values
    state = initial_state(game, variant, seed)
    if isinstance(state, RuleError):
        raise ValueError(f"cannot deal {game} {variant} #{seed}: {state.message}")
    return state.status != LOST


# Search nodes per deal when choosing a daily or a race's deal (absent: the solver's default). A deal the
# solver cannot prove within this is stepped over, so the budget trades preparation time against proven
# deals. Spider takes 200,000 nodes, two fifths of four suits' default (some 3 to 6 s of one core in the solver worker for a
# deal it cannot prove): at 20,000 only about 3% of four-suit deals were proven (before the cover settings of
# spider_best), so a four-suit daily fell back to "not lost at the deal" more often than not; at 200,000 some
# five in six are (166 of seeds 101..300, docs/solvers.md). One and two suits keep it too, below their solver default of
# 1,000,000: the next counter is proven in a few milliseconds to a second (99.7% and 98.9% of deals are proven
# within 200,000), where a deal that needs more would cost up to a minute, and the same secret keeps picking
# the same deals as before that default was raised.
DAILY_BUDGETS: dict[str, int] = {"wizard": 20_000, "spider": 200_000}

SOLVER_CHECK = WinnabilityCheck(EXACT_SOLVER, True, _solved_winnable)
FALLBACK_CHECK = WinnabilityCheck(NOT_LOST_AT_DEAL, False, _not_lost_at_deal)
# The same test under the name a challenge records when it fell back to it: shown as `check: weak`.
WEAK_CHECK = WinnabilityCheck(WEAK, False, _not_lost_at_deal)

_CHECKS: dict[str, WinnabilityCheck] = {}


def register_check(game: str, check: WinnabilityCheck) -> None:
    """Use `check` for `game` from now on (a new solver for Spider or Solitaire Wizard)."""
    _CHECKS[game] = check


def check_named(name: str) -> WinnabilityCheck | None:
    """The check a challenge recorded by name (to re-run it on the skipped counters); None if unknown."""
    if name == EXACT_SOLVER:
        return SOLVER_CHECK
    return {NOT_LOST_AT_DEAL: FALLBACK_CHECK, WEAK: WEAK_CHECK}.get(name)


def check_for(game: str) -> WinnabilityCheck:
    """The best check known for `game`: one registered for it, else its solver, else not-lost-at-the-deal."""
    if game in _CHECKS:
        return _CHECKS[game]
    return SOLVER_CHECK if game in solvable_games() else FALLBACK_CHECK
