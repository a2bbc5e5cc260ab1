"""Object stores for the archive's tests, all real: a local folder, a moto S3 server process on loopback
(started here, `python -m moto.server`), and MinIO through testcontainers where a Docker engine answers."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator

import httpx
import pytest

from services.archive.objects import open_objects
from tests.fixtures.redis import docker_engine_status

MINIO_IMAGE = "minio/minio:RELEASE.2025-04-22T22-12-26Z"
S3_ENV = {"AWS_ACCESS_KEY_ID": "arena-test", "AWS_SECRET_ACCESS_KEY": "arena-test-secret", "AWS_REGION": "us-east-1"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class MotoServer:
    """moto's standalone S3 server as a child process on 127.0.0.1; `endpoint`, `bucket(name)`."""

    def __init__(self) -> None:
        self.port = free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> MotoServer:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                httpx.get(self.endpoint, timeout=1)
                return self
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("moto's S3 server did not answer within 30 s")

    def bucket(self) -> str:
        name = f"arena-{uuid.uuid4().hex[:12]}"
        assert httpx.put(f"{self.endpoint}/{name}", timeout=5).status_code == 200
        return name

    def env(self) -> dict[str, str]:
        return {**S3_ENV, "AWS_ENDPOINT_URL": self.endpoint}

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="session")
def moto_server() -> Iterator[MotoServer]:
    server = MotoServer().start()
    yield server
    server.stop()


@pytest.fixture
def s3_env(moto_server, monkeypatch):
    """The environment obstore reads S3's endpoint and credentials from, pointing at moto."""
    for name, value in moto_server.env().items():
        monkeypatch.setenv(name, value)
    return moto_server


@pytest.fixture(scope="session")
def minio_server() -> Iterator[dict[str, str]]:
    usable, why = docker_engine_status()
    if not usable:
        pytest.skip(f"MinIO through testcontainers needs a Docker engine: {why}")
    import boto3  # moto's own dependency: creates the bucket with a signed request
    from testcontainers.core.container import DockerContainer
    from testcontainers.core.waiting_utils import wait_for_logs

    keys = {"MINIO_ROOT_USER": "arena-test", "MINIO_ROOT_PASSWORD": "arena-test-secret"}
    container = DockerContainer(MINIO_IMAGE).with_command("server /data").with_exposed_ports(9000)
    for name, value in keys.items():
        container = container.with_env(name, value)
    container.start()
    wait_for_logs(container, "API:", timeout=60)
    endpoint = f"http://{container.get_container_host_ip()}:{container.get_exposed_port(9000)}"
    env = {**S3_ENV, "AWS_ENDPOINT_URL": endpoint}
    boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=env["AWS_ACCESS_KEY_ID"],
                 aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"], region_name="us-east-1").create_bucket(
        Bucket="arena-archive")
    yield env
    container.stop()


@pytest.fixture(params=["folder", "moto-s3", "minio"])
def objects(request, tmp_path, monkeypatch):
    """The same ObjectStore contract on each real store."""
    if request.param == "folder":
        return open_objects((tmp_path / "archive").as_uri(), timeout_s=5)
    if request.param == "moto-s3":
        server = request.getfixturevalue("s3_env")
        return open_objects(f"s3://{server.bucket()}/arena", timeout_s=5)
    env = request.getfixturevalue("minio_server")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return open_objects(f"s3://arena-archive/{uuid.uuid4().hex[:8]}", timeout_s=5)


class Clock:
    """A server clock the test moves by hand (ms)."""

    def __init__(self, start: int = 1_700_000_000_000) -> None:
        self.now = start

    def __call__(self) -> int:
        return self.now

    def tick(self, ms: int = 1000) -> None:
        self.now += ms


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(redis_client, clock):
    """A game service on the session's real Redis, its store reading archived games through."""
    from services.games.service import GameService
    from services.store import EventStore

    return GameService(EventStore(redis_client, clock=clock), redis_client)


class Tier:
    """A game service whose finished games the archiver moves to `objects`, on a Redis of the module's own."""

    def __init__(self, redis, objects, clock, *, secrecy=None, after_ms=60_000, lost_after_ms=600_000) -> None:
        from services.archive.archiver import Archiver
        from services.archive.read_through import GameArchive, ReadThroughStore
        from services.games.service import GameService

        self.redis, self.objects, self.clock = redis, objects, clock
        self.store = ReadThroughStore(redis, GameArchive(objects, redis), clock=clock)
        self.archiver = Archiver(redis, objects, clock=clock, after_ms=after_ms, lost_after_ms=lost_after_ms)
        self.service = GameService(self.store, redis, results=self.archiver, secrecy=secrecy)

    def fresh_service(self):
        """Another process's service: nothing cached, everything read from Valkey and the archive."""
        from services.archive.read_through import GameArchive, ReadThroughStore
        from services.games.service import GameService

        store = ReadThroughStore(self.redis, GameArchive(self.objects, self.redis), clock=self.clock)
        return GameService(store, self.redis, secrecy=self.service.secrecy)


@pytest.fixture
async def tier(private_redis_client, tmp_path, clock):
    await private_redis_client.flushall()
    return Tier(private_redis_client, open_objects((tmp_path / "archive").as_uri(), timeout_s=5), clock)
