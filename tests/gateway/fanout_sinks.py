"""What the fan-out tests watch channels with: a socket stand-in that keeps what it was pushed."""

from __future__ import annotations

import asyncio


class Sink:
    """A watcher of a channel, as a socket is to the fan-out (no outbox: nothing queued to count)."""

    outbox = None

    def __init__(self) -> None:
        self.got: list[tuple[int, bytes]] = []

    def push(self, version: int, frame: bytes) -> None:
        self.got.append((version, frame))


async def eventually(check, tries: int = 500) -> bool:
    """True as soon as `check()` is, polling every 10 ms; what it last was after `tries` polls."""
    for _ in range(tries):
        if check():
            return True
        await asyncio.sleep(0.01)
    return check()
