"""Tokens and socket tickets against the real server and Redis: expiry, sign-out on every route and
process, refresh, one-use tickets that expire, and a token in a socket URL refused."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from services.identity.tokens import Identity
from tests.gateway.client import Client
from tests.gateway.conftest import SECRET, ServerThread, gateway_settings

pytestmark = pytest.mark.integration

THIRTY_DAYS_MS = 30 * 86_400 * 1000


def refused_socket(server_url: str, game_id: str, query: str) -> str:
    """Open /ws/games/<id>?<query> and return the code of the one s2c.error before the 4401 close."""
    url = server_url.replace("http://", "ws://")
    with connect(f"{url}/ws/games/{game_id}?{query}") as conn:
        error = json.loads(conn.recv(timeout=10))
        assert error["type"] == "s2c.error", error
        with pytest.raises(ConnectionClosed) as closed:
            conn.recv(timeout=10)
        assert closed.value.rcvd.code == 4401
    return error["code"]


def refusal(response: httpx.Response) -> str:
    assert response.status_code == 401, response.text
    return response.json()["code"]


def test_a_guest_token_says_when_it_expires(http):
    body = http.post("/api/players/guest").json()
    assert body["expires_at_ms"] - body["issued_at_ms"] == THIRTY_DAYS_MS
    assert body["issued_at_ms"] <= time.time() * 1000 + 1000


def test_missing_forged_and_old_style_tokens_are_refused(http, alice):
    assert refusal(http.get("/api/games")) == "unauthorized"
    head, payload, signature = alice.token.split(".")
    forged = [f"{head}.{payload}.{signature[::-1]}", f"{alice.player_id}.c2lnbmF0dXJl", "nonsense"]
    for token in forged:
        assert refusal(http.get("/api/games", headers={"Authorization": f"Bearer {token}"})) == "bad_token", token


def test_an_expired_token_is_refused(http, gateway):
    an_hour_ago = time.time() - 3600
    issued = Identity(SECRET.encode(), ttl_seconds=60, clock=lambda: an_hour_ago).new_guest()
    headers = {"Authorization": f"Bearer {issued.token}"}
    assert refusal(http.get("/api/games", headers=headers)) == "token_expired"
    assert refusal(http.post("/api/tickets", headers=headers)) == "token_expired"
    assert refusal(http.post("/api/session/refresh", headers=headers)) == "token_expired"
    fresh = Identity(SECRET.encode(), ttl_seconds=60).token_for(issued.player_id)  # same player, same secret
    assert http.get("/api/games", headers={"Authorization": f"Bearer {fresh.token}"}).status_code == 200


def test_sign_out_ends_the_token_on_every_route_and_process(gateway, redis_url, tmp_path, http, alice):
    game_id = alice.create("wish", None, 4)["id"]
    ticket = alice.ticket()  # taken before signing out
    other = ServerThread(gateway_settings(redis_url, tmp_path)).start()  # a second gateway on the same Redis
    try:
        assert http.post("/api/session/sign-out", headers=alice.headers).status_code == 204
        for server in (gateway, other):
            for method, path in [("GET", "/api/games"), ("GET", f"/api/games/{game_id}"), ("POST", "/api/games"),
                                 ("POST", "/api/tickets"), ("POST", "/api/session/refresh"),
                                 ("POST", "/api/session/sign-out")]:
                body = {"game": "wish"} if path == "/api/games" and method == "POST" else None
                response = http.request(method, server.url + path, json=body, headers=alice.headers)
                assert refusal(response) == "token_revoked", (server.url, method, path)
        assert refused_socket(gateway.url, game_id, f"ticket={ticket}") == "token_revoked"
    finally:
        other.stop()


def test_refresh_gives_a_new_token_and_sign_out_ends_both(http, alice):
    body = http.post("/api/session/refresh", headers=alice.headers).json()
    assert body["player_id"] == alice.player_id and body["token"] != alice.token
    assert body["expires_at_ms"] - body["issued_at_ms"] == THIRTY_DAYS_MS
    renewed = {"Authorization": f"Bearer {body['token']}"}
    assert http.get("/api/games", headers=renewed).status_code == 200
    assert http.get("/api/games", headers=alice.headers).status_code == 200  # the old one lives out its time
    assert http.post("/api/session/sign-out", headers=renewed).status_code == 204
    assert refusal(http.get("/api/games", headers=alice.headers)) == "token_revoked"
    assert refusal(http.get("/api/games", headers=renewed)) == "token_revoked"


def test_a_ticket_opens_one_socket_once(gateway, alice):
    game_id = alice.create("wish", None, 6)["id"]
    ticket = alice.ticket()
    sock = alice.open(game_id, ticket=ticket)
    assert sock.recv()["role"] == "player"
    assert refused_socket(gateway.url, game_id, f"ticket={ticket}") == "bad_ticket"
    assert refused_socket(gateway.url, game_id, "ticket=made-up") == "bad_ticket"
    sock.close()


def test_a_ticket_is_good_only_for_its_lifetime(redis_url, tmp_path, http, audit):
    server = ServerThread(gateway_settings(redis_url, tmp_path, ticket_ttl_seconds=0.2)).start()
    try:
        player = Client.guest(server.url, http, audit)
        game_id = player.create("wish", None, 7)["id"]
        answer = http.post(f"{server.url}/api/tickets", headers=player.headers).json()
        assert answer["expires_in_ms"] == 200
        time.sleep(0.5)  # well past its 200 ms
        assert refused_socket(server.url, game_id, f"ticket={answer['ticket']}") == "bad_ticket"
        sock = player.open(game_id, server.url)  # a fresh one works
        assert sock.recv()["type"] == "s2c.snapshot"
        sock.close()
    finally:
        server.stop()


def test_a_token_in_the_socket_url_is_refused(gateway, alice):
    game_id = alice.create("wish", None, 8)["id"]
    assert refused_socket(gateway.url, game_id, f"token={alice.token}") == "token_in_url"
    assert refused_socket(gateway.url, game_id, f"ticket={alice.ticket()}&token={alice.token}") == "token_in_url"
    assert refused_socket(gateway.url, game_id, "") == "unauthorized"
