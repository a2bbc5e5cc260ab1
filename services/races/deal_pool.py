"""Deals chosen ahead: a small pool of proven-winnable secret deals per game and variant in Redis.

Proving a deal winnable takes the solver from milliseconds (The Wish) to a minute (four-suit Spider,
where most random deals are not proven within the budget). A new race takes a deal from the pool
(LPOP: each deal goes to one race only) and the pool is topped up behind it, so a race is created at
once whenever the pool has a deal; an empty pool makes the request wait for the solver. A serving
process runs the solver in a worker process (`in_worker`), as the dailies do: in a thread it would hold
the server's GIL, and every socket of the process would wait while it searches.
The pool's deals are as secret as a race's: server-side only, never listed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import msgspec

from ..runtime.solver_pool import in_solver_worker
from ..store.keys import race_deals_key
from .commands import RaceError
from .deal import ChosenDeal, choose_deal
from .ratings import board_of

POOL_SIZE = 2
log = logging.getLogger("arena.races")
_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(ChosenDeal)


class DealPool:
    def __init__(self, redis: Any, choose: Callable[[str, dict], ChosenDeal | RaceError] = choose_deal,  # Any: a redis-py client
                 size: int = POOL_SIZE, in_worker: bool = False) -> None:
        self.redis, self.choose, self.size, self.in_worker = redis, choose, size, in_worker
        self._filling: dict[str, asyncio.Task] = {}

    async def _choose(self, game: str, variant: dict[str, Any]) -> ChosenDeal | RaceError:  # Any: a variant's JSON values
        if self.in_worker:  # `choose` must then be a module-level function (it is pickled to the worker)
            return await in_solver_worker(self.choose, game, variant)
        return await asyncio.to_thread(self.choose, game, variant)

    async def take(self, game: str, variant: dict[str, Any]) -> ChosenDeal | RaceError:  # Any: a variant's JSON values
        board = board_of(game, variant)
        raw = await self.redis.lpop(race_deals_key(board))
        self.top_up(game, variant)
        if raw is not None:
            return _decoder.decode(raw)
        return await self._choose(game, variant)

    def top_up(self, game: str, variant: dict[str, Any]) -> None:  # Any: a variant's JSON values (the engine checks them)
        board = board_of(game, variant)
        if self.size <= 0 or board in self._filling:
            return

        async def fill() -> None:
            try:
                while await self.redis.llen(race_deals_key(board)) < self.size:
                    chosen = await self._choose(game, variant)
                    if isinstance(chosen, RaceError):
                        return
                    await self.redis.rpush(race_deals_key(board), _encoder.encode(chosen))
            except Exception:  # noqa: BLE001  a pool left short only makes the next race wait
                log.exception("races: topping up the deal pool of %s failed", board)
            finally:
                self._filling.pop(board, None)

        self._filling[board] = asyncio.get_running_loop().create_task(fill())

    async def stop(self) -> None:
        for task in list(self._filling.values()):
            task.cancel()
