"""The races' Redis side: each race's stream, join codes, "one race at a time", presence, timers.

- The race stream (EventStore namespace "race"): appends with the expected version, so two processes
  deciding on one race never both write; the loser re-reads and decides again.
- A join code names a race (SET NX: two races never share one). Codes live a week.
- `player_race_key` holds the race a player has a seat in; taken before a seat, given back on leaving
  or at the end. A stale key (its race over, or no seat there) is taken over.
- Presence counts race sockets per racer across processes (HINCRBY); a crashed process leaves its
  count behind, so a racer it served shows as connected: the safe side for a clock that never stops.
- The due set: when each race next needs a look, polled by every process (any one may act).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..metrics import RACE_EVENTS
from ..store import EventStore, VersionConflict
from ..store.replication import ReplicaAck
from ..store.keys import RACE_STREAMS, player_race_key, race_code_key, race_presence_key, races_due_key
from .core import RaceState, fold
from .events import AnyRaceEvent, event_tag, from_stored, to_new_event

CODE_TTL_S = 7 * 24 * 3600

# Delete the key only if it still names this race: a player's newer race is never given back by an old one.
_RELEASE_LUA = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"


class RaceStore:
    def __init__(self, redis: Any, *, clock: Callable[[], int], replica_ack: ReplicaAck | None = None) -> None:  # Any: a redis-py client (server or cluster)
        self.redis = redis
        # The same wait for replicas as the games' appends: a race's start or finish is no less worth keeping.
        self.events = EventStore(redis, clock=clock, namespace=RACE_STREAMS, replica_ack=replica_ack)

    async def load(self, race_id: str, cached: RaceState | None = None) -> RaceState | None:
        """The race folded from its log, reading only what `cached` has not seen; None if there is none."""
        base = cached or RaceState()
        try:
            stored = await self.events.read(race_id, base.version + 1)
        except ValueError:
            return None  # not a stream id at all
        state = fold((from_stored(entry) for entry in stored), base)
        return state if state.created is not None else None

    async def append(self, race_id: str, version: int, events: list[AnyRaceEvent]) -> None:
        """Raises VersionConflict when another process wrote first (nothing written)."""
        await self.events.append(race_id, version, [to_new_event(event) for event in events])
        for event in events:  # counted once written: a lost append (VersionConflict) is decided again
            RACE_EVENTS.labels(event_tag(event)).inc()

    # Join codes ----------------------------------------------------------------------------------

    async def claim_code(self, code: str, race_id: str) -> bool:
        return bool(await self.redis.set(race_code_key(code), race_id, nx=True, ex=CODE_TTL_S))

    async def race_of_code(self, code: str) -> str | None:
        raw = await self.redis.get(race_code_key(code))
        return None if raw is None else _text(raw)

    # One race at a time --------------------------------------------------------------------------

    async def take_seat(self, player: str, race_id: str, busy: Callable[[str], Awaitable[bool]]) -> str | None:
        """Mark `player` as racing in `race_id`; the other race they are busy in when they are."""
        key = player_race_key(player)
        for _ in range(4):
            if await self.redis.set(key, race_id, nx=True):
                return None
            current = await self.redis.get(key)
            if current is None:
                continue
            current = _text(current)
            if current == race_id:
                return None
            if await busy(current):
                return current
            await self.release_seat(player, current)  # stale: that race is over or has no seat for them
        return None if _text(await self.redis.get(key) or b"") == race_id else "?"

    async def release_seat(self, player: str, race_id: str) -> None:
        await self.redis.eval(_RELEASE_LUA, 1, player_race_key(player), race_id)

    async def seat_of(self, player: str) -> str | None:
        raw = await self.redis.get(player_race_key(player))
        return None if raw is None else _text(raw)

    # Presence and timers -------------------------------------------------------------------------

    async def presence(self, race_id: str, player: str, delta: int) -> int:
        count = int(await self.redis.hincrby(race_presence_key(race_id), player, delta))
        if count < 0:  # more closes than opens (a count lost to a restart): back to none
            await self.redis.hset(race_presence_key(race_id), player, 0)
            count = 0
        return count

    async def set_due(self, race_id: str, at_ms: int | None) -> None:
        if at_ms is None:
            await self.redis.zrem(races_due_key(), race_id)
        else:
            await self.redis.zadd(races_due_key(), {race_id: at_ms})

    async def due(self, now_ms: int, limit: int = 100) -> list[str]:
        raw = await self.redis.zrangebyscore(races_due_key(), "-inf", now_ms, start=0, num=limit)
        return [_text(item) for item in raw]


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


__all__ = ["RaceStore", "VersionConflict"]
