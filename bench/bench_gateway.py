"""Gateway throughput, latency, CPU and memory: real `arena serve` processes, real Redis, real sockets.

Phases, each run on every server of the run in turn (loopback only):
1. echo ceiling: N clients in a closed loop on /ws/echo (no work behind the socket);
2. active players: N clients each playing random legal moves in a closed loop (create, move, repeat);
3. lifecycles: N clients each playing whole Wish games (create, ticket, socket, moves, end) in a loop:
   server CPU and Redis commands per game; then each next game asked for over the socket already open;
4. connected players: M clients each moving about once a second: latency p50/p99 (first, the server's CPU with
   their sockets open and nothing sent: the share of a paced move's CPU that is only the sockets' being open;
   then M echo clients each as paced, the paced move's own baseline: see gateway_echo.py);
5. idle memory: server RSS growth per idle game socket at 1k (and 5k unless --quick).
Figures are printed with ratios (move path / echo ceiling of the same server); nothing is asserted about
time. `--against REF` adds a server running commit REF's code, `--ws` one server per websocket
implementation, `--workers N` this tree as N worker processes, `--setting NAME=VALUE` this tree with one
setting changed: every server meets the same neighbours'
load phase by phase (with `--together` at the same moments), so their ratios compare. Players play named
deals with seeded choices, so every server is given the same moves and the same new games.
Goals (issues 19, 35): server CPU per move <= 80 us at 100 active Spider players, <= 200 us per paced move at
1,000; the frame that brings a move <= 600 B median; a Wish game's lifecycle <= 3 ms of server CPU; p99 <= 15 ms
at 1,000 connected (25 ms at 5,000, 1 move/5 s); <= 30 KB per idle socket. `--deflate` measures permessage-deflate.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import re
import resource
import sys
import tempfile
import time
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families
import psutil
import uvloop
from websockets.asyncio.client import connect

from engine.compiled import describe

from .gateway_echo import echo_ceiling, paced_echo
from .gateway_lifecycle import lifecycles
from .gateway_players import Player, start_players
from .gateway_server import HERE, Server, export_commit, servers

GAMES = {"spider": {"suits": 1}, "wish": {"mode": "standard"}, "patient-pairs": {}, "wizard": {}, "wading-pool": {}}
CLIENT = psutil.Process()


def cpu_us(cpu_percent: float, rate: float) -> float:
    """Server CPU time per operation, in microseconds: the figure a busy shared machine distorts least."""
    return cpu_percent / 100 / rate * 1e6 if rate else float("nan")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


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


async def move_buckets(server: Server) -> dict[float, float]:
    """The server's own move-time histogram (arena_move_seconds: a move's submission to its answer, the
    durable append included): the count per bucket bound."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        text = (await http.get("/metrics")).text
    buckets: dict[float, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "arena_move_seconds_bucket":
                buckets[float(sample.labels["le"])] = buckets.get(float(sample.labels["le"]), 0) + sample.value
    return buckets


def bucket_p99(before: dict[float, float], after: dict[float, float]) -> float:
    """The bucket bound under which 99% of the moves between two readings were answered (seconds)."""
    counts = sorted((bound, after[bound] - before.get(bound, 0)) for bound in after)
    total = counts[-1][1] if counts else 0
    return next((bound for bound, count in counts if count >= 0.99 * total), float("nan")) if total else float("nan")


def fsync_latency(folder: Path, writes: int = 100) -> str:
    """This disk's fdatasync after a small append, like Redis's with `appendfsync always`: every move waits for
    at least one (the one covering its batch) and up to two (one already running when its batch arrived). It
    varies by tens of times on a shared virtual disk, so the bench prints it before and after the phases."""
    times = []
    fd = os.open(folder / "fsync-probe", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        for _ in range(writes):
            os.write(fd, b"x" * 360)  # about one move's AOF bytes
            started = time.perf_counter()
            os.fdatasync(fd)
            times.append(time.perf_counter() - started)
    finally:
        os.close(fd)
        os.unlink(folder / "fsync-probe")
    return f"this disk's fdatasync: p50 {percentile(times, 0.5) * 1e3:.2f} ms, p90 {percentile(times, 0.9) * 1e3:.2f} ms"


def show(server: Server, what: str, clients: int, rate: float, unit: str, lat: list[float], cpu: float) -> None:
    print(f"   {server.label:22s} {what:18s} {clients:5d} clients: {rate:7.0f} {unit:6s} "
          f"p50 {percentile(lat, .5)*1e3:6.2f} ms  p99 {percentile(lat, .99)*1e3:6.2f} ms  "
          f"server CPU {cpu:5.1f}% = {cpu_us(cpu, rate):4.0f} us each", flush=True)


async def players_moving(server: Server, players: list[Player], seconds: float, pause: float | None, what: str):
    async def loop(player, deadline, latencies, rng):
        # Paced players move on a fixed schedule (a random offset spreads them over the pause), and none
        # sleeps past the phase's end: a last sleep after the last move would stretch the phase by a pause
        # and understate the rate (a third at 1 move/5 s over two pauses).
        count = 0
        due = time.perf_counter() + (rng.random() * pause if pause else 0.0)
        while due < deadline:
            await asyncio.sleep(due - time.perf_counter())
            latency = await player.move(rng)
            if latency is not None:
                latencies.append(latency)
                count += 1
            due = due + pause if pause else time.perf_counter()
        return count

    async def work(deadline, latencies):
        return await asyncio.gather(*(loop(p, deadline, latencies, random.Random(p.number)) for p in players))

    games = sum(p.games for p in players)
    for player in players:
        player.frame_bytes.clear()
        player.deflated_bytes.clear()
    buckets = await move_buckets(server)
    count, lat, wall, cpu, redis_cpu = await measure(server, seconds, work)
    inside = bucket_p99(buckets, await move_buckets(server))
    rate = count / wall
    show(server, what, len(players), rate, "moves/s", lat, cpu)
    print(f"   {'':22s} (inside the server, submission to answer with the durable append: p99 <= {inside * 1e3:g} ms by "
          "its histogram; the rest of the p99 above is the sockets, both event loops' queues and the neighbours)", flush=True)
    print(f"   {'':22s} (redis CPU {redis_cpu:5.1f}%; {sum(p.games for p in players) - games} new games made in the "
          f"phase, their cost counted in the moves')", flush=True)
    sent = [size for p in players for size in p.frame_bytes]
    deflated = [size for p in players for size in p.deflated_bytes]
    if sent:
        print(f"   {'':22s} bytes of the frame that brings a move: median {percentile(sent, 0.5):.0f} B, p90 "
              f"{percentile(sent, 0.9):.0f} B, largest {max(sent)} B (goal: median <= 600 B); with permessage-deflate "
              f"median {percentile(deflated, 0.5):.0f} B", flush=True)
    return rate, percentile(lat, 0.99), cpu_us(cpu, rate), percentile(sent, 0.5)


async def idle_cpu(server: Server, sockets: int, seconds: float) -> float:
    """The server's CPU (% of a core) with `sockets` game sockets open and nothing sent: what its timers, pings and
    background workers cost whatever the players do (a paced move's CPU figure carries its share of it)."""
    await asyncio.sleep(1.0)  # the last connections' snapshots are sent

    async def nothing(deadline, latencies):
        await asyncio.sleep(max(0.0, deadline - time.perf_counter()))
        return [0]

    _, _, _, cpu, _ = await measure(server, seconds, nothing)
    print(f"   {server.label:22s} idle, {sockets} sockets open: server CPU {cpu:5.1f}%", flush=True)
    return cpu


async def idle_memory(server: Server, players: list[Player], count: int) -> float:
    """Server RSS growth per idle game socket (spectator sockets spread over the players' games)."""
    await asyncio.sleep(1.0)
    before = server.rss()
    sockets = []
    for i in range(count):
        player = players[i % len(players)]
        ws = await connect(f"{server.ws}/ws/games/{player.game_id}?ticket={await player.ticket()}", compression=Player.compression,
                           max_size=None)
        await ws.recv()
        sockets.append(ws)
    await asyncio.sleep(2.0)
    per_socket = (server.rss() - before) / count
    print(f"   {server.label:22s} idle memory        {count:5d} sockets: {per_socket / 1024:8.1f} KB per socket "
          f"(server RSS {server.rss() / 2**20:.0f} MB)", flush=True)
    await asyncio.gather(*(ws.close() for ws in sockets))
    return per_socket


async def run(all_servers: list[Server], args: argparse.Namespace) -> None:
    seconds = 3.0 if args.quick else 10.0
    figures = {server.label: {} for server in all_servers}
    clients = {}
    for server in all_servers:
        clients[server.label] = httpx.AsyncClient(base_url=server.url, timeout=60,
                                                  limits=httpx.Limits(max_connections=50))
    try:
        actives = {s.label: await start_players(s, clients[s.label], 100) for s in all_servers}
        async def each(servers: list[Server], phase) -> list:
            """`phase(server)` for every server: one after another, or all at once with --together (the
            servers then meet the same neighbours at the same moments: their figures pair up best)."""
            if args.together:
                return await asyncio.gather(*(phase(server) for server in servers))
            return [await phase(server) for server in servers]

        # Rounds alternate the servers' order; each server keeps its best round (the one the neighbours
        # disturbed least): the echo phases, then the move phases.
        for round_ in range(args.rounds):
            order = all_servers if round_ % 2 == 0 else all_servers[::-1]
            echoes = await each(order, lambda s: echo_ceiling(s, 100, seconds, measure, show, cpu_us))
            moves = await each(order, lambda s: players_moving(s, actives[s.label], seconds, None, "move path (active)"))
            for server, echo, (rate, _, move_us, frame) in zip(order, echoes, moves):
                print(f"   {server.label:22s} ratio move path / echo ceiling: {rate / echo[0]:.2f}x throughput "
                      f"(goal >= 0.5x), {echo[1] / move_us:.2f}x by server CPU per operation", flush=True)
                best = figures[server.label].get("active", (0, float("inf")))
                if move_us < best[1]:
                    figures[server.label]["active"], figures[server.label]["echo"] = (rate, move_us), echo
                    figures[server.label]["frame"] = frame
        if args.lifecycles:
            async def lifecycle_phase(server: Server) -> None:
                players = await start_players(server, clients[server.label], args.lifecycles, first=100_000)
                figures[server.label]["lifecycle"] = await lifecycles(server, players, seconds, measure, show, cpu_us,
                                                                      figures[server.label]["echo"][1])
                await asyncio.gather(*(player.ws.close() for player in players if player.ws is not None))

            # With --together the whole games are paired too; a next game over the socket runs while a server
            # without c2s.new_game is done, so read it against its own tree's whole game (the ratio printed).
            await each(all_servers, lifecycle_phase)
        if args.connected:
            everyone = {}
            for s in all_servers:
                more = await start_players(s, clients[s.label], args.connected - len(actives[s.label]),
                                           first=len(actives[s.label]))
                everyone[s.label] = actives[s.label] + more
            idle = {s.label: await idle_cpu(s, len(everyone[s.label]), seconds) for s in all_servers}
            # At least two moves each: a phase as long as two pauses (quick) or four.
            phase = max(seconds * 2, args.pause * (2 if args.quick else 4))
            # The paced move's own baseline: as many echo sockets, each as paced (a wake a message, not a batch).
            echoes_paced = await each(all_servers, lambda s: paced_echo(s, args.connected, args.pause, phase, measure,
                                                                        show, cpu_us))
            paced = await each(all_servers, lambda s: players_moving(s, everyone[s.label], phase, args.pause,
                                                                     f"1 move/{args.pause:g}s each"))
            goal = "15 ms at 1,000 players, 1 move/s" if args.pause == 1.0 else "25 ms at 5,000 players, 1 move/5 s"
            for server, (_, p99, us, _), echo_us in zip(all_servers, paced, echoes_paced):
                figures[server.label]["connected"] = p99, us
                figures[server.label]["paced echo"] = echo_us
                print(f"   {server.label:22s} p99 at {args.connected} connected: {p99 * 1e3:.2f} ms  (goal {goal}); "
                      f"server CPU per paced move {us:.0f} us = {us / figures[server.label]['echo'][1]:.1f} echoes "
                      f"of the ceiling, {us / echo_us:.1f} paced echoes ({echo_us:.0f} us each)")
                share = idle[server.label] / 100 * 1e6 * args.pause / args.connected  # the idle CPU a move carries
                print(f"   {'':22s} of which the {args.connected} sockets' idle CPU, with no move at all: "
                      f"{idle[server.label]:.1f}% of a core = {share:.0f} us a paced move", flush=True)
            if not args.no_memory:
                for server in all_servers:
                    figures[server.label]["memory"] = await idle_memory(server, everyone[server.label], 1000)
                    if not args.quick:
                        await idle_memory(server, everyone[server.label], args.sockets)
        summary(figures, args.connected)
    finally:
        for client in clients.values():
            await client.aclose()


def summary(figures: dict[str, dict], connected: int) -> None:
    print(f"   {'server':22s} | echo msgs/s | move msgs/s | ratio | us/move active | us/move paced | p99 {connected} | KB/socket"
          " | ms/Wish game | ms/next game | cmds/game | frame B | us/echo paced")
    for label, f in figures.items():
        echo, _ = f["echo"]
        rate, us = f["active"]
        p99, us_1s = f.get("connected", (float("nan"), float("nan")))
        memory = f.get("memory", float("nan")) / 1024
        game_us, commands, next_us = f.get("lifecycle", (float("nan"),) * 3)
        print(f"   {label:22s} | {echo:11.0f} | {rate:11.0f} | {rate / echo:5.2f} | {us:14.0f} | {us_1s:13.0f} |"
              f" {p99 * 1e3:5.1f} ms | {memory:9.1f} | {game_us / 1e3:12.2f} | {next_us / 1e3:12.2f} | {commands:9.1f} |"
              f" {f.get('frame', 0):7.0f} | {f.get('paced echo', float('nan')):13.0f}",
              flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_gateway", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short phases, no 5k sockets")
    parser.add_argument("--game", choices=sorted(GAMES), default="spider", help="the game the players play")
    parser.add_argument("--against", metavar="REF", help="also measure a server running commit REF (e.g. main)")
    parser.add_argument("--ws", default="", help="comma-separated uvicorn websocket implementations, one server "
                        "each (websockets-sansio, websockets, wsproto); default: the settings' one")
    parser.add_argument("--rounds", type=int, default=1, help="echo and move phases per server, alternating "
                        "the servers' order; the table shows each server's best round")
    parser.add_argument("--together", action="store_true", help="run each phase on every server at the same "
                        "time (paired figures; each server then has half the machine)")
    parser.add_argument("--granian", action="store_true", help="also measure this tree's app under granian "
                        "(pip install granian first)")
    parser.add_argument("--workers", type=int, default=1, help="also measure this tree as `arena serve --workers N`"
                        " (CPU and memory summed over its processes)")
    parser.add_argument("--setting", action="append", default=[], metavar="NAME=VALUE",
                        help="also measure this tree with this environment variable set (repeatable: one server "
                        "each), e.g. ARENA_APPEND_IN_FLIGHT=2")
    parser.add_argument("--connected", type=int, default=1000, help="players moving once a --pause (0: skip)")
    parser.add_argument("--pause", type=float, default=1.0, help="seconds between a connected player's moves "
                        "(the issue's goals: 1,000 players at 1 s, 5,000 at 5 s)")
    parser.add_argument("--sockets", type=int, default=5000, help="idle sockets of the second memory phase "
                        "(not with --quick; the goal is stated at 10,000)")
    parser.add_argument("--no-memory", action="store_true", help="skip the idle memory phase")
    parser.add_argument("--lifecycles", type=int, default=20, help="players playing whole Wish games in a loop, "
                        "for the CPU and Redis commands of one game's lifecycle (0: skip)")
    parser.add_argument("--deflate", action="store_true", help="the clients offer permessage-deflate (a server "
                        "takes it with --setting ARENA_WS_DEFLATE=true beside one without: on and off in one run)")
    parser.add_argument("--profile", type=Path, help="folder: each server runs under pyinstrument, reports there")
    args = parser.parse_args(argv)
    for setting in args.setting:
        if not re.fullmatch(r"[A-Z][A-Z0-9_]*=.*", setting):
            parser.error(f"--setting wants NAME=VALUE like ARENA_APPEND_IN_FLIGHT=2, not {setting!r}")
    Player.game, Player.variant = args.game, GAMES[args.game]
    Player.compression = "deflate" if args.deflate else None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of sockets on both ends
    gc.freeze()  # the clients' own collector pauses would show up as server latency
    gc.set_threshold(20_000, 50, 1000)
    impls = [impl for impl in args.ws.split(",") if impl] or [None]
    with tempfile.TemporaryDirectory(prefix="bench-gateway-") as folder:
        trees = [("this", HERE)]
        if args.against:
            trees.insert(0, (args.against[:8], export_commit(args.against, Path(folder))))
        specs = [(f"{name} {impl or ''}".strip(), root, {"ARENA_WS_IMPL": impl} if impl else {})
                 for impl in impls for name, root in trees]
        if args.granian:  # this tree again, under granian (installed apart: it is no dependency of the project)
            specs.append(("this granian", HERE, {"GRANIAN": "1"}))
        if args.workers > 1:  # this tree again, as N worker processes on one port
            specs.append((f"this x{args.workers}", HERE, {"ARENA_WORKERS": str(args.workers)}))
        for setting in args.setting:  # this tree again, with one setting changed
            name, _, value = setting.partition("=")
            specs.append((f"this {name.removeprefix('ARENA_').lower()}={value}", HERE, {name: value}))
        if args.profile:
            args.profile.mkdir(parents=True, exist_ok=True)
        print(f"   game {args.game} {GAMES[args.game]}; servers: {', '.join(s[0] for s in specs)} "
              f"(one `arena serve` process each, uvicorn {impls[0] or _ws_impl()})", flush=True)
        print(f"   (before the phases, {fsync_latency(Path(folder))})", flush=True)
        print(f"   this tree: {describe()}; a tree of --against runs as source (git archive builds nothing)")
        with servers(Path(folder), specs, args.profile) as all_servers:
            # The clients on uvloop, as the server: the bench's own loop costs the shared cores less.
            uvloop.run(run(all_servers, args))
        print(f"   (after the phases, {fsync_latency(Path(folder))})", flush=True)
    return 0


def _ws_impl() -> str:
    from services.runtime.settings import settings_from_environment

    return settings_from_environment().ws_impl


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
