"""Gateway throughput, latency, CPU and memory: real `arena serve` process, real Redis, real sockets.

Phases, all against one server process (loopback only):
1. echo ceiling: N clients in a closed loop on /ws/echo (no work behind the socket);
2. active players: N clients each playing random legal moves in a closed loop (create, move, repeat);
3. connected players: M clients each moving about once a second: latency p50/p99;
4. idle memory: server RSS growth per idle game socket at 1k (and 5k unless --quick).
Figures are printed with ratios (move path / echo ceiling); nothing is asserted about time.
Goals (issue 6): move path >= 0.5x echo at 100 active; p99 <= 15 ms at 1,000 connected; <= 30 KB/socket.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import msgspec
import psutil
from websockets.asyncio.client import connect

from services.redis.embedded import EmbeddedRedis

GAMES = {"spider": {"suits": 1}, "wish": {"mode": "standard"}, "patient-pairs": {}, "wizard": {}, "wading-pool": {}}
GAME, VARIANT = "spider", GAMES["spider"]  # a long game: steady play, few re-creations (--game changes it)
decode = msgspec.json.Decoder().decode  # the client's share of the shared CPU, kept small
encode = msgspec.json.Encoder().encode
CLIENT = psutil.Process()


class Server:
    """Embedded Redis plus one `arena serve` subprocess (its CPU and memory measured apart from ours)."""

    def __init__(self, folder: Path) -> None:
        self.redis = EmbeddedRedis(folder / "redis").start()
        env = {**os.environ, "REDIS_URL": self.redis.url, "ARENA_DATA_DIR": str(folder), "ARENA_BENCH_ECHO": "1",
               "ARENA_RATE_PER_SECOND": "100000", "ARENA_RATE_BURST": "100000",
               # One address opens a thousand players: no HTTP limit (they are measured in the tests).
               **{f"ARENA_LIMIT_{name}": "off" for name in ("GUESTS", "SIGN_IN", "GAMES", "TICKETS")}}
        self.process = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", "--port", "0"], env=env,
                                        stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        self.url = re.search(r"http://[\d.]+:\d+", line).group(0)
        self.ws = self.url.replace("http://", "ws://")
        self.ps = psutil.Process(self.process.pid)
        self.redis_ps = psutil.Process(self.redis.process.pid)

    def cpu_seconds(self) -> tuple[float, float]:
        a, b = self.ps.cpu_times(), self.redis_ps.cpu_times()
        return a.user + a.system, b.user + b.system

    def rss(self) -> int:
        return self.ps.memory_info().rss

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)
        self.redis.stop()


def cpu_us(cpu_percent: float, rate: float) -> float:
    """Server CPU time per operation, in microseconds: the figure a busy shared machine distorts least."""
    return cpu_percent / 100 / rate * 1e6 if rate else float("nan")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Player:
    def __init__(self, server: Server, http: httpx.AsyncClient) -> None:
        self.server, self.http = server, http
        self.token = self.ws = self.game_id = None
        self.version, self.view = 0, None

    async def start(self) -> Player:
        self.token = (await self.http.post("/api/players/guest")).json()["token"]
        await self.new_game()
        return self

    async def ticket(self) -> str:
        answer = await self.http.post("/api/tickets", headers={"Authorization": f"Bearer {self.token}"})
        return answer.raise_for_status().json()["ticket"]

    async def new_game(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        body = {"game": GAME, "variant": VARIANT}
        created = await self.http.post("/api/games", json=body, headers={"Authorization": f"Bearer {self.token}"})
        self.game_id = created.json()["id"]
        url = f"{self.server.ws}/ws/games/{self.game_id}?ticket={await self.ticket()}"
        self.ws = await connect(url, compression=None, max_size=None)
        snapshot = decode(await self.ws.recv())["snapshot"]
        self.version, self.view = snapshot["version"], snapshot["view"]

    async def move(self, rng: random.Random) -> float | None:
        """One random legal move; its latency (send to the update received), or None if a new game began."""
        # Undo and resign are listed too; a random resign would end the game at once.
        moves = [move for move in self.view["legal"] if move["type"] not in ("undo", "resign")]
        if self.view["status"] != "in_progress" or not moves:
            await self.new_game()
            return None
        frame = {"type": "c2s.move", "move_id": f"{self.game_id}-{self.version}", "version": self.version,
                 "move": rng.choice(moves)}
        started = time.perf_counter()
        await self.ws.send(encode(frame))
        while True:
            answer = decode(await self.ws.recv())
            if answer["type"] == "s2c.rejected":
                raise RuntimeError(f"a legal move was rejected: {answer}")
            if answer["type"] == "s2c.update" and answer["snapshot"]["version"] == self.version + 1:
                self.version, self.view = answer["snapshot"]["version"], answer["snapshot"]["view"]
                return time.perf_counter() - started


async def measure(server: Server, seconds: float, work) -> tuple[int, list[float], float, float, float]:
    """Run `work(deadline, latencies)` tasks; (count, latencies, wall, server CPU %, redis CPU %)."""
    latencies: list[float] = []
    # No client collections while measuring: a pause of the bench's own loop (up to tens of ms
    # with a thousand sockets) would be read as server latency. Collected after, outside the phase.
    gc.disable()
    cpu0, redis0 = server.cpu_seconds()
    client0 = sum(CLIENT.cpu_times()[:2])
    started = time.perf_counter()
    try:
        counts = await work(started + seconds, latencies)
    finally:
        gc.enable()
    wall = time.perf_counter() - started
    cpu1, redis1 = server.cpu_seconds()
    gc.collect()
    client = 100 * (sum(CLIENT.cpu_times()[:2]) - client0) / wall
    print(f"   (bench clients' own CPU {client:5.1f}%: they share the machine with the server)", flush=True)
    return sum(counts), latencies, wall, 100 * (cpu1 - cpu0) / wall, 100 * (redis1 - redis0) / wall


async def echo_ceiling(server: Server, clients: int, seconds: float) -> float:
    frame = encode({"type": "c2s.move", "move_id": "echo-1", "version": 12, "move": {"type": "deal"}})
    sockets = [await connect(f"{server.ws}/ws/echo", compression=None) for _ in range(clients)]

    async def loop(ws, deadline, latencies):
        count = 0
        while time.perf_counter() < deadline:
            t = time.perf_counter()
            await ws.send(frame)
            await ws.recv()
            latencies.append(time.perf_counter() - t)
            count += 1
        return count

    async def work(deadline, latencies):
        return await asyncio.gather(*(loop(ws, deadline, latencies) for ws in sockets))

    count, lat, wall, cpu, _ = await measure(server, seconds, work)
    for ws in sockets:
        await ws.close()
    rate = count / wall
    print(f"   echo ceiling        {clients:5d} clients: {rate:8.0f} msgs/s  p50 {percentile(lat, .5)*1e3:6.2f} ms"
          f"  p99 {percentile(lat, .99)*1e3:6.2f} ms  server CPU {cpu:5.1f}% = {cpu_us(cpu, rate):5.0f} us/msg",
          flush=True)
    return rate, cpu_us(cpu, rate)


async def active_players(server: Server, players: list[Player], seconds: float, pause: float | None, label: str):
    async def loop(player, deadline, latencies, rng):
        count = 0
        if pause:
            await asyncio.sleep(rng.random() * pause)  # spread the clients over the second
        while time.perf_counter() < deadline:
            latency = await player.move(rng)
            if latency is not None:
                latencies.append(latency)
                count += 1
            if pause:
                await asyncio.sleep(pause)
        return count

    async def work(deadline, latencies):
        return await asyncio.gather(*(loop(p, deadline, latencies, random.Random(i)) for i, p in enumerate(players)))

    count, lat, wall, cpu, redis_cpu = await measure(server, seconds, work)
    rate = count / wall
    print(f"   {label:19s} {len(players):5d} clients: {rate:8.0f} moves/s p50 {percentile(lat, .5)*1e3:6.2f} ms"
          f"  p99 {percentile(lat, .99)*1e3:6.2f} ms  server CPU {cpu:5.1f}% = {cpu_us(cpu, rate):5.0f} us/move"
          f"  redis CPU {redis_cpu:5.1f}%", flush=True)
    return rate, percentile(lat, 0.99), cpu_us(cpu, rate)


async def idle_memory(server: Server, players: list[Player], count: int) -> float:
    """Server RSS growth per idle game socket (spectator sockets spread over the players' games)."""
    await asyncio.sleep(1.0)
    before = server.rss()
    sockets = []
    for i in range(count):
        player = players[i % len(players)]
        ws = await connect(f"{server.ws}/ws/games/{player.game_id}?ticket={await player.ticket()}", compression=None,
                           max_size=None)
        await ws.recv()
        sockets.append(ws)
    await asyncio.sleep(2.0)
    per_socket = (server.rss() - before) / count
    print(f"   idle memory         {count:5d} sockets: {per_socket / 1024:8.1f} KB per socket "
          f"(server RSS {server.rss() / 2**20:.0f} MB)", flush=True)
    await asyncio.gather(*(ws.close() for ws in sockets))
    return per_socket


async def run(quick: bool) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of sockets on both ends
    gc.freeze()  # the clients' own collector pauses would show up as server latency
    gc.set_threshold(20_000, 50, 1000)
    seconds = 3.0 if quick else 10.0
    connected = 1000
    with tempfile.TemporaryDirectory(prefix="bench-gateway-") as folder:
        server = Server(Path(folder))
        try:
            limits = httpx.Limits(max_connections=50)
            async with httpx.AsyncClient(base_url=server.url, timeout=60, limits=limits) as http:
                echo, echo_us = await echo_ceiling(server, 100, seconds)
                actives = [await Player(server, http).start() for _ in range(100)]
                rate, _, move_us = await active_players(server, actives, seconds, None, "move path (active)")
                print(f"   ratio move path / echo ceiling: {rate / echo:.2f}x throughput (goal >= 0.5x), "
                      f"{echo_us / move_us:.2f}x by server CPU per operation")
                more = [await Player(server, http).start() for _ in range(connected - len(actives))]
                everyone = actives + more
                _, p99, _ = await active_players(server, everyone, seconds * 2, 1.0, "1 move/s each")
                print(f"   p99 at {connected} connected: {p99 * 1e3:.2f} ms  (goal <= 15 ms)")
                await idle_memory(server, everyone, 1000)
                if not quick:
                    await idle_memory(server, everyone, 5000)
                for player in everyone:
                    await player.ws.close()
        finally:
            server.stop()


def _ws_impl() -> str:
    from services.settings import settings_from_environment

    return settings_from_environment().ws_impl


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_gateway", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short phases, no 5k sockets")
    parser.add_argument("--game", choices=sorted(GAMES), default="spider", help="the game the players play")
    global GAME, VARIANT
    args = parser.parse_args(argv)
    GAME, VARIANT = args.game, GAMES[args.game]
    print(f"   game {GAME} {VARIANT}; server: one `arena serve` process, uvicorn {_ws_impl()}", flush=True)
    asyncio.run(run(args.quick))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
