"""The state every game shares, and the player's view of it."""

from __future__ import annotations

from typing import Any

from msgspec import Struct

from .cards import Card
from .intents import AnyIntent

IN_PROGRESS, WON, LOST, ABANDONED = "in_progress", "won", "lost", "abandoned"
FINISHED = frozenset({WON, ABANDONED})  # no further action of any kind; LOST may still undo


class GameState(Struct, frozen=True):
    """A game in play. `board` and `variant` are the game's own structs.

    `history` holds the boards before each move of the current line, and only for games with undo
    (Spider); `moves` counts the moves of the current line, `undos` the undos taken.
    """

    game: str
    variant: Any
    seed: int
    board: Any
    status: str = IN_PROGRESS
    moves: int = 0
    undos: int = 0
    history: tuple[Any, ...] = ()


class PileView(Struct, frozen=True):
    """A pile as the player sees it: how many cards lie face down, and the face-up cards in order."""

    id: str
    kind: str  # tableau, foundation, stock, waste, cleared
    down: int
    cards: tuple[Card, ...]


class PlayerView(Struct, frozen=True):
    """Only what the player may see: never a face-down card, never the order of an undealt stock."""

    game: str
    variant: dict[str, Any]
    status: str
    moves: int
    undos: int
    piles: tuple[PileView, ...]
    legal: tuple[AnyIntent, ...]
    info: dict[str, Any] = {}
