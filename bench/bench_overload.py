"""Overload: bursts of sockets and of HTTP reads on one `arena serve` process, counted by outcome.

Every socket should get its snapshot or `s2c.error unavailable` (and stay open), every request a 2xx or a
503 with Retry-After, and a player's move in the middle of a burst should be stored (at once, or on a retry
with its move id after `unavailable`). The figures printed: sockets served / told unavailable / closed,
requests by status, and how the bystander's move went. tests/gateway/test_overload.py runs one short round
with these same helpers; `python -m bench overload` runs bigger ones. Nothing here asserts about time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

SERVED, UNAVAILABLE = "snapshot", "unavailable"


def tickets_for(base_url: str, targets: list[tuple[str, str]], count: int) -> list[tuple[str, str]]:
    """A one-use socket ticket per socket to open: (game id, ticket), fetched before the burst."""
    out = []
    with httpx.Client(base_url=base_url, timeout=60) as http:
        for n in range(count):
            game_id, token = targets[n % len(targets)]
            got = post_until_served(http, "/api/tickets", headers={"Authorization": f"Bearer {token}"})
            out.append((game_id, got.json()["ticket"]))
    return out


async def open_one(ws_url: str, game_id: str, ticket: str, timeout: float) -> tuple[str, ClientConnection | None]:
    """Open a game socket and read its first frame: ("snapshot" | "unavailable" | what went wrong, the socket).
    A socket whose ticket could not be checked (Redis too busy) is told `unavailable` and closed "try again
    later" (1013): counted as unavailable, with no socket kept."""
    try:
        conn = await connect(f"{ws_url}/ws/games/{game_id}?ticket={ticket}", open_timeout=timeout, max_size=None)
    except Exception as exc:  # noqa: BLE001  counted: a refused or failed handshake is an outcome too
        return f"no handshake: {type(exc).__name__}", None
    try:
        frame = json.loads(await asyncio.wait_for(conn.recv(), timeout))
    except ConnectionClosed as exc:
        return f"closed {exc.rcvd.code if exc.rcvd else 'without a close frame'}", None
    except Exception as exc:  # noqa: BLE001
        await conn.close()
        return f"no first frame: {type(exc).__name__}", None
    if frame["type"] == "s2c.snapshot":
        return SERVED, conn
    if frame["type"] == "s2c.error" and frame["code"] == UNAVAILABLE:
        try:
            await asyncio.wait_for(conn.recv(), 0.2)  # a refused ticket is followed by the close
        except ConnectionClosed:
            return UNAVAILABLE, None
        except TimeoutError:
            pass  # the socket stays open: a c2s.sync will bring the snapshot
        return UNAVAILABLE, conn
    await conn.close()
    return f"{frame['type']} {frame.get('code', '')}".strip(), None


async def socket_burst(
    ws_url: str, targets: list[tuple[str, str]], count: int, *, timeout: float = 120,
    halfway: asyncio.Event | None = None,
) -> tuple[Counter, list[tuple[str, ClientConnection]]]:
    """`count` sockets opened at once over `targets` (game id, ticket: one each); outcomes counted, open
    sockets returned."""
    started = 0

    async def one(n: int):
        nonlocal started
        game_id, token = targets[n]
        started += 1
        if halfway is not None and started >= count // 2:
            halfway.set()
        return await open_one(ws_url, game_id, token, timeout)

    results = await asyncio.gather(*(one(n) for n in range(count)))
    return Counter(outcome for outcome, _ in results), [(o, c) for o, c in results if c is not None]


