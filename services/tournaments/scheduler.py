"""The daily scheduler inside every `arena serve` process: commitments ahead, days closed and revealed.

Each round prepares today and the next AHEAD_DAYS days, and settles every prepared challenge whose seed
is not revealed yet, whatever its age (the index of them is rebuilt from the challenge streams when the
process starts): a scheduler down for days reveals every day it missed as soon as it runs again.
AHEAD_DAYS is 8, one more than the 7 days of the promise: day D+8's commitment is made during day D,
so at the first instant of day D+1 the commitments of the next 7 days are all out.

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

from engine import RuleError

from ..store import StoreError
from ..store.keys import scheduler_lock_key
from .catalogue import parse_challenge_key, utc_date_of
from .service import TournamentService

AHEAD_DAYS = 8  # today's and the next 8 days' commitments made: 7 days ahead from each day's first instant
LOCK_MS = 120_000  # longer than a day's preparation (solver work) takes
log = logging.getLogger("arena.tournaments")

_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


class DailyScheduler:
    def __init__(self, tournaments: TournamentService, *, every_s: float = 5.0) -> None:
        self.tournaments = tournaments
        self.every_s = every_s
        self.owner = secrets.token_hex(8)
        self._indexed = False  # the unrevealed index rebuilt from the streams once per process

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
        t = self.tournaments
        if not self._indexed:
            found = await t.rebuild_unrevealed()
            self._indexed = True
            log.info("daily scheduler: %d prepared challenge(s) not yet revealed", found)
        today = dt.date.fromisoformat(utc_date_of(t.clock()))
        # Settling first: a day that closed while nobody ran is revealed before new days cost solver time.
        for key in await t.unrevealed():
            ref = parse_challenge_key(key)
            if isinstance(ref, RuleError) or ref.date > today.isoformat():
                continue  # an upcoming day: nothing to settle yet
            await self._locked(f"settle:{ref.key}", lambda r=ref: t.settle(r))
        for offset in range(AHEAD_DAYS + 1):
            day = today + dt.timedelta(days=offset)
            await self._locked(f"prepare:{day.isoformat()}", lambda d=day: t.prepare_days(d, 1))

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
            except TimeoutError:
                pass
