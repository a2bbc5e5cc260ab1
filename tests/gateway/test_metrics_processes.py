"""Two `arena serve` processes sharing one PROMETHEUS_MULTIPROC_DIR: either one's /metrics adds both up,
and a process that stopped no longer counts its sockets."""

from __future__ import annotations

import httpx
import pytest

from tests.gateway.client import Client
from tests.gateway.conftest import SECRET
from tests.gateway.test_metrics import scrape, until, value
from tests.support.processes import ServeProcess

pytestmark = pytest.mark.integration


def test_either_process_reports_both(redis_url, tmp_path, audit):
    shared = tmp_path / "prometheus"
    shared.mkdir()
    env = {"REDIS_URL": redis_url, "ARENA_SECRET": SECRET, "PROMETHEUS_MULTIPROC_DIR": str(shared)}
    a = ServeProcess(tmp_path / "a", **env).start()
    b = ServeProcess(tmp_path / "b", **env).start()
    try:
        with httpx.Client(base_url=a.url, timeout=10) as http_a, httpx.Client(base_url=b.url, timeout=10) as http_b:
            sockets = []
            for server, http in ((a, http_a), (b, http_b)):
                player = Client.guest(server.url, http, audit)
                sock = player.open(player.create("wish", {"mode": "standard"}, 9)["id"])
                legal = sock.recv()["snapshot"]["view"]["legal"]
                assert sock.move(0, legal[0])["type"] == "s2c.accepted"
                sockets.append(sock)
            for http in (http_a, http_b):
                samples = scrape(http)
                assert value(samples, "arena_moves_total", outcome="accepted", code="none") == 2
                assert value(samples, "arena_move_seconds_count") == 2
                assert value(samples, "arena_sockets_open", kind="player") == 2
                assert value(samples, "arena_games_created_total", game="wish", kind="practice") == 2
            assert b.stop() == 0
            # B's socket died with B; A's is still open. Counters keep B's share (it happened).
            def one_player_socket():
                samples = scrape(http_a)
                return samples if value(samples, "arena_sockets_open", kind="player") == 1 else None

            samples = until(one_player_socket, "the stopped process's sockets leaving the sum")
            assert value(samples, "arena_moves_total", outcome="accepted", code="none") == 2
            sockets[0].close()
    finally:
        for server in (a, b):
            if server.process.poll() is None:
                server.stop()
