"""Two `arena validate` processes in one consumer group; one is killed with SIGKILL mid-batch.

Every submitted win still gets exactly one verdict: none lost (the dead worker's unacknowledged
entries are claimed by the live one), none doubled (verdicts are written once, counters with them).
The same on a local Redis Cluster, where the games' streams and the validator's keys sit in
different slots.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time

import pytest

from services.redis.client import open_redis
from services.redis.embedded import EmbeddedRedis
from services.store import EventStore
from services.store.keys import submissions_key, validator_counts_key, verdicts_key
from services.validator.queue import GROUP, Submission, ValidatorQueue
from tests.support.play import won_wish
from tests.validator.conftest import read_stored, write_log

pytestmark = pytest.mark.integration

WINS = 240


def start_worker(redis_url: str, name: str) -> subprocess.Popen:
    env = {**os.environ, "REDIS_URL": redis_url}
    return subprocess.Popen(
        [sys.executable, "-m", "cli.main", "validate", "--batch", "16", "--claim-idle-ms", "300"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )


async def submit_wins(client, count: int) -> list[str]:
    """`count` won games (copies of one real win's log under new ids), all submitted at once."""
    from services.games.service import GameService

    service = GameService(EventStore(client), client)
    won = await won_wish(service, "g_batch")
    entries = await read_stored(client, won.id)
    ids = [await write_log(client, entries) for _ in range(count)]
    queue = ValidatorQueue(client, EventStore(client))
    await queue.ensure_group()
    for game_id in ids:
        await queue.submit(Submission(game_id, "g_batch", won.moves, won.elapsed_ms, 0))
    return ids


async def consumer_pending(client, consumer_prefix: str) -> int:
    total = 0
    for consumer in await client.xinfo_consumers(submissions_key(), GROUP):
        name = consumer["name"].decode() if isinstance(consumer["name"], bytes) else consumer["name"]
        if name.startswith(consumer_prefix):
            total += int(consumer["pending"])
    return total


async def run_kill_scenario(redis_url: str) -> None:
    client = await open_redis(redis_url)
    try:
        verified_before = int(await client.hget(validator_counts_key(), "verified") or 0)
        ids = await submit_wins(client, WINS)
        doomed = start_worker(redis_url, "a")
        prefix = None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # wait until the doomed worker holds unacknowledged entries
            consumers = await client.xinfo_consumers(submissions_key(), GROUP)
            live = [c for c in consumers if int(c["pending"]) > 0]
            if live:
                prefix = (live[0]["name"].decode() if isinstance(live[0]["name"], bytes) else live[0]["name"])
                break
            await asyncio.sleep(0.002)
        assert prefix is not None, "the first worker never took a batch"
        doomed.send_signal(signal.SIGKILL)
        doomed.wait(10)
        held = await consumer_pending(client, prefix)
        done = await client.hlen(verdicts_key())
        assert held > 0, "killed after its batch was acknowledged: nothing for the survivor to claim"
        survivor = start_worker(redis_url, "b")
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                found = [await client.hexists(verdicts_key(), game_id) for game_id in ids]
                if all(found):
                    break
                await asyncio.sleep(0.1)
            assert all(found), f"{found.count(False)} of {WINS} wins never got a verdict"
            verified = int(await client.hget(validator_counts_key(), "verified")) - verified_before
            assert verified == WINS, f"{verified} verdicts counted for {WINS} wins"
            await asyncio.sleep(0.5)  # a survivor still working would show as pending
            assert await consumer_pending(client, "") == 0
        finally:
            survivor.send_signal(signal.SIGTERM)
            survivor.wait(10)
        assert done < WINS, "the kill landed after every verdict: it proved nothing"
    finally:
        await client.aclose()


async def test_a_worker_killed_mid_batch_loses_and_doubles_nothing(tmp_path):
    with EmbeddedRedis(tmp_path / "redis") as server:
        await run_kill_scenario(server.url)


async def test_the_same_on_a_redis_cluster(redis_cluster):
    await run_kill_scenario(redis_cluster.url)
