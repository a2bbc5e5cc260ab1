"""The archive tier's figures (issue 33): Valkey memory per archived game, archived bytes and archive
throughput, read-through latency against a hot game, moves under an archiver at work, and faults.

1. size: one 150-move Spider game played through the game service; Valkey's memory for it hot (log,
   move records, meta) and archived (the pointer); its object, and what zlib and lzma would make of it.
2. throughput: clones of that game archived by one archiver in this process (one core) to a folder.
3. read-through: GET /api/games/{id}/replay of archived games against hot ones, on one `arena serve`
   (each game asked once, so no cache answers; the two kinds interleaved).
4. load: 100 players playing on `arena serve` until its archiver has moved 10,000 finished games, then
   as long on a server with the archiver off, in the same run (`--games`, `--players`, `--seconds`).
5. faults (bench/archive_faults.py): an archiver killed (SIGKILL) at random moments, 100 rounds; an
   S3 archive (moto's server) silent for 30 s. Every game hot or archived, none lost, every replay verifies.
Printed, never asserted. `python -m bench archive [-- --quick | --games N --players N --seconds S]`.
"""

from __future__ import annotations

import argparse
import asyncio
import lzma
import random
import tempfile
import time
import zlib
from pathlib import Path

import httpx

from services.archive.archived_game import _encoder, pack
from services.archive.archiver import Archiver
from services.archive.objects import open_objects
from services.archive.read_through import GameArchive, ReadThroughStore
from services.games.service import GameService
from services.redis.client import open_redis
from services.redis.embedded import EmbeddedRedis
from services.store import EventStore
from services.store.keys import archive_due_key, meta_key
from services.validator.replay_file import build_replay

from . import archive_faults
from .archive_games import clone, hot_bytes, played_spider
from .gateway_players import start_players
from .gateway_server import Server


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


async def size_and_throughput(folder: Path, games: int) -> None:
    redis_server = EmbeddedRedis(folder / "redis").start()
    client = await open_redis(redis_server.url)
    try:
        objects = open_objects((folder / "archive").as_uri())
        store = ReadThroughStore(client, GameArchive(objects, client))
        service = GameService(store, client)
        archiver = Archiver(client, objects, clock=store.clock, after_ms=0, lost_after_ms=0)
        game_id = await played_spider(service)
        entries = await store.read(game_id)
        hot = await hot_bytes(client, game_id)
        await client.zadd(archive_due_key(), {game_id: 0})
        assert (await archiver.archive_once()).archived == 1
        pointer = int(await client.memory_usage(meta_key(game_id)))
        data, _ = pack(game_id, entries)
        raw = _encoder.encode(build_replay(game_id, entries))
        print(f"   size: a {len(entries) - 3}-move Spider game: {hot:,} B in Valkey hot, {pointer} B archived "
              f"(the pointer); object {len(data):,} B (zstd-9) from {len(raw):,} B of JSON")
        for name, squeeze in (("zstd-9", lambda b: pack(game_id, entries)[0]), ("zlib-6", lambda b: zlib.compress(b, 6)),
                              ("lzma-6", lambda b: lzma.compress(b, preset=6))):
            started = time.perf_counter()
            for _ in range(20):
                size = len(squeeze(raw))
            print(f"     {name}: {size:,} B, {(time.perf_counter() - started) / 20 * 1000:.2f} ms a game"
                  + (" (with build_replay)" if name == "zstd-9" else ""))
        await clone(store, entries, games, due_at=0)
        wall, cpu, done = time.perf_counter(), time.process_time(), 0
        while await client.zcard(archive_due_key()):
            done += (await archiver.archive_once(batch=500)).archived
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"   throughput: {done:,} games archived to a folder in {wall:.1f} s: {done / wall:,.0f} games/s, "
              f"{cpu / done * 1000:.2f} ms of this process's CPU a game (one core; Valkey apart)")
    finally:
        await client.aclose()
        redis_server.stop()


async def read_through(folder: Path, games: int) -> None:
    archive_url = (folder / "shared-archive").as_uri()
    server = Server(folder / "read", "read", env={"ARENA_ARCHIVE_URL": archive_url, "ARENA_ARCHIVER": "0"})
    client = await open_redis(server.redis.url)
    try:
        objects = open_objects(archive_url)
        store = EventStore(client)
        template = await played_spider(GameService(store, client))
        entries = await store.read(template)
        archived = await clone(store, entries, games, due_at=0)
        hot = await clone(store, entries, games, due_at=None)
        archiver = Archiver(client, objects, clock=store.clock, after_ms=0, lost_after_ms=0)
        while await client.zcard(archive_due_key()):
            await archiver.archive_once(batch=500)
        times: dict[str, list[float]] = {"hot": [], "archived": []}
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            for hot_id, archived_id in zip(hot, archived):
                for kind, game_id in (("hot", hot_id), ("archived", archived_id)):
                    started = time.perf_counter()
                    (await http.get(f"/api/games/{game_id}/replay")).raise_for_status()
                    times[kind].append(time.perf_counter() - started)
        h, a = times["hot"], times["archived"]
        print(f"   read-through: GET replay of {games} games each, p50/p99: hot {pct(h, .5):.1f}/{pct(h, .99):.1f} ms, "
              f"archived {pct(a, .5):.1f}/{pct(a, .99):.1f} ms (object fetched from a folder, checked, folded)")
    finally:
        await client.aclose()
        server.stop()


