"""A game's small lifecycle commands over the lean link (services/redis/lean_link.py), redis-py sending
again what the link cannot carry.

Why: outside its moves, a game's lifecycle is a dozen small round trips: the token's generation, the
player's recent games, the meta hash and the indexes at its creation and its end, the socket's ticket,
its first look, the statistics. Over the lean link one costs 0.3x to 0.45x the CPU redis-py's client takes
for it under uvloop (`python -m bench round_trips`; `bench gateway`'s Wish lifecycle shows the whole game's
cost). The appends already go this way (services/store/append_link.py).

What may come here: commands that are safe to send twice, because a batch the link could not finish (a
connection lost or not answered in time, a cluster redirect or any other error reply) is sent again,
whole, through redis-py, which follows redirects, refreshes its slot map and raises errors as it always
did. Writes that set a value (SET, HSET, HDEL, DEL before an HSET, ZADD, ZREM) and reads are. GETDEL is
not (sent again after its first reply was lost, it finds nothing: a ticket only late would be refused as
unknown), so `getdel` is sent at most once: a lost or late reply raises the link's error, which the gateway
answers as unavailable. Never INCR and the like.

Replies come as RESP gives them (bytes, ints, lists, None), which redis-py's own replies to these
commands are, except that it turns a write's OK into True and a score into a float: a write's reply is
not for reading, a score only for being there or not.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import DataError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .client import node_of
from .lean_link import Command, LeanLink

Value = bytes | str | int | float


class LeanCommands:
    """One process's small commands: over `link` where there is one, else (and for what it cannot carry)
    through `client`, redis-py's client of the same Redis (a server or a cluster)."""

    def __init__(self, client: Any, link: LeanLink | None) -> None:  # Any: a redis-py client (server or cluster)
        self.client = client
        self.link = link if link is not None and link.usable else None

    def pipeline(self) -> LeanBatch:
        """A batch of commands sent together (no transaction: its keys may lie in other slots)."""
        return LeanBatch(self)

    async def one(self, *command: Value) -> Any:  # Any: a RESP reply
        return (await self.execute([list(command)]))[0]

    async def get(self, key: str) -> bytes | None:
        return await self.one("GET", key)

    async def getdel(self, key: str) -> bytes | None:
        """Sent at most once: a GETDEL whose reply was lost may have taken the value, so it is not sent again
        (a ticket would be refused as unknown when it was only late): the link's error is raised instead,
        and the caller answers unavailable. A redirect or an error reply ran nothing: redis-py sends those."""
        command: Command = ["GETDEL", key]
        if self.link is not None:
            answered = await self._over_link(self.link.address_of(node_of(self.client, key)), [command],
                                             resend_lost=False)
            if answered is not None:
                return answered[0]
        return (await self._through_redis_py([command]))[0]

    async def set(self, key: str, value: Value, *, px: int | None = None) -> None:
        await self.pipeline().set(key, value, px=px).execute()

    async def hset(self, key: str, field: str | None = None, value: Value | None = None, *,
                   mapping: Mapping[str, Value] | None = None) -> None:
        await self.pipeline().hset(key, field, value, mapping=mapping).execute()

    async def zrevrange(self, key: str, start: int, end: int) -> list[bytes]:
        return await self.one("ZREVRANGE", key, start, end)

    async def zrange(self, key: str, start: int, end: int) -> list[bytes]:
        return await self.one("ZRANGE", key, start, end)

    async def script(self, script: Any, keys: list[str], args: list[Value]) -> Any:  # Any: redis-py's AsyncScript; its reply
        """A script registered with redis-py (its sha; `script(keys=, args=)` runs it) over the link; redis-py runs
        whatever the link cannot carry, loading the script first where the server lacks it. As every command
        here, the script must be safe to run twice (a compare-and-set is)."""
        if self.link is not None:
            address = self.link.address_of(node_of(self.client, keys[0]))
            answered = await self._over_link(address, [["EVALSHA", script.sha, len(keys), *keys, *args]])
            if answered is not None:
                return answered[0]
        return await script(keys=keys, args=args)

    async def execute(self, commands: list[Command]) -> list[Any]:  # Any: RESP replies
        """The commands' replies in order, each command on its key's node (its key is its first argument);
        an error reply raises ResponseError, as redis-py's pipeline does."""
        if not commands:
            return []
        groups: dict[tuple[str, int] | None, tuple[Any, list[int]]] = {}  # Any: a cluster node or None
        for index, command in enumerate(commands):
            node = node_of(self.client, str(command[1]))
            address = self.link.address_of(node) if self.link is not None else None
            groups.setdefault(address, (node, []))[1].append(index)
        replies: list[Any] = [None] * len(commands)  # Any: RESP replies

        async def one_node(address: tuple[str, int] | None, indexes: list[int]) -> None:
            sent = [commands[i] for i in indexes]
            answered = await self._over_link(address, sent)
            if answered is None:
                answered = await self._through_redis_py(sent)
            for index, reply in zip(indexes, answered):
                replies[index] = reply

        if len(groups) == 1:  # one server, or every key on one node: no task to gather
            (address, (_, indexes)), = groups.items()
            await one_node(address, indexes)
        else:
            await asyncio.gather(*(one_node(address, indexes) for address, (_, indexes) in groups.items()))
        return replies

    async def _over_link(self, address: tuple[str, int] | None, commands: list[Command], *,
                         resend_lost: bool = True) -> list[Any] | None:
        """The link's replies, or None when redis-py must send the batch again (see the module doc);
        `resend_lost` false raises the link's error where the batch may have run without its reply coming."""
        if self.link is None or address is None:
            return None
        try:
            answered = await self.link.execute(address, commands)
        except (RedisConnectionError, RedisTimeoutError):
            if not resend_lost:
                raise
            return None
        if any(isinstance(reply, ResponseError) for reply in answered):
            return None  # a redirect, or an error redis-py raises as it always did
        return answered

    async def _through_redis_py(self, commands: list[Command]) -> list[Any]:  # Any: RESP replies
        if len(commands) == 1:
            return [await self.client.execute_command(*commands[0])]
        pipe = self.client.pipeline(transaction=False)
        for command in commands:
            pipe.execute_command(*command)
        return list(await pipe.execute())


