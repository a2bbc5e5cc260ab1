"""Rate limits against the real server and Redis: HTTP limits per client address (429, Retry-After, the
usual error body), one frame budget per player shared by all of their sockets, and a Redis outage that
the limiter never turns into a 500.

Each test's clients come from their own loopback address (127.x.y.z; Linux routes all of 127/8 to lo),
so the counters in the shared Redis are this test's alone, and "another address" is a real one.
"""

from __future__ import annotations

import secrets
from contextlib import contextmanager

import httpx
import pytest

from services.redis.embedded import EmbeddedRedis
from tests.gateway.client import Client
from tests.gateway.conftest import ServerThread, gateway_settings

pytestmark = pytest.mark.integration

PING = {"type": "c2s.ping"}


def fresh_address() -> str:
    return f"127.{secrets.randbelow(254) + 1}.{secrets.randbelow(254) + 1}.{secrets.randbelow(253) + 2}"


@contextmanager
def from_address(server: ServerThread, address: str | None = None):
    """An HTTP client whose connections come from `address` (a fresh one by default)."""
    transport = httpx.HTTPTransport(local_address=address or fresh_address())
    with httpx.Client(base_url=server.url, transport=transport, timeout=10) as client:
        yield client


@pytest.fixture(scope="module")
def limited(redis_url, tmp_path_factory):
    limits = {"limit_guests": (3, "minute"), "limit_games": (2, "minute"), "limit_tickets": (2, "minute"),
              "limit_sign_in": (2, "minute")}
    server = ServerThread(gateway_settings(redis_url, tmp_path_factory.mktemp("limited"), **limits)).start()
    yield server
    server.stop()


def assert_rate_limited(response: httpx.Response, what: str) -> None:
    assert response.status_code == 429, response.text
    body = response.json()
    assert body["code"] == "rate_limited" and what in body["message"], body
    assert 1 <= int(response.headers["Retry-After"]) <= 60


def test_guest_creation_is_limited_per_address(limited):
    with from_address(limited) as http:
        for _ in range(3):
            assert http.post("/api/players/guest").status_code == 201
        assert_rate_limited(http.post("/api/players/guest"), "guest")
    with from_address(limited) as elsewhere:
        assert elsewhere.post("/api/players/guest").status_code == 201


def test_game_creation_is_limited_per_address_not_per_player(limited):
    address = fresh_address()
    with from_address(limited, address) as http:
        first, second = (http.post("/api/players/guest").json()["token"] for _ in range(2))
        for token in (first, second):
            created = http.post("/api/games", json={"game": "wish"}, headers={"Authorization": f"Bearer {token}"})
            assert created.status_code == 201, created.text
        refused = http.post("/api/games", json={"game": "wish"}, headers={"Authorization": f"Bearer {first}"})
        assert_rate_limited(refused, "game")
        assert http.get("/api/games", headers={"Authorization": f"Bearer {first}"}).status_code == 200  # unlimited
    with from_address(limited) as elsewhere:
        created = elsewhere.post("/api/games", json={"game": "wish"}, headers={"Authorization": f"Bearer {first}"})
        assert created.status_code == 201


@pytest.mark.parametrize("path, what", [("/api/tickets", "ticket"), ("/api/session/refresh", "sign-in")])
def test_tickets_and_token_issuing_are_limited(limited, path, what):
    with from_address(limited) as http:
        headers = {"Authorization": f"Bearer {http.post('/api/players/guest').json()['token']}"}
        for _ in range(2):
            assert http.post(path, headers=headers).status_code == 201
        assert_rate_limited(http.post(path, headers=headers), what)


def test_all_sockets_of_a_player_share_one_frame_budget(redis_url, tmp_path, audit):
    # 10 frames at once and a refill too slow to matter during the test.
    server = ServerThread(gateway_settings(redis_url, tmp_path, rate_per_second=0.001, rate_burst=10)).start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            alice, bob = Client.guest(server.url, http, audit), Client.guest(server.url, http, audit)
            game_id = alice.create("wish", None, 1)["id"]
            sockets = [alice.open(game_id) for _ in range(50)]
            for sock in sockets:
                assert sock.recv()["type"] == "s2c.snapshot"
            answers = []
            for sock in sockets:
                sock.send(PING)
                answers.append(sock.recv())
            kinds = [answer["type"] for answer in answers]
            assert kinds.count("s2c.pong") == 10, kinds
            assert {answer["code"] for answer in answers if answer["type"] == "s2c.error"} == {"rate_limited"}
            watcher = bob.open(game_id)  # another player's budget is their own
            watcher.recv()
            watcher.send(PING)
            assert watcher.recv()["type"] == "s2c.pong"
            for sock in sockets:
                sock.close()
            again = alice.open(game_id)  # closing every socket and opening a new one does not refill it
            again.recv()
            again.send(PING)
            assert again.recv()["code"] == "rate_limited"
            again.close()
            watcher.close()
    finally:
        server.stop()


def test_a_redis_outage_never_becomes_a_500(tmp_path):
    redis = EmbeddedRedis(tmp_path / "redis").start()
    limits = {"limit_guests": (50, "minute"), "limit_games": (50, "minute"), "limit_tickets": (50, "minute")}
    server = ServerThread(gateway_settings(redis.url, tmp_path / "gw", **limits)).start()
    try:
        with httpx.Client(base_url=server.url, timeout=60) as http:
            headers = {"Authorization": f"Bearer {http.post('/api/players/guest').json()['token']}"}
            redis.stop()
            assert http.post("/api/players/guest").status_code == 201  # needs no Redis: the limiter lets it by
            for path, body in [("/api/games", {"game": "wish"}), ("/api/tickets", None)]:
                response = http.post(path, json=body, headers=headers)
                assert response.status_code == 503, (path, response.text)
                assert response.json()["code"] == "unavailable"
    finally:
        server.stop()
        redis.stop()
