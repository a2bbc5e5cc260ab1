"""When each race next needs a look, and who looks: the due set every process polls, and a timer here.

The start signal and the time limit are absolute times in the race log; a verdict awaited is looked
for every VERDICT_POLL_MS. The process that made a change sets its timer; any process's poll of the due
set picks up a race whose process died. Both call the service's `advance`, which acts on what is due
(idempotently), so a race looked at twice is no worse for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from ..runtime.unavailable import UNAVAILABLE_ERRORS, Warnings
from . import core
from .core import RaceState
from .store import RaceStore

log = logging.getLogger("arena.races")

VERDICT_POLL_MS = 2_000
POLL_S = 1.0
RETRY_MS = 1_000  # a timer that met Redis away looks again this much later
# Redis away or overloaded: a warning naming the cause, no traceback (the next look tries again), at most
# one a second for all the timers of a process together (an outage meets every race's timer at once).
REDIS_UNAVAILABLE = UNAVAILABLE_ERRORS
warnings = Warnings(log)


class RaceTimers:
    def __init__(self, store: RaceStore, clock: Callable[[], int], advance: Callable[[str], Awaitable[object]]) -> None:
        self.store, self.clock, self.advance = store, clock, advance
        self._timers: dict[str, asyncio.Task] = {}
        self._poller: asyncio.Task | None = None

    async def schedule(self, state: RaceState) -> None:
        """When the race next needs a look: in the due set for every process, and a timer here."""
        status = state.status
        due: int | None = None
        if status == core.COUNTDOWN:
            due = state.start_at_ms
        elif status == core.STARTED:
            due = state.deadline_ms
        elif status == core.ENDED and state.games:
            due = self.clock() + VERDICT_POLL_MS
        await self.store.set_due(state.race_id, due)
        if due is not None and self._poller is not None:  # timers run only in a serving process
            self._timer(state.race_id, due)

    def _timer(self, race_id: str, at_ms: int) -> None:
        previous = self._timers.pop(race_id, None)
        if previous is not None:
            previous.cancel()

        async def fire() -> None:
            await asyncio.sleep(max(0.0, (at_ms - self.clock()) / 1000))
            self._timers.pop(race_id, None)
            try:
                await self.advance(race_id)
            except REDIS_UNAVAILABLE as exc:
                # The due set brings it back, unless its entry went down with a master in a failover (the
                # set is replicated after the answer): so this process tries again too, until Redis answers.
                warnings.warn("race timers (each tries again)", exc)
                if self._poller is not None and race_id not in self._timers:
                    self._timer(race_id, self.clock() + RETRY_MS)
            except Exception:  # noqa: BLE001  a bug: say so with its traceback, never kill the loop
                log.exception("race %s: advance failed", race_id)

        self._timers[race_id] = asyncio.get_running_loop().create_task(fire())

    def start(self) -> None:
        self._poller = asyncio.get_running_loop().create_task(self._poll())

    async def stop(self) -> None:
        tasks = [*self._timers.values(), *([self._poller] if self._poller else [])]
        self._poller = None
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _poll(self) -> None:
        while True:
            try:
                for race_id in await self.store.due(self.clock()):
                    await self.advance(race_id)
            except REDIS_UNAVAILABLE as exc:  # the next tick tries again
                warnings.warn("the races' due poll", exc)
            except Exception:  # noqa: BLE001  a bad race: say so with its traceback, try again next tick
                log.exception("races: due poll failed")
            await asyncio.sleep(POLL_S)