class LeanBatch:
    """Commands queued as redis-py's pipeline queues them (the few the lifecycle uses), then sent together."""

    def __init__(self, commands: LeanCommands) -> None:
        self._via = commands
        self.commands: list[Command] = []

    def _add(self, *command: Value) -> LeanBatch:
        for arg in command:  # as redis-py refuses them: the link would send "None" or "True" as text
            if arg is None or isinstance(arg, bool):
                raise DataError(f"invalid input of type {type(arg).__name__!r} in {command[0]!s}: convert it first")
        self.commands.append(list(command))
        return self

    def get(self, key: str) -> LeanBatch:
        return self._add("GET", key)

    def set(self, key: str, value: Value, *, px: int | None = None) -> LeanBatch:
        return self._add("SET", key, value, "PX", px) if px is not None else self._add("SET", key, value)

    def delete(self, key: str) -> LeanBatch:
        return self._add("DEL", key)

    def hset(self, key: str, field: str | None = None, value: Value | None = None, *,
             mapping: Mapping[str, Value] | None = None) -> LeanBatch:
        pairs: list[Value] = [] if field is None or value is None else [field, value]
        for name, item in (mapping or {}).items():
            pairs += [name, item]
        if not pairs:
            raise ValueError("hset needs a field and value or a mapping")
        return self._add("HSET", key, *pairs)

    def hdel(self, key: str, *fields: str) -> LeanBatch:
        return self._add("HDEL", key, *fields)

    def zadd(self, key: str, mapping: Mapping[str, float]) -> LeanBatch:
        pairs: list[Value] = []
        for member, score in mapping.items():
            pairs += [score, member]
        return self._add("ZADD", key, *pairs)

    def zrem(self, key: str, *members: str) -> LeanBatch:
        return self._add("ZREM", key, *members)

    def pexpire(self, key: str, ms: int) -> LeanBatch:
        return self._add("PEXPIRE", key, ms)

    def hmget(self, key: str, fields: list[str]) -> LeanBatch:
        return self._add("HMGET", key, *fields)

    def zscore(self, key: str, member: str) -> LeanBatch:
        return self._add("ZSCORE", key, member)

    async def execute(self) -> list[Any]:  # Any: RESP replies
        commands, self.commands = self.commands, []
        return await self._via.execute(commands)
