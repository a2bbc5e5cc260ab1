"""`arena play`'s new game over HTTP answered `503` after the server made it, or with its answer lost: it asks
again with the same Idempotency-Key, so the game it plays is the one the first request made, and no second
game is made (which would resign the first). Against a real `arena serve`, through an HTTP relay on loopback
that forwards every request and replaces the first new game's answer."""

from __future__ import annotations

import json
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from cli.play_api import Api, PlayError, TokenStore
from services.redis.embedded import free_port

from .test_play_cli import ServeProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    serve_process = ServeProcess(tmp_path_factory.mktemp("play-create"), free_port()).start()
    yield serve_process
    serve_process.stop()


class Relay(ThreadingHTTPServer):
    """Forwards to `upstream`; the first `spoiled` POST /api/games answers are replaced: by a 503, or (`drop`)
    by closing the connection with no answer at all."""

    def __init__(self, upstream: str, spoiled: int, drop: bool = False) -> None:
        super().__init__(("127.0.0.1", 0), RelayHandler)
        self.upstream, self.spoiled, self.drop = upstream, spoiled, drop
        self.keys: list[str | None] = []
        self.made: list[str] = []
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class RelayHandler(BaseHTTPRequestHandler):
    server: Relay

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        self.forward()

    def do_POST(self) -> None:
        self.forward()

    def forward(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0)) or None
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
        request = urllib.request.Request(self.server.upstream + self.path, data=body, method=self.command, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                status, answer = response.status, response.read()
        except urllib.error.HTTPError as exc:
            status, answer = exc.code, exc.read()
        if self.command == "POST" and self.path == "/api/games":
            self.server.keys.append(self.headers.get("Idempotency-Key"))
            if self.server.spoiled:
                self.server.spoiled -= 1
                self.server.made.append(json.loads(answer)["id"])
                if self.server.drop:
                    self.close_connection = True
                    return  # no answer: the client's connection ends
                status, answer = 503, json.dumps({"code": "unavailable", "message": "the store did not answer"}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)


def my_games(server, token: str) -> dict[str, str]:
    request = urllib.request.Request(server.url + "/api/games", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return {game["id"]: game["status"] for game in json.loads(response.read())}


@pytest.mark.parametrize("drop", [False, True], ids=["503", "answer-lost"])
def test_a_new_game_with_no_usable_answer_is_asked_again_with_its_key_and_made_once(server, tmp_path, drop):
    relay = Relay(server.url, spoiled=1, drop=drop)
    try:
        api = Api(relay.url, TokenStore(tmp_path / "tokens.json"))
        created = api.create_game("spider", {"suits": 1}, None)
        assert len(relay.keys) == 2 and relay.keys[0] and relay.keys[0] == relay.keys[1], relay.keys
        assert created["id"] == relay.made[0], "the game the first request made"
        assert my_games(server, api.token) == {created["id"]: "in_progress"}, "no second game"
        relay.spoiled = 3  # every ask unanswered: a clear error, after the repeats
        with pytest.raises(PlayError):
            api.create_game("spider", {"suits": 1}, None)
        assert len(relay.keys) == 5 and len(set(relay.keys[2:])) == 1 and relay.keys[2] != relay.keys[0]
        assert len(my_games(server, api.token)) == 2, "three asks, one game (which abandoned the first)"
    finally:
        relay.shutdown()
        relay.server_close()
