"""The store's retention policy: casual guest games are trimmed some days after they ended.

A casual or practice game that ended (won, lost, or abandoned) joins the `retention` index with its
end time; a background task in every server process (one at a time, under a lock) deletes the logs
of the ones older than the retention period whose player is a guest. A casual loss undone is back in
play: it is left alone, and joins again when it ends again. Never trimmed: daily
attempts and race games (ranked, raced, or referenced by a leaderboard), and every game of a named
account (their statistics are folded from them). ARENA_RETENTION_DAYS=0 keeps everything. A trimmed
game the archiver had moved to the archive tier leaves it too: its object first, then its pointer.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from redis.exceptions import RedisError

from engine import IN_PROGRESS

from ..store.keys import (
    account_key,
    log_key,
    meta_key,
    moves_key,
    player_games_key,
    retention_key,
    scheduler_lock_key,
    verdicts_key,
)
from .entries import CASUAL_KINDS, GameCreated
from .hooks import WritesOnly

DAY_MS = 24 * 3600 * 1000
BATCH = 500
log = logging.getLogger("arena.retention")


def trimmable(created: GameCreated) -> bool:
    """A game the policy may ever trim: casual or practice, on no challenge's or race's deal."""
    return created.kind in CASUAL_KINDS and created.links.challenge is None and created.links.race is None


class Retention(WritesOnly):
    """A results hook (it hears games end) and the trimming task."""

    def __init__(self, redis: Any, *, days: int, clock: Any, objects: Any = None) -> None:  # Any: a redis-py client
        self.redis, self.days, self.clock = redis, days, clock
        self.objects = objects  # the archive tier's store: a trimmed game that was archived leaves it too
        self.owner = secrets.token_hex(8)

    # QueuesWrites (services/games/hooks.py): the game service runs this in the game's own pipeline.

    def queue_ended(self, pipe: Any, created: GameCreated, game_id: str, status: str, at_ms: int) -> bool:
        if trimmable(created):
            pipe.zadd(retention_key(), {game_id: at_ms})
        return True

    async def trim_once(self) -> int:
        """Delete the guest games that ended before the retention period; how many went."""
        if self.days <= 0:
            return 0
        cutoff = self.clock() - self.days * DAY_MS
        due = await self.redis.zrangebyscore(retention_key(), "-inf", cutoff, start=0, num=BATCH)
        trimmed = 0
        for raw in due:
            game_id = raw.decode() if isinstance(raw, bytes) else raw
            player, status = await self.redis.hmget(meta_key(game_id), ["player_id", "status"])
            player_id = player.decode() if isinstance(player, bytes) else player
            if status in (IN_PROGRESS, IN_PROGRESS.encode()):
                pass  # an undo out of a loss put it back in play: it joins again when it ends again
            elif player_id is None or not await self.redis.exists(account_key(player_id)):
                if not await self._delete_archived(game_id):
                    continue  # the archive did not answer: the game stays listed, tried again next pass
                await self._delete(game_id, player_id)
                trimmed += 1
            await self.redis.zrem(retention_key(), game_id)
        return trimmed

    async def _delete_archived(self, game_id: str) -> bool:
        """The game's archived object deleted, if it has one; False when the archive failed (the
        pointer stays, so the object is never left without a record of it)."""
        from ..archive.objects import MISSING
        from ..archive.pointer import pointer_of

        pointer = await pointer_of(self.redis, game_id)
        if pointer is None or self.objects is None:
            return True
        fault = await self.objects.delete(pointer.key)
        return fault is None or fault.code == MISSING

    async def _delete(self, game_id: str, player_id: str | None) -> None:
        # The game's own keys share its slot; the indexes live elsewhere: no transaction across them.
        pipe = self.redis.pipeline(transaction=False)
        pipe.delete(log_key(game_id), moves_key(game_id), meta_key(game_id))
        if player_id is not None:
            pipe.zrem(player_games_key(player_id), game_id)
        pipe.hdel(verdicts_key(), game_id)
        await pipe.execute()

    async def run(self, stop: asyncio.Event, every_s: float = 3600.0) -> None:
        while not stop.is_set():
            key = scheduler_lock_key("retention")
            try:
                if await self.redis.set(key, self.owner, nx=True, px=int(every_s * 1000)):
                    trimmed = await self.trim_once()
                    if trimmed:
                        log.info("retention: %d ended guest games older than %d days trimmed", trimmed, self.days)
            except RedisError as exc:
                log.warning("retention: redis unavailable, retrying later: %s", exc)
            try:
                await asyncio.wait_for(stop.wait(), every_s)
            except TimeoutError:
                pass
