"""A player's statistics as a stored projection: folded once, then updated by each game that ends.

Reading statistics used to fold up to a thousand game summaries per request, one Redis read each.
Now each player has one key holding their folded `PlayerStats` (msgpack). The game service tells
this hook every settled end (`ended`); the fact is added with `statistics.record` and stored by a
compare-and-set script (SETTLE_LUA: only if the statistics and the game's own reopenable mark are still
what was read), so two processes ending two of one player's games at once both count, in two round trips.

Some ends are not final: a casual or practice game lost where a practice undo could still reopen it
(services/games/record.py `settled`), which is told again when it ends a second time. Those games are
remembered a while in a small sorted set beside the statistics (REOPENABLE_KEPT, newest kept); a game
that ends again while remembered is not added twice: the player's statistics are folded again from
their games instead, as they are when the key is missing or a fact comes out of order. The key is a
cache of the logs: deleting it (or `forget`) makes the next read fold it again from the games.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from typing import Any

import msgspec
from redis.exceptions import WatchError  # refold still watches: it reads the games, not one key

from engine import RuleError
from engine.rules import variant_key

from ..games.entries import CASUAL, PRACTICE, GameCreated
from ..games.service import GameService
from ..store.keys import player_stats_key, player_stats_reopenable_key
from .statistics import FinishedGame, PlayerStats, project, record

GAMES_READ = 1000  # a fold from the games covers the player's most recent ones
REOPENABLE_KEPT = 200  # the player's latest lost casual and practice games, whose end may still change
log = logging.getLogger("arena.tournaments")
_encoder, _decoder = msgspec.msgpack.Encoder(), msgspec.msgpack.Decoder(PlayerStats)

# KEYS: the statistics, the reopenable set (one player: one slot). ARGV: the SHA-1 of the statistics read
# ('' when there were none), 1 or 0 (the game was in the reopenable set), the game id, what to do with the
# set ('lost': add the game, keep the newest; 'seen': take it out; '': nothing), its finished time, how
# many to keep, the new statistics ('' deletes them: the next read folds them again). 1 when written,
# 0 when another end or a fold changed what was read (then read again).
SETTLE_LUA = """
local current = redis.call('GET', KEYS[1])
local seen = redis.call('ZSCORE', KEYS[2], ARGV[3]) and '1' or '0'
if (current and redis.sha1hex(current) or '') ~= ARGV[1] or seen ~= ARGV[2] then return 0 end
if ARGV[4] == 'lost' then
  redis.call('ZADD', KEYS[2], ARGV[5], ARGV[3])
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -tonumber(ARGV[6]) - 1)
elseif ARGV[4] == 'seen' then
  redis.call('ZREM', KEYS[2], ARGV[3])
