"""Redis goes away mid-game: a move (or a resync) gets s2c.error `unavailable`, the socket lives on, and
the same move_id sent again after Redis is back is stored exactly once."""

from __future__ import annotations

import httpx
import pytest
import redis as sync_redis

from services.redis.embedded import EmbeddedRedis
from tests.gateway.client import Audit, Client
from tests.gateway.conftest import ServerThread, gateway_settings

pytestmark = pytest.mark.integration


def test_move_during_an_outage_is_retried_once(tmp_path):
    server = EmbeddedRedis(tmp_path / "redis").start()
    port = server.port
    gateway = ServerThread(gateway_settings(server.url, tmp_path / "gw")).start()
    audit_redis = sync_redis.Redis.from_url(server.url)
    try:
        with httpx.Client(base_url=gateway.url, timeout=10) as http:
            player = Client.guest(gateway.url, http, Audit(audit_redis))
            created = player.create("wish", {"mode": "open"}, 12)
            sock = player.open(created["id"])
            move = sock.recv()["snapshot"]["view"]["legal"][0]
            server.stop()
            sock.send({"type": "c2s.move", "move_id": "during-outage", "version": 0, "move": move})
            error = sock.recv(timeout=30)
            assert error["type"] == "s2c.error" and error["code"] == "unavailable"
            sock.send({"type": "c2s.sync", "version": 0})  # a resync cannot be served either, and is told so
            error = sock.recv(timeout=30)
            assert error["type"] == "s2c.error" and error["code"] == "unavailable"
            server = EmbeddedRedis(tmp_path / "redis", port=port).start()  # same folder: the log is kept
            answer = sock.move(0, move, move_id="during-outage")
            assert answer == {"type": "s2c.accepted", "move_id": "during-outage", "version": 1}
            assert sock.move(0, move, move_id="during-outage")["version"] == 1
            assert player.summary(created["id"])["version"] == 1
            sock.close()
    finally:
        gateway.stop()
        audit_redis.close()
        server.stop()
