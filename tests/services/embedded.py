"""A session Redis for the service and gateway tests when the shared fixture is not there."""

from __future__ import annotations

import pytest

from services.redis_server import EmbeddedRedis


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis")).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_url(redis_server) -> str:
    return redis_server.url
