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
            assert {key: answer[key] for key in ("type", "move_id", "version")} == {
                "type": "s2c.accepted", "move_id": "during-outage", "version": 1}
            assert answer["snapshot"]["version"] == 1  # the acceptance carries the game after the move
            assert sock.move(0, move, move_id="during-outage")["version"] == 1
            assert player.summary(created["id"])["version"] == 1
            sock.close()
    finally:
        gateway.stop()
        audit_redis.close()
        server.stop()


def test_while_redis_is_away_http_gets_503_and_sockets_are_told_and_kept(tmp_path):
    """An open socket's sync while Redis is away gets `unavailable` (never a 4500 close), stays open, and a
    c2s.sync after Redis is back brings the snapshot; a new socket is told and may come back; HTTP gets 503
    with Retry-After."""
    server = EmbeddedRedis(tmp_path / "redis").start()
    port = server.port
    gateway = ServerThread(gateway_settings(server.url, tmp_path / "gw", redis_pool_timeout=0.5)).start()
    audit_redis = sync_redis.Redis.from_url(server.url)
    try:
        with httpx.Client(base_url=gateway.url, timeout=30) as http:
            player = Client.guest(gateway.url, http, Audit(audit_redis))
            game_id = player.create("wish", {"mode": "open"}, 13)["id"]
            watcher = Client.guest(gateway.url, http, Audit(audit_redis))
            sock = watcher.open(game_id)  # open before the outage
            assert sock.recv(timeout=30)["type"] == "s2c.snapshot"
            late_ticket = watcher.ticket()
            server.stop()
            response = http.get(f"/api/games/{game_id}", headers=player.headers)
            assert response.status_code == 503 and response.headers["retry-after"] == "1"
            assert response.json()["code"] == "unavailable" and set(response.json()) == {"code", "message"}
            # A new socket's ticket cannot be checked while Redis is away: told so, closed "try again later".
            late = watcher.open(game_id, ticket=late_ticket)
            refused = late.recv(timeout=30)
            assert refused["type"] == "s2c.error" and refused["code"] == "unavailable"
            sock.send({"type": "c2s.sync", "version": 0})
            answer = sock.recv(timeout=30)
            assert answer["type"] == "s2c.error" and answer["code"] == "unavailable"  # the open socket is told...
            sock.send({"type": "c2s.ping"})
            assert sock.recv(timeout=30) == {"type": "s2c.pong"}  # still open
            server = EmbeddedRedis(tmp_path / "redis", port=port).start()
            for _ in range(20):  # the store's connections come back on their own; the socket asks again
                sock.send({"type": "c2s.sync", "version": 0})
                answer = sock.recv(timeout=30)
                if answer["type"] == "s2c.snapshot":
                    break
            assert answer["type"] == "s2c.snapshot" and answer["role"] == "spectator"
            assert answer["snapshot"]["game_id"] == game_id
            assert player.summary(game_id)["version"] == 0
            sock.close()
    finally:
        gateway.stop()
        audit_redis.close()
        server.stop()


def test_arena_play_opening_while_redis_is_away_asks_again_until_it_has_the_snapshot(tmp_path):
    import asyncio

    from cli.play_socket import GameLink

    server = EmbeddedRedis(tmp_path / "redis").start()
    port = server.port
    gateway = ServerThread(gateway_settings(server.url, tmp_path / "gw", redis_pool_timeout=0.5)).start()
    audit_redis = sync_redis.Redis.from_url(server.url)
    absorbed, said = [], []
    try:
        with httpx.Client(base_url=gateway.url, timeout=30) as http:
            player = Client.guest(gateway.url, http, Audit(audit_redis))
            game_id = player.create("wish", {"mode": "open"}, 14)["id"]
            ticket = player.ticket()  # fetched before the outage: the socket itself opens during it
        server.stop()
        url = f"{gateway.url.replace('http://', 'ws://')}/ws/games/{game_id}?ticket={ticket}"
        link = GameLink(lambda: url, game_id, absorbed.append, lambda: -1, said.append, reconnect_seconds=5)

        async def open_through_the_outage():
            nonlocal server
            opening = asyncio.ensure_future(link.open())
            while not said and not opening.done():
                await asyncio.sleep(0.05)
            server = EmbeddedRedis(tmp_path / "redis", port=port).start()  # back: the next c2s.sync is served
            await opening
            await link.close()

        asyncio.run(open_through_the_outage())
    finally:
        gateway.stop()
        audit_redis.close()
        server.stop()
    assert said and "busy" in said[0]
    assert [frame["type"] for frame in absorbed] == ["s2c.snapshot"] and absorbed[0]["role"] == "player"
