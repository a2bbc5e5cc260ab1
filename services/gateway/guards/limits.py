"""HTTP rate limits per client address: Litestar's RateLimitMiddleware on a Redis store shared by
every gateway process, one named limit per kind of route.

A route takes a limit by naming it: `@post(..., opt=rate_limited("sign_in"))`; the limit's size comes
from settings (`limit_<name>`, env ARENA_LIMIT_<NAME>). Over it: `429` with `Retry-After` and the
usual `{code: "rate_limited", message}` body. The store fails open: when Redis does not answer in
time, requests are let through uncounted (the routes behind it answer for themselves, 503 at worst)
rather than the limiter turning them into 500s.

Litestar's middleware reads a count and writes it back under a lock of its process, not of Redis: two
processes counting the same address at the same moment both write the same count, so under a flood
through several processes a limit may be overshot by about one request per process and race. The store
keeps one small key per (limit, address), expiring with its window.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from datetime import timedelta

from litestar import Litestar, Request, Response
from litestar.exceptions import TooManyRequestsException
from litestar.middleware.base import DefineMiddleware
from litestar.middleware.rate_limit import DURATION_VALUES, RateLimitConfig
from litestar.stores.redis import RedisStore
from redis.exceptions import RedisError

from ...redis.client import AnyRedis
from ...runtime.settings import HttpLimit, Settings
from ...store.keys import RATE_LIMIT_NAMESPACE
from ..errors import ErrorBody

LIMIT_OPT = "rate_limit"
STORE_NAME = "arena_rate_limit"
STORE_TIMEOUT_S = 0.5  # a limiter check waits no longer for Redis than this
UNIT_WORDS = {"second": "a second", "minute": "a minute", "hour": "an hour", "day": "a day"}
# What each limit counts, as the 429 message says it; the keys name the settings (limit_<name>).
LIMITS = {"guests": "new guests", "sign_in": "sign-ins", "games": "new games", "tickets": "socket tickets"}

log = logging.getLogger(__name__)


def rate_limited(name: str) -> dict[str, str]:
    """A route's `opt` that puts it under the limit `name` (one of LIMITS)."""
    if name not in LIMITS:
        raise ValueError(f"no rate limit {name!r}; there are {sorted(LIMITS)}")
    return {LIMIT_OPT: name}


def configured(settings: Settings) -> dict[str, HttpLimit]:
    limits = {name: getattr(settings, f"limit_{name}") for name in LIMITS}
    return {name: limit for name, limit in limits.items() if limit is not None}


def client_address(request: Request) -> str:
    """The client's address (uvicorn sets it from X-Forwarded-For only for FORWARDED_ALLOW_IPS). An IPv6
    client counts by its /64: one host usually holds the whole /64, and could otherwise hop addresses."""
    host = request.client.host if request.client else "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class _Identifier:
    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, request: Request) -> str:
        return f"{self.name}:{client_address(request)}"


class _Applies:
    """Whether the request's route took this limit (async: a plain function would run in a thread)."""

    def __init__(self, name: str) -> None:
        self.name = name

    async def __call__(self, request: Request) -> bool:
        return request.route_handler.opt.get(LIMIT_OPT) == self.name


def limit_middleware(settings: Settings) -> list[DefineMiddleware]:
    """One middleware per configured limit; each counts only on the routes that name it."""
    return [
        RateLimitConfig(
            rate_limit=(unit, count),
            identifier_for_request=_Identifier(name),
            check_throttle_handler=_Applies(name),
            store=STORE_NAME,
        ).middleware
        for name, (count, unit) in configured(settings).items()
    ]


class FailOpenRedisStore(RedisStore):
    """Litestar's RedisStore, except that a Redis error or a slow answer counts nothing instead of raising."""

    async def get(self, key: str, renew_for: int | timedelta | None = None) -> bytes | None:
        try:
            async with asyncio.timeout(STORE_TIMEOUT_S):
                return await super().get(key, renew_for)
        except (RedisError, TimeoutError) as exc:
            log.warning("rate limit store unavailable, request let through: %s", exc)
            return None

    async def set(self, key: str, value: str | bytes, expires_in: int | timedelta | None = None) -> None:
        try:
            async with asyncio.timeout(STORE_TIMEOUT_S):
                await super().set(key, value, expires_in)
        except (RedisError, TimeoutError) as exc:
            log.warning("rate limit store unavailable, request not counted: %s", exc)


def register_limit_store(app: Litestar, redis: AnyRedis) -> None:
    """Put the limits' store on the app's Redis client (made in the lifespan, before any request)."""
    store = FailOpenRedisStore(redis, namespace=RATE_LIMIT_NAMESPACE)  # type: ignore[arg-type]  # typed for one Redis; a cluster client serves its calls too
    app.stores.register(STORE_NAME, store, allow_override=True)


def too_many_requests_handler(settings: Settings):
    """The 429 response: the usual error body, and Retry-After (seconds until the window resets)."""
    limits = configured(settings)

    def handle(request: Request, exc: TooManyRequestsException) -> Response[ErrorBody]:
        headers = dict(exc.headers or {})
        name = str(request.route_handler.opt.get(LIMIT_OPT) or "")  # "": a route of no limit (none is named so)
        count, unit = limits.get(name, (0, "minute"))
        headers["Retry-After"] = retry_after = headers.get("RateLimit-Reset") or str(DURATION_VALUES[unit])
        if name in limits:
            what = f"too many {LIMITS[name]} from your address (at most {count} {UNIT_WORDS[unit]})"
        else:  # not one of ours: nothing else raises it today
            what = "too many requests"
        message = f"{what}; try again in {retry_after} s"
        return Response(ErrorBody("rate_limited", message), status_code=429, headers=headers)

    return handle
