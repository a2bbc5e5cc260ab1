"""Race progress pushes under load, against the bare fan-out of the same frames, in one run.

Two `arena serve` processes on one embedded Redis. R races of P racers each play The Wish on server A
(each racer a random legal move about every --interval s, on its game socket); S spectators per race
watch on server B (race sockets), so every s2c.race_progress crosses processes through Redis pub/sub.
Measured at the spectators: from the racer sending c2s.move to a spectator receiving that racer's
progress at the version the move made (one clock: the bench process's).

Baseline, the same run: the progress frames the spectators received, published again at the same
offsets through two bare `Fanout`s in this process (one publishing, one watching every racer's channel
with S sinks each): Redis pub/sub and the fan-out alone, with no game, race, socket or server behind.
Figures and the ratio are printed; nothing is asserted. Full run: 100 races x 8 racers x 10 spectators
(1,800 sockets, about 800 moves a second at --interval 1); --quick: 10 x 4 x 3.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path

import httpx
import psutil
from websockets.asyncio.client import connect

from bench.bench_overload import ServeProcess
from services.gateway.links.fanout import Fanout
from services.gateway.sockets.game_socket import published
from services.gateway.links.pubsub_link import PubSubLink
from services.redis.client import server_client
from services.redis.embedded import EmbeddedRedis
from services.store.keys import racer_channel

WISH = {"game": "wish", "variant": {"mode": "standard"}, "time_limit_ms": 600_000}
SERVER_ENV = {"ARENA_SECRET": "bench-races", "ARENA_RACE_COUNTDOWN_MS": "1500", "ARENA_RACE_DEAL_POOL": "8",
              "ARENA_RATE_PER_SECOND": "100000", "ARENA_RATE_BURST": "100000", "ARENA_SCHEDULER": "0",
              "ARENA_LOG_LEVEL": "warning"}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Run:
    def __init__(self, a: ServeProcess, b: ServeProcess, http_a: httpx.AsyncClient, http_b: httpx.AsyncClient) -> None:
        self.a, self.b, self.http_a, self.http_b = a, b, http_a, http_b
        self.sent: dict[tuple[str, str, int], float] = {}  # (race, player, version) -> when its move was sent
        self.seen: list[tuple[tuple[str, str, int], float]] = []  # every progress frame a spectator got
        self.frames: dict[tuple[str, str, int], bytes] = {}  # the frame itself, once, for the baseline
        self.started: dict[str, asyncio.Future] = {}
        self.accepted: list[float] = []  # move sent -> its s2c.accepted (the store's share of the push)

    async def post(self, http: httpx.AsyncClient, path: str, **kwargs) -> dict:
        """A POST, sent once more if a kept-alive connection was closed under it (every one here may be)."""
        for attempt in range(3):
            try:
                return (await http.post(path, **kwargs)).raise_for_status().json()
            except (httpx.ReadError, httpx.RemoteProtocolError):
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def guest(self) -> str:
        return (await self.post(self.http_a, "/api/players/guest"))["token"]

    async def ticket(self, http: httpx.AsyncClient, token: str) -> str:
        return (await self.post(http, "/api/tickets", headers={"Authorization": f"Bearer {token}"}))["ticket"]

    async def make_race(self, racers: int) -> tuple[str, list[str]]:
        tokens = [await self.guest() for _ in range(racers)]
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        race = await self.post(self.http_a, "/api/races", json={**WISH, "seats": racers}, headers=auth[0])
        for headers in auth[1:]:
            await self.post(self.http_a, f"/api/races/join/{race['code']}", headers=headers)
        self.started[race["race_id"]] = asyncio.get_running_loop().create_future()
        return race["race_id"], tokens

    async def spectate(self, race_id: str, stop: asyncio.Event, opened: list) -> None:
        ticket = await self.ticket(self.http_b, await self.guest())
        async with connect(f"{self.b.ws_url}/ws/races/{race_id}?ticket={ticket}", max_size=None) as sock:
            opened.append(sock)
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(sock.recv(), 0.5)
                except TimeoutError:
                    continue
                arrived = time.perf_counter()
                frame = json.loads(text)
                if frame["type"] == "s2c.race_progress":
                    key = (race_id, frame["player"], frame["version"])
                    self.seen.append((key, arrived))
                    self.frames.setdefault(key, text.encode())
                elif frame.get("race", {}).get("status") == "started" and not self.started[race_id].done():
                    self.started[race_id].set_result(frame["race"])

    async def race_and_play(self, race_id: str, tokens: list[str], interval: float) -> int:
        for token in tokens:
            await self.post(self.http_a, f"/api/races/{race_id}/ready", headers={"Authorization": f"Bearer {token}"})
        view = await asyncio.wait_for(self.started[race_id], 60)
        games = {r["player"]: r["game_id"] for r in view["racers"]}
        players = [json.loads(_payload(t))["sub"] for t in tokens]
        moves = await asyncio.gather(*(self.play(race_id, p, games[p], t, interval) for p, t in zip(players, tokens)))
        return sum(moves)

    async def play(self, race_id: str, player: str, game_id: str, token: str, interval: float) -> int:
        ticket = await self.ticket(self.http_a, token)
        made = 0
        async with connect(f"{self.a.ws_url}/ws/games/{game_id}?ticket={ticket}", max_size=None) as sock:
            snapshot = json.loads(await sock.recv())["snapshot"]
            while True:
                moves = [m for m in snapshot["view"]["legal"] if m["type"] not in ("undo", "resign")]
                if not moves:
                    return made
                await asyncio.sleep(random.uniform(0.5, 1.5) * interval)
                version, sent = snapshot["version"], time.perf_counter()
                await sock.send(json.dumps({"type": "c2s.move", "move_id": f"{player}-{version}", "version": version,
                                            "move": random.choice(moves)}))
                while True:
                    frame = json.loads(await sock.recv())
                    if frame["type"] == "s2c.accepted":
                        self.accepted.append(time.perf_counter() - sent)
                        # The acceptance carries the game after the move: the version the move made (a move may
                        # log several events).
                        snapshot = frame["snapshot"]
                        self.sent[(race_id, player, snapshot["version"])] = sent
                        made += 1
                        break
                    if frame["type"] in ("s2c.rejected", "s2c.error"):
                        return made


def _payload(token: str) -> str:
    import base64

    part = token.split(".")[1]
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)).decode()


def _cpu(process: psutil.Process) -> float:
    times = process.cpu_times()
    return times.user + times.system


class _Sink:
    def __init__(self, key_of, got: list) -> None:
        self.key_of, self.got = key_of, got

    def push(self, version: int, frame: bytes) -> None:
        self.got.append((self.key_of(version), time.perf_counter()))


async def bare_fanout(redis_url: str, run: Run, spectators: int) -> list[float]:
    """The same frames, at the same offsets, through a publishing and a watching Fanout: latencies (s)."""
    sender = Fanout(PubSubLink(server_client(redis_url)), confirm_timeout=5)
    watcher = Fanout(PubSubLink(server_client(redis_url)), confirm_timeout=5)
    await sender.start()
    await watcher.start()
    got: list = []
    channels = {}
    for race_id, player, _ in run.frames:
        channel = racer_channel(race_id, player)
        if channel not in channels:
            channels[channel] = [_Sink(lambda v, r=race_id, p=player: (r, p, v), got) for _ in range(spectators)]
            for sink in channels[channel]:
                watcher.watch(channel, sink)
    for channel in channels:
        await watcher.ready(channel)
    schedule = sorted((run.sent[key], key) for key in run.frames if key in run.sent)
    published_at: dict = {}
    began, first = time.perf_counter(), schedule[0][0] if schedule else 0.0
    for at, key in schedule:
        await asyncio.sleep(max(0.0, (at - first) - (time.perf_counter() - began)))
        race_id, player, version = key
        published_at[key] = time.perf_counter()
        sender.queue_publish(racer_channel(race_id, player), published(version, run.frames[key]))
    await asyncio.sleep(1.0)
    await sender.aclose()
    await watcher.aclose()
    return [arrived - published_at[key] for key, arrived in got if key in published_at]


async def measure(races: int, racers: int, spectators: int, interval: float, folder: Path) -> None:
    redis = EmbeddedRedis(folder / "redis").start()
    a = ServeProcess(redis.url, folder / "a", SERVER_ENV)
    b = ServeProcess(redis.url, folder / "b", SERVER_ENV)
    limits = httpx.Limits(max_connections=50)
    try:
        async with httpx.AsyncClient(base_url=a.url, timeout=120, limits=limits) as http_a, \
                httpx.AsyncClient(base_url=b.url, timeout=120, limits=limits) as http_b:
            run = Run(a, b, http_a, http_b)
            setup = time.perf_counter()
            made = await asyncio.gather(*(run.make_race(racers) for _ in range(races)))
            stop, opened = asyncio.Event(), []
            watching = [asyncio.create_task(run.spectate(race_id, stop, opened))
                        for race_id, _ in made for _ in range(spectators)]
            while len(opened) < races * spectators:
                await asyncio.sleep(0.1)
            print(f"   set up {races} races x {racers} racers, {len(opened)} spectators on B in "
                  f"{time.perf_counter() - setup:.1f} s", flush=True)
            processes = {"A": psutil.Process(a.process.pid), "B": psutil.Process(b.process.pid),
                         "Redis": psutil.Process(redis.process.pid), "bench": psutil.Process()}
            cpu_before = {name: _cpu(p) for name, p in processes.items()}
            playing = time.perf_counter()
            moves = sum(await asyncio.gather(*(run.race_and_play(r, t, interval) for r, t in made)))
            played = time.perf_counter() - playing
            cpu = {name: (_cpu(p) - cpu_before[name]) / played for name, p in processes.items()}
            await asyncio.sleep(1.0)
            stop.set()
            await asyncio.gather(*watching, return_exceptions=True)
        pushes = [arrived - run.sent[key] for key, arrived in run.seen if key in run.sent]
        bare = await bare_fanout(redis.url, run, spectators)
    except BaseException:
        for name, server in (("A", a), ("B", b)):
            print(f"   server {name} said, last:\n{server.output[-3000:]}")
        raise
    finally:
        a.stop()
        b.stop()
        redis.stop()
    expected = moves * spectators
    print(f"   {moves} moves in {played:.1f} s ({moves / played:.0f}/s); progress frames at spectators "
          f"{len(pushes)} of {expected} expected")
    print("   CPU while playing (cores): " + ", ".join(f"{name} {used:.2f}" for name, used in cpu.items())
          + f" (of {psutil.cpu_count()} on the machine, shared with whatever else runs there)")
    rows = [("race progress: move sent -> spectator on B", pushes),
            ("  of which: move sent -> s2c.accepted on A", run.accepted), ("bare fan-out of the same frames", bare)]
    print(f"   {'path':44} {'n':>7} {'p50 ms':>8} {'p99 ms':>8}")
    for name, values in rows:
        print(f"   {name:44} {len(values):7} {percentile(values, .5) * 1e3:8.2f} {percentile(values, .99) * 1e3:8.2f}")
    if pushes and bare:
        print(f"   ratio race / bare: p50 {percentile(pushes, .5) / percentile(bare, .5):.1f}x, "
              f"p99 {percentile(pushes, .99) / percentile(bare, .99):.1f}x")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench races")
    parser.add_argument("--quick", action="store_true", help="10 races x 4 racers x 3 spectators")
    parser.add_argument("--races", type=int)
    parser.add_argument("--racers", type=int)
    parser.add_argument("--spectators", type=int)
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between a racer's moves (about)")
    args = parser.parse_args(argv)
    races = args.races or (10 if args.quick else 100)
    racers = args.racers or (4 if args.quick else 8)
    spectators = args.spectators or (3 if args.quick else 10)
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(measure(races, racers, spectators, args.interval, Path(folder)))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
