"""`arena archive --status`: the archive tier's figures on REDIS_URL (services/archive/status.py).

    arena archive --status          hot, archived, pending (and due now), bytes, as a table
    arena archive --status --json   the same as one JSON object
"""

from __future__ import annotations

import argparse
import asyncio


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--status", action="store_true", help="counts of hot, archived and pending games, and bytes")
    parser.add_argument("--json", action="store_true", help="print the status as one JSON object")


def run(args: argparse.Namespace) -> int:
    from services.runtime.settings import settings_from_environment

    if not args.status:
        print("arena archive: say what to show: --status")
        return 2
    settings = settings_from_environment()
    if not settings.redis_url:
        print("arena archive: set REDIS_URL to the Redis the servers use (e.g. redis://127.0.0.1:6379/0)")
        return 2
    return asyncio.run(_status(settings, args.json))


async def _status(settings, as_json: bool) -> int:
    import msgspec

    from services.archive.status import archive_status
    from services.runtime.clock import server_clock
    from services.redis.client import open_redis

    client = await open_redis(settings.redis_url)
    try:
        status = await archive_status(client, server_clock(settings.test_clock_file)())
    finally:
        await client.aclose()
    if as_json:
        print(msgspec.json.encode(status).decode())
        return 0
    rows = [("hot games (log in Valkey)", f"{status.hot:,}", _size(status.hot_bytes)),
            ("archived games", f"{status.archived:,}", _size(status.bytes)),
            ("pending (ended, in the index)", f"{status.pending:,}", f"{status.due:,} due now"),
            ("corrupt objects met on read", f"{status.corrupt:,}", "")]
    for name, count, extra in rows:
        print(f"{name:<32}{count:>12}  {extra}")
    return 0


def _size(bytes_count: int) -> str:
    count = float(bytes_count)
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if count < 1024 or unit == "TB":
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1024
    return ""
