"""Replay an event log from the deal, stopping at the first event the rules would not produce.

Each stored event is turned back into the intent that asks for it and decided again on the state
the earlier events built; a log whose event differs from what that intent gives (a tampered card
id, a pile that was not playable) stops the replay there and says which event and why.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Sequence

from msgspec import Struct

from . import events as ev
from . import intents as it
from .decider import decide, evolve, initial_state
from .errors import RuleError
from .state import GameState


class ReplayError(Struct, frozen=True):
    index: int  # 0-based position of the offending event in the log
    event: ev.AnyEvent
    code: str
    message: str


class ReplayResult(Struct, frozen=True):
    state: GameState | None
    applied: int
    error: ReplayError | RuleError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def intent_of(event: ev.AnyEvent) -> it.AnyIntent:
    """The intent that, if legal, decides into exactly this event."""
    match event:
        case ev.PairRemoved(piles=(a, b)):
            return it.PairIntent(a, b)
        case ev.CardsMoved(src=src, dst=dst, cards=cards):
            return it.MoveIntent(src, dst, len(cards))
        case ev.StockDealt():
            return it.DealIntent()
        case ev.WasteRecycled():
            return it.RecycleIntent()
        case ev.SpellCast():
            return it.CastIntent()
        case ev.LuckPicked(card=card, dst=dst):
            return it.LuckIntent(card, dst)
        case ev.MoveUndone():
            return it.UndoIntent()
        case ev.GameResigned():
            return it.ResignIntent()
    raise TypeError(f"not an engine event: {event!r}")


def replay_events(state: GameState, events: Sequence[ev.AnyEvent]) -> ReplayResult:
    for index, event in enumerate(events):
        decided = decide(intent_of(event), state)
        if isinstance(decided, RuleError):
            message = f"event {index} ({type(event).__name__}) is illegal here: {decided.message}"
            return ReplayResult(state, index, ReplayError(index, event, decided.code, message))
        if decided != [event]:
            message = (
                f"event {index} ({type(event).__name__}) does not match the move it names: "
                f"the rules give {decided[0]!r}, the log says {event!r}"
            )
            return ReplayResult(state, index, ReplayError(index, event, "event_mismatch", message))
        state = evolve(state, event)
    return ReplayResult(state, len(events))


def replay(game: str, variant: dict[str, Any] | None, seed: int, events: Sequence[ev.AnyEvent]) -> ReplayResult:  # Any: a variant as JSON values
    start = initial_state(game, variant, seed)
    if isinstance(start, RuleError):
        return ReplayResult(None, 0, start)
    return replay_events(start, events)


def fold(state: GameState, events: Sequence[ev.AnyEvent]) -> GameState:
    """Trusted fold (events from our own store): evolve without re-deciding."""
    for event in events:
        state = evolve(state, event)
    return state
