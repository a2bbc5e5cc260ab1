"""Who the game service tells about games: results (a game opened, a game ended) and every accepted move."""

from __future__ import annotations

from typing import Protocol

from .entries import GameCreated
from .live import LiveGame
from .model import Snapshot


class ResultsHook(Protocol):
    """Who hears that a game opened and how it ended (the validator's submitter, the tournaments)."""

    async def opened(self, created: GameCreated, game_id: str, at_ms: int) -> None: ...

    async def ended(self, created: GameCreated, game_id: str, status: str, moves: int, time_ms: int, at_ms: int) -> None: ...


class MoveHook(Protocol):
    """Who hears every accepted move, with the snapshot after it (a race's progress feed). Called in
    the move path: it must not wait on the network."""

    def moved(self, live: LiveGame, snapshot: Snapshot) -> None: ...


class NoResults:
    async def opened(self, created: GameCreated, game_id: str, at_ms: int) -> None:
        return None

    async def ended(self, created: GameCreated, game_id: str, status: str, moves: int, time_ms: int, at_ms: int) -> None:
        return None


class AllResults:
    """Several hooks heard in turn (the validator first: a win is submitted before anything else)."""

    def __init__(self, *hooks: ResultsHook) -> None:
        self.hooks = list(hooks)

    async def opened(self, created: GameCreated, game_id: str, at_ms: int) -> None:
        for hook in self.hooks:
            await hook.opened(created, game_id, at_ms)

    async def ended(self, created: GameCreated, game_id: str, status: str, moves: int, time_ms: int, at_ms: int) -> None:
        for hook in self.hooks:
            await hook.ended(created, game_id, status, moves, time_ms, at_ms)
