"""What one `arena serve` process runs beside its sockets, wired together: the game service, the
replay validator's workers and submitter, the tournaments service and its daily scheduler.

The game service tells the validator (first) and the tournaments how each game ended; the validator
asks the tournaments which seed a daily attempt had to be dealt from and tells them each verdict.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from ..games.appender import Appender
from ..games.retention import Retention
from ..games.service import AllResults, GameService
from ..clock import server_clock
from ..settings import Settings
from ..store import EventStore
from ..store.replication import ReplicaAck
from ..tournaments.scheduler import DailyScheduler
from ..tournaments.service import TournamentService, load_tournament_secret
from ..validator.runtime import Validators


class ProcessServices:
    def __init__(self, client: Any, settings: Settings, *, replica_ack: ReplicaAck | None = None) -> None:
        store = EventStore(client, clock=server_clock(settings.test_clock_file), replica_ack=replica_ack)
        self.validators = Validators(client, store, workers=settings.validators,
                                     review_floor_ms=settings.review_floor_ms)
        self.games = GameService(store, client, cache_games=settings.cache_games, appender=Appender(store))
        secret = load_tournament_secret(settings.tournament_secret, settings.data_dir)
        self.tournaments = TournamentService(client, self.games, secret=secret, daily_games=settings.daily_games)
        self.retention = Retention(client, days=settings.retention_days, clock=store.clock)
        self.games.results = AllResults(self.validators.submitter, self.tournaments, self.retention)
        self.validators.queue.seeds = self.tournaments.seed_for
        self.validators.queue.sink = self.tournaments.verdict
        self.scheduler = DailyScheduler(self.tournaments)
        self._stop = asyncio.Event()
        self._tasks: list[asyncio.Task] = []
        self.run_scheduler = settings.scheduler

    def start(self) -> None:
        self.validators.start()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self.retention.run(self._stop))]
        if self.run_scheduler:
            self._tasks.append(loop.create_task(self.scheduler.run(self._stop)))

    async def stop(self) -> None:
        self._stop.set()
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.validators.stop()
