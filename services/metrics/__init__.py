"""The server's Prometheus metrics: one place defines them, the call sites only say what happened.

Counters and histograms count what this process did; the gateway's /metrics adds what only Redis knows
(the validator's queue and verdict totals, read when Prometheus scrapes). Several processes on one host
(PROMETHEUS_MULTIPROC_DIR set to one empty folder for all of them, before they start) are added up by
prometheus-client's multiprocess collector: counters summed, socket gauges summed over live processes,
the Redis figures taken from the most recent scrape. See docs/operations.md for the list and meanings.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Awaitable
from typing import Any, TypeVar

from prometheus_client import Counter, Gauge, Histogram

T = TypeVar("T")

MOVES = Counter(
    "arena_moves", "Moves answered through the game sockets, by outcome and rejection code (none if accepted)",
    ["outcome", "code"],
)
# From the decoded frame to the answer: decide, append (with its fsync), evolve.
MOVE_SECONDS = Histogram(
    "arena_move_seconds", "Time to answer a move, from its frame to its answer",
    buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
SOCKETS_OPEN = Gauge(
    "arena_sockets_open", "Game sockets open, by kind (player or spectator)", ["kind"], multiprocess_mode="livesum"
)
FANOUT_PENDING = Gauge(
    "arena_fanout_pending",
    "Updates made but not sent yet, by stage: publish (to Redis, for other gateways), socket (in slow sockets' queues)",
    ["stage"], multiprocess_mode="livesum",
)
REDIS_ERRORS = Counter(
    "arena_redis_errors", "Redis failures met, by where (socket: a move or sync answered unavailable; ready; validator)",
    ["where"],
)
GAMES_CREATED = Counter(
    "arena_games_created", "Games created, by game and kind (daily: daily attempts; race: racers' games)",
    ["game", "kind"],
)
# Race counts come from the race's own log: one per event appended, so created/started/ended can be compared.
RACE_EVENTS = Counter(
    "arena_race_events", "Race events appended by this process, by type (race_created, race_started, race_ended, ...)",
    ["type"],
)
GAMES_ENDED = Counter("arena_games_ended", "Games ended, by game, kind and status", ["game", "kind", "status"])
VALIDATOR_CHECKED = Counter(
    "arena_validator_checked", "Wins this process's validator workers judged, by verdict (and dead letters)", ["outcome"]
)
# The queue and the totals live in Redis and are the same for every process: the most recent reading counts.
VALIDATOR_PENDING = Gauge(
    "arena_validator_pending", "Submissions delivered to a validator worker, not acknowledged yet",
    multiprocess_mode="mostrecent",
)
VALIDATOR_LAG = Gauge(
    "arena_validator_lag", "Submissions not yet delivered to any validator worker", multiprocess_mode="mostrecent"
)
VALIDATOR_VERDICTS = Gauge(
    "arena_validator_verdicts", "Verdicts written so far by all validators, by outcome (from Redis)", ["outcome"],
    multiprocess_mode="mostrecent",
)

_socket_kinds: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()  # Any: any socket object


async def observe_move(submitting: Awaitable[T]) -> T:
    """Await a move's submission (a MoveResult), timing it and counting its answer."""
    started = time.perf_counter()
    result = await submitting
    MOVE_SECONDS.observe(time.perf_counter() - started)
    answer = result.answer  # type: ignore[attr-defined]  # a submit's result (metrics imports no service)
    (_ACCEPTED if answer.accepted else MOVES.labels("rejected", answer.code)).inc()
    return result


_ACCEPTED = MOVES.labels("accepted", "none")  # nearly every move's: its child looked up once, not per move


def socket_shown(socket: object, role: str) -> None:
    """A socket got its snapshot as `role`: counted once, however many syncs follow."""
    if socket not in _socket_kinds:
        _socket_kinds[socket] = role
        SOCKETS_OPEN.labels(role).inc()


def socket_closed(socket: object) -> None:
    role = _socket_kinds.pop(socket, None)
    if role is not None:
        SOCKETS_OPEN.labels(role).dec()


def game_created(created: Any) -> None:  # Any: a GameCreated: metrics imports no service
    """`created`: the game's GameCreated entry."""
    GAMES_CREATED.labels(created.game, created.kind).inc()


def game_ended(created: Any, status: str) -> None:  # Any: a GameCreated: metrics imports no service
    GAMES_ENDED.labels(created.game, created.kind, status).inc()


def redis_error(where: str) -> None:
    REDIS_ERRORS.labels(where).inc()
