"""Event store throughput on the embedded server (valkey-server) with appendfsync always (every reply waits for
an fsync), against a bare redis-py XADD loop on the same server in the same process.

Figures: appends/s sequential (one game), with 50 concurrent games (one round trip per append),
append_many batched (one pipeline per round of 50 games) vs the same appends one by one, and the time
to rebuild (read + decode) a 200-event game. Every ratio is store speed / baseline speed
(> 1: the store is faster).
`python -m bench store [--quick]`, or `python -m bench.bench_store [--quick] [--cluster] [--dir D]`.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from services.redis.client import hiredis_in_use, open_redis
from tests.support.redis_cluster import LocalRedisCluster
from services.redis.embedded import EmbeddedRedis, find_redis_binary
from services.store import AppendRequest, EventStore, NewEvent, StoreError
from services.store.envelope import log_key

GAMES = 50
PAYLOAD = bytes(range(48))  # about the size of a msgpack-encoded engine event (a move of one card)
EVENT = NewEvent("cards_moved", PAYLOAD)


class Counter:
    def __init__(self) -> None:
        self.n = 0

    def next(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}-{self.n}"


ids = Counter()


async def timed(work: Callable[[], Awaitable[int]]) -> float:
    """Run `work` (returns how many operations it did) and give operations per second."""
    started = time.perf_counter()
    count = await work()
    return count / (time.perf_counter() - started)


async def paired(
    baseline: Callable[[], Awaitable[int]], ours: Callable[[], Awaitable[int]], runs: int = 3
) -> tuple[float, float]:
    """Median rates of baseline and ours, run alternately so disk and CPU noise hit both alike."""
    rates: tuple[list[float], list[float]] = ([], [])
    for _ in range(runs):
        rates[0].append(await timed(baseline))
        rates[1].append(await timed(ours))
    return statistics.median(rates[0]), statistics.median(rates[1])


async def bare_xadd_sequential(client, n: int) -> int:
    key = f"bench:bare:{{{ids.next('seq')}}}"
    for _ in range(n):
        await client.xadd(key, {b"e": PAYLOAD})
    return n


async def store_sequential(store: EventStore, n: int) -> int:
    game = ids.next("seq")
    for version in range(n):
        await store.append(game, version, [EVENT], move_id=f"m{version}")
    return n


async def bare_xadd_concurrent(client, per_game: int) -> int:
    async def one_game() -> None:
        key = f"bench:bare:{{{ids.next('conc')}}}"
        for _ in range(per_game):
            await client.xadd(key, {b"e": PAYLOAD})

    await asyncio.gather(*(one_game() for _ in range(GAMES)))
    return GAMES * per_game


async def store_concurrent(store: EventStore, per_game: int) -> int:
    async def one_game() -> None:
        game = ids.next("conc")
        for version in range(per_game):
            await store.append(game, version, [EVENT], move_id=f"m{version}")

    await asyncio.gather(*(one_game() for _ in range(GAMES)))
    return GAMES * per_game


async def bare_xadd_pipelined(client, rounds: int) -> int:
    keys = [f"bench:bare:{{{ids.next('pipe')}}}" for _ in range(GAMES)]
    for _ in range(rounds):
        pipe = client.pipeline(transaction=False)
        for key in keys:
            pipe.xadd(key, {b"e": PAYLOAD})
        await pipe.execute()
    return GAMES * rounds


async def store_batched(store: EventStore, rounds: int) -> int:
    games = [ids.next("batch") for _ in range(GAMES)]
    for version in range(rounds):
        batch = [AppendRequest(game, version, [EVENT], f"m{version}") for game in games]
        results = await store.append_many(batch)
        if any(isinstance(result, StoreError) for result in results):
            raise RuntimeError(f"a batched append failed: {results}")
    return GAMES * rounds


async def rebuild_times(store: EventStore, client, events: int, repeats: int) -> tuple[float, float]:
    """Median ms to read + decode a whole game through the store, and for a bare XRANGE."""
    game = ids.next("rebuild")
    for version in range(events):
        await store.append(game, version, [EVENT], move_id=f"m{version}")
    store_ms, bare_ms = [], []
    for _ in range(repeats):
        started = time.perf_counter()
        read = await store.read(game)
        store_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        await client.xrange(log_key(game))
        bare_ms.append((time.perf_counter() - started) * 1000)
        assert len(read) == events
    return statistics.median(store_ms), statistics.median(bare_ms)


async def run(data_dir: Path, quick: bool, cluster: bool) -> None:
    if cluster:
        with LocalRedisCluster(data_dir, masters=3) as servers:
            await measure(servers.url, f"a local cluster of 3 masters, data in {data_dir}", quick)
    else:
        with EmbeddedRedis(data_dir) as server:
            await measure(server.url, f"{Path(find_redis_binary()).name} {server.url}, data in {data_dir}", quick)


async def measure(url: str, where: str, quick: bool) -> None:
    sequential, per_game, rounds, repeats = (100, 6, 6, 20) if quick else (1000, 40, 40, 200)
    client = await open_redis(url)
    store = EventStore(client)
    try:
        print(f"   {where}, appendfsync always, hiredis {'on' if hiredis_in_use() else 'OFF'}")
        await store_sequential(store, 5)  # warm up: script load, connections
        bare, ours = await paired(
            lambda: bare_xadd_sequential(client, sequential), lambda: store_sequential(store, sequential)
        )
        print(f"   sequential, 1 game:        {ours:9.0f} appends/s   bare XADD {bare:9.0f}/s"
              f"   ratio {ours / bare:.2f}")
        bare_c, ours_c = await paired(
            lambda: bare_xadd_concurrent(client, per_game), lambda: store_concurrent(store, per_game)
        )
        print(f"   {GAMES} concurrent games:      {ours_c:9.0f} appends/s   bare XADD {bare_c:9.0f}/s"
              f"   ratio {ours_c / bare_c:.2f}")
        bare_p, ours_b = await paired(
            lambda: bare_xadd_pipelined(client, rounds), lambda: store_batched(store, rounds)
        )
        print(f"   append_many, {GAMES}/batch:    {ours_b:9.0f} appends/s   bare XADD pipeline "
              f"{bare_p:9.0f}/s   ratio {ours_b / bare_p:.2f}")
        print(f"   append_many vs one append per round trip ({GAMES} concurrent): "
              f"{ours_b / ours_c:.1f}x")
        store_ms, bare_ms = await rebuild_times(store, client, 200, repeats)
        print(f"   rebuild a 200-event game:  {store_ms:7.2f} ms read+decode   "
              f"bare XRANGE {bare_ms:.2f} ms   ratio {bare_ms / store_ms:.2f}")
    finally:
        await client.aclose()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_store", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--dir", type=Path, help="data folder (default: a fresh temporary folder)")
    parser.add_argument("--cluster", action="store_true", help="on a local 3-master Redis Cluster")
    args = parser.parse_args(argv)
    if args.dir is not None:
        asyncio.run(run(args.dir, args.quick, args.cluster))
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-store-") as folder:
        asyncio.run(run(Path(folder), args.quick, args.cluster))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
