"""Race test clients: HTTP calls on a guest (tests/gateway/client.py) and a race socket that keeps
every frame it received, so a test can scan a whole race's frames."""

from __future__ import annotations

import json
import time
from typing import Any

from websockets.sync.client import connect

from tests.gateway.client import Client

CARD_KEYS = {"piles", "cards", "legal", "view", "deal", "card", "stock"}


class RaceWatch:
    def __init__(self, client: Client, race_id: str, base_url: str | None = None) -> None:
        ws_url = (base_url or client.base_url).replace("http://", "ws://")
        ticket = client.ticket(base_url)  # one use, from the server the socket goes to
        # max_queue=None: a socket the test reads only at the end must not hold the server back (backpressure)
        self.conn = connect(f"{ws_url}/ws/races/{race_id}?ticket={ticket}", max_size=None, max_queue=None).__enter__()
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        text = self.conn.recv(timeout=timeout)
        self.raw.append(text)
        frame = json.loads(text)
        self.frames.append(frame)
        return frame

    def until(self, test, timeout: float = 20) -> dict[str, Any]:
        """The first frame (already received or coming) that passes `test`."""
        for frame in self.frames:
            if test(frame):
                return frame
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no such frame in {timeout} s; last: {self.frames[-3:]}")
            frame = self.recv(left)
            if test(frame):
                return frame

    def race_status(self, status: str, timeout: float = 30) -> dict[str, Any]:
        return self.until(lambda f: f["type"] in ("s2c.race", "s2c.race_snapshot") and f["race"]["status"] == status, timeout)

    def close(self) -> None:
        self.conn.close()


def card_keys_in(value: Any) -> set[str]:
    """Every key anywhere in a frame that would carry a card or a pile's contents."""
    found: set[str] = set()
    if isinstance(value, dict):
        found |= CARD_KEYS & set(value)
        for item in value.values():
            found |= card_keys_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_keys_in(item)
    return found


def api(client: Client, method: str, path: str, **kwargs) -> tuple[int, dict[str, Any], str]:
    response = client.http.request(method, path, headers=client.headers, **kwargs)
    return response.status_code, response.json(), response.text
