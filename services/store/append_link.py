"""The store's batches of appends over the lean link (services/redis/lean_link.py).

A batch's EVALSHAs go to each node's lean connection in one write; whatever does not come back usable (a
cluster redirect, any error reply but NOSCRIPT, a connection that failed, was lost or did not answer in
time) is sent again through redis-py by the store. Sending an append again is safe: it is checked by move
id and expected version, so it never writes twice. WAIT counts the writes of its own connection, so a
batch's WAIT goes on the lean connection after that node's appends.
"""

from __future__ import annotations

import asyncio
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from ..redis.lean_link import LeanLink
from .replication import node_name, node_of

RESEND = object()  # a reply the link could not use: the store sends that call again through redis-py


async def run_scripts(
    link: LeanLink, sha: str, calls: list[tuple[list[str], list[Any]]], wait: tuple[int, int] | None  # Any: script keys and arguments
) -> tuple[list[Any], dict[str, Any]]:  # Any: JSON
    """EVALSHA each call on its node's link connection, then WAIT there (`wait` = replicas, timeout ms).

    Replies in call order (RESEND where the link could not get a usable one) and, with `wait`, each
    node's WAIT reply by node name for the nodes whose connection answered.
    """
    groups: dict[tuple[str, int], tuple[Any, list[int]]] = {}  # Any: a node, and its calls
    for index, (keys, _args) in enumerate(calls):
        node = node_of(link.client, keys[0])
        groups.setdefault(link.address_of(node), (node, []))[1].append(index)
    replies: list[Any] = [RESEND] * len(calls)  # Any: RESP replies
    confirmed: dict[str, Any] = {}  # Any: JSON

    async def one_node(address: tuple[str, int], node: Any, indexes: list[int]) -> None:  # Any: a redis-py cluster node
        commands = [["EVALSHA", sha, len(calls[i][0]), *calls[i][0], *calls[i][1]] for i in indexes]
        if wait is not None:
            commands.append(["WAIT", *wait])
        try:
            answered = await link.execute(address, commands)
        except (RedisConnectionError, RedisTimeoutError):
            return  # every call of this node is sent again (a connection that timed out was dropped)
        carried = False
        for index, reply in zip(indexes, answered):
            usable = not isinstance(reply, ResponseError) or isinstance(reply, NoScriptError)
            replies[index] = reply if usable else RESEND
            carried = carried or usable
        if wait is not None and carried:  # a WAIT after nothing written here (a node that redirects) proves nothing
            confirmed[node_name(node)] = answered[-1]

    if len(groups) == 1:  # one server, or a batch on one node: no task to gather (a lone move's batch)
        (address, (node, indexes)), = groups.items()
        await one_node(address, node, indexes)
    else:
        await asyncio.gather(*(one_node(address, node, indexes) for address, (node, indexes) in groups.items()))
    return replies, confirmed
