"""Two `arena serve` processes on one Redis: a spectator on B sees moves made through A, a player
may switch process mid-game, and SIGTERM stops a server cleanly."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading

import httpx
import pytest

from tests.gateway.client import Client
from tests.gateway.conftest import SECRET

pytestmark = pytest.mark.integration


class ServeProcess:
    def __init__(self, redis_url: str | None, data_dir, extra_env: dict[str, str] | None = None) -> None:
        env = {**os.environ, "ARENA_SECRET": SECRET, "ARENA_DATA_DIR": str(data_dir), **(extra_env or {})}
        env.pop("REDIS_URL", None)
        env.pop("ARENA_SECRET", None) if redis_url is None else env.update(REDIS_URL=redis_url)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--port", "0"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        line = self.process.stdout.readline()
        found = re.search(r"http://[\d.]+:\d+", line)
        if not found:
            self.process.kill()
            raise RuntimeError(f"arena serve did not start: {line}{self.process.stdout.read()}")
        self.url = found.group(0)
        self.output: list[str] = []  # what it prints, drained so a chatty server never blocks on a full pipe
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        for line in self.process.stdout:
            self.output.append(line)

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()  # not left behind; and what it said before it hung says why it hung
            self.process.wait(10)
            tail = "".join(self.output[-40:])
            raise AssertionError(f"arena serve did not stop within 20 s of SIGTERM; its last output:\n{tail}") from None


@pytest.fixture
def two_servers(redis_url, tmp_path):
    a, b = ServeProcess(redis_url, tmp_path / "a"), ServeProcess(redis_url, tmp_path / "b")
    yield a, b
    for server in (a, b):
        if server.process.poll() is None:
            server.stop()


def test_spectator_on_b_sees_moves_made_through_a(two_servers, audit):
    a, b = two_servers
    with httpx.Client(base_url=a.url, timeout=10) as http_a, httpx.Client(base_url=b.url, timeout=10) as http_b:
        player = Client.guest(a.url, http_a, audit)
        watcher = Client.guest(b.url, http_b, audit)
        created = player.create("wish", {"mode": "open"}, 77)
        sock = player.open(created["id"], a.url)
        spectator = watcher.open(created["id"], b.url)
        view = sock.recv()["snapshot"]["view"]
        assert spectator.recv()["role"] == "spectator"
        for version in range(3):
            accepted = sock.move(version, view["legal"][0])
            assert accepted["type"] == "s2c.accepted"
            view = accepted["snapshot"]["view"]
            seen = spectator.recv_until("s2c.update")["snapshot"]
            assert seen["version"] == version + 1 and seen["view"] == view
        # The player reconnects through B and plays on: B rebuilds from the log, A's cache is now stale.
        sock.close()
        sock = player.open(created["id"], b.url)
        assert sock.recv()["snapshot"]["version"] == 3
        assert sock.move(3, view["legal"][0])["type"] == "s2c.accepted"
        assert spectator.recv_until("s2c.update")["snapshot"]["version"] == 4
        # Back on A, whose cache is stale: the connect catches A up from the log, so the move is judged fresh.
        sock.close()
        sock = player.open(created["id"], a.url)
        snapshot = sock.recv()["snapshot"]
        assert snapshot["version"] == 4
        assert sock.move(4, snapshot["view"]["legal"][0])["type"] == "s2c.accepted"
        assert spectator.recv_until("s2c.update")["snapshot"]["version"] == 5
        assert http_b.get(f"/api/games/{created['id']}", headers=player.headers).json()["version"] == 5
        sock.close()
        spectator.close()
    assert a.stop() == 0 and b.stop() == 0


def test_serve_on_embedded_redis_keeps_games_and_secret_across_a_restart(tmp_path, audit):
    first = ServeProcess(None, tmp_path)
    with httpx.Client(base_url=first.url, timeout=10) as http:
        player = Client.guest(first.url, http, audit)
        game_id = player.create("wish", None, 5)["id"]
    assert first.stop() == 0
    assert (tmp_path / "secret").exists() and (tmp_path / "redis").is_dir()
    second = ServeProcess(None, tmp_path)
    try:
        with httpx.Client(base_url=second.url, timeout=10) as http:
            response = http.get(f"/api/games/{game_id}", headers=player.headers)  # the old token still works
            assert response.status_code == 200 and response.json()["id"] == game_id
    finally:
        assert second.stop() == 0
