"""EventStore: append-only event streams on Redis Streams, one stream per game (or per race).

Keys (all of a game's keys share the hash tag `{<game id>}`, so they sit in one cluster slot and one
Lua script may touch them together):
- `arena:game:{<id>}:log`   the stream; entry id `0-<version>`, one field `e` = msgpack StoredEvent.
- `arena:game:{<id>}:moves` hash: client move id -> version the move was stored at.
Never a TTL or MAXLEN on either: the log is forever (it is the game).
A store has a namespace, the keys' first part: "game" (the default) for games, "race" for races
(`arena:race:{<id>}:log`), so each kind of stream is found by its own scan pattern.

Works with `redis.asyncio.Redis` and `redis.asyncio.RedisCluster` clients (see services.redis.client).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import NoScriptError, RedisError

from services.store.append_script import APPEND_LUA, APPEND_SHA, APPENDED, CONFLICT, DUPLICATE
from services.store.envelope import (
    ENTRY_FIELD,
    AppendRequest,
    AppendResult,
    NewEvent,
    StoredEvent,
    check_move_id,
    check_stream_id,
    decode_event,
    encode_event,
    log_key,
    moves_key,
)
from services.store.errors import StoreError, VersionConflict
from services.store.keys import GAME_STREAMS, NAMESPACES, updates_channel
from services.redis.lean_commands import LeanCommands
from services.redis.lean_link import LeanLink
from services.store.append_link import RESEND, run_scripts
from services.store.replication import ReplicaAck, ReplicaTimeout, add_wait, node_name, node_of


# The append script compares versions as Lua numbers (doubles): past 2**53 they are no longer exact.
MAX_VERSION = 2**53


def wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class EventStore:
    """Optimistic-concurrency event store. `clock` gives ts_ms (Unix ms) for new events; `replica_ack`
    makes every append wait for replicas (services/store/replication.py), None answers from the master;
    `lean_appends` sends batches of appends over lean pipelined connections (services/store/append_link.py)
    where the client allows, redis-py taking whatever they cannot carry or what `link_timeout` seconds did
    not answer."""

    def __init__(
        self,
        client: aioredis.Redis | aioredis.RedisCluster,
        *,
        clock: Callable[[], int] = wall_clock_ms,
        namespace: str = GAME_STREAMS,
        replica_ack: ReplicaAck | None = None,
        lean_appends: bool = False,
        link_timeout: float | None = 5.0,
    ) -> None:
        if namespace not in NAMESPACES:
            raise ValueError(f"namespace must be one of {sorted(NAMESPACES)}, not {namespace!r}")
        self.client = client
        self.clock = clock
        self.namespace = namespace  # whose streams: game logs by default; "daily", "race" for theirs
        self.replica_ack = replica_ack
        link = LeanLink(client, reply_timeout=link_timeout) if lean_appends else None
        self.link = link if link is not None and link.usable else None
        # Small commands over the same connections: a stream's version (a socket's first look at its game),
        # and the game service's and sessions' lifecycle commands (services/gateway/wiring.py).
        self.lean = LeanCommands(client, self.link)

    async def aclose(self) -> None:
        """Close the lean connections (the redis-py client is the caller's to close)."""
        if self.link is not None:
            await self.link.aclose()

    # ---- writing -------------------------------------------------------------------------------
    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        move_id: str | None = None,
    ) -> AppendResult:
        """Append `events` if the stream is at `expected_version` (0 = new stream), atomically.

        A `move_id` seen before returns the first result with duplicate=True and writes nothing (checked
        before the version, so a retry after a lost reply is answered even though the version moved on).
        Raises VersionConflict (nothing written) when the stream is elsewhere; ValueError on bad input;
        ReplicaTimeout when replicas are asked for and too few confirmed in time (the append IS stored).
        """
        # With replica acks: the script and its WAIT in one pipeline, on one connection. With the lean link: its
        # round trip costs a fifth of redis-py's (a game's creation and its first look are appends too).
        if self.replica_ack is not None or self.link is not None:
            outcome = (await self.append_many([AppendRequest(stream_id, expected_version, list(events), move_id)]))[0]
            if isinstance(outcome, StoreError):
                raise outcome
            return outcome
        keys, args, ts_ms = self._script_call(stream_id, expected_version, events, move_id)
        try:
            try:
                reply = await self.client.evalsha(APPEND_SHA, 2, *keys, *args)
            except NoScriptError:  # a fresh or restarted server: load once, then the sha works again
                await self.client.script_load(APPEND_LUA)
                reply = await self.client.evalsha(APPEND_SHA, 2, *keys, *args)
        except RedisError as exc:
            raise StoreError(f"append to {stream_id!r} failed: {exc}") from exc
        outcome = _outcome(stream_id, expected_version, reply, ts_ms)
        if isinstance(outcome, VersionConflict):
            raise outcome
        return outcome

    async def append_many(self, batch: Sequence[AppendRequest]) -> list[AppendResult | StoreError]:
        """Run many appends (usually to different streams) in ONE pipeline round trip.

        Each request is atomic on its own, exactly as `append`; they are not atomic together. The result
        list is in request order: an AppendResult, a VersionConflict (returned, not raised), or another
        StoreError for a request the server refused (a ReplicaTimeout: stored, too few replicas confirmed).
        Bad input raises ValueError before anything is sent. Requests for the same stream run in the order given.
        """
        for request in batch:
            if not isinstance(request, AppendRequest):
                raise ValueError(f"append_many takes AppendRequest values, not {type(request).__name__}")
        calls = [self._script_call(r.stream_id, r.expected_version, r.events, r.move_id) for r in batch]
        results: list[AppendResult | StoreError | None] = [None] * len(batch)
        pending = list(range(len(batch)))
        for attempt in range(2):
            if not pending:
                break
            replies, confirmed = await self._pipeline_evalsha([calls[i][:2] for i in pending])
            missing_script = []
            for index, reply in zip(pending, replies):
                if isinstance(reply, NoScriptError) and attempt == 0:
                    missing_script.append(index)  # nothing ran for it: safe to send again
                elif isinstance(reply, Exception):
                    results[index] = StoreError(f"append to {batch[index].stream_id!r} failed: {reply}")
                else:
                    request = batch[index]
                    outcome = _outcome(request.stream_id, request.expected_version, reply, calls[index][2])
                    results[index] = self._confirmed(outcome, request, confirmed)
            if missing_script:
                try:
                    await self.client.script_load(APPEND_LUA)
                except RedisError as exc:
                    raise StoreError(f"loading the append script failed: {exc}") from exc
            pending = missing_script
        retried = [i for i, result in enumerate(results) if isinstance(result, AppendResult) and result.duplicate]
        if self.replica_ack is not None and retried:
            await self._reconfirm([batch[i] for i in retried], [results[i] for i in retried], results, retried)
        return results  # type: ignore[return-value]  # every slot is filled by now

    def _confirmed(self, outcome, request: AppendRequest, confirmed: dict[str, object]):
        """A fresh append's result once its node's WAIT says enough replicas have it (duplicates: later)."""
        if self.replica_ack is None or not isinstance(outcome, AppendResult) or outcome.duplicate:
            return outcome
        count = confirmed.get(node_name(node_of(self.client, log_key(request.stream_id))))
        if isinstance(count, Exception):
            return StoreError(f"append to {request.stream_id!r} is stored; waiting for replicas failed: {count}")
        if not isinstance(count, int) or count < self.replica_ack.replicas:
            ack = self.replica_ack
            return ReplicaTimeout(request.stream_id, count if isinstance(count, int) else 0, ack.replicas, ack.timeout_ms)
        return outcome

    async def _reconfirm(self, requests, outcomes, results, indexes) -> None:
        """A retried move id wrote nothing, so no WAIT covered it: write its move record again (the same
        value) and wait for that write, which a replica can only have after the original move."""
        ack = self.replica_ack
        assert ack is not None, "only appends waited for by replicas are confirmed again"
        pipe = self.client.pipeline(transaction=False)
        nodes: dict[str, object] = {}
        for request, outcome in zip(requests, outcomes):
            if request.move_id is None:
                continue
            pipe.hset(moves_key(request.stream_id), request.move_id, outcome.version)
            node = node_of(self.client, log_key(request.stream_id))
            nodes.setdefault(node_name(node), node)
        for node in nodes.values():
            add_wait(pipe, ack, node)
        try:
            replies = await pipe.execute(raise_on_error=False)
        except RedisError as exc:
            raise StoreError(f"confirming {len(requests)} retried appends failed: {exc}") from exc
        confirmed = dict(zip(nodes, replies[len(replies) - len(nodes):]))
        for index, request, outcome in zip(indexes, requests, outcomes):
            checked = self._confirmed(AppendResult(outcome.version, duplicate=False), request, confirmed)
            results[index] = outcome if isinstance(checked, AppendResult) else checked

    async def _pipeline_evalsha(
        self, calls: list[tuple[list[str], list[bytes | str | int]]]
    ) -> tuple[list, dict[str, object]]:
        """The scripts' replies, and (with replica acks) each node's WAIT reply, by node name: over the
        lean link where there is one, redis-py sending again what the link could not carry."""
        if self.link is None:
            return await self._redis_py_evalsha(calls)
        ack = self.replica_ack
        replies, confirmed = await run_scripts(self.link, APPEND_SHA, calls, (ack.replicas, ack.timeout_ms) if ack else None)
        resend = [index for index, reply in enumerate(replies) if reply is RESEND]
        if resend:
            again, again_confirmed = await self._redis_py_evalsha([calls[index] for index in resend])
            for index, reply in zip(resend, again):
                replies[index] = reply
            for name, count in again_confirmed.items():  # a node written both ways counts its lesser WAIT
                confirmed[name] = _lesser(confirmed[name], count) if name in confirmed else count
        return replies, confirmed

    async def _redis_py_evalsha(
        self, calls: list[tuple[list[str], list[bytes | str | int]]]
    ) -> tuple[list, dict[str, object]]:
        pipe = self.client.pipeline(transaction=False)
        nodes: dict[str, object] = {}
        for keys, args in calls:
            # execute_command, not pipe.evalsha: redis-py blocks the evalsha method on cluster pipelines
            # (it cannot know the keys of an arbitrary script), yet routes EVALSHA by its declared keys.
            pipe.execute_command("EVALSHA", APPEND_SHA, 2, *keys, *args)
            if self.replica_ack is not None:
                node = node_of(self.client, keys[0])
                nodes.setdefault(node_name(node), node)
        for node in nodes.values():  # after the scripts: each node's WAIT covers its appends
            if self.replica_ack is not None:  # (nodes are listed only with replica acks)
                add_wait(pipe, self.replica_ack, node)
        try:
            replies = await pipe.execute(raise_on_error=False)
        except RedisError as exc:
            raise StoreError(f"append_many of {len(calls)} appends failed: {exc}") from exc
        return replies[: len(calls)], dict(zip(nodes, replies[len(calls):]))

    def _script_call(
        self, stream_id: str, expected_version: int, events: Sequence[NewEvent], move_id: str | None
    ) -> tuple[list[str], list[bytes | str | int], int]:
        check_stream_id(stream_id)
        check_move_id(move_id)
        if not _is_count(expected_version, minimum=0):
            raise ValueError(f"expected_version must be an int in 0..2**53, not {expected_version!r}")
        if not events:
            raise ValueError("an append needs at least one event")
        ts_ms = self.clock()
        envelopes: list[bytes | str | int] = []
        for offset, event in enumerate(events, start=1):
            if not isinstance(event, NewEvent):
                raise ValueError(f"events must be NewEvent values, not {type(event).__name__}")
            # NewEvent does not check its fields; an envelope that cannot decode would poison the log
            # forever (it is never trimmed), so every field is checked before anything is sent.
            if not isinstance(event.type, str) or not event.type:
                raise ValueError(f"event type must be a non-empty string, not {event.type!r}")
            if not _is_count(event.schema, minimum=1):
                raise ValueError(f"event schema must be an int in 1..2**53, not {event.schema!r}")
            if not isinstance(event.data, bytes):
                raise ValueError(f"event data must be bytes, not {type(event.data).__name__}")
            version = expected_version + offset
            stored = StoredEvent(event.type, version, event.schema, ts_ms, event.data, move_id)
            envelopes.append(encode_event(stored))
        keys = [log_key(stream_id, self.namespace), moves_key(stream_id, self.namespace)]
        # A game's log: its update channel's subscribers are counted by the script (append_script.py).
        channel = updates_channel(stream_id) if self.namespace == GAME_STREAMS else ""
        return keys, [expected_version, move_id or "", channel, *envelopes], ts_ms

    # ---- reading -------------------------------------------------------------------------------
    async def read(self, stream_id: str, from_version: int = 1) -> list[StoredEvent]:
        """Every event from `from_version` on, in order ([] for an unknown stream)."""
        check_stream_id(stream_id)
        if not _is_count(from_version, minimum=1):
            raise ValueError(f"from_version must be an int in 1..2**53, not {from_version!r}")
        # Over the lean link (a whole game's log for the validator's re-check, a rebuild): RESP's [id, [field,
        # value, ...]] per entry; redis-py, where it sends the read instead, answers (id, {field: value}).
        entries = await self.lean.one("XRANGE", log_key(stream_id, self.namespace), f"0-{from_version}", "+")
        return [decode_event(_entry_field(fields)) for _entry_id, fields in entries]

    async def version(self, stream_id: str) -> int:
        """The stream's current version: the number of events in it (0 for a missing stream)."""
        return int(await self.lean.one("XLEN", log_key(check_stream_id(stream_id), self.namespace)))

    async def exists(self, stream_id: str) -> bool:
        return bool(await self.client.exists(log_key(check_stream_id(stream_id), self.namespace)))

    async def move_result(self, stream_id: str, move_id: str) -> int | None:
        """The version `move_id` was stored at, or None if that move id was never stored."""
        if check_move_id(move_id) is None:
            raise ValueError("move_result needs a move id, not None")
        stored = await self.client.hget(moves_key(check_stream_id(stream_id), self.namespace), move_id)
        return None if stored is None else int(stored)


