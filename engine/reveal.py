"""The deal as it was dealt, every card face up: what a finished game reveals.

The view has the PlayerView shape (the same pile views a client already draws), so showing the deal
needs no knowledge of any game's board. It is a pure function of (game, variant, seed); whether it
may be shown yet (only once the game is over, never while a ranked deal is still secret) is the
caller's decision.
"""

from __future__ import annotations

import msgspec

from .decider import initial_state
from .errors import RuleError
from .registry import rules_for
from .state import PlayerView


def revealed_view(game: str, variant: dict | None, seed: int) -> PlayerView | RuleError:
    """The start of the game with nothing hidden: no face-down card, the stock in order.

    `legal` is empty (nothing is played on a revealed deal); status, counters and info are those of
    the deal itself.
    """
    start = initial_state(game, variant, seed)
    if isinstance(start, RuleError):
        return start
    rules = rules_for(start.game)
    assert not isinstance(rules, RuleError), rules
    return PlayerView(
        game=start.game,
        variant=msgspec.structs.asdict(start.variant),
        status=start.status,
        moves=0,
        undos=0,
        piles=rules.revealed_piles(start.board),
        legal=(),
        info=rules.info(start),
    )
