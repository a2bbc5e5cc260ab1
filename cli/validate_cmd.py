"""`arena validate`: a replay validator worker on REDIS_URL (one of any number in the consumer group).

It re-runs every submitted win's log and writes the verdict; it also sweeps for wins whose
submission was lost. Stop it with Ctrl-C or SIGTERM: what it had not acknowledged is claimed by
another worker (or by this one when it starts again).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=int, default=1, help="workers in this process (default 1)")
    parser.add_argument("--batch", type=int, default=32, help="submissions read at a time (default 32)")
    parser.add_argument(
        "--claim-idle-ms", type=int, default=15_000,
        help="take over another worker's unacknowledged submissions idle this long (default 15000)",
    )
    parser.add_argument(
        "--review-floor-ms", type=int,
        help="flag wins whose median gap between moves is below this (env ARENA_REVIEW_FLOOR_MS; the review's "
             "other thresholds: ARENA_REVIEW_*)",
    )
    parser.add_argument(
        "--metrics-port", type=int, help="serve Prometheus metrics on this port at /metrics (env ARENA_METRICS_PORT)"
    )


def run(args: argparse.Namespace) -> int:
    from services.runtime.logging import configure_logging
    from services.runtime.settings import settings_from_environment

    settings = settings_from_environment()
    if not settings.redis_url:
        print("arena validate: set REDIS_URL to the Redis the servers use (e.g. redis://127.0.0.1:6379/0)")
        return 2
    if args.workers < 1 or args.batch < 1 or args.claim_idle_ms < 1:
        print("arena validate: --workers, --batch and --claim-idle-ms must be at least 1")
        return 2
    configure_logging(settings.log_level)
    from msgspec import structs

    from services.validator.review import rules_from

    review = rules_from(settings)
    if args.review_floor_ms is not None:
        review = structs.replace(review, move_floor_ms=args.review_floor_ms)
    metrics_port = args.metrics_port if args.metrics_port is not None else settings.metrics_port
    if metrics_port is not None:
        from services.metrics.exposition import serve_metrics

        serve_metrics(metrics_port, settings.host)  # ARENA_HOST: loopback unless told otherwise
    asyncio.run(_serve(settings.redis_url, args.workers, review, args.batch, args.claim_idle_ms, settings))
    return 0


async def _serve(redis_url: str, workers: int, review: Any, batch: int, claim_idle_ms: int, settings: Any) -> None:  # Any: imported late
    from services.games.service import GameService
    from services.gateway.sockets.board_socket import announcer
    from services.gateway.links.fanout import Fanout
    from services.gateway.links.pubsub_link import PubSubLink
    from services.redis.client import open_redis, parse_redis_url, server_client
    from services.archive.objects import default_archive_url, open_objects
    from services.archive.read_through import GameArchive, ReadThroughStore
    from services.tournaments.service import TournamentService
    from services.races.store import RaceStore
    from services.races.wiring import race_seeds
    from services.store.redis_store import wall_clock_ms
    from services.validator.queue import first_seed
    from services.validator.runtime import Validators

    client = await open_redis(redis_url)
    # Game logs read through to the archive tier, as the servers' do (the same ARENA_ARCHIVE_URL).
    objects = open_objects(settings.archive_url or default_archive_url(settings.data_dir),
                           timeout_s=settings.archive_timeout_s)
    store = ReadThroughStore(client, GameArchive(objects, client))
    # The daily seeds a game had to have, and the leaderboards a verdict promotes, are the tournaments';
    # this process derives no seed, so it needs no tournament secret. Board changes reach the gateways'
    # watchers through the same pub/sub as theirs.
    tournaments = TournamentService(client, GameService(store, client), secret=b"")
    fanout = Fanout(PubSubLink(server_client(parse_redis_url(redis_url)[0])), confirm_timeout=5.0)
    tournaments.board_changed = announcer(fanout, tournaments)
    # A race game's seed is its race's, read from the race logs alone; the gateways' race services read the
    # verdicts themselves (a race waiting for one looks it up), so the sink is the tournaments' only.
    seeds = first_seed(tournaments.seed_for, race_seeds(RaceStore(client, clock=wall_clock_ms)))
    validators = Validators(client, store, workers=workers, review=review,
                            seeds=seeds, sink=tournaments.verdict)
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
        await fanout.aclose()
        await client.aclose()