def _entry_field(fields: Any) -> bytes:  # Any: a stream entry's fields as RESP or redis-py gives them
    """The entry's event bytes, from its fields as a flat [field, value, ...] list or as a mapping."""
    if isinstance(fields, dict):
        return fields[ENTRY_FIELD]
    for i in range(0, len(fields), 2):
        if fields[i] == ENTRY_FIELD:
            return fields[i + 1]
    raise KeyError(ENTRY_FIELD)


def _outcome(stream_id: str, expected: int, reply: list, ts_ms: int) -> AppendResult | VersionConflict:
    status, version = int(reply[0]), int(reply[1])
    watchers = int(reply[2]) if int(reply[2]) >= 0 else None  # -1: not counted (append_script.py)
    if status == APPENDED:
        return AppendResult(version, duplicate=False, ts_ms=ts_ms, watchers=watchers)
    if status == DUPLICATE:
        return AppendResult(version, duplicate=True, watchers=watchers)
    if status == CONFLICT:
        return VersionConflict(stream_id, expected, version)
    raise StoreError(f"unexpected reply from the append script: {reply!r}")


def _lesser(first: object, second: object) -> object:
    """Of two WAIT replies for one node, the one that proves less (an error proves nothing)."""
    for reply in (first, second):
        if not isinstance(reply, int):
            return reply
    return min(first, second)  # type: ignore[call-overload]  # both ints by here


def _is_count(value: object, *, minimum: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and minimum <= value <= MAX_VERSION
