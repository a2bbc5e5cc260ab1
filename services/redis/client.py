"""Redis client factory: one URL decides plain Redis or Redis Cluster.

(With no REDIS_URL at all, `arena serve` starts an EmbeddedRedis itself and passes its URL here.)
URL forms (all accepted; the docs use the first two):
- `redis://host:port/0` or `rediss://...`: a single Redis server (`redis.asyncio.Redis`).
- `redis+cluster://host:port` (or `rediss+cluster://`): a Redis Cluster; host:port is any one node,
  the client discovers the rest (`redis.asyncio.RedisCluster`).
- `redis://host:port?cluster=true`: the same cluster client, for tools that only allow `redis://`.

Replies are parsed by hiredis when it is installed (it is a project dependency): redis-py picks it itself.

Connections are pooled and bounded: at most `pool_size` per server, and a command that finds them all in
use waits up to `pool_timeout` seconds for one, then fails with ConnectionError("No connection available.")
(which the gateway answers as unavailable / 503). One server: redis-py's BlockingConnectionPool. A cluster:
WaitingRedisCluster (redis-py's asyncio cluster client has no blocking pool of its own).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import redis.asyncio as aioredis
from redis.utils import HIREDIS_AVAILABLE

from .waiting_cluster import WaitingRedisCluster

CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}
TRUE_WORDS = {"1", "true", "yes", "on"}

AnyRedis = aioredis.Redis | aioredis.RedisCluster


def as_text(reply: bytes | str) -> str:
    """A reply as text: our clients answer bytes, but redis-py's types say bytes or str."""
    return reply.decode() if isinstance(reply, bytes) else reply


def as_bytes(reply: bytes | str) -> bytes:
    """A reply as bytes (msgspec decodes bytes): our clients answer bytes, but redis-py's types say either."""
    return reply if isinstance(reply, bytes) else reply.encode()


_CLUSTER_TYPES: dict[type, bool] = {}  # client class -> is a cluster client


def is_cluster(client: Any) -> bool:  # Any: a redis-py client, one server's or a cluster's (they share no type)
    # Asked for every append. redis-py's RedisCluster has typing's Protocol metaclass, whose isinstance
    # is some 7 times a plain class lookup's cost (0.5 against 0.07 us here): answered once per class.
    kind = type(client)
    known = _CLUSTER_TYPES.get(kind)
    if known is None:
        known = _CLUSTER_TYPES[kind] = isinstance(client, aioredis.RedisCluster)
    return known


def node_of(client: Any, key: str) -> Any:  # Any: a redis-py client, one server's or a cluster's (they share no type)
    """The cluster node a key's commands go to (None for a single server: everything goes to it)."""
    return client.get_node_from_key(key) if is_cluster(client) else None


POOL_SIZE = 100  # redis-py's own default cap; services/runtime/settings.py carries the configured one
POOL_TIMEOUT = 5.0


def parse_redis_url(url: str) -> tuple[str, bool]:
    """Split `url` into (a URL redis-py understands, whether it names a cluster)."""
    parts = urlsplit(url)
    cluster = parts.scheme in CLUSTER_SCHEMES
    scheme = CLUSTER_SCHEMES.get(parts.scheme, parts.scheme)
    if scheme not in ("redis", "rediss"):
        raise ValueError(
            f"unsupported Redis URL scheme {parts.scheme!r} in {url!r}: "
            "use redis://, rediss://, redis+cluster:// or rediss+cluster://"
        )
    query = []
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        if key == "cluster":
            cluster = cluster or value.lower() in TRUE_WORDS
        else:
            query.append((key, value))
    path = parts.path
    if cluster and path not in ("", "/", "/0"):
        raise ValueError(f"a Redis Cluster has only database 0, not {path!r} in {url!r}")
    if cluster:
        path = ""
    return urlunsplit((scheme, parts.netloc, path, urlencode(query), parts.fragment)), cluster


def server_client(plain_url: str, *, pool_size: int = POOL_SIZE, pool_timeout: float = POOL_TIMEOUT) -> aioredis.Redis:
    """A client of one server on a bounded, waiting pool (no I/O until used). `plain_url` as parse_redis_url
    gives it."""
    pool = aioredis.BlockingConnectionPool.from_url(plain_url, max_connections=pool_size, timeout=pool_timeout)
    return aioredis.Redis.from_pool(pool)  # the client owns the pool: closing one closes the other


async def open_redis(url: str, *, pool_size: int = POOL_SIZE, pool_timeout: float = POOL_TIMEOUT) -> AnyRedis:
    """Connect to `url` (see the module doc for the forms) and check it answers; the caller closes it.

    Clients return raw bytes (no decode_responses): event payloads are binary msgpack.
    """
    plain_url, cluster = parse_redis_url(url)
    # The cluster client discovers the other nodes on its first command, so the PING checks them too.
    client: AnyRedis
    if cluster:
        client = WaitingRedisCluster.from_url(plain_url, max_connections=pool_size, pool_timeout=pool_timeout)
    else:
        client = server_client(plain_url, pool_size=pool_size, pool_timeout=pool_timeout)
    try:
        await client.ping()
    except BaseException:
        await client.aclose()
        raise
    return client


def hiredis_in_use() -> bool:
    """True when redis-py parses replies with hiredis (the store bench prints it)."""
    return bool(HIREDIS_AVAILABLE)
