"""Solvers with full knowledge of the deal: is a position winnable, and a winning line from it.

The pairing solver serves every game whose rules say has_solver (the pairing games: a pairing board,
piles of cards played from the top); which games those are is the registry's answer, not a list here.
"""

from __future__ import annotations

from msgspec import Struct

from ..errors import NOT_SUPPORTED, RuleError, rule_error
from ..intents import AnyIntent, PairIntent
from ..registry import all_rules, rules_for
from ..state import WON, GameState
from .pairs import solve_ranks


class Solution(Struct, frozen=True):
    winnable: bool
    line: tuple[AnyIntent, ...]  # intents that win from the given state, in order
    positions: int


def solvable_games() -> list[str]:
    return [rules.game_id for rules in all_rules() if rules.has_solver]


def solve(state: GameState) -> Solution | RuleError:
    """Solve from `state` (not only from the deal): the line is a hint for the rest of the game."""
    rules = rules_for(state.game)
    if isinstance(rules, RuleError) or not rules.has_solver:
        return rule_error(NOT_SUPPORTED, f"no solver for {state.game}; solvable: {', '.join(solvable_games())}")
    if state.status == WON:
        return Solution(True, (), 0)
    if state.status != "in_progress" and any(pile.cards for pile in state.board.piles):
        return Solution(False, (), 0)
    ranks = [[card.rank for card in pile.cards] for pile in state.board.piles]
    found = solve_ranks(ranks)
    return Solution(found.winnable, tuple(PairIntent(a, b) for a, b in found.line), found.positions)
