"""The deal as it was dealt, every card face up: what a finished game reveals.

The view has the PlayerView shape (the same pile views a client already draws), so showing the deal
needs no knowledge of any game's board. It is a pure function of (game, variant, seed); whether it
may be shown yet (only once the game is over, never while a ranked deal is still secret) is the
caller's decision. `revealed_state_view` shows any later position the same way (a replay's steps).
"""

from __future__ import annotations

from typing import Any

import msgspec

from .decider import initial_state
from .errors import RuleError
from .registry import rules_for
from .state import GameState, PlayerView


def revealed_view(game: str, variant: dict[str, Any] | None, seed: int) -> PlayerView | RuleError:  # Any: a variant as JSON values
    """The start of the game with nothing hidden: no face-down card, the stock in order.

    `legal` is empty (nothing is played on a revealed deal); status, counters and info are those of
    the deal itself.
    """
    start = initial_state(game, variant, seed)
    if isinstance(start, RuleError):
        return start
    return revealed_state_view(start)


def revealed_state_view(state: GameState) -> PlayerView:
    """A position with nothing hidden: its status, counters and info, every pile face up, no legal move."""
    rules = rules_for(state.game)
    assert not isinstance(rules, RuleError), rules
    return PlayerView(
        game=state.game,
        variant=msgspec.structs.asdict(state.variant),
        status=state.status,
        moves=state.moves,
        undos=state.undos,
        piles=rules.revealed_piles(state.board),
        legal=(),
        info=rules.info(state),
    )
