"""Sessions and the rate limits' store on a plain Redis and on a Redis Cluster: sign-out generations,
one-use tickets, and Litestar's RedisStore (wrapped to fail open) on the cluster client."""

from __future__ import annotations

import uuid

import pytest
import redis.asyncio as aioredis

from services.gateway.guards.limits import FailOpenRedisStore
from services.identity.tokens import Identity, TokenClaims
from services.redis.client import open_redis
from services.redis.embedded import free_port
from services.identity.sessions import Sessions
from services.redis.lean_commands import LeanCommands
from services.redis.lean_link import LeanLink
from services.store.keys import RATE_LIMIT_NAMESPACE

pytestmark = pytest.mark.integration


@pytest.fixture(params=["plain", "cluster"])
async def client(request, redis_url):
    url = request.getfixturevalue("redis_cluster").url if request.param == "cluster" else redis_url
    client = await open_redis(url)
    yield client
    await client.aclose()


@pytest.fixture(params=[False, True], ids=["redis-py", "lean"])
async def sessions_of(request, client):
    """Sessions on `client`; lean: their generation reads and tickets over a lean link (as the gateway has
    them), which must answer as redis-py does."""
    link = LeanLink(client, reply_timeout=5) if request.param else None
    yield lambda identity: Sessions(client, identity, ticket_ttl_seconds=30, lean=LeanCommands(client, link))
    if link is not None:
        assert link.round_trips > 0
        await link.aclose()


def fresh_player() -> str:
    return f"g_{uuid.uuid4().hex[:16]}"


async def test_sign_out_ends_every_earlier_token_and_its_tickets(client, sessions_of):
    identity = Identity(b"sessions-test", ttl_seconds=600)
    sessions = sessions_of(identity)
    player = fresh_player()
    first = await sessions.check(identity.token_for(player).token)
    assert isinstance(first, TokenClaims)
    renewed = await sessions.check((await sessions.refresh(first)).token)
    assert isinstance(renewed, TokenClaims) and renewed.player_id == player
    ticket = await sessions.new_ticket(first)
    assert 0 < ticket.expires_in_ms <= 30_000
    await sessions.sign_out(renewed)
    for token in (identity.token_for(player).token, (await sessions.refresh(first)).token):
        assert (await sessions.check(token)).code == "token_revoked"  # issued at the old generation
    assert (await sessions.redeem(ticket.ticket)).code == "token_revoked"
    assert 0 < await client.ttl(f"arena:player:{{{player}}}:token_gen") <= 600


async def test_a_ticket_is_redeemed_once_and_never_outlives_its_token(sessions_of):
    identity = Identity(b"sessions-test", ttl_seconds=600)
    sessions = sessions_of(identity)
    claims = await sessions.check(identity.token_for(fresh_player()).token)
    ticket = await sessions.new_ticket(claims)
    assert await sessions.redeem(ticket.ticket) == claims.player_id
    assert (await sessions.redeem(ticket.ticket)).code == "bad_ticket"
    for made_up in (None, "", "x" * 65, "never-issued"):
        assert (await sessions.redeem(made_up)).code == "bad_ticket"
    nearly_expired = TokenClaims(claims.player_id, claims.generation, expires_at=int(claims.expires_at - 599))
    assert (await sessions.new_ticket(nearly_expired)).expires_in_ms <= 1000


async def test_the_rate_limit_store_works_on_the_client_and_fails_open_without_it(client):
    store = FailOpenRedisStore(client, namespace=RATE_LIMIT_NAMESPACE)
    key = f"RateLimitMiddleware::test:{uuid.uuid4().hex}"
    await store.set(key, b'{"history": [1], "reset": 2}', expires_in=60)
    assert await store.get(key) == b'{"history": [1], "reset": 2}'
    assert 0 < await client.ttl(f"{RATE_LIMIT_NAMESPACE}:{key}") <= 60
    dead = FailOpenRedisStore(_unreachable_client(), namespace=RATE_LIMIT_NAMESPACE)
    await dead.set(key, b"x", expires_in=60)  # no error: not counted
    assert await dead.get(key) is None  # no error: nothing counted, the request goes through


def _unreachable_client():
    """A client of a port nobody listens on."""
    return aioredis.Redis(host="127.0.0.1", port=free_port(), socket_connect_timeout=0.2)

