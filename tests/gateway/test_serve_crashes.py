"""`arena serve` on its embedded Redis, crashed for real: SIGKILL of the server leaves no redis-server
behind and loses no acknowledged move; a second server is kept off a data folder in use; SIGKILL of the
embedded Redis while players play is recovered by the server itself."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import uuid
from pathlib import Path

import httpx
import pytest
import redis as sync_redis

from tests.gateway.client import Audit, Client, Socket
from tests.support.processes import ServeProcess, redis_servers_on, wait_until

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not Path("/proc/self/cwd").exists(), reason="reads /proc (Linux)"),
]

SEED = 12  # open Wish, seed 12: the first legal move each time lasts 14 moves
RECOVERY_S = 30.0  # how long a player keeps sending a move again before calling the server dead


class PatientAudit(Audit):
    """The audit reads the log from Redis: while Redis is down it waits, as the players do."""

    def state_at(self, game_id: str, version: int):
        deadline = time.monotonic() + RECOVERY_S
        while True:
            try:
                return super().state_at(game_id, version)
            except sync_redis.ConnectionError as exc:
                if time.monotonic() > deadline:
                    raise AssertionError(f"the embedded Redis did not come back: {exc}") from exc
                time.sleep(0.05)


class Player:
    """A guest with one game open on one socket, who remembers every move the server acknowledged."""

    def __init__(self, serve: ServeProcess, audit: Audit, http: httpx.Client) -> None:
        self.client = Client.guest(serve.url, http, audit)
        self.game_id = self.client.create("wish", {"mode": "open"}, SEED)["id"]
        self.acked = 0
        self.sock: Socket | None = None

    def connect(self, serve: ServeProcess, audit: Audit, http: httpx.Client) -> None:
        self.client.base_url, self.client.http, self.client.audit = serve.url, http, audit
        self.sock = self.client.open(self.game_id)
        snapshot = self.sock.recv()
        assert snapshot["type"] == "s2c.snapshot" and snapshot["snapshot"]["version"] == self.acked, "a move was lost"

    def play(self) -> None:
        """One move: sent again with the same move_id after every `unavailable`, until it is answered."""
        move_id = uuid.uuid4().hex
        deadline = time.monotonic() + RECOVERY_S
        while time.monotonic() < deadline:
            legal = self._view(deadline)["legal"]
            self.sock.send({"type": "c2s.move", "move_id": move_id, "version": self.acked, "move": legal[0]})
            while True:
                frame = self.sock.recv(timeout=20)
                if frame["type"] == "s2c.error":
                    assert frame["code"] == "unavailable", frame
                    break
                if frame.get("move_id") == move_id:
                    assert frame["type"] == "s2c.accepted", frame
                    assert frame["version"] == self.acked + 1
                    self.acked += 1
                    return
            time.sleep(0.05)
        raise AssertionError("the move was never answered: the server did not recover")

    def _view(self, deadline: float) -> dict:
        # A fresh snapshot each time: a move stored just before Redis died may have had no update sent.
        while time.monotonic() < deadline:
            self.sock.send({"type": "c2s.sync", "version": self.acked})
            frame = self.sock.recv(timeout=20)
            while frame["type"] not in ("s2c.snapshot", "s2c.error"):
                frame = self.sock.recv(timeout=20)
            if frame["type"] == "s2c.snapshot":
                return frame["snapshot"]["view"]
            time.sleep(0.05)
        raise AssertionError("no snapshot: the server did not recover")

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()


def test_three_sigkills_of_serve_leave_no_redis_server_and_lose_no_move(tmp_path: Path) -> None:
    data = tmp_path / "data"
    player: Player | None = None
    try:
        for crash in range(3):
            serve = ServeProcess(data).start()
            audit_redis = sync_redis.Redis.from_url(serve.redis_url)
            with httpx.Client(base_url=serve.url, timeout=10) as http:
                audit = PatientAudit(audit_redis)
                player = player or Player(serve, audit, http)
                player.connect(serve, audit, http)
                for _ in range(3):
                    player.play()
                player.close()
            audit_redis.close()
            assert len(redis_servers_on(data)) == 1
            serve.kill9()
            wait_until(lambda: not redis_servers_on(data), what=f"the redis-server's end after crash {crash + 1}")
        serve = ServeProcess(data).start()  # the fourth start finds every acknowledged move
        audit_redis = sync_redis.Redis.from_url(serve.redis_url)
        with httpx.Client(base_url=serve.url, timeout=10) as http:
            player.connect(serve, Audit(audit_redis), http)
            assert player.acked == 9 and player.client.summary(player.game_id)["version"] == 9
            player.close()
        audit_redis.close()
        assert serve.stop() == 0
        assert not redis_servers_on(data)
    finally:
        _kill_leftovers(data)


def test_a_second_serve_on_a_data_folder_in_use_refuses_with_a_clear_message(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = ServeProcess(data).start()
    try:
        [redis_pid] = redis_servers_on(data)
        second = ServeProcess(data, log_name="second.log")
        try:
            code = second.launch().wait(30)
        except subprocess.TimeoutExpired:
            second.kill9()
            raise AssertionError(f"the second server did not refuse:\n{second.output()}") from None
        said = second.output()
        assert code == 1, said
        assert f"{data / 'redis'} is in use by another arena server (pid {first.process.pid})" in said
        assert redis_servers_on(data) == [redis_pid]  # the first one's Redis was not touched
        with httpx.Client(base_url=first.url, timeout=10) as http:
            assert http.get("/ready").status_code == 200
        assert first.stop() == 0
        assert not redis_servers_on(data)
    finally:
        first.kill9()
        _kill_leftovers(data)


def test_sigkill_of_the_embedded_redis_while_players_play_is_recovered(tmp_path: Path) -> None:
    data = tmp_path / "data"
    serve = ServeProcess(data).start()
    audit_redis = sync_redis.Redis.from_url(serve.redis_url)
    players: list[Player] = []
    try:
        with httpx.Client(base_url=serve.url, timeout=10) as http:
            audit = PatientAudit(audit_redis)
            players = [Player(serve, audit, http) for _ in range(2)]
            for player in players:
                player.connect(serve, audit, http)
            [first_redis] = redis_servers_on(data)
            for turn in range(12):
                for player in players:
                    if turn == 4 and player is players[1]:
                        os.kill(first_redis, signal.SIGKILL)  # between two players' moves
                    player.play()
            for player in players:
                assert player.client.summary(player.game_id)["version"] == player.acked == 12
                player.close()
                player.connect(serve, audit, http)  # a fresh socket's snapshot: the same version
            [second_redis] = redis_servers_on(data)
            assert second_redis != first_redis
        said = serve.output()
        assert f"pid {first_redis}" in said and "restarted" in said
        assert serve.stop() == 0
        assert not redis_servers_on(data)
    finally:
        for player in players:
            player.close()
        audit_redis.close()
        serve.kill9()
        _kill_leftovers(data)


def _kill_leftovers(data: Path) -> None:
    # A failing run must not leave redis-servers on the machine for the next tests.
    for pid in redis_servers_on(data):
        os.kill(pid, signal.SIGKILL)


def _descendants(pid: int) -> set[int]:
    """Every process under `pid` now (read from /proc, not through the code under test)."""
    found, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = {int(child) for child in (task / "children").read_text().split()}
            except OSError:
                continue
            todo.extend(children - found)
            found |= children
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_serve_killed_with_sigkill_leaves_no_worker_holding_its_port(tmp_path: Path) -> None:
    """The daily scheduler's solver worker (a process of its own) must neither answer for a dead server nor
    outlive it: a port still listening after the kill would take connections nobody answers."""
    serve = ServeProcess(tmp_path / "data", ARENA_DAILY_GAMES="wish", ARENA_SCHEDULER="1").start()
    try:
        with httpx.Client(base_url=serve.url, timeout=10) as http:  # today's daily: its deal was picked by the worker
            wait_until(lambda: http.get("/api/dailies").json()["today"]["challenges"], timeout=30,
                       what="today's daily challenge")
        helpers = _descendants(serve.process.pid) - set(redis_servers_on(tmp_path / "data"))
        assert helpers, "no worker process was started: this test proves nothing"
        serve.kill9()
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"{serve.url}/health", timeout=5)
        wait_until(lambda: not any(_alive(pid) for pid in helpers), what="the worker's end after the server's")
    finally:
        _kill_leftovers(tmp_path / "data")
