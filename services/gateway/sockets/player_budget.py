"""One frame budget per player, shared by all of that player's sockets in this gateway process.

A budget per socket let a player multiply their rate by opening more sockets (50 sockets, 50 times the
frames). Here every socket a player holds (as player or as spectator) draws from one TokenBucket.

Why per process and not in Redis: the budget guards what frames cost, and that is this process's CPU
(decoding, the engine, encoding) more than Redis, which only sees the frames that are moves. A shared
budget in Redis would add a round trip to every frame, pings included, and would stop answering
whenever Redis does. The price: a player whose sockets land on N processes gets up to N budgets, so the
most they can send is N times the per-player rate, not sockets times it.

A budget outlives its player's last socket until it has refilled (burst / rate seconds, at most a day):
closing every socket and opening a new one never starts with a full budget early.

Beside the frames, a player's budget holds their new games over the socket (c2s.new_game): as many as
POST /api/games takes from one address (`limit_games`, 60 a minute by default), refilled evenly. That
one is counted per address in Redis for every process; this one per player and per process, for the
reason above (a socket was opened with a ticket, which the HTTP limits count).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

from litestar.middleware.rate_limit import DURATION_VALUES

from ...runtime.settings import HttpLimit
from ..guards.rate_limit import TokenBucket

MAX_KEEP_SECONDS = 86_400.0


class _Budget:
    __slots__ = ("bucket", "games", "sockets", "forget")

    def __init__(self, bucket: TokenBucket, games: TokenBucket | None) -> None:
        self.bucket = bucket
        self.games = games
        self.sockets = 0
        self.forget: asyncio.TimerHandle | None = None


class PlayerBudgets:
    def __init__(self, rate_per_second: float, burst: int, games: HttpLimit | None = None) -> None:
        self.rate, self.burst = rate_per_second, burst
        self.keep_seconds = min(MAX_KEEP_SECONDS, burst / rate_per_second) if rate_per_second > 0 else MAX_KEEP_SECONDS
        self.games = games  # (count, unit): the new games a player may make over sockets; None: no limit
        if games is not None:
            self.keep_seconds = max(self.keep_seconds, min(MAX_KEEP_SECONDS, float(DURATION_VALUES[games[1]])))
        self._budgets: dict[str, _Budget] = {}

    def __len__(self) -> int:
        return len(self._budgets)

    @contextmanager
    def hold(self, player_id: str) -> Iterator[TokenBucket]:
        """The player's bucket, for as long as one of their sockets is open."""
        budget = self._budgets.get(player_id)
        if budget is None:
            budget = self._budgets[player_id] = _Budget(TokenBucket(self.rate, self.burst), self._games_bucket())
        if budget.forget is not None:
            budget.forget.cancel()
            budget.forget = None
        budget.sockets += 1
        try:
            yield budget.bucket
        finally:
            budget.sockets -= 1
            if budget.sockets == 0:
                loop = asyncio.get_running_loop()
                budget.forget = loop.call_later(self.keep_seconds, self._forget, player_id, budget)

    def games_of(self, player_id: str) -> TokenBucket | None:
        """The new-game bucket of a player whose socket is held (None: new games are not limited)."""
        return self._budgets[player_id].games

    def _games_bucket(self) -> TokenBucket | None:
        if self.games is None:
            return None
        count, unit = self.games
        return TokenBucket(count / DURATION_VALUES[unit], count)

    def _forget(self, player_id: str, budget: _Budget) -> None:
        if budget.sockets == 0 and self._budgets.get(player_id) is budget:
            del self._budgets[player_id]
