"""The bench's players: a guest with one game socket, playing random legal moves.

A move is done when the client holds the view after it: from the `s2c.accepted` that carries it (the
mover's one frame since the acceptance carries the new view, whole or as a delta it applies), or from the
`s2c.update` that followed a bare acceptance (older servers, which a `--against` baseline may be). Both are
timed the same way. Each player counts the bytes of the frame that brought its move, and what those frames
would be on the wire with permessage-deflate (a deflate stream per socket, its context kept from frame to
frame, as the extension does by default).
"""

from __future__ import annotations

import asyncio
import random
import time
import zlib

import httpx
import msgspec
from websockets.asyncio.client import connect

from services.games.view_delta import applied_json

from .gateway_server import Server

decode = msgspec.json.Decoder().decode  # the client's share of the shared CPU, kept small
encode = msgspec.json.Encoder().encode


class Player:
    game, variant = "spider", {"suits": 1}  # a long game: steady play, few re-creations (--game changes it)
    compression: str | None = None  # "deflate": offer permessage-deflate (--deflate)

    def __init__(self, server: Server, http: httpx.AsyncClient, number: int = 0) -> None:
        self.server, self.http = server, http
        self.token = self.ws = self.game_id = None
        self.version, self.view = 0, None
        self.frame_bytes: list[int] = []  # the frame that brought each move's view, as sent
        self.deflated_bytes: list[int] = []  # the same, as permessage-deflate would send it
        self.deflater = None
        # Named deals, the same for the same player number on every server of a run: with the same random
        # choices (seeded by number too) each server gets the same moves and the same new games to make.
        self.number, self.games = number, 0

    async def start(self) -> Player:
        self.token = (await self.post("/api/players/guest")).json()["token"]
        await self.new_game()
        return self

    async def post(self, path: str, **kwargs) -> httpx.Response:
        """A set-up request, tried again when a kept-alive connection was closed under it (the server
        closes idle ones after 5 s, which a request queued on a busy machine may just miss)."""
        for attempt in range(3):
            try:
                return (await self.http.post(path, **kwargs)).raise_for_status()
            except httpx.TransportError:
                if attempt == 2:
                    raise
                await asyncio.sleep(0.5)
        raise AssertionError("unreachable")

    async def ticket(self) -> str:
        answer = await self.post("/api/tickets", headers={"Authorization": f"Bearer {self.token}"})
        return answer.json()["ticket"]

    async def new_game(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        self.games += 1
        body = {"game": self.game, "variant": self.variant, "seed": self.number * 1_000 + self.games}
        created = await self.post("/api/games", json=body, headers={"Authorization": f"Bearer {self.token}"})
        self.game_id = created.json()["id"]
        # A new game comes with a ticket for its first socket (an older server's does not: ask for one).
        ticket = created.json().get("ticket") or await self.ticket()
        url = f"{self.server.ws}/ws/games/{self.game_id}?ticket={ticket}"
        self.ws = await connect(url, compression=self.compression, max_size=None)
        first = await self.ws.recv()
        # permessage-deflate's defaults here: a 4 KB window (12 bits) at memory level 5, context taken over.
        self.deflater = zlib.compressobj(6, zlib.DEFLATED, -12, 5)
        self.deflate(first)
        self.snapshot = decode(first)["snapshot"]
        self.version, self.view = self.snapshot["version"], self.snapshot["view"]

    async def next_game(self) -> bool:
        """The next game over the socket already open (c2s.new_game): no HTTP request, ticket or handshake.
        False when the server does not know the frame (an older server: a `--against` baseline may be one)."""
        self.games += 1
        frame = {"type": "c2s.new_game", "request_id": f"{self.number}-{self.games}", "game": self.game,
                 "variant": self.variant, "seed": self.number * 1_000 + self.games}
        await self.ws.send(encode(frame))
        while True:
            answer = decode(await self.ws.recv())
            if answer["type"] == "s2c.new_game":
                break
            if answer["type"] == "s2c.error":
                if answer["code"] == "bad_frame":
                    return False
                raise RuntimeError(f"a new game over the socket was refused: {answer}")
        self.game_id, self.snapshot = answer["summary"]["id"], answer["snapshot"]
        self.version, self.view = self.snapshot["version"], self.snapshot["view"]
        return True

    def deflate(self, frame: bytes | str) -> int:
        data = frame.encode() if isinstance(frame, str) else frame
        return len(self.deflater.compress(data) + self.deflater.flush(zlib.Z_SYNC_FLUSH)) - 4  # (less the tail)

    async def move(self, rng: random.Random, *, new_game_at_end: bool = True) -> float | None:
        """One random legal move; its latency (sent to the new view received), or None if the game is over
        (and a new one began, unless `new_game_at_end` is false: then a game with no move left is resigned)."""
        # Undo and resign are listed too; a random resign would end the game at once.
        moves = [move for move in self.view["legal"] if move["type"] not in ("undo", "resign")]
        if self.view["status"] != "in_progress" or (not moves and new_game_at_end):
            if new_game_at_end:
                await self.new_game()
            return None
        moves = moves or [{"type": "resign"}]
        frame = {"type": "c2s.move", "move_id": f"{self.game_id}-{self.version}", "version": self.version,
                 "move": rng.choice(moves)}
        started = time.perf_counter()
        await self.ws.send(encode(frame))
        while True:
            raw = await self.ws.recv()
            answer = decode(raw)
            kind = answer["type"]
            if kind == "s2c.rejected":
                raise RuntimeError(f"a legal move was rejected: {answer}")
            snapshot = answer.get("snapshot") if kind in ("s2c.accepted", "s2c.update") else None
            if answer.get("delta") is not None:
                snapshot = applied_json(self.snapshot, answer["delta"])
            if snapshot is not None and snapshot["version"] == self.version + 1:
                self.frame_bytes.append(len(raw))
                self.deflated_bytes.append(self.deflate(raw))
                self.snapshot, self.version, self.view = snapshot, snapshot["version"], snapshot["view"]
                return time.perf_counter() - started


async def start_players(server: Server, http: httpx.AsyncClient, count: int, *, first: int = 0,
                        at_once: int = 25) -> list[Player]:
    """`count` players of `server` numbered from `first`, `at_once` set up concurrently (not measured)."""
    players: list[Player] = []
    while len(players) < count:
        wave = range(first + len(players), first + min(len(players) + at_once, count))
        players += await asyncio.gather(*(Player(server, http, number).start() for number in wave))
    return players
