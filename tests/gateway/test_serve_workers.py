"""`arena serve --workers 2` (here ARENA_WORKERS=2) for real: two worker processes on one port, both
taking connections; a move through one reaches spectators on the other, a retried move id is answered
once whichever worker it reaches, and SIGTERM stops the workers and then the embedded Redis."""

from __future__ import annotations

import uuid
from pathlib import Path

import httpx
import psutil
import pytest
import redis as sync_redis

from tests.gateway.client import Audit, Client
from tests.support.processes import ServeProcess, redis_servers_on, wait_until

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not Path("/proc/self/cwd").exists(), reason="reads /proc (Linux)"),
]

SOCKETS = 24  # spread by the kernel's hash over two workers: all on one has odds of 2 in 2**24


def workers_of(serve: ServeProcess) -> list[psutil.Process]:
    """The server's worker processes (its other child is the embedded Redis)."""
    return [child for child in psutil.Process(serve.process.pid).children() if "cli.main" in " ".join(child.cmdline())]


def workers_holding(serve: ServeProcess, port: int) -> set[int]:
    """Pids of the server's worker processes with an established connection on the port."""
    holding = set()
    for worker in workers_of(serve):
        connections = getattr(worker, "net_connections", None) or worker.connections  # psutil < 6: the old name
        for conn in connections(kind="tcp"):
            if conn.status == psutil.CONN_ESTABLISHED and conn.laddr.port == port:
                holding.add(worker.pid)
    return holding


def test_two_workers_share_the_port_the_fan_out_and_the_move_records(tmp_path):
    serve = ServeProcess(tmp_path / "data", ARENA_WORKERS="2").start()
    try:
        wait_until(lambda: serve.output().count("serving at") == 2, 40, "both workers serving")
        workers = workers_of(serve)
        assert len(workers) == 2
        audit_redis = sync_redis.Redis.from_url(serve.redis_url)
        with httpx.Client(base_url=serve.url, timeout=20) as http:
            player, watcher = (Client.guest(serve.url, http, Audit(audit_redis)) for _ in range(2))
            game_id = player.create("wish", {"mode": "open"}, 12)["id"]
            sock = player.open(game_id)
            view = sock.recv()["snapshot"]["view"]
            spectators = [watcher.open(game_id) for _ in range(SOCKETS)]
            for spectator in spectators:
                assert spectator.recv()["role"] == "spectator"
            port = int(serve.url.rsplit(":", 1)[1])
            assert len(workers_holding(serve, port)) == 2  # the kernel gave both workers connections
            move_id = uuid.uuid4().hex
            accepted = sock.move(0, view["legal"][0], move_id=move_id)
            assert accepted["type"] == "s2c.accepted" and accepted["snapshot"]["version"] == 1
            for spectator in spectators:  # on either worker: from this process directly, or over Redis
                assert spectator.recv_until("s2c.update")["snapshot"] == accepted["snapshot"]
            for _ in range(4):  # the same move id again, on new sockets (either worker): answered, never redone
                again = player.open(game_id)
                assert again.recv()["snapshot"]["version"] == 1
                assert again.move(0, view["legal"][0], move_id=move_id)["version"] == 1
                again.close()
            assert player.summary(game_id)["version"] == 1
            for spectator in [sock, *spectators]:
                spectator.close()
        audit_redis.close()
    finally:
        code = serve.stop()
    assert code == 0
    assert not any(worker.is_running() and worker.status() != psutil.STATUS_ZOMBIE for worker in workers)
    assert redis_servers_on(tmp_path / "data") == []
