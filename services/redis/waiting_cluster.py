"""A Redis Cluster client that waits for a free connection, as BlockingConnectionPool does for one server.

redis-py's asyncio cluster client keeps a bounded pool per node (`max_connections`) but has no blocking
pool: a command that finds its node's pool in use fails at once with MaxConnectionsError, so a burst of
requests is refused even when the wait would be a millisecond. This client lets at most `max_connections`
commands (or pipelines) be in flight at once and makes the next one wait up to `pool_timeout` seconds for
its turn; past that it fails with the same ConnectionError("No connection available.") a full
BlockingConnectionPool raises. Only public methods are overridden (execute_command, pipeline).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

from redis.asyncio.cluster import ClusterPipeline, RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisClusterException

# Set while a task holds its turn: a command a pipeline runs itself (a redirect) must not wait for a second one.
_holding: ContextVar[bool] = ContextVar("arena_redis_turn", default=False)


class WaitingRedisCluster(RedisCluster):
    def __init__(self, *args: Any, pool_timeout: float | None = 5.0, max_connections: int = 100, **kwargs: Any):  # Any: passed through
        # One more per node than turns: the client's own topology refresh runs inside a command's turn.
        super().__init__(*args, max_connections=max_connections + 1, **kwargs)  # type: ignore[misc]  # the checker counts max_connections in **kwargs too; it is taken out above
        self.pool_timeout = pool_timeout
        self.turns = asyncio.Semaphore(max_connections)

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        if _holding.get():
            yield
            return
        try:
            await asyncio.wait_for(self.turns.acquire(), self.pool_timeout)
        except TimeoutError:
            raise RedisConnectionError("No connection available.") from None
        holding = _holding.set(True)
        try:
            yield
        finally:
            _holding.reset(holding)
            self.turns.release()

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:  # Any: passed through as given
        async with self.turn():
            return await super().execute_command(*args, **kwargs)

    def pipeline(self, transaction: Any | None = None, shard_hint: Any | None = None) -> ClusterPipeline:  # Any: redis-py's own signature
        if shard_hint:
            raise RedisClusterException("shard_hint is deprecated in cluster mode")  # as RedisCluster's
        return WaitingClusterPipeline(self, transaction)  # type: ignore[abstract]  # redis-py's stubs mark an attribute its own ClusterPipeline sets in __init__ as abstract


class WaitingClusterPipeline(ClusterPipeline):
    def __init__(self, client: WaitingRedisCluster, transaction: Any | None = None) -> None:  # Any: redis-py's own signature
        super().__init__(client, transaction)
        self.waiting_client = client

    async def execute(self, raise_on_error: bool = True, allow_redirections: bool = True) -> list[Any]:  # Any: the commands' replies
        async with self.waiting_client.turn():
            return await super().execute(raise_on_error, allow_redirections)