async def http_get(host: str, port: int, path: str, token: str) -> tuple[int, dict[str, str], bytes]:
    """One GET on its own connection, by hand: a full HTTP client per request would cost the shared CPU more
    than the server's answer."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
            "Connection: close\r\n\r\n".encode()
        )
        data = await reader.read()
    finally:
        writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict((k.strip().lower(), v.strip()) for k, _, v in (line.partition(":") for line in lines[1:]))
    return int(lines[0].split()[1]), headers, body


def classify(status: int, headers: dict[str, str], body: bytes) -> str:
    """The status, or what is wrong with a 503 (it must say when to come back and carry the error body)."""
    if status != 503:
        return str(status)
    try:
        code = json.loads(body).get("code")
    except ValueError:
        code = None
    if "retry-after" not in headers or code != UNAVAILABLE:
        return f"503 without Retry-After or the unavailable body: {headers} {body[:200]!r}"
    return "503"


async def read_burst(base_url: str, path: str, token: str, count: int, answered=lambda outcome: None) -> Counter:
    """`count` GETs of `path` at once, counted by outcome; `answered(outcome)` is called as each one ends."""
    parts = urlsplit(base_url)

    async def one() -> str:
        try:
            outcome = classify(*await http_get(parts.hostname, parts.port, path, token))
        except Exception as exc:  # noqa: BLE001  counted: a dropped connection is an outcome too
            outcome = f"no answer: {type(exc).__name__}"
        answered(outcome)
        return outcome

    return Counter(await asyncio.gather(*(one() for _ in range(count))))


def view_of(frame: dict) -> dict:
    return frame["snapshot"]["view"]


async def recv_type(conn: ClientConnection, kinds: set[str], timeout: float = 120) -> dict:
    while True:
        frame = json.loads(await asyncio.wait_for(conn.recv(), timeout))
        if frame["type"] in kinds:
            return frame


async def move_until_stored(conn: ClientConnection, version: int, move: dict, attempts: int = 20,
                            answered: list[dict] | None = None) -> list[str]:
    """Send one move; after `unavailable` send it again with the same move id. Returns the answers in order
    (and appends the final answer frame to `answered`: an acceptance carries the game after the move)."""
    move_id = uuid.uuid4().hex
    frame = json.dumps({"type": "c2s.move", "move_id": move_id, "version": version, "move": move})
    answers = []
    for _ in range(attempts):
        await conn.send(frame)
        while True:
            got = await recv_type(conn, {"s2c.accepted", "s2c.rejected", "s2c.error"})
            if got["type"] == "s2c.error" or got["move_id"] == move_id:
                break
        answers.append(got["type"] if got["type"] != "s2c.error" else got["code"])
        if got["type"] != "s2c.error":
            if answered is not None:
                answered.append(got)
            return answers
        await asyncio.sleep(0.5)  # let the burst drain before the retry
    return answers


class ServeProcess:
    """`arena serve` as a child process on `redis_url`; its output is read all along (and kept)."""

    def __init__(self, redis_url: str | None, data_dir: Path, env: dict[str, str] | None = None) -> None:
        no_limits = {name: "off" for name in ("ARENA_LIMIT_GUESTS", "ARENA_LIMIT_GAMES", "ARENA_LIMIT_TICKETS")}
        env = {**os.environ, "ARENA_DATA_DIR": str(data_dir), **no_limits, **(env or {})}
        env.pop("REDIS_URL", None)
        if redis_url is not None:
            env["REDIS_URL"] = redis_url
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--port", "0"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        self.lines: list[str] = []
        found = None
        for line in self.process.stdout:
            self.lines.append(line)
            found = re.search(r"http://[\d.]+:\d+", line)
            if found:
                break
        if not found:
            self.process.kill()
            raise RuntimeError(f"arena serve did not start: {''.join(self.lines)}")
        self.url = found.group(0)
        self.ws_url = self.url.replace("http://", "ws://")
        # A pipe nobody reads fills up and stops the server at its next log line.
        self.reader = threading.Thread(target=lambda: self.lines.extend(self.process.stdout), daemon=True)
        self.reader.start()

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.terminate()
        try:
            return self.process.wait(30)
        finally:
            self.reader.join(5)
            self.process.stdout.close()


REOPEN_TRIES = 5


def post_until_served(http: httpx.Client, path: str, **kwargs) -> httpx.Response:
    """A set-up request, sent again after its Retry-After while the server says 503 (a starved pool on a
    loaded machine may refuse even these, as it should); anything else but success is raised."""
    for _ in range(50):
        response = http.post(path, **kwargs)
        if response.status_code != 503:
            return response.raise_for_status()
        time.sleep(min(float(response.headers.get("retry-after", 1)), 1.0))
    return response.raise_for_status()


def guests_with_games(base_url: str, games: int) -> list[tuple[str, str]]:
    """`games` guests, each with a fresh game: (game id, owner token)."""
    targets = []
    with httpx.Client(base_url=base_url, timeout=60) as http:
        for _ in range(games):
            token = post_until_served(http, "/api/players/guest").json()["token"]
            body = {"game": "wish", "variant": {"mode": "open"}, "seed": len(targets) + 1}
            game = post_until_served(http, "/api/games", json=body, headers={"Authorization": f"Bearer {token}"})
            targets.append((game.json()["id"], token))
    return targets


async def overload_round(server: ServeProcess, sockets: int, waves: int, per_wave: int, games: int = 40) -> dict:
    """One round: a bystander plays through a socket burst and through waves of HTTP reads."""
    targets = guests_with_games(server.url, games + 1)
    (own_game, own_token), watched = targets[0], targets[1:]
    [(_, own_ticket)] = tickets_for(server.url, [targets[0]], 1)
    player = await connect(f"{server.ws_url}/ws/games/{own_game}?ticket={own_ticket}", max_size=None)
    view = view_of(await recv_type(player, {"s2c.snapshot"}))
    halfway = asyncio.Event()
    tickets = await asyncio.to_thread(tickets_for, server.url, watched, sockets)
    burst = asyncio.ensure_future(socket_burst(server.ws_url, tickets, sockets, halfway=halfway))
    await halfway.wait()
    answered: list[dict] = []
    first_move = await move_until_stored(player, 0, view["legal"][0], answered=answered)
    socket_outcomes, opened = await burst
    if answered and answered[-1].get("snapshot"):
        view = view_of(answered[-1])  # the acceptance carried the game after the move
    else:  # rejected, or a retry this socket had shown: the game as it is now
        await player.send(json.dumps({"type": "c2s.sync", "version": 0}))
        view = view_of(await recv_type(player, {"s2c.snapshot"}))
    resynced = Counter()
    told = socket_outcomes[UNAVAILABLE]
    for outcome, conn in opened:
        if outcome == UNAVAILABLE:  # the socket stayed open: a c2s.sync gets the snapshot now
            try:
                await conn.send(json.dumps({"type": "c2s.sync", "version": 0}))
                resynced[(await recv_type(conn, {"s2c.snapshot", "s2c.error"}))["type"]] += 1
                told -= 1
            except ConnectionClosed:
                pass  # closed "try again later" after all: opened again below
    # Sockets closed "try again later" (their ticket could not be checked) come back with a new ticket, and
    # again while they are told so, as the web client does (a loaded machine may refuse a reopen too).
    for _ in range(REOPEN_TRIES):
        refused = 0
        for game_id, ticket in await asyncio.to_thread(tickets_for, server.url, watched, told):
            outcome, conn = await open_one(server.ws_url, game_id, ticket, 120)
            if outcome == UNAVAILABLE:
                refused += 1
            else:
                resynced["s2c.snapshot" if outcome == SERVED else outcome] += 1
            if conn is not None:
                await conn.close()
        if not (told := refused):
            break
        await asyncio.sleep(0.5)
    if told:
        resynced[UNAVAILABLE] += told  # still refused after every try: the test says so
    http_outcomes: Counter = Counter()
    second_move: list[str] = []
    path = f"/api/games/{watched[0][0]}"
    for wave in range(waves):
        reads = asyncio.ensure_future(read_burst(server.url, path, watched[0][1], per_wave))
        if wave == waves // 2:
            await asyncio.sleep(0)  # the reads' connects are under way
            second_move = await move_until_stored(player, 1, view["legal"][0])
        http_outcomes += await reads
    for _, conn in opened:
        await conn.close()
    await player.close()
    with httpx.Client(base_url=server.url, timeout=60) as http:
        summary = http.get(f"/api/games/{own_game}", headers={"Authorization": f"Bearer {own_token}"}).json()
    return {
        "sockets": socket_outcomes, "resynced": resynced, "http": http_outcomes,
        "moves": (first_move, second_move), "stored_version": summary["version"],
    }


def report(result: dict) -> None:
    sockets = result["sockets"]
    total = sum(sockets.values())
    others = {k: v for k, v in sockets.items() if k not in (SERVED, UNAVAILABLE)} or "none"
    print(f"   sockets: {total} opened at once: {sockets[SERVED]} served ({sockets[SERVED] / total:.0%}), "
          f"{sockets[UNAVAILABLE]} told unavailable, other outcomes {others}")
    print(f"   the unavailable ones after a c2s.sync: {dict(result['resynced']) or 'none needed'}")
    print(f"   requests by status: {dict(sorted(result['http'].items()))}")
    first, second = result["moves"]
    print(f"   bystander's moves: {first} then {second}; stored version {result['stored_version']} (2 expected)")


# The default pool, and one starved on purpose (2 connections, 10 ms of patience): how overload is answered.
POOLS = {"default Redis pool": {}, "starved pool (2, 0.01 s)": {"ARENA_REDIS_POOL_SIZE": "2",
                                                                 "ARENA_REDIS_POOL_TIMEOUT": "0.01"}}


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench overload")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--sockets", type=int, default=None)
    parser.add_argument("--waves", type=int, default=None)
    parser.add_argument("--per-wave", type=int, default=None)
    args = parser.parse_args(argv)
    rounds = [(2_000, 3, 1_000)] if args.quick else [(2_000, 3, 1_000), (5_000, 5, 2_000)]
    if args.sockets or args.waves or args.per_wave:
        rounds = [(args.sockets or 2_000, args.waves or 3, args.per_wave or 1_000)]
    from services.redis.embedded import EmbeddedRedis

    with tempfile.TemporaryDirectory() as folder:
        redis = EmbeddedRedis(Path(folder) / "redis").start()
        try:
            for n, (sockets, waves, per_wave) in enumerate(rounds):
                for pool, env in POOLS.items():
                    print(f"-- {sockets} sockets at once, {waves} waves of {per_wave} concurrent GETs ({pool})",
                          flush=True)
                    data = Path(folder) / f"gw-{n}-{len(env)}"
                    server = ServeProcess(redis.url, data, {"ARENA_SECRET": "bench-overload", **env})
                    try:
                        report(asyncio.run(overload_round(server, sockets, waves, per_wave)))
                    finally:
                        server.stop()
                    warned = [line.strip() for line in server.lines if "WARNING" in line]
                    print(f"   server log: {len(warned)} warning lines" + (f", e.g. {warned[0]}" if warned else ""))
        finally:
            redis.stop()
