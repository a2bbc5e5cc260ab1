"""What the replay page shows of a public game: every step's view, every card face up, with each
move's server time, and the solver's review of the game (per-step winnability, the point of no
return, the shortest winning line it knows).

The engine computes it all (engine.replay_views, engine.solver.review); this module reads the log,
runs that work off the event loop, one review at a time per process, and keeps the last few
answers as encoded JSON in a small LRU keyed by (game, stream version): a finished game's log does
not change, and a log that did move on has a new key. Nothing else is cached. Whether the game may
be shown at all is public_game's answer, asked before anything is read.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import msgspec
from msgspec import Struct

from engine import AnyEvent, AnyIntent, Card, PlayerView, RuleError
from engine.replay_views import ReplaySteps, replay_steps
from engine.solver.review import Review, review

from ..games.model import Refusal
from ..games.record import GameLog, practice_undo, read_log
from ..games.service import GameService
from ..store import StoredEvent
from .public import public_game

UNAVAILABLE = "unavailable"
CACHED_GAMES = 16  # encoded answers kept; a long Spider game's is about a megabyte
MAX_WAITING = 4  # reviews queued in this process before a request is told to come back later


class ViewStep(Struct, frozen=True):
    view: PlayerView  # every card face up; legal empty
    hidden: tuple[int, ...]  # the cards the player could not see at this step
    move: AnyIntent | None = None  # the move that led here (None at the deal)
    event: AnyEvent | None = None  # the event it was logged as
    cards: tuple[Card, ...] = ()  # the cards that move named
    at_ms: int | None = None  # the server's time of the entry (the deal: its first look)
    elapsed_ms: int | None = None  # from the first look to this entry, as the game's clock counts


class ReplayViews(Struct, frozen=True):
    game_id: str
    game: str
    variant: dict[str, Any]  # Any: a variant's JSON values (the engine checks them)
    kind: str
    player_id: str
    seed: int
    status: str
    moves: int
    time_ms: int | None  # from the first look to the last entry
    steps: list[ViewStep]
    analysis: Review | None  # None when the game has no solver (analysis_note says so)
    analysis_note: str | None = None


def view_steps(log: GameLog) -> tuple[list[ViewStep], ReplaySteps]:
    """Every step's view with its server time (no search: cheap beside the review)."""
    created = log.created
    replay = replay_steps(created.game, created.variant, created.seed, log.engine_events(),
                          practice_undo=practice_undo(created))
    assert not isinstance(replay, RuleError), replay  # the game dealt when it was created
    shown = log.shown.at_ms if log.shown is not None else None
    times = [shown, *(timed.ts_ms for timed in log.events)]
    steps = [
        ViewStep(step.view, step.hidden, step.intent, step.event, step.cards, at,
                 None if at is None or shown is None else max(0, at - shown))
        for step, at in zip(replay.steps, times)
    ]
    return steps, replay


def build_views(game_id: str, entries: list[StoredEvent]) -> ReplayViews:
    """The page's data for a stored log (CPU-bound: the review searches). The caller checks it is public."""
    log = read_log(entries)
    created = log.created
    steps, replay = view_steps(log)
    found = review(replay.states, log.engine_events())
    note = found.message if isinstance(found, RuleError) else None
    final = replay.states[-1]
    return ReplayViews(
        game_id=game_id, game=created.game, variant=created.variant, kind=created.kind,
        player_id=created.player_id, seed=created.seed, status=final.status, moves=final.moves,
        time_ms=steps[-1].elapsed_ms if log.events else None, steps=steps,
        analysis=None if isinstance(found, RuleError) else found, analysis_note=note,
    )


class Answers:
    """The last few encoded answers, least recently used out first."""

    def __init__(self, size: int) -> None:
        self.size, self.lock = size, threading.Lock()
        self.items: OrderedDict[tuple[object, ...], bytes] = OrderedDict()

    def get(self, key: tuple[object, ...]) -> bytes | None:
        with self.lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
            return found

    def put(self, key: tuple[object, ...], value: bytes) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


_answers = Answers(CACHED_GAMES)
_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="replay-review")  # the GIL allows no more
_waiting = 0
_waiting_lock = threading.Lock()


async def off_the_loop(work: Callable[[], bytes]) -> bytes | Refusal:
    """Run CPU-bound replay work on the one worker thread; refused when too much is already waiting."""
    global _waiting
    with _waiting_lock:
        if _waiting >= MAX_WAITING:
            return Refusal(UNAVAILABLE, "the server is busy reviewing other games: try again in a few seconds")
        _waiting += 1
    try:
        return await asyncio.get_running_loop().run_in_executor(_worker, work)
    finally:
        with _waiting_lock:
            _waiting -= 1


async def public_views(service: GameService, game_id: str) -> bytes | Refusal:
    """The encoded ReplayViews of a public game, or why not (no such game, not public yet, busy)."""
    live = await public_game(service, game_id)
    if isinstance(live, Refusal):
        return live
    cached = _answers.get((game_id, live.stream_version))
    if cached is not None:
        return cached
    entries = await service.store.read(game_id)
    key = (game_id, entries[-1].version)
    encoded = await off_the_loop(lambda: msgspec.json.encode(build_views(game_id, entries)))
    if not isinstance(encoded, Refusal):
        _answers.put(key, encoded)
    return encoded
