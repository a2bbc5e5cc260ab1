"""Who the game service tells about games: results (a game opened, a game ended) and every accepted move.

Most results hooks only write a key or two (the validator's unsettled set, the retention and archive
indexes): such a hook also queues those writes (QueuesWrites) into the pipeline that stores the game's
own meta hash, so a game's creation and its end each cost one round trip for all of them. A hook with
more to do (a win to submit, an attempt or a race to decide) is then told as before, in its turn.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from .entries import GameCreated
from .live import LiveGame
from .model import Snapshot


class ResultsHook(Protocol):
    """Who hears that a game opened and how it ended (the validator's submitter, the tournaments)."""

    async def opened(self, created: GameCreated, game_id: str, at_ms: int) -> None: ...

    async def ended(self, created: GameCreated, game_id: str, status: str, moves: int, time_ms: int, at_ms: int) -> None: ...


@runtime_checkable
class QueuesWrites(Protocol):
    """A results hook whose writes at an opening or an end are plain commands. Each method queues them
    into `pipe` (no transaction: its keys lie in other slots) and says whether that was all: True, and
    its `opened`/`ended` is not called for this game; False, and it is (after the pipeline ran). Its keys
    must live on the game service's Redis: one client serves every service of a process (wiring.py)."""

    def queue_opened(self, pipe: Any, created: GameCreated, game_id: str, at_ms: int) -> bool: ...  # Any: a pipeline

    def queue_ended(self, pipe: Any, created: GameCreated, game_id: str, status: str, at_ms: int) -> bool: ...


class WritesOnly:
    """Base of a results hook that only writes (QueuesWrites): its subclass queues its writes; told on its own
    (`opened`/`ended`, outside the game service's pipeline) it runs them in a pipeline of its own."""

    redis: Any  # Any: a redis-py client (server or cluster)

    def queue_opened(self, pipe: Any, created: GameCreated, game_id: str, at_ms: int) -> bool:  # Any: a pipeline
        return True

    def queue_ended(self, pipe: Any, created: GameCreated, game_id: str, status: str, at_ms: int) -> bool:
        return True

    async def opened(self, created: GameCreated, game_id: str, at_ms: int) -> None:
        pipe = self.redis.pipeline(transaction=False)
        self.queue_opened(pipe, created, game_id, at_ms)
        await pipe.execute()

    async def ended(self, created: GameCreated, game_id: str, status: str, moves: int, time_ms: int, at_ms: int) -> None:
        pipe = self.redis.pipeline(transaction=False)
        self.queue_ended(pipe, created, game_id, status, at_ms)
        await pipe.execute()


def queue_opened(results: ResultsHook, pipe: Any, created: GameCreated, game_id: str, at_ms: int) -> list[ResultsHook]:
    """Queues the writes of the hooks that queue theirs; the hooks still to be told, in their order."""
    return [hook for hook in _each(results)
            if not (_queues_writes(hook) and hook.queue_opened(pipe, created, game_id, at_ms))]  # type: ignore[attr-defined]  # checked: QueuesWrites


def queue_ended(results: ResultsHook, pipe: Any, created: GameCreated, game_id: str, status: str,
                at_ms: int) -> list[ResultsHook]:
    """As queue_opened, for a game's end."""
    return [hook for hook in _each(results)
            if not (_queues_writes(hook) and hook.queue_ended(pipe, created, game_id, status, at_ms))]  # type: ignore[attr-defined]  # checked: QueuesWrites


_QUEUES_WRITES: dict[type, bool] = {}  # hook class -> whether it is a QueuesWrites


def _queues_writes(hook: ResultsHook) -> bool:
    # Asked for every hook at every creation and end: an isinstance against a runtime-checkable Protocol
    # looks up each of its members every time (about 1 % of a short game's CPU), a class is answered once.
    kind = type(hook)
    known = _QUEUES_WRITES.get(kind)
    if known is None:
        known = _QUEUES_WRITES[kind] = isinstance(hook, QueuesWrites)
    return known


def _each(results: ResultsHook) -> list[ResultsHook]:
    return list(results.hooks) if isinstance(results, AllResults) else [results]


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
