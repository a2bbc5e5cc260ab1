"""Solvers with full knowledge of the deal: is a position winnable, and a winning line from it."""

from __future__ import annotations

from msgspec import Struct

from ..errors import NOT_SUPPORTED, RuleError, rule_error
from ..intents import AnyIntent, PairIntent
from ..state import WON, GameState
from .pairs import solve_ranks

SOLVABLE_GAMES = ("wish", "patient-pairs")


class Solution(Struct, frozen=True):
    winnable: bool
    line: tuple[AnyIntent, ...]  # intents that win from the given state, in order
    positions: int


def solve(state: GameState) -> Solution | RuleError:
    """Solve from `state` (not only from the deal): the line is a hint for the rest of the game."""
    if state.game not in SOLVABLE_GAMES:
        return rule_error(NOT_SUPPORTED, f"no solver for {state.game}; solvable: {', '.join(SOLVABLE_GAMES)}")
    if state.status == WON:
        return Solution(True, (), 0)
    if state.status != "in_progress" and any(pile.cards for pile in state.board.piles):
        return Solution(False, (), 0)
    ranks = [[card.rank for card in pile.cards] for pile in state.board.piles]
    found = solve_ranks(ranks)
    return Solution(found.winnable, tuple(PairIntent(a, b) for a, b in found.line), found.positions)
