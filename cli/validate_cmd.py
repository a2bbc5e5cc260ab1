"""`arena validate`: a replay validator worker on REDIS_URL (one of any number in the consumer group).

It re-runs every submitted win's log and writes the verdict; it also sweeps for wins whose
submission was lost. Stop it with Ctrl-C or SIGTERM: what it had not acknowledged is claimed by
another worker (or by this one when it starts again).
"""

from __future__ import annotations

import argparse
import asyncio
import signal


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=int, default=1, help="workers in this process (default 1)")
    parser.add_argument("--batch", type=int, default=32, help="submissions read at a time (default 32)")
    parser.add_argument(
        "--claim-idle-ms", type=int, default=15_000,
        help="take over another worker's unacknowledged submissions idle this long (default 15000)",
    )
    parser.add_argument("--review-floor-ms", type=int, help="flag wins faster than this median gap (env ARENA_REVIEW_FLOOR_MS)")
    parser.add_argument(
        "--metrics-port", type=int, help="serve Prometheus metrics on this port at /metrics (env ARENA_METRICS_PORT)"
    )


def run(args: argparse.Namespace) -> int:
    from services.logging import configure_logging
    from services.settings import settings_from_environment

    settings = settings_from_environment()
    if not settings.redis_url:
        print("arena validate: set REDIS_URL to the Redis the servers use (e.g. redis://127.0.0.1:6379/0)")
        return 2
    if args.workers < 1 or args.batch < 1 or args.claim_idle_ms < 1:
        print("arena validate: --workers, --batch and --claim-idle-ms must be at least 1")
        return 2
    configure_logging(settings.log_level)
    floor = args.review_floor_ms if args.review_floor_ms is not None else settings.review_floor_ms
    metrics_port = args.metrics_port if args.metrics_port is not None else settings.metrics_port
    if metrics_port is not None:
        from services.metrics.exposition import serve_metrics

        serve_metrics(metrics_port, settings.host)  # ARENA_HOST: loopback unless told otherwise
    asyncio.run(_serve(settings.redis_url, args.workers, floor, args.batch, args.claim_idle_ms))
    return 0


async def _serve(redis_url: str, workers: int, review_floor_ms: int, batch: int, claim_idle_ms: int) -> None:
    from services.redis.client import open_redis
    from services.store import EventStore
    from services.validator.runtime import Validators

    from services.races.store import RaceStore
    from services.races.wiring import race_seeds
    from services.store.redis_store import wall_clock_ms

    client = await open_redis(redis_url)
    validators = Validators(
        client, EventStore(client), workers=workers, review_floor_ms=review_floor_ms,
        seeds=race_seeds(RaceStore(client, clock=wall_clock_ms)),  # a race game: its race's seed
    )
    for worker in validators.workers:
        worker.batch, worker.claim_idle_ms = batch, claim_idle_ms
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    validators.start()
    print(f"arena validate: {workers} worker(s) on {redis_url.split('@')[-1]}", flush=True)
    try:
        await stop.wait()
    finally:
        await validators.stop()
        await client.aclose()
