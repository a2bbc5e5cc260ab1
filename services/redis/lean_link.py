"""Lean pipelined connections to Redis nodes for the commands of the hot path (appends, fan-out).

Why: a round trip through redis-py's asyncio client costs about 120 µs of CPU under uvloop (the pool's
checkout and its health check, timeouts run as tasks, several passes of the event loop) for a few µs of
work, and at a steady trickle of moves (1,000 players making one move a second) nearly every batch is a
batch of one. A LeanLink keeps one connection per node, writes a batch of commands in one write and lets
hiredis (the parser redis-py itself uses) read the replies, handed back to the batches in the order they
were sent: about a tenth of the cost.

It only carries: error replies come back as values, and a connection that fails, is lost or does not
answer within `reply_timeout` (then it is dropped) raises (ConnectionError, TimeoutError) so the caller sends the batch again
through redis-py, which follows cluster redirects, refreshes its slot map and reports errors as it always
did. Each caller says why its commands are safe to send twice (services/store/append_link.py,
services/gateway/links/pubsub_link.py). TLS, Unix sockets and credential providers are left to redis-py
(`usable`).
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

import hiredis
import redis.asyncio as aioredis
from redis.asyncio.connection import Connection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

Command = list[Any]  # Any: a Redis command: its name and arguments, str, bytes or int


def pack(commands: list[Command]) -> bytes:
    """Commands in RESP: an array of bulk strings each."""
    out = []
    for command in commands:
        out.append(b"*%d\r\n" % len(command))
        for arg in command:
            data = arg if isinstance(arg, bytes) else str(arg).encode()
            out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


def _reply(value: Any) -> Any:  # Any: any value, as its caller has it
    """NOSCRIPT as redis-py raises it (the store loads the script then); other errors stay ResponseError."""
    if isinstance(value, ResponseError) and str(value).startswith("NOSCRIPT"):
        return NoScriptError(str(value))
    return value


class NodeConnection(asyncio.Protocol):
    """One connection: batches written whole, replies matched to them in the order they were sent."""

    def __init__(self, reply_timeout: float | None = None) -> None:
        self.reply_timeout = reply_timeout
        self._parser = hiredis.Reader(replyError=ResponseError)
        # Each batch's future, its count of replies and the loop time its replies are due by (the order they
        # come back in is the order sent, so the head is always the oldest).
        self._waiting: deque[tuple[asyncio.Future, int, float]] = deque()
        self._watchdog: asyncio.TimerHandle | None = None  # one timer for the connection, not one per batch
        self._replies: list[Any] = []  # Any: RESP replies, of any shape
        self._transport: asyncio.Transport | None = None
        self.lost: Exception | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport  # type: ignore[assignment]  # a stream connection: a WriteTransport

    def data_received(self, data: bytes) -> None:
        self._parser.feed(data)
        while True:
            try:
                value = self._parser.gets()
            except hiredis.ProtocolError:  # not RESP: nothing more on this connection can be trusted
                self.close()
                return
            if value is False:
                return
            if not self._waiting:  # a reply nobody asked for: the order is lost, so is the connection
                self.close()
                return
            self._replies.append(_reply(value))
            future, count, _ = self._waiting[0]
            if len(self._replies) == count:
                self._waiting.popleft()
                replies, self._replies = self._replies, []
                if not future.done():
                    future.set_result(replies)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = RedisConnectionError(f"the lean link's connection was lost: {exc or 'closed'}")
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        while self._waiting:
            future, _, _ = self._waiting.popleft()
            if not future.done():
                future.set_exception(self.lost)

    def send(self, commands: list[Command]) -> asyncio.Future:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        if self.lost is not None or self._transport is None:
            future.set_exception(self.lost or RedisConnectionError("the lean link is not connected"))
            return future
        due = loop.time() + self.reply_timeout if self.reply_timeout is not None else float("inf")
        self._waiting.append((future, len(commands), due))
        self._transport.write(pack(commands))
        if self._watchdog is None and self.reply_timeout is not None:
            # A timer per batch cost about as much CPU as the batch's own write at a trickle of moves: one
            # watchdog looks at the oldest batch when it is due, and again at the next one's time.
            self._watchdog = loop.call_at(due, self._check_due)
        return future

    def _check_due(self) -> None:
        """The oldest batch still waiting past its time: it is the caller's to send again, and the connection
        is dropped (a stalled or half-open one would hold every later batch too: they hear the connection
        lost); the next batch connects again. Otherwise look again when the oldest one falls due."""
        self._watchdog = None
        # The oldest batch whose caller still waits (a cancelled one is not timed).
        oldest = next(((future, due) for future, _, due in self._waiting if not future.done()), None)
        if oldest is None:
            return
        future, due = oldest
        loop = asyncio.get_running_loop()
        if due > loop.time():
            self._watchdog = loop.call_at(due, self._check_due)
            return
        future.set_exception(RedisTimeoutError(f"no reply on the lean link within {self.reply_timeout:g} s"))
        self.close()

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()


class LeanLink:
    """Lean connections to the nodes of one redis-py client (a server or a cluster), opened on first use."""

    def __init__(
        self,
        client: aioredis.Redis | aioredis.RedisCluster,
        *,
        reply_timeout: float | None = None,
        address: tuple[str, int] | None = None,
    ) -> None:
        """`reply_timeout`: how long a batch waits for its replies before redis-py is asked instead (a
        stalled server then answers through redis-py's bounded pool: unavailable, as any command).
        `address` sends a single server's link elsewhere than redis-py's connections (tests put a proxy
        there that cuts the connection)."""
        self.client = client
        self.reply_timeout = reply_timeout
        self.cluster = isinstance(client, aioredis.RedisCluster)
        if isinstance(client, aioredis.RedisCluster):
            pool_kwargs = client.nodes_manager.connection_kwargs
            connection_class = pool_kwargs.get("connection_class")
        else:
            pool_kwargs = client.connection_pool.connection_kwargs
            connection_class = client.connection_pool.connection_class
        self.usable = (
            (connection_class is None or connection_class is Connection)
            and not pool_kwargs.get("credential_provider")
            and not pool_kwargs.get("ssl")
        )
        self._login: list[Command] = []
        if pool_kwargs.get("password"):
            user = pool_kwargs.get("username")
            self._login.append(["AUTH", user, pool_kwargs["password"]] if user else ["AUTH", pool_kwargs["password"]])
        if not self.cluster and pool_kwargs.get("db"):
            self._login.append(["SELECT", pool_kwargs["db"]])
        self._address = None if self.cluster else address or (pool_kwargs["host"], pool_kwargs["port"])
        self._connections: dict[tuple[str, int], asyncio.Task] = {}
        self.round_trips = 0  # figures for tests and the bench

    def address_of(self, node: Any) -> tuple[str, int]:  # Any: a redis-py cluster node (untyped there)
        """Where a node's commands go: the cluster node (from node_of) or the one server (node None)."""
        return self._address if node is None else (node.host, node.port)  # type: ignore[return-value]  # redis-py types a node's port loosely

    async def execute(self, address: tuple[str, int], commands: list[Command]) -> list[Any]:  # Any: RESP replies
        """The replies to `commands` in order (error replies as exception values); raises ConnectionError
        when the connection cannot be made or is lost before every reply came, TimeoutError after
        `reply_timeout` (the caller sends again)."""
        connection = await self._connection(address)
        self.round_trips += 1
        return await connection.send(commands)

    async def _connection(self, address: tuple[str, int]) -> NodeConnection:
        task = self._connections.get(address)
        if task is None or (task.done() and _opened(task) is None):  # never made, failed or lost: again
            task = asyncio.get_running_loop().create_task(self._connect(address))
            self._connections[address] = task
        try:
            return await asyncio.shield(task)
        except OSError as exc:
            raise RedisConnectionError(f"the lean link could not connect to {address[0]}:{address[1]}: {exc}") from exc

    async def _connect(self, address: tuple[str, int]) -> NodeConnection:
        _, connection = await asyncio.get_running_loop().create_connection(
            lambda: NodeConnection(self.reply_timeout), *address)
        if self._login:
            replies = await connection.send(self._login)
            failed = [reply for reply in replies if isinstance(reply, Exception)]
            if failed:
                connection.close()
                raise RedisConnectionError(f"the lean link's login was refused: {failed[0]}")
        return connection

    async def aclose(self) -> None:
        for task in self._connections.values():
            if not task.done():
                task.cancel()
            elif (opened := _opened(task)) is not None:
                opened.close()
        self._connections.clear()


def _opened(task: asyncio.Task) -> NodeConnection | None:
    """A finished connecting task's connection while it lives; None when it failed, was cancelled or is lost."""
    if task.cancelled() or task.exception() is not None:
        return None
    connection = task.result()
    return connection if connection.lost is None else None
