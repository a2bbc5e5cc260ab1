"""What a move costs the game service without any socket: the floor under `bench gateway`'s move path.

100 Spider games are played at random, interleaved as a gateway's sockets interleave them (each game's next
move waits for every other game's turn), two ways in one process under uvloop:
1. the engine alone (the baseline): decide, evolve, the player's view and its JSON, game after game in turn;
2. the game service on an embedded Valkey, wired as `arena serve` wires it (the lean link, the appender's
   batches, the archive's read-through store): `submit`, then the mover's and the watchers' frames.
Each is timed by this process's CPU time (Valkey's own is not counted) and printed per move, with the
service's ratio to the engine. Nothing is asserted about time. The move path's goal of issue 35 (80 µs a
move at 100 active players, sockets included) is printed beside the service's figure: what the service
alone takes is what no socket layer can win back.

    python -m bench service_move [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

import msgspec
import uvloop

import engine
from engine.intents import ResignIntent, UndoIntent
from services.gateway.sockets.game_socket import accepted_frames
from services.gateway.wiring import ProcessServices
from services.redis.client import server_client
from services.redis.embedded import EmbeddedRedis
from services.runtime.settings import Settings

GAMES = 100
VARIANT = {"suits": 1}
GOAL_US = 80.0  # issue 35: CPU a move at 100 active Spider players, through the sockets


def choices(legal, rng: random.Random):
    moves = [move for move in legal if not isinstance(move, (UndoIntent, ResignIntent))]
    return rng.choice(moves) if moves else None


async def engine_alone(seconds: float) -> tuple[int, float]:
    """(moves, CPU s): the engine's work of a move, the games taken in turn."""
    encode = msgspec.json.Encoder().encode
    rng = random.Random(1)
    states = [engine.initial_state("spider", VARIANT, 1_000 + n) for n in range(GAMES)]
    views = [engine.player_view(state) for state in states]
    moves, started = 0, time.process_time()
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        for n in range(GAMES):
            move = choices(views[n].legal, rng) if views[n].status == engine.IN_PROGRESS else None
            if move is None:
                states[n] = engine.initial_state("spider", VARIANT, rng.randrange(1, 10**6))
                views[n] = engine.player_view(states[n])
                continue
            played = engine.play(move, states[n])
            assert not isinstance(played, engine.RuleError), played
            states[n] = played[0]
            views[n] = engine.player_view(states[n])
            encode(views[n])
            moves += 1
        await asyncio.sleep(0)
    return moves, time.process_time() - started


async def service_on_valkey(url: str, folder: Path, seconds: float) -> tuple[int, float, int]:
    """(moves, CPU s, batches): `submit` and both frames, each game a task of its own as a socket's is."""
    settings = Settings(redis_url=url, data_dir=folder, secret="bench-" * 6, scheduler=False)
    games = ProcessServices(server_client(url), settings).games
    rng = random.Random(1)
    count = [0]

    async def player(n: int, deadline: float) -> None:
        while time.perf_counter() < deadline:
            summary = await games.create_game(f"bench-{n}", "spider", VARIANT, rng.randrange(1, 10**6))
            assert not isinstance(summary, engine.RuleError), summary
            live = await games.load(summary.id)
            assert live is not None
            version, view = live.version, live.view()
            while view.status == engine.IN_PROGRESS and time.perf_counter() < deadline:
                move = choices(view.legal, rng)
                if move is None:
                    break
                result = await games.submit(f"bench-{n}", summary.id, f"m{version}", version, move)
                assert result.answer.accepted and result.snapshot is not None, result.answer
                accepted_frames(result, version)
                version, view = result.answer.version, result.snapshot.view
                count[0] += 1
                await asyncio.sleep(0)  # the socket's turn: the next frame is another game's

    await asyncio.gather(*(player(n, time.perf_counter() + 1.0) for n in range(GAMES)))  # warm: caches, scripts
    count[0], batches = 0, games.appender.batches
    started = time.process_time()
    await asyncio.gather(*(player(n, time.perf_counter() + seconds) for n in range(GAMES)))
    return count[0], time.process_time() - started, games.appender.batches - batches


async def run(seconds: float) -> None:
    moves, cpu = await engine_alone(seconds)
    alone = cpu / moves * 1e6
    print(f"   engine alone, {GAMES} games in turn:        {moves:7d} moves  {alone:6.1f} us a move", flush=True)
    with tempfile.TemporaryDirectory() as folder, EmbeddedRedis(Path(folder) / "redis") as valkey:
        moves, cpu, batches = await service_on_valkey(valkey.url, Path(folder), seconds)
    service = cpu / moves * 1e6
    print(f"   game service on Valkey, {GAMES} games:       {moves:7d} moves  {service:6.1f} us a move "
          f"({moves / max(batches, 1):.0f} appends a batch)", flush=True)
    print(f"   ratio service / engine alone: {service / alone:.2f}x; the move path's goal through the sockets: "
          f"{GOAL_US:.0f} us ({service / GOAL_US:.2f}x of it spent before any socket)", flush=True)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench service_move", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 s phases instead of 6 s")
    args = parser.parse_args(argv)
    uvloop.run(run(2.0 if args.quick else 6.0))
