"""Every finished win reaches the validator, even one whose submission was lost.

The game service tells the submitter when a game opens (the game joins the `unsettled` set) and when
it ends (a win is submitted; then the game leaves the set). A process killed between the winning
append and the submission leaves the game in the set, so the sweep finds it: it reads the logs of
the games checked longest ago, submits each won one that has no verdict yet, drops the ones that
ended otherwise, and sends the rest to the back of the queue. A submission made twice (the live one
and a sweep's) still gets one verdict: verdicts are written once.
"""

from __future__ import annotations

from typing import Any

from engine import WON

from ..games.entries import GameCreated
from ..games.projections import final_state
from ..games.record import BadLog, read_log, settled
from ..store import EventStore
from ..store.keys import unsettled_key, verdicts_key
from .queue import Submission, ValidatorQueue

SWEEP_BATCH = 200
SWEEP_MIN_AGE_MS = 5_000  # a game opened or checked this recently is left to the live path


class Submitter:
    """The game service's results hook, backed by the validator queue."""

    def __init__(self, queue: ValidatorQueue, store: EventStore) -> None:
        self.queue, self.store = queue, store

    @property
    def redis(self) -> Any:  # Any: a redis-py client
        return self.queue.redis

    async def opened(self, created: GameCreated, game_id: str, at_ms: int) -> None:
        await self.redis.zadd(unsettled_key(), {game_id: at_ms})

    async def ended(self, created: GameCreated, game_id: str, status: str, moves: int, time_ms: int, at_ms: int) -> None:
        if status == WON:
            await self.queue.submit(Submission(game_id, created.player_id, moves, time_ms, at_ms))
        await self.redis.zrem(unsettled_key(), game_id)

    # QueuesWrites (services/games/hooks.py): the same writes, in the game's own pipeline.

    def queue_opened(self, pipe: Any, created: GameCreated, game_id: str, at_ms: int) -> bool:  # Any: a pipeline
        pipe.zadd(unsettled_key(), {game_id: at_ms})
        return True

    def queue_ended(self, pipe: Any, created: GameCreated, game_id: str, status: str, at_ms: int) -> bool:
        if status == WON:
            return False  # submitted first, then out of the unsettled set: `ended`, after the pipeline
        pipe.zrem(unsettled_key(), game_id)
        return True

    async def sweep(self, *, now_ms: int, batch: int = SWEEP_BATCH) -> int:
        """One pass over the games checked longest ago; the wins it submitted."""
        due = await self.redis.zrangebyscore(unsettled_key(), "-inf", now_ms - SWEEP_MIN_AGE_MS, start=0, num=batch)
        submitted = 0
        for raw in due:
            game_id = raw.decode() if isinstance(raw, bytes) else raw
            outcome = await self._settle(game_id, now_ms)
            submitted += outcome
        return submitted

    async def _settle(self, game_id: str, now_ms: int) -> int:
        entries = await self.store.read(game_id)
        try:
            game_log = read_log(entries)
            state = final_state(game_log)
        except (BadLog, ValueError):
            state = None  # not a log the validator could ever verify: nothing to submit
        if state is not None and state.status == WON:
            if not await self.redis.hexists(verdicts_key(), game_id):
                shown = game_log.shown.at_ms if game_log.shown is not None else 0
                time_ms = game_log.events[-1].ts_ms - shown
                submission = Submission(game_id, game_log.created.player_id, state.moves, time_ms, now_ms)
                await self.queue.submit(submission)
                await self.redis.zrem(unsettled_key(), game_id)
                return 1
        if state is None or settled(state):
            await self.redis.zrem(unsettled_key(), game_id)
        else:
            await self.redis.zadd(unsettled_key(), {game_id: now_ms}, xx=True)  # still open: to the back
        return 0
