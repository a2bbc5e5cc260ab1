"""Finished games for the archive bench: one 150-move Spider game played through the game service, and
clones of its log under new ids (one append each, so thousands are made in seconds).

A clone is a real game log (its creation, its first look, every move), the same entries under another
id with the append's time: the archiver, the read-through and `verify` treat it like any other.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

import engine
from engine import intents as it
from services.games.service import GameService
from services.store import AppendRequest, EventStore, NewEvent, StoredEvent
from services.store.keys import archive_due_key, log_key, meta_key, moves_key

MOVES = 150


async def played_spider(service: GameService, player: str = "g_bench", moves: int = MOVES,
                        seed: int = 7) -> str:
    """A Spider (1 suit) game of `moves` random legal moves (no undo), then resigned: over and public."""
    rng = random.Random(seed)
    for attempt in range(50):
        summary = await service.create_game(player, "spider", {"suits": 1}, seed + attempt)
        await service.open_for(summary.id, player)
        live = service.live.get(summary.id)
        while live.version < moves and live.state.status == engine.IN_PROGRESS:
            legal = [m for m in engine.legal_moves(live.state)
                     if not isinstance(m, (it.UndoIntent, it.ResignIntent))]
            if not legal:
                break
            result = await service.submit(player, summary.id, f"m{live.version}", live.version, rng.choice(legal))
            assert result.answer.accepted, result.answer
            live = service.live.get(summary.id)
        if live.version >= moves and live.state.status == engine.IN_PROGRESS:
            done = await service.submit(player, summary.id, "resign", live.version, it.ResignIntent())
            assert done.answer.accepted
            return summary.id
    raise LookupError(f"no Spider deal from seed {seed} ran {moves} random moves")


async def hot_bytes(redis: Any, game_id: str) -> int:
    """Valkey's memory for one game: its log, its move records and its meta hash (MEMORY USAGE)."""
    total = 0
    for key in (log_key(game_id), moves_key(game_id), meta_key(game_id)):
        total += int(await redis.memory_usage(key) or 0)
    return total


async def clone(store: EventStore, entries: list[StoredEvent], count: int, *, due_at: int | None = 0,
                batch: int = 500) -> list[str]:
    """`count` games with the log of `entries` under new ids (one append each), in the archiver's index
    (due at `due_at`; None: not listed, so no archiver looks at them)."""
    events = [NewEvent(e.type, e.data, e.schema) for e in entries]
    ids: list[str] = []
    while len(ids) < count:
        wave = [secrets.token_hex(8) for _ in range(min(batch, count - len(ids)))]
        results = await store.append_many([AppendRequest(game_id, 0, events, "clone") for game_id in wave])
        assert all(not isinstance(r, Exception) for r in results), results[:3]
        if due_at is not None:
            await store.client.zadd(archive_due_key(), {game_id: due_at for game_id in wave})
        ids += wave
    return ids
