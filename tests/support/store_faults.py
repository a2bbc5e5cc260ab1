"""Store faults injected into a real server's game service: Redis failing at a chosen point of a command."""

from __future__ import annotations

from typing import Any


def time_out_first_creation_batch(lean: Any) -> list[str]:  # Any: the service's LeanCommands
    """Makes the next batch that writes a meta hash (a game creation's, after its log) raise a Redis timeout,
    once; the answer lists the meta hash it was to write, filled in when it fails."""
    from redis.exceptions import TimeoutError as RedisTimeout

    execute = lean.execute
    logged: list[str] = []

    async def batch_times_out(commands):
        metas = [str(c[1]) for c in commands if c[0] == "DEL" and str(c[1]).startswith("arena:meta:")]
        if metas:
            lean.execute = execute
            logged.extend(metas)
            raise RedisTimeout("Timeout reading from the socket (injected)")
        return await execute(commands)

    lean.execute = batch_times_out
    return logged
