"""The echo baselines of `bench gateway`: what one message costs a server that does nothing behind its socket.

Two of them, because a message's CPU depends on how the messages come:
- the echo ceiling: clients in a closed loop, so every pass of the server's event loop finds many messages
  waiting and the caches stay warm (the baseline of the active players' moves);
- the paced echo: each client sends once per pause, as the connected players move, so the server sleeps
  between messages and wakes for nearly each one alone (the baseline of a paced move). On a virtual machine
  a wake costs far more than the message: the paced echo is several times the ceiling's figure.
"""

from __future__ import annotations

import asyncio
import random
import time

from websockets.asyncio.client import connect

from .gateway_players import encode
from .gateway_server import Server

FRAME = encode({"type": "c2s.move", "move_id": "echo-1", "version": 12, "move": {"type": "deal"}})


async def echo_ceiling(server: Server, clients: int, seconds: float, measure, show, cpu_us) -> tuple[float, float]:
    """(messages a second, server CPU us a message) with `clients` echoing as fast as they can."""
    sockets = [await connect(f"{server.ws}/ws/echo", compression=None) for _ in range(clients)]

    async def loop(ws, deadline, latencies):
        count = 0
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            await ws.send(FRAME)
            await ws.recv()
            latencies.append(time.perf_counter() - started)
            count += 1
        return count

    async def work(deadline, latencies):
        return await asyncio.gather(*(loop(ws, deadline, latencies) for ws in sockets))

    count, lat, wall, cpu, _ = await measure(server, seconds, work)
    await asyncio.gather(*(ws.close() for ws in sockets))
    rate = count / wall
    show(server, "echo ceiling", clients, rate, "msgs/s", lat, cpu)
    return rate, cpu_us(cpu, rate)


async def paced_echo(server: Server, clients: int, pause: float, seconds: float, measure, show, cpu_us) -> float:
    """Server CPU us a message with `clients` each echoing once a `pause` (their offsets spread at random)."""
    sockets = [await connect(f"{server.ws}/ws/echo", compression=None) for _ in range(clients)]

    async def loop(ws, deadline, latencies, rng):
        count, due = 0, time.perf_counter() + rng.random() * pause
        while due < deadline:
            await asyncio.sleep(due - time.perf_counter())
            started = time.perf_counter()
            await ws.send(FRAME)
            await ws.recv()
            latencies.append(time.perf_counter() - started)
            count += 1
            due += pause
        return count

    async def work(deadline, latencies):
        return await asyncio.gather(*(loop(ws, deadline, latencies, random.Random(n)) for n, ws in enumerate(sockets)))

    count, lat, wall, cpu, _ = await measure(server, seconds, work)
    await asyncio.gather(*(ws.close() for ws in sockets))
    rate = count / wall
    show(server, f"echo 1/{pause:g}s each", clients, rate, "msgs/s", lat, cpu)
    return cpu_us(cpu, rate)
