"""A process that only archives (for the kill rounds of bench/archive_faults.py): `python -m
bench.archive_worker REDIS_URL ARCHIVE_URL`. It prints `ready` once its imports are done, so the bench
kills it while it archives, not while Python starts."""

from __future__ import annotations

import asyncio
import sys

from services.archive.archiver import Archiver
from services.archive.objects import open_objects
from services.redis.client import open_redis
from services.store.redis_store import wall_clock_ms


async def archive_forever(redis_url: str, archive_url: str) -> None:
    client = await open_redis(redis_url)
    archiver = Archiver(client, open_objects(archive_url, timeout_s=2), clock=wall_clock_ms, after_ms=0,
                        lost_after_ms=0)
    print("ready", flush=True)
    await archiver.run(asyncio.Event(), every_s=0.01)


if __name__ == "__main__":
    asyncio.run(archive_forever(sys.argv[1], sys.argv[2]))