async def under_load(folder: Path, games: int, players: int, seconds: float, pace_s: float = 0.25) -> None:
    """The archiver's run first: players play until it has archived every game (at most `seconds`);
    then the same players as long on a server with the archiver off. Each player makes a move every
    `pace_s` (a quick player: 100 of them make 400 moves a second), so the server is busy, not saturated,
    as a production gateway at its 60 % target is (docs/operations.md, A5)."""
    results: dict[str, tuple[list[float], int, float]] = {}
    for label, archiving in (("archiver on", "1"), ("archiver off", "0")):
        env = {"ARENA_ARCHIVER": archiving, "ARENA_ARCHIVE_AFTER_SECONDS": "0", "ARENA_ARCHIVE_EVERY_SECONDS": "0.05"}
        server = Server(folder / label.replace(" ", "-"), label, env=env)
        client = await open_redis(server.redis.url)
        try:
            store = EventStore(client)
            entries = await store.read(await played_spider(GameService(store, client)))
            await clone(store, entries, games, due_at=0)
            due = int(await client.zcard(archive_due_key()))  # the clones and the game they copy
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
                crowd = await start_players(server, http, players)
                latencies: list[float] = []
                started = time.monotonic()
                until = results["archiver on"][2] if results else seconds

                async def play(player, rng) -> None:
                    while time.monotonic() - started < until:
                        began = time.monotonic()
                        took = await player.move(rng)
                        if took is not None:
                            latencies.append(took)
                        await asyncio.sleep(max(0.0, pace_s - (time.monotonic() - began)))

                async def watch() -> None:  # the archiver's run ends when it has archived them all
                    nonlocal until
                    while archiving == "1" and time.monotonic() - started < until:
                        if not await client.zcard(archive_due_key()):
                            until = time.monotonic() - started
                        await asyncio.sleep(0.2)

                await asyncio.gather(watch(), *(play(p, random.Random(p.number)) for p in crowd))
                left = int(await client.zcard(archive_due_key()))
            results[label] = (latencies, due - left if archiving == "1" else 0, time.monotonic() - started)
        finally:
            await client.aclose()
            server.stop()
    for label, (latencies, archived, took) in results.items():
        moved = f"; {archived:,} of {games:,} games archived meanwhile ({archived / took:,.0f}/s)" if archived else ""
        print(f"   load, {label}: {len(latencies):,} moves by {players} players (one each {pace_s:.2f} s) in {took:.0f} s, p50 "
              f"{pct(latencies, .5):.1f} ms, p99 {pct(latencies, .99):.1f} ms{moved}")
    on, off = pct(results["archiver on"][0], .99), pct(results["archiver off"][0], .99)
    print(f"   load: move p99 with the archiver at work / without: {on / off:.2f}x")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench archive")
    parser.add_argument("--quick", action="store_true", help="1,000 games, 20 players, 10 s at most, 10 kill rounds, 5 s silent")
    parser.add_argument("--games", type=int, help="games archived under load (default 10,000)")
    parser.add_argument("--players", type=int, help="players playing meanwhile (default 100)")
    parser.add_argument("--seconds", type=float, help="the longest they play while it archives (default 600)")
    parser.add_argument("--kills", type=int, help="kill rounds (default 100)")
    parser.add_argument("--silent", type=float, help="seconds the S3 archive stays silent (default 30)")
    parser.add_argument("--no-faults", action="store_true")
    args = parser.parse_args(argv)
    games = args.games or (1_000 if args.quick else 10_000)
    players = args.players or (20 if args.quick else 100)
    seconds = args.seconds or (10.0 if args.quick else 600.0)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        asyncio.run(size_and_throughput(root / "size", 500 if args.quick else 5_000))
        asyncio.run(read_through(root, 100 if args.quick else 500))
        asyncio.run(under_load(root / "load", games, players, seconds))
        if not args.no_faults:
            archive_faults.run(root / "faults", kills=args.kills or (10 if args.quick else 100),
                               silent_s=args.silent or (5.0 if args.quick else 30.0))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
