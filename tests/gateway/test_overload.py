"""Overload is answered, never crashed into: one real `arena serve` process, a real Redis.

2,000 sockets opened at once: each gets its snapshot or `s2c.error unavailable` (never a 4500 close), and an
unavailable one is still open (a c2s.sync then gets the snapshot). 3 waves of 1,000 concurrent HTTP reads:
each a 2xx or a 503 with Retry-After and the `unavailable` body, no other 5xx. A player moving during each
burst gets the move stored, at once or on a retry with its move id after `unavailable`.
(bench/bench_overload.py runs the longer version and prints the figures.)
"""

from __future__ import annotations

import pytest

from bench.bench_overload import POOLS, SERVED, UNAVAILABLE, ServeProcess, overload_round, report
from tests.gateway.conftest import SECRET

pytestmark = pytest.mark.integration


@pytest.fixture(params=POOLS.values(), ids=POOLS.keys())
def server(request, redis_url, tmp_path):
    process = ServeProcess(redis_url, tmp_path, {"ARENA_SECRET": SECRET, **request.param})
    yield process
    process.stop()


async def test_a_burst_of_sockets_and_of_reads_is_served_or_told_unavailable(server):
    """On the default pool (most is served), and on a pool starved on purpose (most is told unavailable)."""
    result = await overload_round(server, sockets=2_000, waves=3, per_wave=1_000)
    report(result)  # shown with -s: how much of the burst was served
    assert set(result["sockets"]) <= {SERVED, UNAVAILABLE}, result["sockets"]
    assert sum(result["sockets"].values()) == 2_000
    assert set(result["resynced"]) <= {"s2c.snapshot"}, result["resynced"]
    assert set(result["http"]) <= {"200", "503"}, result["http"]
    for answers in result["moves"]:
        assert answers and answers[-1] == "s2c.accepted" and set(answers[:-1]) <= {UNAVAILABLE}, result["moves"]
    assert result["stored_version"] == 2  # each move stored exactly once, retries included
    assert "Traceback" not in server.output, server.output[-4000:]
    if result["sockets"][UNAVAILABLE] or result["http"]["503"]:
        assert "\"level\": \"warning\"" in server.output and "redis unavailable for" in server.output, server.output[-4000:]


def test_a_stalled_redis_gets_503_and_unavailable_within_the_pool_wait_and_a_warning(
    redis_url, tmp_path, sync_redis_client, audit, caplog
):
    """Redis stalls (CLIENT PAUSE) under a pool of 2 that waits 0.2 s: two reads hold the pool through the stall,
    the ones beyond it get 503 with Retry-After, a move gets `unavailable` (its socket stays open), a new
    socket whose ticket cannot be checked in time gets `unavailable` and a "try again later" close; each
    cause is logged. Once Redis answers again the same move id is stored once and the late socket, opened
    again, gets its snapshot."""
    import asyncio
    import logging
    import threading

    import httpx

    from bench.bench_overload import read_burst
    from tests.gateway.client import Client
    from tests.gateway.conftest import ServerThread, gateway_settings

    server = ServerThread(gateway_settings(redis_url, tmp_path, redis_pool_size=2, redis_pool_timeout=0.2)).start()
    logger = logging.getLogger("arena.gateway")
    logger.addHandler(caplog.handler)  # the app's start set up logging again, without pytest's handler
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            player, watcher = Client.guest(server.url, http, audit), Client.guest(server.url, http, audit)
            game_id = player.create("wish", {"mode": "open"}, 21)["id"]
            sock = player.open(game_id)
            move = sock.recv()["snapshot"]["view"]["legal"][0]
            late_ticket = watcher.ticket()  # taken before the stall; the socket opens during it
            refused, statuses = threading.Event(), []
            reads = threading.Thread(target=lambda: statuses.append(asyncio.run(read_burst(
                server.url, f"/api/games/{game_id}", player.token, 8,
                lambda outcome: outcome == "503" and refused.set()))))
            sync_redis_client.execute_command("CLIENT", "PAUSE", 4000, "ALL")  # every command waits 4 s
            reads.start()
            assert refused.wait(30), "no read was refused while two held the pool"
            sock.send({"type": "c2s.move", "move_id": "in-the-stall", "version": 0, "move": move})
            answer = sock.recv(timeout=30)
            late = watcher.open(game_id, ticket=late_ticket)
            first = late.recv(timeout=30)  # its ticket cannot be checked in time: told, closed "try again later"
            reads.join(30)  # the two that held the pool are answered: the stall is over
            # After the stall: the move again with its id, and the late socket asks for its snapshot.
            again = sock.move(0, move, move_id="in-the-stall")
            assert {key: again[key] for key in ("type", "move_id", "version")} == {
                "type": "s2c.accepted", "move_id": "in-the-stall", "version": 1}
            assert again["snapshot"]["version"] == 1  # this socket had not shown the move yet
            late.close()
            late = watcher.open(game_id)  # the client comes back with a new ticket
            synced = late.recv_until("s2c.snapshot", timeout=30)
            assert player.summary(game_id)["version"] == 1
            sock.close()
            late.close()
    finally:
        server.stop()
        logger.removeHandler(caplog.handler)
    assert set(statuses[0]) <= {"200", "503"} and statuses[0]["503"] >= 1, statuses
    assert answer["type"] == "s2c.error" and answer["code"] == "unavailable", answer
    assert first["type"] == "s2c.error" and first["code"] == "unavailable", first
    assert synced["snapshot"]["version"] in (0, 1) and synced["role"] == "spectator"
    logged = [r.getMessage() for r in caplog.records if r.name == "arena.gateway" and r.levelname == "WARNING"]
    assert any("HTTP requests: ConnectionError: No connection available" in line for line in logged), logged
    assert any("a move, a new game or a sync" in line for line in logged), logged