end
if ARGV[7] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[7]) end
return 1
"""


def fact_of(created: GameCreated, game_id: str, status: str, moves: int, time_ms: int, at_ms: int) -> FinishedGame:
    challenge = created.links.challenge
    return FinishedGame(game_id, created.game, variant_key(created.variant), status, moves, time_ms, at_ms,
                        created.kind, created.ranked, challenge.split("/", 1)[0] if challenge else None)


async def folded_from_games(games: GameService, player_id: str) -> tuple[PlayerStats, dict[str, int]]:
    """The player's statistics folded from their games' summaries (the logs' projection), and their
    lost casual and practice games (id -> finished at), whose end a practice undo may still change."""
    facts, reopenable = [], {}
    for summary in await games.list_games(player_id, limit=GAMES_READ):
        if summary.finished_at_ms is None or summary.status not in ("won", "lost", "abandoned"):
            continue  # still in play (a lost game that may still undo is not over)
        if summary.status == "lost" and summary.kind in (CASUAL, PRACTICE):
            reopenable[summary.id] = summary.finished_at_ms
        facts.append(FinishedGame(
            summary.id, summary.game, variant_key(summary.variant), summary.status, summary.moves,
            summary.elapsed_ms or 0, summary.finished_at_ms, summary.kind, summary.ranked,
            summary.challenge.split("/", 1)[0] if summary.challenge else None,
        ))
    stats = project(facts)
    if isinstance(stats, RuleError):  # facts read from our own logs: a refusal is a bug, said plainly
        raise ValueError(f"statistics of {player_id}: {stats.message}")
    return stats, reopenable


class StoredStatistics:
    """The statistics projection's Redis adapter: a ResultsHook that updates it, and its reader."""

    def __init__(self, redis: Any, games: GameService) -> None:  # Any: a redis-py client
        self.redis = redis
        self.games = games
        self._settle = redis.register_script(SETTLE_LUA)

    async def of(self, player_id: str) -> PlayerStats:
        raw = await self.redis.get(player_stats_key(player_id))
        if raw is not None:
            return _decoder.decode(raw)
        return await self.refold(player_id)

    async def refold(self, player_id: str) -> PlayerStats:
        key, reopenable = player_stats_key(player_id), player_stats_reopenable_key(player_id)
        for _ in range(8):
            async with self.redis.pipeline(transaction=True) as pipe:
                try:
                    # Watched before the games are read: an end counted meanwhile (its game's summary
                    # may be older than this read) makes this fold stale, so it is done again.
                    await pipe.watch(key, reopenable)
                    stats, lost = await folded_from_games(self.games, player_id)
                    pipe.multi()
                    pipe.set(key, _encoder.encode(stats))
                    pipe.delete(reopenable)
                    if lost:
                        pipe.zadd(reopenable, dict(sorted(lost.items(), key=lambda item: item[1])[-REOPENABLE_KEPT:]))
                    await pipe.execute()
                    return stats
                except WatchError:
                    continue
        return (await folded_from_games(self.games, player_id))[0]  # busy: answered, stored by the next end

    async def forget(self, player_id: str) -> None:
        await self.redis.delete(player_stats_key(player_id), player_stats_reopenable_key(player_id))

    async def opened(self, created: GameCreated, game_id: str, at_ms: int) -> None:
        return None

    async def ended(self, created: GameCreated, game_id: str, status: str, moves: int, time_ms: int, at_ms: int) -> None:
        # Told after the game's end is stored: a failure here must not fail the move that ended it.
        try:
            await self._count(created, fact_of(created, game_id, status, moves, time_ms, at_ms))
        except Exception as exc:  # noqa: BLE001  a projection is a cache: dropped, it is folded again on its next read
            log.warning("statistics of %s not updated for game %s: %s", created.player_id, game_id, exc)
            with contextlib.suppress(Exception):
                await self.forget(created.player_id)

    async def _count(self, created: GameCreated, fact: FinishedGame) -> None:
        player = created.player_id
        key, reopenable = player_stats_key(player), player_stats_reopenable_key(player)
        lost = fact.status == "lost" and created.kind in (CASUAL, PRACTICE)
        for _ in range(8):  # another process counted one of this player's games meanwhile: read again
            # One slot: one round trip each, over the lean link where there is one (both are safe to
            # send twice: a read, and a compare-and-set that writes nothing once its first run wrote).
            raw, seen = await self.games.lean.pipeline().get(key).zscore(reopenable, fact.game_id).execute()
            counted = None if raw is None or seen is not None else record(_decoder.decode(raw), fact)
            written = await self.games.lean.script(self._settle, keys=[key, reopenable], args=[
                hashlib.sha1(raw).hexdigest() if raw is not None else "", "1" if seen is not None else "0",
                fact.game_id, "lost" if lost else "seen" if seen is not None else "", fact.finished_at_ms,
                REOPENABLE_KEPT, _encoder.encode(counted) if isinstance(counted, PlayerStats) else "",
            ])
            if not written:
                continue
            if not isinstance(counted, PlayerStats):  # missing, out of order or an end told again: fold
                await self.refold(player)
            return
        await self.forget(player)  # never settled after 8 tries: the next read folds it afresh
