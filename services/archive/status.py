"""`arena archive --status`: how many games are hot, archived and waiting, and the archive's bytes.

Hot: the game logs in Valkey now (a SCAN over their keys, so it costs a pass over the keyspace: an
operator's question, never a request's). Archived and bytes: the archivers' counters. Pending: games
ended and in the archiver's index, and of those the ones due now (their window has passed: waiting
only for a pass, a verdict, a reveal, or an archive that answers again).
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct

from ..store.keys import LOG_KEY_PATTERN, archive_counts_key, archive_due_key


class ArchiveStatus(Struct, frozen=True):
    hot: int  # game logs in Valkey
    archived: int  # games whose log is in the archive (a pointer left in Valkey)
    pending: int  # ended games in the archiver's index
    due: int  # ... of which the window has passed
    bytes: int  # compressed bytes archived
    corrupt: int  # archived objects refused on read (each read that found one)
    hot_bytes: int  # Valkey's memory for the hot logs (a sample of up to 200 logs times the count)


async def archive_status(redis: Any, now_ms: int, *, sample: int = 200) -> ArchiveStatus:  # Any: a redis-py client
    hot, sampled, sampled_bytes = 0, 0, 0
    async for key in redis.scan_iter(match=LOG_KEY_PATTERN, count=1000):
        hot += 1
        if sampled < sample:
            sampled += 1
            sampled_bytes += int(await redis.memory_usage(key) or 0)
    counts = {_text(k): int(v) for k, v in (await redis.hgetall(archive_counts_key())).items()}
    pending = int(await redis.zcard(archive_due_key()))
    due = int(await redis.zcount(archive_due_key(), "-inf", now_ms))
    hot_bytes = sampled_bytes * hot // sampled if sampled else 0
    return ArchiveStatus(hot, counts.get("archived", 0), pending, due, counts.get("bytes", 0),
                         counts.get("corrupt", 0), hot_bytes)


def _text(value: Any) -> str:  # Any: any value, as its caller has it
    return value.decode() if isinstance(value, bytes) else str(value)
