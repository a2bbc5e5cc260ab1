"""Games played through the server's own HTTP and websocket API (as `arena play` or any client
would), to set up what a browser test then looks at: a won or a lost game to replay."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import httpx
import msgspec
from websockets.sync.client import connect


def as_json(value: Any) -> Any:
    return json.loads(msgspec.json.encode(value))


class ApiPlayer:
    """A guest (a fresh one, or the browser's own token) playing over HTTP and the socket."""

    def __init__(self, base_url: str, token: str | None = None) -> None:
        self.base_url = base_url
        with httpx.Client(base_url=base_url, timeout=10) as http:
            if token is None:
                token = http.post("/api/players/guest").raise_for_status().json()["token"]
        self.token = token

    def create(self, game: str, variant: dict | None, seed: int | None = None) -> str:
        with httpx.Client(base_url=self.base_url, timeout=10) as http:
            body = {"game": game, "variant": variant, "seed": seed}
            headers = {"Authorization": f"Bearer {self.token}"}
            return http.post("/api/games", json=body, headers=headers).raise_for_status().json()["id"]

    def play(self, game_id: str, moves: list, pause_s: float = 0) -> None:
        """Open the game (the first look starts its clock) and make each move, waiting for its answer;
        `pause_s` between moves spreads a game over time (a ghost to race that is not over at once)."""
        with httpx.Client(base_url=self.base_url, timeout=10) as http:
            headers = {"Authorization": f"Bearer {self.token}"}
            ticket = http.post("/api/tickets", headers=headers).raise_for_status().json()["ticket"]
        url = self.base_url.replace("http://", "ws://") + f"/ws/games/{game_id}?ticket={ticket}"
        with connect(url, max_size=None) as sock:
            version = json.loads(sock.recv(timeout=10))["snapshot"]["version"]
            for move in moves:
                time.sleep(pause_s)
                move_id = uuid.uuid4().hex
                sock.send(json.dumps({"type": "c2s.move", "move_id": move_id, "version": version, "move": as_json(move)}))
                while True:
                    frame = json.loads(sock.recv(timeout=10))
                    if frame.get("move_id") == move_id:
                        break
                assert frame["type"] == "s2c.accepted", frame
                version += 1

    def game(self, game: str, variant: dict | None, seed: int, moves: list) -> str:
        game_id = self.create(game, variant, seed)
        self.play(game_id, moves)
        return game_id
