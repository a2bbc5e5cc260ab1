"""Replay validator: validated games per second against a bare read of the same logs, and the lag
from a win's submission to its verdict under load. Real embedded Redis (fsync always).

Baseline: XRANGE of each log plus decoding its entries (what any reader of the logs pays). Validated:
the same read, then the whole check (every move re-decided by the engine, times, result). The two run
interleaved, round after round, and each keeps its best round, so the machine's neighbours hurt both
alike. Lag: wins submitted at a steady rate while two workers run; per win, verdict time minus
submission time. Nothing here asserts anything about time.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

import engine
from engine.solver import solve
from services.games.record import read_log
from services.games.service import GameService
from services.redis.client import open_redis
from services.redis.embedded import EmbeddedRedis
from services.store import EventStore
from services.store.envelope import ENTRY_FIELD, decode_event, encode_event
from services.store.keys import log_key
from services.validator.queue import Submission, ValidatorQueue
from services.validator.worker import ValidatorWorker



async def won_log(client, game: str, variant: dict, player: str) -> tuple[list, int, int]:
    service = GameService(EventStore(client), client)
    seed = next(s for s in range(500) if solve(engine.initial_state(game, variant, s), 20_000).winnable)
    created = await service.create_game(player, game, variant, seed)
    await service.open_for(created.id, player)
    for n, intent in enumerate(solve(engine.initial_state(game, variant, seed), 20_000).line):
        version = service.live.get(created.id).version
        assert (await service.submit(player, created.id, f"m{n}", version, intent)).answer.accepted
    summary = await service.summary(created.id)
    entries = [decode_event(f[ENTRY_FIELD]) for _, f in await client.xrange(log_key(created.id))]
    return entries, summary.moves, summary.elapsed_ms


async def copies(client, entries, count: int, prefix: str) -> list[str]:
    ids = []
    for start in range(0, count, 20):  # a pipeline per 20 games: fsync always makes big ones slow to answer
        pipe = client.pipeline(transaction=False)
        for n in range(start, min(count, start + 20)):
            game_id = f"{prefix}{n:06d}"
            for stored in entries:
                pipe.xadd(log_key(game_id), {ENTRY_FIELD: encode_event(stored)}, id=f"0-{stored.version}")
            ids.append(game_id)
        await pipe.execute()
    return ids


async def rates(queue: ValidatorQueue, store: EventStore, ids: list[str], moves: int, time_ms: int,
                seconds: float) -> tuple[float, float]:
    async def bare(game_id):
        read_log(await store.read(game_id))

    async def validated(game_id):
        _, verdict = await queue.judge(Submission(game_id, "g_bench", moves, time_ms, 0))
        assert verdict.verified, verdict

    best = {bare: float("inf"), validated: float("inf")}
    started, rounds = time.perf_counter(), 0
    while rounds < 2 or time.perf_counter() - started < seconds:
        for action in ((bare, validated) if rounds % 2 == 0 else (validated, bare)):
            t0 = time.perf_counter()
            for game_id in ids:
                await action(game_id)
            best[action] = min(best[action], time.perf_counter() - t0)
        rounds += 1
    return len(ids) / best[bare], len(ids) / best[validated]


async def lag(client, queue: ValidatorQueue, ids: list[str], moves: int, time_ms: int, per_second: int) -> list[int]:
    await queue.ensure_group()
    stop = asyncio.Event()
    workers = [ValidatorWorker(queue, consumer=f"bench-{n}", block_ms=50) for n in range(2)]
    tasks = [asyncio.create_task(w.run(stop)) for w in workers]
    interval = 1 / per_second
    for game_id in ids:
        await queue.submit(Submission(game_id, "g_bench", moves, time_ms, time.time_ns() // 1_000_000))
        await asyncio.sleep(interval)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and await client.hlen("arena:{validator}:verdicts") < len(ids):
        await asyncio.sleep(0.05)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    lags = []
    for game_id in ids:
        stored = await queue.verdict_of(game_id)
        if stored is not None:
            lags.append(stored.decided_at_ms - stored.submitted_at_ms)
    return lags


def pct(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(quick: bool) -> None:
    with tempfile.TemporaryDirectory() as folder, EmbeddedRedis(Path(folder) / "redis") as server:
        client = await open_redis(server.url)
        store = EventStore(client)
        queue = ValidatorQueue(client, store)
        for game, variant, count in (("wish", {"mode": "open"}, 200 if quick else 1000),
                                     ("spider", {"suits": 1}, 4 if quick else 20)):  # a solver's line: long
            entries, moves, time_ms = await won_log(client, game, variant, "g_bench")
            ids = await copies(client, entries, count, f"b{game[:2]}")
            bare, checked = await rates(queue, store, ids, moves, time_ms, 1 if quick else 6)
            print(f"  {game:6} {len(entries):4} entries/log: bare XRANGE+decode {bare:8.0f} games/s, "
                  f"validated {checked:8.0f} games/s, ratio {checked / bare:.2f}x (goal >= 0.8x)")
        entries, moves, time_ms = await won_log(client, "wish", {"mode": "open"}, "g_bench")
        ids = await copies(client, entries, 300 if quick else 2000, "lag")
        rate = 200 if quick else 400
        lags = await lag(client, queue, ids, moves, time_ms, rate)
        print(f"  lag, {len(ids)} wins submitted at {rate}/s, 2 workers: {len(lags)} verdicts, "
              f"p50 {pct(lags, 0.5):.0f} ms, p99 {pct(lags, 0.99):.0f} ms, max {max(lags):.0f} ms")
        await client.aclose()


def main(argv: list[str]) -> None:
    asyncio.run(run("--quick" in argv))


if __name__ == "__main__":
    main(sys.argv[1:])
