"""What one small Redis round trip costs the gateway's CPU: redis-py's client against the lean link.

A game's lifecycle outside its moves is a dozen such round trips (services/redis/lean_commands.py). Each
is timed here as the gateway makes it, one after another on an embedded Valkey under uvloop, by the
process's own CPU time (its share of the kernel's loopback writes included): a GET, and a pipeline of
three writes (a meta hash and two index entries, as a game's end writes them), through redis-py and then
through LeanCommands; the ratio is against redis-py in the same run.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import uvloop

from services.redis.client import server_client
from services.redis.embedded import EmbeddedRedis
from services.redis.lean_commands import LeanCommands
from services.redis.lean_link import LeanLink


async def timed(rounds: int, step) -> float:
    """CPU µs per call of `step`, after a warm-up."""
    for _ in range(100):
        await step()
    started = time.process_time()
    for _ in range(rounds):
        await step()
    return (time.process_time() - started) / rounds * 1e6


async def run(url: str, rounds: int) -> None:
    client = server_client(url)
    link = LeanLink(client, reply_timeout=5)
    paths = {"redis-py": LeanCommands(client, None), "lean link": LeanCommands(client, link)}
    await client.set("bench:key", "value")
    figures: dict[str, tuple[float, float]] = {}
    for name, lean in paths.items():
        async def get(lean=lean) -> None:
            await lean.get("bench:key")

        async def three(lean=lean) -> None:
            await (lean.pipeline().hset("bench:meta", mapping={"status": "won", "finished_at_ms": 1})
                   .zadd("bench:ended", {"game": 1}).zrem("bench:unsettled", "game").execute())

        figures[name] = await timed(rounds, get), await timed(rounds, three)
    base_get, base_three = figures["redis-py"]
    for name, (one, batch) in figures.items():
        print(f"   {name:10s} GET {one:6.1f} µs ({one / base_get:.2f}x)   pipeline of three writes "
              f"{batch:6.1f} µs ({batch / base_three:.2f}x)", flush=True)
    await link.aclose()
    await client.aclose()


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench round_trips", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="1,000 calls of each instead of 5,000")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder, EmbeddedRedis(Path(folder)) as server:
        uvloop.run(run(server.url, 1_000 if args.quick else 5_000))
