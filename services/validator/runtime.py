"""The validator as `arena serve` runs it: wins submitted by the game service, workers in the process.

`arena validate` runs the same worker on its own; a deployment may set ARENA_VALIDATORS=0 on its
gateways and run validator processes beside them (infra/, k8s/).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from ..store import EventStore
from .queue import SeedAuthority, ValidatorQueue, VerdictSink, no_authority, no_sink
from .review import ReviewRules
from .solver_lines import SolverLines
from .submitter import Submitter
from .worker import ValidatorWorker


class Validators:
    def __init__(
        self,
        redis: Any,  # Any: a redis-py client, one server's or a cluster's (they share no type)
        store: EventStore,
        *,
        workers: int = 1,
        review: ReviewRules | None = None,
        seeds: SeedAuthority = no_authority,
        sink: VerdictSink = no_sink,
    ) -> None:
        self.queue = ValidatorQueue(redis, store, seeds=seeds, sink=sink, review=review, lines=SolverLines())
        self.submitter = Submitter(self.queue, store)
        self.workers = [ValidatorWorker(self.queue, self.submitter) for _ in range(workers)]
        for n, worker in enumerate(self.workers):
            worker.consumer = f"{worker.consumer}-{n}"
        self._stop = asyncio.Event()
        self._tasks: list[asyncio.Task] = []

    def start(self) -> None:
        self._tasks = [asyncio.get_running_loop().create_task(w.run(self._stop)) for w in self.workers]

    async def stop(self) -> None:
        self._stop.set()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
