"""The state every game shares, and the player's view of it.

The state, the boards, piles, views, intents and events are `gc=False` structs: frozen, built only from
tuples, numbers, strings and other such structs, so they can never be part of a reference cycle, and the
cycle collector need not track them. A server keeps a state and a view per live game and makes new ones
at every move: tracked, they were most of the young objects every collection walks (in 1,000 games
played in turn, half the collector's work and its pauses; docs/operations.md).

The cards are `gc=False` too (engine/cards.py), and that matters for the tuples: a tuple is tracked when
made, and a collection untracks it only if nothing in it is of a type the collector could track. A
tuple of cards of an ordinary struct type stayed tracked as long as its pile lived, so every pile of
every live game was walked by every collection of its generation.
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct

from .cards import Card
from .intents import AnyIntent

IN_PROGRESS, WON, LOST, ABANDONED = "in_progress", "won", "lost", "abandoned"
FINISHED = frozenset({WON, ABANDONED})  # no further action of any kind; LOST may still undo


class GameState(Struct, frozen=True, gc=False):
    """A game in play. `board` and `variant` are the game's own structs.

    `history` holds the boards before each move of the current line, and only where undo is allowed
    (a game whose rules have undo, like Spider, or any game with `practice_undo`); `moves` counts the
    moves of the current line, `undos` the undos taken. `practice_undo`: the game may undo although
    its rules have none (casual and practice play, chosen by whoever starts the game; never ranked).
    """

    game: str
    variant: Any  # Any: the game's own variant Struct (its GameRules' VariantT)
    seed: int
    board: Any  # Any: the game's own board Struct (its GameRules' BoardT)
    status: str = IN_PROGRESS
    moves: int = 0
    undos: int = 0
    history: tuple[Any, ...] = ()  # Any: the game's own earlier boards, for undo
    practice_undo: bool = False


class PileView(Struct, frozen=True, gc=False):
    """A pile as the player sees it: how many cards lie face down, and the face-up cards in order."""

    id: str
    kind: str  # tableau, foundation, stock, waste, cleared
    down: int
    cards: tuple[Card, ...]


class ActionView(Struct, frozen=True, gc=False):
    """A button's worth of truth: whether an argument-free action is accepted now, and if not why
    (the engine's own refusal, code and message), so a client greys it out with the reason and
    decides nothing itself."""

    type: str  # deal, recycle, cast, undo, finish, resign
    available: bool
    code: str = ""
    reason: str = ""


class PlayerView(Struct, frozen=True, gc=False):
    """Only what the player may see: never a face-down card, never the order of an undealt stock."""

    game: str
    variant: dict[str, Any]  # Any: a variant as JSON values; the game's variant_type checks them
    status: str
    moves: int
    undos: int
    piles: tuple[PileView, ...]
    legal: tuple[AnyIntent, ...]
    info: dict[str, Any] = {}  # Any: the game's own JSON counters
    actions: tuple[ActionView, ...] = ()  # every button the game has now, available or with its reason
    notes: tuple[str, ...] = ()  # the status in players' words ("2 deals left", "Cast ready"...)
