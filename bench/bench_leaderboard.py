"""Daily leaderboard at 100,000 entries on the embedded server (valkey-server, appendfsync always), against bare
ZADD / ZRANGE on the same server in the same run.

Figures: insert rate (an entry = the three projection writes of a ranked win: start, finish as
pending, promote by the verifier) vs one bare ZADD per entry, both with 100 concurrent writers;
then, with the board full, page reads (50 rows with ranks and entry details, at random offsets) and
a player's standing vs a bare ZRANGE of 50 members, as median and 99th percentile latency. Every
ratio is our speed over the bare command's (below 1: slower than the bare command).
`python -m bench leaderboard [--quick]`, or `python -m bench.bench_leaderboard [--quick] [--cluster]`.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from services.redis.client import hiredis_in_use, open_redis
from services.redis.embedded import EmbeddedRedis, find_redis_binary
from services.tournaments.leaderboard import BoardEntry, RedisLeaderboard
from services.tournaments.ranking import RankingKey, ranking_member
from tests.support.redis_cluster import LocalRedisCluster

WRITERS = 100
PAGE = 50
T0 = 1_796_083_200_000


def entries(n: int, seed: int) -> list[BoardEntry]:
    rng = random.Random(seed)
    return [
        BoardEntry(f"g_{seed}_{i:06d}", f"game-{i}", "won", rng.randint(80, 400), rng.randint(60_000, 3_600_000),
                   T0 + rng.randint(0, 86_400_000), name=f"player{i}")
        for i in range(n)
    ]


async def in_parallel(items, work) -> float:
    """Items per second of `work(item)` with WRITERS concurrent tasks."""
    queue = iter(items)

    async def writer() -> None:
        for item in queue:
            await work(item)

    started = time.perf_counter()
    await asyncio.gather(*(writer() for _ in range(WRITERS)))
    return len(items) / (time.perf_counter() - started)


async def insert_ours(board: RedisLeaderboard, challenge: str, batch: list[BoardEntry]) -> float:
    async def one(entry: BoardEntry) -> None:
        await board.start(challenge, entry.player, True)
        await board.finish(challenge, entry, True)
        await board.promote(challenge, entry.player)

    return await in_parallel(batch, one)


async def insert_bare(client, key: str, batch: list[BoardEntry]) -> float:
    async def one(entry: BoardEntry) -> None:
        member = ranking_member(RankingKey(entry.moves, entry.time_ms, entry.finished_at_ms), entry.player)
        await client.zadd(key, {member: 0})

    return await in_parallel(batch, one)


async def latencies(action, repeats: int) -> tuple[float, float]:
    """(median, 99th percentile) ms of `action()` awaited one at a time."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        await action()
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


async def measure(url: str, where: str, quick: bool) -> None:
    size, repeats = (100_000, 300) if quick else (100_000, 2000)
    client = await open_redis(url)
    board = RedisLeaderboard(client)
    challenge, bare_key = f"bench-{time.time_ns()}", f"bench:bare:{{{time.time_ns()}}}"
    rng = random.Random(1)
    try:
        print(f"   {where}, appendfsync always, hiredis {'on' if hiredis_in_use() else 'OFF'}, {WRITERS} writers")
        ours_rates, bare_rates = [], []
        ours_entries, bare_entries = entries(size, 1), entries(size, 2)
        step = size // 10
        for start in range(0, size, step):  # alternate in tenths so disk and CPU noise hit both alike
            bare_rates.append(await insert_bare(client, bare_key, bare_entries[start : start + step]))
            ours_rates.append(await insert_ours(board, challenge, ours_entries[start : start + step]))
        ours, bare = statistics.median(ours_rates), statistics.median(bare_rates)
        print(f"   insert {size:,} entries:  {ours:8.0f} entries/s (3 scripts + 1 read each)   "
              f"bare ZADD {bare:8.0f}/s   ratio {ours / bare:.2f}")
        counts = await board.counts(challenge)
        assert counts.wins == size, counts

        offsets = [rng.randrange(0, size - PAGE) for _ in range(repeats)]
        it_ours, it_bare = iter(offsets), iter(offsets)
        page_med, page_p99 = await latencies(lambda: board.page(challenge, next(it_ours), PAGE), repeats)
        bare_med, bare_p99 = await latencies(lambda: client.zrange(bare_key, (o := next(it_bare)), o + PAGE - 1), repeats)
        print(f"   page of {PAGE} at {size:,}:    median {page_med:5.2f} ms  p99 {page_p99:5.2f} ms   "
              f"bare ZRANGE median {bare_med:5.2f} ms  p99 {bare_p99:5.2f} ms   ratio {bare_med / page_med:.2f}")
        players = [rng.choice(ours_entries).player for _ in range(repeats)]
        it_players = iter(players)
        mine_med, mine_p99 = await latencies(lambda: board.standing(challenge, next(it_players)), repeats)
        print(f"   my rank at {size:,}:       median {mine_med:5.2f} ms  p99 {mine_p99:5.2f} ms   "
              f"ratio to bare ZRANGE {bare_med / mine_med:.2f}")
    finally:
        await client.aclose()


async def run(data_dir: Path, quick: bool, cluster: bool) -> None:
    if cluster:
        with LocalRedisCluster(data_dir, masters=3) as servers:
            await measure(servers.url, f"a local cluster of 3 masters, data in {data_dir}", quick)
    else:
        with EmbeddedRedis(data_dir) as server:
            await measure(server.url, f"{Path(find_redis_binary()).name} {server.url}, data in {data_dir}", quick)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_leaderboard", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer timed reads (the board still holds 100,000)")
    parser.add_argument("--cluster", action="store_true", help="on a local 3-master Redis Cluster")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-leaderboard-") as folder:
        asyncio.run(run(Path(folder), args.quick, args.cluster))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
