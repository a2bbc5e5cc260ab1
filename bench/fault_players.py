"""Players for the fault runs, as a person's client behaves: play on; when the socket closes or a gateway
does not answer, take a ticket from another gateway and open the game again; after `unavailable`, send the
same move again with the same move id (the server stores a move once, whatever the retries).

- `casual_player` plays chosen winnable Wish deals from the solver's line (practice games: every one is a
  win for the validator); `daily_player` plays today's Wish daily as a new guest each time, and `race_pair`
  races two new guests (one on each gateway) on a Wish deal, both first legal move first (`WORKLOADS`).
Every acknowledged move and every interruption goes into the run's Journal.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Awaitable, Callable

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

import engine
from engine.solver import solve

from .fault_system import Journal

WISH_OPEN = {"mode": "open"}
PACE_S = 0.03  # between two moves of one player: a brisk human, not a flood
RETRY_S = 0.2
GIVE_UP_S = 120.0  # a player that cannot move this long stops (the run reports it as not resumed)


class Stuck(Exception):
    """No gateway let this player go on for GIVE_UP_S."""


def stuck(session: Session, what: str) -> Stuck:
    """Stuck, saying what the player met last (the causes of its last interruptions), so a run that fails
    this way tells why without another run."""
    met = [why for _, who, why in session.journal.causes if who == session.name][-4:]
    return Stuck(f"{session.name}: {what}; it met last: {', '.join(met) or 'no interruption'}")


def run_over(stop: asyncio.Event, *sessions: Session) -> bool:
    """Whether these players stop now: the run has ended and each has moved since its last interruption. One
    interrupted near the end (a race set up again, a game found over on reopening) plays on until it moves
    again, so the table can say of every interrupted player that it went on; one that cannot is Stuck."""
    if not stop.is_set():
        return False
    waiting = [session for session in sessions if not session.journal.went_on(session.name)]
    now = asyncio.get_running_loop().time()
    for session in waiting:
        session.stopped_at = session.stopped_at or now
        if now - session.stopped_at > GIVE_UP_S:
            raise stuck(session, "did not move again after its last interruption")
    return not waiting


class Session:
    """One player: a token, and the gateway it is on now (the next one when that one fails)."""

    def __init__(self, name: str, urls: list[str], home: int, journal: Journal) -> None:
        self.name, self.urls, self.journal, self.home = name, urls, journal, home
        self.order = itertools.cycle(urls[home:] + urls[:home])
        self.url = next(self.order)
        self.token = ""
        self.stopped_at = 0.0  # when the run ended while this player waited to move again (run_over)
        self.reopen_why = ""  # why _moves gave up on its socket without a status

    def failover(self, why: str = "") -> None:
        self.journal.interrupted(self.name, "reconnect", why)
        self.url = next(self.order)

    async def http(self, method: str, path: str, **kwargs) -> dict:
        deadline = asyncio.get_running_loop().time() + GIVE_UP_S
        while True:
            try:
                async with httpx.AsyncClient(base_url=self.url, timeout=10) as http:
                    headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
                    response = await http.request(method, path, headers=headers, **kwargs)
                if response.status_code < 500:
                    return response.raise_for_status().json()
                why = f"http {response.status_code}"
            except httpx.TransportError as exc:
                why = f"http: {type(exc).__name__}"
            if asyncio.get_running_loop().time() > deadline:
                raise stuck(self, f"{method} {path} never answered")
            self.failover(why)
            await asyncio.sleep(RETRY_S)

    async def sign_in(self) -> None:
        self.token = ""
        self.token = (await self.http("POST", "/api/players/guest"))["token"]

    async def play(self, game_id: str, choose: Callable[[dict, int], dict | None]) -> str:
        """Play `game_id` to its end with `choose(view, version)` (None: stop); the game's last status."""
        deadline = asyncio.get_running_loop().time() + GIVE_UP_S
        while True:
            if asyncio.get_running_loop().time() > deadline:
                raise stuck(self, f"game {game_id} could not be played on")
            ticket = (await self.http("POST", "/api/tickets"))["ticket"]
            ws_url = self.url.replace("http://", "ws://") + f"/ws/games/{game_id}?ticket={ticket}"
            try:
                async with connect(ws_url, open_timeout=10, max_size=None) as conn:
                    status = await self._moves(conn, game_id, choose)
                    if status is not None:
                        return status
            # InvalidHandshake: refused (InvalidStatus), or no valid answer to the upgrade at all
            # (InvalidMessage: the gateway died mid-handshake, as kill -9 leaves it).
            except (TimeoutError, ConnectionClosed, InvalidHandshake, OSError) as exc:
                self.failover(f"socket: {type(exc).__name__}")
                await asyncio.sleep(RETRY_S)
                continue
            self.failover(self.reopen_why)
            await asyncio.sleep(RETRY_S)

    async def _moves(self, conn, game_id: str, choose) -> str | None:
        first = json.loads(await asyncio.wait_for(conn.recv(), 10))
        if first["type"] != "s2c.snapshot":
            self.reopen_why = f"socket: refused ({first.get('code', first['type'])})"
            return None  # refused (unavailable): open again
        snapshot = first["snapshot"]
        version, view = snapshot["version"], snapshot["view"]
        while True:
            if view["status"] != "in_progress":
                return view["status"]
            move = choose(view, version)
            if move is None:
                return view["status"]
            move_id = f"{game_id}-{version}"
            frame = json.dumps({"type": "c2s.move", "move_id": move_id, "version": version, "move": move})
            answer = await self._answer(conn, frame, move_id)
            if answer["type"] == "s2c.rejected":
                self.reopen_why = f"move rejected ({answer.get('code')})"
                return None  # stale: another socket moved it on; open again for the current version
            version = answer["version"]
            self.journal.ack(self.name, game_id, version, move_id)
            if answer.get("snapshot") is None:
                self.reopen_why = "accepted again without a snapshot"
                return None  # a retry of a move this socket showed already: open again for the current version
            view = answer["snapshot"]["view"]  # the acceptance carries the game after the move
            await asyncio.sleep(PACE_S)

    async def _answer(self, conn, frame: str, move_id: str) -> dict:
        while True:
            await conn.send(frame)
            got = await _next(conn, {"s2c.accepted", "s2c.rejected", "s2c.error"},
                              lambda f: f["type"] == "s2c.error" or f.get("move_id") == move_id)
            if got["type"] != "s2c.error":
                return got
            if got["code"] != "unavailable":
                raise ConnectionClosed(None, None)  # not a move this client sends: open the game again
            self.journal.interrupted(self.name, "unavailable")
            await asyncio.sleep(RETRY_S)


