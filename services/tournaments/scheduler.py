"""The daily scheduler inside every `arena serve` process: commitments ahead, days closed and revealed.

Every process runs it; each job (prepare a day, settle a challenge) runs under a short Redis lock so
exactly one process does it at a time, and every job is idempotent besides (its events are appended
at an expected version: a second process's append is refused and changes nothing). A process that
dies holding a lock loses it when the lock expires; the next round on any process takes the job.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import secrets

from redis.exceptions import RedisError

from ..store import StoreError
from ..store.keys import scheduler_lock_key
from .catalogue import utc_date_of
from .service import TournamentService

AHEAD_DAYS = 7  # commitments published for today and the next 7 days
BEHIND_DAYS = 2  # days still settled (their close, grace, reveal) after they ended
LOCK_MS = 120_000  # longer than a day's preparation (solver work) takes
log = logging.getLogger("arena.tournaments")

_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


class DailyScheduler:
    def __init__(self, tournaments: TournamentService, *, every_s: float = 5.0) -> None:
        self.tournaments = tournaments
        self.every_s = every_s
        self.owner = secrets.token_hex(8)

    async def _locked(self, job: str, work) -> bool:
        """Run `work` unless another process holds the job's lock; whether it ran."""
        redis = self.tournaments.redis
        key = scheduler_lock_key(job)
        if not await redis.set(key, self.owner, nx=True, px=LOCK_MS):
            return False
        try:
            await work()
        finally:
            await redis.eval(_RELEASE, 1, key, self.owner)
        return True

    async def run_once(self) -> None:
        today = dt.date.fromisoformat(utc_date_of(self.tournaments.clock()))
        for offset in range(-BEHIND_DAYS, AHEAD_DAYS + 1):
            day = today + dt.timedelta(days=offset)
            if offset >= 0:
                await self._locked(f"prepare:{day.isoformat()}", lambda d=day: self.tournaments.prepare_days(d, 1))
            if offset <= 0:
                for ref in self.tournaments.challenges_of(day):
                    await self._locked(f"settle:{ref.key}", lambda r=ref: self.tournaments.settle(r))

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                await self.run_once()
            except (RedisError, StoreError, OSError) as exc:
                log.warning("daily scheduler: redis unavailable, retrying: %s", exc)
            except Exception:  # noqa: BLE001  a bug in one round must not stop the next days
                log.exception("daily scheduler: a round failed")
            try:
                await asyncio.wait_for(stop.wait(), self.every_s)
            except asyncio.TimeoutError:
                pass
