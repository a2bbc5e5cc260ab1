"""The archive tier through real `arena serve` processes on a real S3 API (moto's server on loopback).

Games won and resigned over sockets are archived by the server's own archiver, then read through by
a fresh process: summaries, the replay file (checked by `arena verify`), the replay views, and
`arena archive --status`. A server killed (SIGKILL) at each step of an archive leaves every game hot or
archived, never lost or half-deleted; an archive gone silent leaves games hot and playable, answered
`unavailable` where only the archive has the game, and the archiver catches up when it is back.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import httpx
import pytest
import redis as sync_redis

import engine
from engine.solver import solve
from services.archive.archiver import AFTER_PUT, AFTER_READ_BACK, AFTER_SWAP
from services.store.keys import log_key, meta_key
from tests.support.replays import read_file, verdict_of
from tests.archive.proxy import FlakyProxy
from tests.gateway.client import Audit, Client
from tests.gateway.test_two_processes import ServeProcess
from tests.support.play import IN_PLAY_WISH, WISH_OPEN, winnable_wish_seed

pytestmark = pytest.mark.integration


def serve_env(endpoint: str, bucket: str, **more: str) -> dict[str, str]:
    from tests.archive.conftest import S3_ENV

    return {**S3_ENV, "AWS_ENDPOINT_URL": endpoint, "ARENA_ARCHIVE_URL": f"s3://{bucket}/arena",
            "ARENA_ARCHIVE_AFTER_SECONDS": "0", "ARENA_ARCHIVE_EVERY_SECONDS": "0.2",
            "ARENA_ARCHIVE_TIMEOUT_SECONDS": "1", "ARENA_VALIDATORS": "1", **more}


def arena(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli.main", *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **env})


def win_over_socket(player: Client, seed: int) -> str:
    game_id = player.create("wish", WISH_OPEN, seed)["id"]
    sock = player.open(game_id)
    version = sock.recv()["snapshot"]["version"]
    for intent in solve(engine.initial_state("wish", WISH_OPEN, seed)).line:
        assert sock.move(version, {"type": "pair", "a": intent.a, "b": intent.b})["type"] == "s2c.accepted"
        version += 1
    sock.close()
    return game_id


def resign_over_socket(player: Client) -> str:
    game_id = player.create("wish", None, IN_PLAY_WISH)["id"]
    sock = player.open(game_id)
    sock.recv()
    assert sock.move(0, {"type": "resign"})["type"] == "s2c.accepted"
    sock.close()
    return game_id


def tier_of(redis, game_id: str) -> str:
    hot, pointer = redis.exists(log_key(game_id)), redis.hget(meta_key(game_id), "archived")
    assert not (hot and pointer), f"{game_id}: a pointer beside a log"
    assert hot or pointer, f"{game_id}: lost (no log and no pointer)"
    return "archived" if pointer else "hot"


def wait_archived(redis, game_ids, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(tier_of(redis, game_id) == "archived" for game_id in game_ids):
            return
        time.sleep(0.1)
    raise AssertionError(f"not archived within {timeout} s: {[g for g in game_ids if tier_of(redis, g) == 'hot']}")


def checked_replay(http: httpx.Client, game_id: str, tmp_path) -> dict:
    """The game's replay file from the server, checked offline: a win verifies (`arena verify` too),
    any other game replays to its stated end untampered (the validator's verdict on it: not_won)."""
    answer = http.get(f"/api/games/{game_id}/replay")
    assert answer.status_code == 200, answer.text
    replay = read_file(answer.content)
    verdict = verdict_of(answer.content)
    if replay.result.status != "won":
        assert verdict.reason == "not_won", verdict
        return answer.json()
    assert verdict.outcome == "verified", verdict
    path = tmp_path / f"{game_id}.json"
    path.write_bytes(answer.content)
    verified = arena({}, "verify", str(path))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    return answer.json()


@pytest.fixture
def redis(private_redis):
    client = sync_redis.Redis.from_url(private_redis.url)
    client.flushall()
    yield client
    client.close()


def test_games_archived_by_a_server_read_through_on_another(private_redis, redis, moto_server, tmp_path):
    env = serve_env(moto_server.endpoint, moto_server.bucket())
    first = ServeProcess(private_redis.url, tmp_path / "a", env)
    try:
        with httpx.Client(base_url=first.url, timeout=10) as http:
            player = Client.guest(first.url, http, Audit(redis))
            won, gone = win_over_socket(player, winnable_wish_seed(40)), resign_over_socket(player)
            wait_archived(redis, [won, gone])
            summaries = {g: player.summary(g) for g in (won, gone)}
    finally:
        first.stop()
    second = ServeProcess(private_redis.url, tmp_path / "b", env)  # nothing cached: everything from the archive
    try:
        with httpx.Client(base_url=second.url, timeout=10) as http:
            for game_id in (won, gone):
                assert http.get(f"/api/games/{game_id}", headers=player.headers).json() == summaries[game_id]
                replay = checked_replay(http, game_id, tmp_path)
                assert replay["result"]["status"] == summaries[game_id]["status"]
                views = http.get(f"/api/games/{game_id}/replay/views")
                assert views.status_code == 200 and len(views.json()["steps"]) == summaries[game_id]["version"] + 1
            assert http.get(f"/api/games/{won}/verdict").json()["outcome"] == "verified"
            listed = http.get("/api/games", headers=player.headers).json()
            assert {game["id"] for game in listed} >= {won, gone}
            exported = arena({}, "export", won, "--server", second.url, "-o", str(tmp_path / "export.json"))
            assert exported.returncode == 0, exported.stderr
            assert arena({}, "verify", str(tmp_path / "export.json")).returncode == 0
        status = arena({"REDIS_URL": private_redis.url}, "archive", "--status", "--json")
        counts = json.loads(status.stdout)
        assert counts["archived"] == 2 and counts["bytes"] > 0 and counts["pending"] == 0
    finally:
        second.stop()


@pytest.mark.parametrize("point", [AFTER_PUT, AFTER_READ_BACK, AFTER_SWAP])
def test_a_server_killed_mid_archive_leaves_every_game_hot_or_archived(point, private_redis, redis, moto_server,
                                                                       tmp_path):
    env = serve_env(moto_server.endpoint, moto_server.bucket())
    doomed = ServeProcess(private_redis.url, tmp_path / "a", {**env, "ARENA_TEST_FAULT": point})
    with httpx.Client(base_url=doomed.url, timeout=10) as http:
        player = Client.guest(doomed.url, http, Audit(redis))
        game_id = win_over_socket(player, winnable_wish_seed(40))
        assert doomed.process.wait(30) == -9, "it died at the crash point"
    assert tier_of(redis, game_id) == ("archived" if point == AFTER_SWAP else "hot")
    survivor = ServeProcess(private_redis.url, tmp_path / "b", env)
    try:
        wait_archived(redis, [game_id])
        with httpx.Client(base_url=survivor.url, timeout=10) as http:
            assert checked_replay(http, game_id, tmp_path)["result"]["status"] == "won"
    finally:
        survivor.stop()


def test_an_archive_gone_silent_leaves_games_hot_and_is_caught_up_after(private_redis, redis, moto_server, tmp_path):
    proxy = FlakyProxy(moto_server.port)
    env = serve_env(proxy.endpoint, moto_server.bucket())
    server = ServeProcess(private_redis.url, tmp_path / "a", env)
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            player = Client.guest(server.url, http, Audit(redis))
            archived_before = resign_over_socket(player)
            wait_archived(redis, [archived_before])
        server.stop()
        server = ServeProcess(private_redis.url, tmp_path / "b", env)  # its cache empty: the archive is needed
        proxy.go_silent()
        with httpx.Client(base_url=server.url, timeout=10) as http:
            player = Client.guest(server.url, http, Audit(redis))
            during = [resign_over_socket(player) for _ in range(3)]  # play goes on, every move answered
            far = http.get(f"/api/games/{archived_before}/replay")
            assert far.status_code == 503 and far.json()["code"] == "unavailable", far.text  # never a 500
            time.sleep(3)
            assert all(tier_of(redis, game_id) == "hot" for game_id in during)
            assert checked_replay(http, during[0], tmp_path)["result"]["status"] == "abandoned"
            metrics = http.get("/metrics").text
            assert "arena_archive_backoff_seconds" in metrics
            proxy.come_back()
            wait_archived(redis, during, timeout=40)
            assert checked_replay(http, archived_before, tmp_path)["result"]["status"] == "abandoned"
    finally:
        server.stop()
        proxy.close()