async def _next(conn, kinds: set[str], wanted) -> dict:
    while True:
        frame = json.loads(await asyncio.wait_for(conn.recv(), 30))
        if frame["type"] in kinds and wanted(frame):
            return frame


def winnable_lines(count: int, start: int = 1) -> list[tuple[int, list[dict]]]:
    """`count` winnable open Wish deals and their solver lines, as wire moves."""
    found = []
    for seed in itertools.count(start):
        result = solve(engine.initial_state("wish", WISH_OPEN, seed))
        if result.winnable:
            found.append((seed, [{"type": "pair", "a": step.a, "b": step.b} for step in result.line]))
            if len(found) == count:
                return found


async def casual_player(session: Session, lines: list[tuple[int, list[dict]]], stop: asyncio.Event) -> None:
    await session.sign_in()
    for seed, line in itertools.cycle(lines):
        if run_over(stop, session):
            return
        game = await session.http("POST", "/api/games", json={"game": "wish", "variant": WISH_OPEN, "seed": seed})
        status = await session.play(game["id"], lambda view, version: line[version] if version < len(line) else None)
        if status == "won":
            session.journal.wins[game["id"]] = session.journal.phase


async def daily_player(session: Session, stop: asyncio.Event) -> None:
    """A new guest each attempt (one attempt per player and challenge), first legal move every time."""
    while not run_over(stop, session):
        await session.sign_in()
        cards = (await session.http("GET", "/api/dailies"))["today"]["challenges"]
        today = [card for card in cards if card["challenge"]["status"] == "open"]
        if not today:
            await asyncio.sleep(0.5)  # the scheduler has not prepared today's challenge yet
            continue
        key = today[0]["challenge"]["challenge"]
        game = await session.http("POST", f"/api/dailies/{key}/attempt")
        status = await session.play(game["id"], lambda view, version: first_move(view))
        if status == "won":
            session.journal.wins[game["id"]] = session.journal.phase


def first_move(view: dict) -> dict | None:
    moves = [move for move in view["legal"] if move["type"] != "resign"]
    return moves[0] if moves else None


RACE = {"game": "wish", "variant": {"mode": "standard"}, "seats": 2, "time_limit_ms": 60_000}


async def race_pair(host: Session, stop: asyncio.Event) -> None:
    """Two new guests race each other, one on this gateway and one on the next: the host creates the race,
    the rival joins by its code, both say ready; after the countdown each plays its own game of the race's deal
    (first legal move first), through faults like everyone else."""
    rival = Session(f"{host.name}-rival", host.urls, (host.home + 1) % len(host.urls), host.journal)
    while not run_over(stop, host, rival):
        await host.sign_in()
        await rival.sign_in()
        try:
            race = await host.http("POST", "/api/races", json=RACE)
            await rival.http("POST", f"/api/races/join/{race['code']}")
        except httpx.HTTPStatusError:
            # Refused, after an answer lost to a fault: a create sent again finds its host in the race the
            # first one made (in_another_race), a join sent again its seat taken. New guests, a new race.
            continue
        games = await _started((host, rival), race["race_id"])
        if games is None:
            continue
        results = await asyncio.gather(*(racer.play(game, lambda view, version: first_move(view))
                                         for racer, game in zip((host, rival), games)))
        for game, status in zip(games, results):
            if status == "won":
                host.journal.wins[game] = host.journal.phase


async def _started(racers: tuple[Session, Session], race_id: str) -> list[str] | None:
    """Both say ready (again while the race waits in its lobby: an answer lost to a fault); the racers' game
    ids once the start signal has given them, host first; None if the race ended without them. Stuck if it
    neither starts nor ends within GIVE_UP_S (its countdown takes seconds)."""
    deadline = asyncio.get_running_loop().time() + GIVE_UP_S
    while True:
        if asyncio.get_running_loop().time() > deadline:
            raise stuck(racers[0], f"race {race_id} neither started nor ended")
        race = await racers[0].http("GET", f"/api/races/{race_id}")
        games = [racer["game_id"] for racer in race["racers"]]
        if len(games) == 2 and all(games):
            return games
        if race["status"] in ("ended", "final"):
            return None
        if race["status"] == "lobby":
            for racer in racers:
                try:
                    await racer.http("POST", f"/api/races/{race_id}/ready", json={"ready": True})
                except httpx.HTTPStatusError:
                    pass  # the countdown began meanwhile
        await asyncio.sleep(0.25)


# The kinds of players beside the casual ones, one of each per gateway: (name, coroutine factory).
WORKLOADS: list[tuple[str, Callable[[Session, asyncio.Event], Awaitable[None]]]] = [
    ("daily", daily_player), ("race", race_pair),
]
