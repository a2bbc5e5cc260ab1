"""Every step of a finished game, every card face up: what its replay page shows.

Step 0 is the deal; step k is the position after the k-th logged event (a move, an undo, a
resign). Each step's view has the PlayerView shape with nothing hidden (engine.reveal), so a
client draws it with the same renderer as a live game and needs no rule of any game. `hidden`
says which cards the player could not see at that step (face down, or in the undealt stock): the
replay shows them all, and a viewer may mark what the player did not know yet.

Showing these views is only right once the deal may be public; that is the caller's decision.
The events are the game's own log, read back from the store, so they are folded without being
decided again (as engine.fold does); the validator is the place that re-decides a log.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec import Struct

from . import events as ev
from .cards import Card
from .decider import evolve, hidden_cards, initial_state
from .errors import RuleError
from .intents import AnyIntent
from .replay import intent_of
from .reveal import revealed_state_view
from .state import GameState, PlayerView


class ReplayStep(Struct, frozen=True):
    view: PlayerView  # the position, every card face up, legal empty
    hidden: tuple[int, ...]  # ids of the cards the player could not see in this position
    event: ev.AnyEvent | None = None  # the logged event that led here; None at the deal
    intent: AnyIntent | None = None  # the move as the player asked for it
    cards: tuple[Card, ...] = ()  # the cards the event names, as they lay before it


class ReplaySteps(Struct, frozen=True):
    states: tuple[GameState, ...]  # full knowledge, for the solver's review; never sent to a client
    steps: tuple[ReplayStep, ...]


def replay_steps(game: str, variant: dict[str, Any] | None, seed: int,  # Any: a variant as JSON values
                 events: Sequence[ev.AnyEvent], *, practice_undo: bool = False) -> ReplaySteps | RuleError:
    """The deal and the position after each event, with the states they show. `practice_undo` as the
    game was dealt with (its undos are in the log and fold like any other)."""
    state = initial_state(game, variant, seed, practice_undo=practice_undo)
    if isinstance(state, RuleError):
        return state
    states = [state]
    steps = [ReplayStep(revealed_state_view(state), _hidden(state))]
    for event in events:
        before = steps[-1].view
        state = evolve(state, event)
        states.append(state)
        steps.append(ReplayStep(revealed_state_view(state), _hidden(state), event, intent_of(event),
                                _cards_named(event, before)))
    return ReplaySteps(tuple(states), tuple(steps))


def _hidden(state: GameState) -> tuple[int, ...]:
    return tuple(sorted(hidden_cards(state)))


def _card_ids(event: ev.AnyEvent) -> tuple[int, ...]:
    match event:
        case ev.PairRemoved(cards=cards) | ev.CardsMoved(cards=cards) | ev.StockDealt(cards=cards):
            return tuple(cards)
        case ev.LuckPicked(card=card):
            return (card,)
    return ()


def _cards_named(event: ev.AnyEvent, before: PlayerView) -> tuple[Card, ...]:
    """The event's cards, looked up in the revealed position it was played on (every card is there)."""
    by_id = {card.id: card for pile in before.piles for card in pile.cards}
    return tuple(by_id[card_id] for card_id in _card_ids(event) if card_id in by_id)
