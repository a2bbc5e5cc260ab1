"""The lifecycle phase of `bench gateway`: whole short games, one after another, as a player meets them.

Each of N players plays Wish games in a closed loop: create the game (HTTP: its answer carries the ticket),
open its socket and read the snapshot, play random legal moves to the end (resigning when none is left),
close. Then the same loop as a player who stays: each next game asked for over the socket already open
(c2s.new_game), no HTTP request, ticket or handshake. The figures are per game: the server's CPU time,
Redis's CPU time and the Redis commands it was sent (its own command counters read before and after),
beside the same server's echo ceiling.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter

import redis

from .gateway_players import Player
from .gateway_server import Server

LIFECYCLE_GAME = "wish", {"mode": "standard"}  # the short game: 16 pairs at most


def redis_commands(server: Server) -> Counter[str]:
    """Every command Redis has run, by name (its INFO commandstats), less the INFO calls that read them."""
    stats = redis.Redis.from_url(server.redis.url).info("commandstats")
    return Counter({name.removeprefix("cmdstat_"): entry["calls"] for name, entry in stats.items()
                    if name != "cmdstat_info"})


async def one_game(player: Player, rng: random.Random, over_socket: bool) -> None:
    if not over_socket:
        await player.new_game()
    elif not await player.next_game():
        raise NotImplementedError("this server makes no game over the socket")
    while True:
        if await player.move(rng, new_game_at_end=False) is None:
            break
    if not over_socket:
        await player.ws.close()
        player.ws = None


async def lifecycles(server: Server, players: list[Player], seconds: float, measure, show, cpu_us,
                     echo_us: float) -> tuple[float, float, float]:
    """(server CPU us per whole game, Redis commands per game, server CPU us per next game over the socket:
    nan where the server has no c2s.new_game); prints the phases' figures."""
    for player in players:
        player.game, player.variant = LIFECYCLE_GAME
    game_us, per_game = await _phase(server, players, seconds, measure, show, cpu_us, echo_us, False)
    await asyncio.gather(*(p.new_game() for p in players))  # a socket each, open on a game (not measured)
    if not await players[0].next_game():
        print(f"   {server.label:22s} next game over the socket: not offered by this server", flush=True)
        return game_us, per_game, float("nan")
    next_us, _ = await _phase(server, players, seconds, measure, show, cpu_us, echo_us, True)
    print(f"   {'':22s} ratio next game over the socket / whole game: {next_us / game_us:.2f}x", flush=True)
    return game_us, per_game, next_us


async def _phase(server: Server, players: list[Player], seconds: float, measure, show, cpu_us, echo_us: float,
                 over_socket: bool) -> tuple[float, float]:
    async def loop(player: Player, deadline: float, latencies: list[float], rng: random.Random) -> int:
        games = 0
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            await one_game(player, rng, over_socket)
            latencies.append(time.perf_counter() - started)
            games += 1
        return games

    async def work(deadline: float, latencies: list[float]) -> list[int]:
        return await asyncio.gather(*(loop(p, deadline, latencies, random.Random(p.number)) for p in players))

    commands = redis_commands(server)
    count, lat, wall, cpu, redis_cpu = await measure(server, seconds, work)
    sent = redis_commands(server) - commands
    per_game = sum(sent.values()) / max(count, 1)
    rate = count / wall
    what = "Wish, next game" if over_socket else "Wish lifecycles"
    show(server, what, len(players), rate, "games/s", lat, cpu)
    kind = "per next game over the socket" if over_socket else "per whole game (HTTP, ticket, socket)"
    print(f"   {'':22s} {kind}: server CPU {cpu_us(cpu, rate) / 1e3:.2f} ms (goal <= 3 ms; "
          f"{cpu_us(cpu, rate) / echo_us:.0f} echoes of this server), redis CPU "
          f"{cpu_us(redis_cpu, rate) / 1e3:.2f} ms, {per_game:.1f} Redis commands", flush=True)
    print(f"   {'':22s} commands per game: "
          + ", ".join(f"{name} {calls / max(count, 1):.1f}" for name, calls in sent.most_common(12)), flush=True)
    return cpu_us(cpu, rate), per_game
