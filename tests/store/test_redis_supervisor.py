"""The supervised embedded Redis: killed while the server runs, it is started again on the same port and
folder, and the store carries on (its Lua script loaded again, every acknowledged append kept)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from pathlib import Path

import pytest
from redis.exceptions import RedisError

from services.redis.client import open_redis
from services.redis.embedded import EmbeddedRedis
from services.redis.supervisor import SupervisedRedis
from services.store import EventStore, NewEvent, StoreError
from tests.fixtures.redis import unique_id
from tests.support.processes import redis_servers_on

pytestmark = pytest.mark.skipif(not Path("/proc/self/cwd").exists(), reason="reads /proc (Linux)")


async def append_until_stored(store: EventStore, game: str, version: int) -> None:
    """As a client does after `unavailable`: the same move id again until it is answered."""
    for _ in range(300):
        try:
            event = NewEvent("moved", b"%d" % version)
            result = await store.append(game, version - 1, [event], move_id=f"m{version}")
        except (RedisError, StoreError):
            await asyncio.sleep(0.05)
            continue
        assert result.version == version
        return
    raise AssertionError(f"append {version} was never answered")


async def restarts_counted(supervised: SupervisedRedis, count: int) -> None:
    """The new server answers a moment before the supervisor has counted its restart (on a loaded machine
    that moment can last seconds)."""
    for _ in range(600):
        if supervised.restarts >= count:
            return
        await asyncio.sleep(0.05)


async def test_a_killed_redis_is_restarted_on_its_port_with_every_acknowledged_append(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="services.redis")
    supervised = SupervisedRedis(EmbeddedRedis(tmp_path)).start()
    url = supervised.url
    client = await open_redis(url)
    try:
        store = EventStore(client)
        game = unique_id("game")
        pids = []
        for crash in range(2):
            for version in range(crash * 5 + 1, crash * 5 + 6):
                await append_until_stored(store, game, version)
            await restarts_counted(supervised, crash)  # else this kill may land inside the last restart
            process = supervised.embedded.process
            pids.append(process.pid)
            os.kill(pids[-1], signal.SIGKILL)
            for _ in range(600):  # dead before the next append (else it may still answer one)
                if process.poll() is not None or supervised.embedded.process is not process:
                    break
                await asyncio.sleep(0.05)
            # The next appends meet the outage, then the new server (whose script cache is empty).
        for version in range(11, 16):
            await append_until_stored(store, game, version)
        assert [event.version for event in await store.read(game)] == list(range(1, 16))
        await restarts_counted(supervised, 2)
        assert supervised.url == url and supervised.restarts == 2
        now = supervised.embedded.process.pid
        assert redis_servers_on(tmp_path) == [now] and now not in pids
    finally:
        await client.aclose()
        supervised.stop()
    assert not redis_servers_on(tmp_path)
    said = "\n".join(record.getMessage() for record in caplog.records if record.name.startswith("services.redis"))
    assert f"pid {pids[0]}" in said and "restarted" in said


def test_stop_is_final_and_safe_to_repeat(tmp_path: Path) -> None:
    supervised = SupervisedRedis(EmbeddedRedis(tmp_path)).start()
    pid = supervised.embedded.process.pid
    supervised.stop()
    supervised.stop()
    assert supervised.restarts == 0 and not supervised.embedded.running
    assert pid not in redis_servers_on(tmp_path) and not redis_servers_on(tmp_path)
