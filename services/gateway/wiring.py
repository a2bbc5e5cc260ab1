"""What one `arena serve` process runs beside its sockets, wired together: the game service, the
replay validator's workers and submitter, the tournaments service and its daily scheduler, the race
service and its timers.

The game service tells the validator (first: a win is submitted before anyone waits on its verdict),
the tournaments, the races and the retention how each game ended, and the races every accepted move
(their progress feed). A race game's deal stays secret until its race has ended. The validator asks
the tournaments which seed a daily attempt had to be dealt from and the races which seed a race game
had, and tells both each verdict (each ignores the games not its own). The gateway gives the races
their feed (race_frames.RaceFanout) once its fan-out exists. The archiver hears every end too, and
moves finished games to the archive tier; every reader of a game reads through the one store.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from ..archive.archiver import Archiver
from ..archive.objects import default_archive_url, open_objects
from ..archive.read_through import GameArchive, ReadThroughStore
from ..games.appender import Appender
from ..games.retention import Retention
from ..games.secrecy import DealSecrecy
from ..games.service import AllResults, GameService
from ..races.deal_pool import DealPool
from ..races.ratings import Ratings
from ..races.service import RaceService
from ..races.store import RaceStore
from ..races.wiring import verdict_lookup
from ..runtime.clock import server_clock
from ..runtime.settings import Settings
from ..runtime.solver_pool import stop_solver_pool
from ..store.replication import ReplicaAck
from ..tournaments.scheduler import DailyScheduler
from ..tournaments.service import TournamentService, load_tournament_secret
from ..validator.queue import every_sink, first_seed
from ..validator.review import rules_from
from ..validator.replay_keyring import ReplayKeys
from ..validator.replay_signing import signer_from
from ..validator.runtime import Validators


class ProcessServices:
    def __init__(self, client: Any, settings: Settings, *, replica_ack: ReplicaAck | None = None) -> None:  # Any: a redis-py client (server or cluster)
        # Game logs read through to the archive tier once the archiver has moved them (services/archive/).
        objects = open_objects(settings.archive_url or default_archive_url(settings.data_dir),
                               timeout_s=settings.archive_timeout_s)
        store = ReadThroughStore(client, GameArchive(objects, client), clock=server_clock(settings.test_clock_file),
                                 replica_ack=replica_ack, lean_appends=settings.lean_redis,
                                 link_timeout=max(0.1, settings.redis_pool_timeout))
        self.store = store
        self.validators = Validators(client, store, workers=settings.validators, review=rules_from(settings))
        # The lifecycle's small commands share the appends' lean connections (none with ARENA_LEAN_REDIS=0).
        self.lean = store.lean
        self.games = GameService(store, client, cache_games=settings.cache_games, lean=self.lean,
                                 appender=Appender(store, max_in_flight=settings.append_in_flight))
        secret = load_tournament_secret(settings.tournament_secret, settings.data_dir)
        self.tournaments = TournamentService(client, self.games, secret=secret, daily_games=settings.daily_games,
                                              weak_check=settings.daily_weak_check)
        self.retention = Retention(client, days=settings.retention_days, clock=store.clock, objects=objects)
        queue = self.validators.queue
        self.races = RaceService(
            RaceStore(client, clock=store.clock, replica_ack=replica_ack), self.games, countdown_ms=settings.race_countdown_ms,
            deals=DealPool(client, size=settings.race_deal_pool, in_worker=True), ratings=Ratings(client),
            verdicts=verdict_lookup(queue),
        )
        self.archiver = Archiver(client, objects, clock=store.clock, after_ms=int(settings.archive_after_s * 1000),
                                 lost_after_ms=int(settings.archive_lost_after_s * 1000), deal_public=self._deal_public)
        self.run_archiver, self.archive_every_s = settings.archiver, settings.archive_every_s
        self.games.results = AllResults(self.validators.submitter, self.tournaments, self.races, self.retention,
                                        self.archiver, self.tournaments.statistics)
        self.games.move_hook = self.races
        self.games.secrecy = DealSecrecy(race_ended=self.races.has_ended, race_learn=self.races.learn,
                                         challenge_revealed=self.tournaments.is_revealed,
                                         challenge_learn=self.tournaments.learn_reveal)
        queue.seeds = first_seed(self.tournaments.seed_for, self.races.seed_of)
        queue.sink = every_sink(self.tournaments.verdict, self.races.on_verdict)
        self.scheduler = DailyScheduler(self.tournaments)
        self.replay_keys = ReplayKeys(client, signer_from(settings.replay_signing_secret, settings.data_dir),
                                      clock=store.clock)
        self._stop = asyncio.Event()
        self._tasks: list[asyncio.Task] = []
        self.run_scheduler = settings.scheduler

    def start(self) -> None:
        self.validators.start()
        self.races.start_timers()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self.retention.run(self._stop))]
        if self.run_scheduler:
            self._tasks.append(loop.create_task(self.scheduler.run(self._stop)))
        if self.run_archiver:
            self._tasks.append(loop.create_task(self.archiver.run(self._stop, self.archive_every_s)))

    async def _deal_public(self, created, now_ms: int) -> bool:
        """For the archiver: a game whose deal is still secret (a daily before its reveal, a race
        before its end) stays hot; the policy learns of reveals and ends elsewhere first."""
        await self.games.secrecy.refresh(created, now_ms)
        return self.games.secrecy.deal_public(created, True, now_ms)

    async def stop(self) -> None:
        self._stop.set()
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.races.stop_timers()
        await self.validators.stop()
        await self.store.aclose()
        stop_solver_pool()
