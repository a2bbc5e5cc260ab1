"""Test clients: a guest over HTTP and the `websockets` library, and an audit of every frame.

The audit rebuilds the game from the store at the version a frame names and checks that the frame
shows no card the engine hides from the player at that version, nor the seed or the deal before
the game has ended.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
import msgspec
from websockets.sync.client import ClientConnection, connect

import engine
from services.games.record import read_log, start_state
from services.games.view_delta import applied_json
from services.store.envelope import ENTRY_FIELD, decode_event, log_key


class Audit:
    def __init__(self, redis) -> None:
        self.redis = redis
        self.frames_checked = 0

    def state_at(self, game_id: str, version: int) -> engine.GameState:
        log = read_log([decode_event(fields[ENTRY_FIELD]) for _, fields in self.redis.xrange(log_key(game_id))])
        state = start_state(log.created)  # the undo its kind allows, as the service deals it
        events = log.engine_events()[:version]
        assert len(events) == version, f"frame names version {version}, the log has {log.version}"
        return engine.fold(state, events)

    def check_delta(self, game_id: str, delta: dict[str, Any]) -> None:
        """A delta shows only cards and intents of the game at its version (the whole it stands for is
        checked as well, once the client applied it)."""
        assert delta["game_id"] == game_id
        hidden = engine.hidden_cards(self.state_at(game_id, delta["version"]))
        shown = {card["id"] for pile in delta["piles"] for card in pile["cards"]}
        assert not shown & hidden, f"a delta shows face-down cards {sorted(shown & hidden)}"
        named = {entry["card"] for entry in delta["legal"] if isinstance(entry, dict) and "card" in entry}
        assert not named & hidden, f"a delta's legal move names face-down cards {sorted(named & hidden)}"
        assert not {"seed", "deal", "deal_number"} & set(delta), "a delta never carries the deal"

    def check(self, game_id: str, frame: dict[str, Any]) -> None:
        """A snapshot or an update carries the service's snapshot (a delta's as the client applied it):
        check what it shows."""
        if not frame.get("snapshot"):  # (an acceptance of a move this socket showed already carries none)
            return
        snapshot = frame["snapshot"]
        assert snapshot["game_id"] == game_id
        state = self.state_at(game_id, snapshot["version"])
        hidden = engine.hidden_cards(state)
        shown = {card["id"] for pile in snapshot["view"]["piles"] for card in pile["cards"]}
        assert not shown & hidden, f"frame shows face-down cards {sorted(shown & hidden)}"
        named = {intent["card"] for intent in snapshot["view"]["legal"] if "card" in intent}
        assert not named & hidden, f"a legal move names face-down cards {sorted(named & hidden)}"
        assert snapshot["view"] == json.loads(msgspec.json.encode(engine.player_view(state)))
        # Play has stopped: won, abandoned or lost (even a loss a practice undo could leave). Dailies and
        # races stay secret longer still (their own tests check that); no deal shows while play goes on.
        if state.status == engine.IN_PROGRESS:
            assert snapshot["seed"] is None and snapshot["deal"] is None, "seed or deal shown before the end"
        self.frames_checked += 1


class Socket:
    """One websocket to one game; every frame received is audited. A delta is applied to the snapshot
    last shown, as a client does, and the frame handed on with the whole `snapshot` it stands for (a delta
    that does not follow, a gap, is handed on as it came: the test asks for a sync)."""

    def __init__(self, conn: ClientConnection, game_id: str, audit: Audit) -> None:
        self.conn, self.game_id, self.audit = conn, game_id, audit
        self.shown: dict[str, Any] | None = None  # the snapshot this socket holds, deltas applied
        self.deltas = 0  # deltas received (tests check the server sends them)
        self.raw: dict[str, Any] = {}

    def send(self, frame: dict[str, Any] | str | bytes) -> None:
        self.conn.send(frame if isinstance(frame, (str, bytes)) else json.dumps(frame))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        frame = json.loads(self.conn.recv(timeout=timeout))
        self.raw = dict(frame)  # the frame as the server sent it (a delta's snapshot is added below)
        if frame["type"] == "s2c.new_game":  # the socket moved to a new game: audited as that game's from here
            self.game_id, self.shown = frame["summary"]["id"], None
        if frame.get("delta"):
            self.deltas += 1
            self.audit.check_delta(self.game_id, frame["delta"])
            whole = applied_json(self.shown, frame["delta"]) if self.shown is not None else None
            if whole is not None:
                frame["snapshot"] = whole
        self.audit.check(self.game_id, frame)
        if frame.get("snapshot") and (self.shown is None or frame["snapshot"]["version"] > self.shown["version"]
                                      or frame["type"] == "s2c.snapshot"):
            self.shown = frame["snapshot"]
        return frame

    def recv_until(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        while True:
            frame = self.recv(timeout)
            if frame["type"] == kind:
                return frame

    def move(self, version: int, move: dict[str, Any], move_id: str | None = None) -> dict[str, Any]:
        """Send a move; return its answer (s2c.accepted or s2c.rejected), auditing frames on the way."""
        move_id = move_id or uuid.uuid4().hex
        self.send({"type": "c2s.move", "move_id": move_id, "version": version, "move": move})
        while True:
            frame = self.recv()
            if frame["type"] in ("s2c.accepted", "s2c.rejected") and frame["move_id"] == move_id:
                return frame

    def new_game(self, game: str, variant: dict[str, Any] | None = None, seed: int | None = None,
                 request_id: str | None = None) -> dict[str, Any]:
        """Ask for a new game over this socket (c2s.new_game); its s2c.new_game, or the s2c.error refusing it."""
        frame = {"type": "c2s.new_game", "request_id": request_id or uuid.uuid4().hex, "game": game,
                 "variant": variant, "seed": seed}
        self.send(frame)
        while True:
            answer = self.recv()
            if answer["type"] == "s2c.error" or (answer["type"] == "s2c.new_game"
                                                  and answer["request_id"] == frame["request_id"]):
                return answer

    def close(self) -> None:
        self.conn.close()


class Client:
    def __init__(self, base_url: str, http: httpx.Client, audit: Audit, player_id: str, token: str) -> None:
        self.base_url, self.http, self.audit = base_url, http, audit
        self.player_id, self.token = player_id, token

    @classmethod
    def guest(cls, base_url: str, http: httpx.Client, audit: Audit) -> Client:
        body = http.post("/api/players/guest").raise_for_status().json()
        return cls(base_url, http, audit, body["player_id"], body["token"])

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def create(self, game: str, variant: dict[str, Any] | None = None, seed: int | None = None) -> dict[str, Any]:
        body = {"game": game, "variant": variant, "seed": seed}
        return self.http.post("/api/games", json=body, headers=self.headers).raise_for_status().json()

    def summary(self, game_id: str) -> dict[str, Any]:
        return self.http.get(f"/api/games/{game_id}", headers=self.headers).raise_for_status().json()

    def ticket(self, base_url: str | None = None) -> str:
        """A one-use socket ticket (the token itself never goes in a URL)."""
        url = f"{base_url or self.base_url}/api/tickets"
        return self.http.post(url, headers=self.headers).raise_for_status().json()["ticket"]

    def open(self, game_id: str, base_url: str | None = None, ticket: str | None = None) -> Socket:
        """A socket to the game, authenticated with a fresh ticket from the same server (or `ticket`)."""
        ticket = ticket or self.ticket(base_url)
        ws_url = (base_url or self.base_url).replace("http://", "ws://")
        # Entered as a context manager by hand: the socket outlives this call.
        conn = connect(f"{ws_url}/ws/games/{game_id}?ticket={ticket}", max_size=None).__enter__()
        return Socket(conn, game_id, self.audit)
