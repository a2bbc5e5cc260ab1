"""A real uvicorn server running the gateway in a thread, on the real Redis, and socket helpers."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from pathlib import Path

import httpx
import pytest
import redis as sync_redis
import uvicorn

from services.gateway import create_app
from services.redis.embedded import free_port
from services.runtime.settings import Settings
from tests.gateway.client import Audit, Client

SECRET = "gateway-test-secret"


class ServerThread:
    """uvicorn serving create_app(settings) on a free port, in a thread with its own event loop."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings.with_overrides(port=free_port())
        config = uvicorn.Config(
            create_app(self.settings), host="127.0.0.1", port=self.settings.port, log_level="warning",
            ws_max_size=64 * 1024, lifespan="on",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve()), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.settings.port}"

    def start(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the gateway did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)


NO_HTTP_LIMITS = {"limit_guests": None, "limit_sign_in": None, "limit_games": None, "limit_tickets": None}


def gateway_settings(redis_url: str, data_dir: Path, **changes) -> Settings:
    """Test settings: rate limits random play at full speed never meets, and no HTTP limit (every test
    client comes from 127.0.0.1); the limit tests set their own."""
    changes = {"rate_per_second": 10_000.0, "rate_burst": 1_000, "scheduler": False, **NO_HTTP_LIMITS,
               "archive_url": os.environ.get("ARENA_ARCHIVE_URL"), **changes}  # the suite's one archive
    return Settings(redis_url=redis_url, data_dir=data_dir, secret=SECRET, **changes)


@pytest.fixture(scope="session")
def gateway(redis_url, tmp_path_factory):
    server = ServerThread(gateway_settings(redis_url, tmp_path_factory.mktemp("gateway"))).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def sync_redis_client(redis_url):
    client = sync_redis.Redis.from_url(redis_url)
    yield client
    client.close()


@pytest.fixture
def audit(sync_redis_client) -> Audit:
    return Audit(sync_redis_client)


@pytest.fixture
def http(gateway):
    with httpx.Client(base_url=gateway.url, timeout=10) as client:
        yield client


@pytest.fixture
def alice(gateway, http, audit) -> Client:
    return Client.guest(gateway.url, http, audit)


@pytest.fixture
def bob(gateway, http, audit) -> Client:
    return Client.guest(gateway.url, http, audit)
