"""The youngest generation collected on a clock, not only when CPython's count says so.

Why: CPython starts a young collection when the objects it tracks, made less freed, pass threshold 0.
A server that replaces each game's state on every move frees about as many objects as it makes, so
that count hardly grows while the young generation does: the engine's structs are untracked, but
the tuples inside them are tracked until a collection first looks at them (and then untracks them).
Measured in `bench gateway` with 5,000 players making 1,000 moves a second, the young generation
reached 70,000 to 120,000 objects and each collection took 70 to 105 ms of CPU, a pause of the whole
event loop; collected every 100 ms it holds a few thousand objects and a collection takes a few ms.

The older generations follow CPython's counts (threshold 1: young collections since the last middle
one; threshold 2: middle ones since the last full one), so a cycle that outlives the young generation
is still collected. CPython adds a condition for a full collection that Python does not expose (the
objects new to the oldest generation since the last one must be a quarter of it); without it a full
collection comes every threshold 2 middle ones, some 17 minutes at the server's settings (100 ms x 10
x 1,000), and pauses the loop for as long as walking every object not frozen at start-up takes
(60-110 ms at 5,000 sockets in the bench). CPython's own trigger stays as the backstop for a burst
between two ticks.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc


def generation_due() -> int:
    """The oldest generation CPython's rule would collect now, at least the youngest."""
    _, young_collections, middle_collections = gc.get_count()
    _, middle_threshold, full_threshold = gc.get_threshold()
    if young_collections <= middle_threshold:
        return 0
    return 2 if middle_collections > full_threshold else 1


class YoungCollector:
    """Every `every_s` seconds, one collection of the generation due (off when `every_s` is 0)."""

    def __init__(self, every_s: float) -> None:
        self.every_s = every_s
        self.collections = [0, 0, 0]  # made by this collector, by generation (for tests and the bench)
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        if self.every_s > 0 and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="young collector")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every_s)
            if not gc.isenabled():  # someone turned collection off (a profiler, a test): leave it off
                continue
            generation = generation_due()
            gc.collect(generation)
            self.collections[generation] += 1

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
