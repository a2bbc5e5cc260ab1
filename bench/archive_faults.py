"""The archive's fault runs: an archiver killed with SIGKILL at random moments, and an S3 archive silent.

Kill rounds: 200 finished games due; a process that only archives (bench/archive_worker.py) is started
and killed at a random moment 0-150 ms after it is ready, again and again; after every round each game
is hot (its log) or archived (its pointer), never neither nor both. Then one last archiver finishes and
every game's log, read through, verifies (`verify_replay`, as `arena verify` does) with the digest its
pointer names.

Silent archive: an archiver on moto's S3 server through a proxy that goes silent (connections held,
never answered) for `silent_s`: games stay hot (and their replays are served), the archiver backs
off; when the proxy is back, the time until every game is archived.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from services.archive.archiver import Archiver
from services.archive.objects import open_objects
from services.archive.pointer import pointer_of
from services.archive.read_through import GameArchive, ReadThroughStore
from services.games.service import GameService
from services.redis.client import open_redis
from services.redis.embedded import EmbeddedRedis
from services.store import EventStore
from services.store.keys import archive_due_key, log_key
from services.validator.replay_file import build_replay, verify_replay

from .archive_games import clone, played_spider


async def tiers(client, game_ids: list[str]) -> dict[str, int]:
    counts = {"hot": 0, "archived": 0, "lost": 0, "both": 0}
    for game_id in game_ids:
        hot, archived = await client.exists(log_key(game_id)), await pointer_of(client, game_id) is not None
        counts["both" if hot and archived else "hot" if hot else "archived" if archived else "lost"] += 1
    return counts


async def all_verify(client, archive_url: str, game_ids: list[str]) -> int:
    """How many games' logs, read through, do not replay to their end untampered."""
    store = ReadThroughStore(client, GameArchive(open_objects(archive_url), client))
    bad = 0
    for game_id in game_ids:
        verdict = verify_replay(build_replay(game_id, await store.read(game_id))).verdict
        bad += verdict.reason not in (None, "not_won") and verdict.outcome != "verified"
    return bad


async def kill_rounds(folder: Path, rounds: int, games: int = 200) -> None:
    server = EmbeddedRedis(folder / "redis").start()
    client = await open_redis(server.url)
    archive_url = (folder / "archive").as_uri()
    try:
        store = EventStore(client)
        entries = await store.read(await played_spider(GameService(store, client)))
        game_ids = await clone(store, entries, games, due_at=0)
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
        worst = {"lost": 0, "both": 0}
        rng = random.Random(33)
        for _ in range(rounds):
            if not await client.zcard(archive_due_key()):  # every game archived: more to archive
                game_ids += await clone(store, entries, games, due_at=0)
            child = subprocess.Popen([sys.executable, "-m", "bench.archive_worker", server.url, archive_url],
                                     stdout=subprocess.PIPE, text=True, env=env)
            child.stdout.readline()
            time.sleep(rng.uniform(0, 0.15))
            child.kill()
            child.wait()
            counts = await tiers(client, game_ids)
            worst = {k: max(worst[k], counts[k]) for k in worst}
        archiver = Archiver(client, open_objects(archive_url), clock=store.clock, after_ms=0, lost_after_ms=0)
        await asyncio.sleep(3)  # the killed archivers' claims run out
        while await client.zcard(archive_due_key()):
            await archiver.archive_once(batch=500)
        final = await tiers(client, game_ids)
        bad = await all_verify(client, archive_url, game_ids)
        print(f"   faults, SIGKILL x {rounds}: {len(game_ids)} games; worst round: {worst['lost']} lost, "
              f"{worst['both']} half-archived; after: {final['archived']} archived, {final['hot']} hot, "
              f"{final['lost']} lost; {bad} replays that do not verify")
    finally:
        await client.aclose()
        server.stop()


async def silent_archive(folder: Path, silent_s: float, games: int = 100) -> None:
    from tests.archive.conftest import MotoServer
    from tests.archive.proxy import FlakyProxy

    moto = MotoServer().start()
    proxy = FlakyProxy(moto.port)
    server = EmbeddedRedis(folder / "redis").start()
    client = await open_redis(server.url)
    saved = {name: os.environ.get(name) for name in moto.env()}
    os.environ.update({**moto.env(), "AWS_ENDPOINT_URL": proxy.endpoint})
    stop = asyncio.Event()
    try:
        archive_url = f"s3://{moto.bucket()}/arena"
        store = EventStore(client)
        entries = await store.read(await played_spider(GameService(store, client)))
        archiver = Archiver(client, open_objects(archive_url, timeout_s=1), clock=store.clock, after_ms=0,
                            lost_after_ms=0)
        task = asyncio.create_task(archiver.run(stop, every_s=0.05))
        proxy.go_silent()
        game_ids = await clone(store, entries, games, due_at=0)
        await asyncio.sleep(silent_s)
        during, paused = await tiers(client, game_ids), archiver.pause_s
        readable = sum([bool(await store.read(g)) for g in game_ids])
        proxy.come_back()
        back = time.monotonic()
        while await client.zcard(archive_due_key()) and time.monotonic() - back < 120:
            await asyncio.sleep(0.05)
        caught_up = time.monotonic() - back
        after = await tiers(client, game_ids)
        bad = await all_verify(client, archive_url, game_ids)
        print(f"   faults, S3 silent {silent_s:.0f} s: {during['hot']} of {games} games stayed hot ({readable} readable, "
              f"the archiver backing off {paused:.0f} s between tries); back: all archived {caught_up:.1f} s later "
              f"({after['archived']} archived, {after['lost']} lost, {after['both']} half); {bad} that do not verify")
        stop.set()
        await task
    finally:
        for name, value in saved.items():
            os.environ.pop(name, None) if value is None else os.environ.__setitem__(name, value)
        await client.aclose()
        server.stop()
        proxy.close()
        moto.stop()


def run(folder: Path, *, kills: int, silent_s: float) -> None:
    asyncio.run(kill_rounds(folder / "kills", kills))
    asyncio.run(silent_archive(folder / "silent", silent_s))
