"""The game service's projections of the logs: a meta hash per game, a game index per player and the
player's games in play (in_play.py).

All are caches for queries ("is this game finished?", "my games, newest first", "what does a new game
abandon?"); the logs stay the truth. `rebuild_projections` recreates them from the logs alone: after a
loss of these keys, or to check that what the running service wrote is what the logs say.
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct

import engine
from engine import RuleError
from engine import GameState

from ..store import EventStore
from ..store.keys import LOG_KEY_PATTERN, game_id_of_log_key, meta_key, player_games_key, player_in_play_key
from .entries import CASUAL_KINDS
from .hooks import ResultsHook, queue_opened
from .in_play import KEPT, TTL_MS, queue_in_play
from .record import BadLog, GameLog, read_log, start_state, stopped_at

META_PREFIX = meta_key("")[:-2]  # "arena:meta:"
META_KEY_PATTERN = f"{META_PREFIX}{{*}}"
META_FIELDS = ("player_id", "game", "kind", "status", "created_at_ms", "shown_at_ms", "finished_at_ms", "assisted")


def final_state(log: GameLog) -> GameState:
    """The game's state after its log: its deal folded with its events by the engine."""
    created = log.created
    start = start_state(created)
    if isinstance(start, RuleError):
        raise ValueError(f"the creation no longer deals: {start.message}")
    return engine.fold(start, log.engine_events())


def meta_of(log: GameLog, state: GameState) -> dict[str, Any]:  # Any: JSON
    """The meta hash of a game, from its log and the state it folds to."""
    created = log.created
    meta: dict[str, Any] = {  # Any: JSON
        "player_id": created.player_id,
        "game": created.game,
        "kind": created.kind,
        "status": state.status,
        "created_at_ms": created.created_at_ms,
    }
    if log.shown is not None:
        meta["shown_at_ms"] = log.shown.at_ms
    stopped = stopped_at(log, state)
    if stopped is not None:
        meta["finished_at_ms"] = stopped
    if log.assisted or engine.undo_assisted(state):
        meta["assisted"] = 1  # only ever set: a hint marks the game for good
    return meta


async def write_projections(redis: Any, game_id: str, log: GameLog, state: GameState) -> None:  # Any: a redis-py client
    # Two keys in two slots (the game's, the player's): a pipeline without a transaction.
    pipe = redis.pipeline(transaction=False)
    queue_projections(pipe, game_id, log, state)
    await pipe.execute()


def queue_projections(pipe: Any, game_id: str, log: GameLog, state: GameState) -> None:  # Any: a pipeline
    """write_projections' commands, queued into a pipeline the caller runs (with more of its own)."""
    pipe.delete(meta_key(game_id))
    pipe.hset(meta_key(game_id), mapping=meta_of(log, state))
    pipe.zadd(player_games_key(log.created.player_id), {game_id: log.created.created_at_ms})


async def rewrite_game_projections(store: EventStore, lean: Any, results: ResultsHook, game_id: str) -> None:  # Any: the lean link's commands
    """A casual or practice game's projections and its hooks' creation writes written again from its log
    alone: what its creation writes, for a game whose creation may have stopped after its log was written
    (the ask is repeated, create_game's reserved id). Each write is idempotent."""
    log = read_log(await store.read(game_id))
    state = final_state(log)
    pipe = lean.pipeline()
    queue_projections(pipe, game_id, log, state)
    queue_in_play(pipe, log.created, game_id, state.status)
    told = queue_opened(results, pipe, log.created, game_id, log.created.created_at_ms)
    await pipe.execute()
    for hook in told:
        await hook.opened(log.created, game_id, log.created.created_at_ms)


class Rebuilt(Struct, frozen=True):
    games: int
    unreadable: dict[str, str]  # stream -> why it is not a game log (left alone, reported)


async def rebuild_projections(store: EventStore, redis: Any) -> Rebuilt:  # Any: a redis-py client
    """Rewrite every game's meta hash and every player's index from the logs.

    A player index is replaced whole, so an entry for a game that no longer has a log goes too."""
    indexes: dict[str, dict[str, int]] = {}
    in_play: dict[str, dict[str, int]] = {}  # player -> their casual and practice games in play
    unreadable: dict[str, str] = {}
    rebuilt = 0
    async for key in redis.scan_iter(match=LOG_KEY_PATTERN, count=500):
        game_id = game_id_of_log_key(key.decode() if isinstance(key, bytes) else key)
        if game_id is None:
            continue
        try:
            log = read_log(await store.read(game_id))
            state = final_state(log)
        except (BadLog, ValueError) as exc:
            unreadable[game_id] = str(exc)
            continue
        pipe = redis.pipeline(transaction=False)
        pipe.delete(meta_key(game_id))
        pipe.hset(meta_key(game_id), mapping=meta_of(log, state))
        await pipe.execute()
        indexes.setdefault(log.created.player_id, {})[game_id] = log.created.created_at_ms
        playing = in_play.setdefault(log.created.player_id, {})
        if log.created.kind in CASUAL_KINDS and state.status == engine.IN_PROGRESS:
            playing[game_id] = log.created.created_at_ms
        rebuilt += 1
    # An archived game has no log: its pointer (the meta hash it keeps, services/archive/pointer.py) is
    # its record in Valkey, so it stays in its player's index.
    from ..archive.pointer import pointer_of

    async for key in redis.scan_iter(match=META_KEY_PATTERN, count=500):
        game_id = _text(key)[len(META_PREFIX) + 1:-1]
        pointer = await pointer_of(redis, game_id)
        if pointer is not None:
            indexes.setdefault(pointer.summary.player_id, {})[game_id] = pointer.summary.created_at_ms
    for player_id, games in indexes.items():
        pipe = redis.pipeline(transaction=False)
        pipe.delete(player_games_key(player_id))
        pipe.zadd(player_games_key(player_id), games)
        # Whole from the logs: marked kept (an archived game is ended, never in play).
        pipe.delete(player_in_play_key(player_id))
        pipe.zadd(player_in_play_key(player_id), {KEPT: 0, **in_play.get(player_id, {})})
        pipe.pexpire(player_in_play_key(player_id), TTL_MS)
        await pipe.execute()
    return Rebuilt(rebuilt, unreadable)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
