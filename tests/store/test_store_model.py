"""Property: any sequence of appends and batches, with stale versions and retried move ids, leaves the
store exactly as a plain in-memory model of the contract says (embedded Redis; examples per profile)."""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import given
from hypothesis import strategies as st

from services.redis.client import open_redis
from services.store import AppendRequest, AppendResult, EventStore, NewEvent, VersionConflict
from tests.fixtures.redis import unique_id


@dataclass(frozen=True)
class Op:
    game: int  # index into the example's streams
    version_offset: int  # expected version = the model's current version + this (0 = a fresh writer)
    types: tuple[str, ...]
    move_id: str | None


@dataclass
class Model:
    """The contract, in memory: streams of (type, data, move id), and move id -> version per stream."""

    logs: dict[str, list[tuple[str, bytes, str | None]]] = field(default_factory=dict)
    moves: dict[str, dict[str, int]] = field(default_factory=dict)

    def apply(self, request: AppendRequest) -> AppendResult | VersionConflict:
        log = self.logs.setdefault(request.stream_id, [])
        moves = self.moves.setdefault(request.stream_id, {})
        if request.move_id is not None and request.move_id in moves:
            return AppendResult(moves[request.move_id], True, watchers=0)  # nobody subscribes here
        if request.expected_version != len(log):
            return VersionConflict(request.stream_id, request.expected_version, len(log))
        log.extend((event.type, event.data, request.move_id) for event in request.events)
        if request.move_id is not None:
            moves[request.move_id] = len(log)
        return AppendResult(len(log), False, FIXED_TS, watchers=0)


FIXED_TS = 1_700_000_000_000

ops = st.builds(
    Op,
    game=st.integers(0, 2),
    version_offset=st.sampled_from([0, 0, 0, -1, 1, -3]),
    types=st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=3).map(tuple),
    move_id=st.none() | st.sampled_from(["m1", "m2", "m3", "m4"]),
)
steps = st.lists(st.lists(ops, min_size=1, max_size=4), min_size=1, max_size=12)  # a step: 1 op or a batch


def request_for(op: Op, streams: list[str], model: Model, serial: int) -> AppendRequest:
    stream = streams[op.game]
    current = len(model.logs.get(stream, []))
    expected = max(0, current + op.version_offset)
    events = [NewEvent(kind, f"{serial}:{kind}".encode()) for kind in op.types]
    return AppendRequest(stream, expected, events, op.move_id)


@given(steps=steps)
async def test_the_store_behaves_like_the_model(redis_url: str, steps: list[list[Op]]) -> None:
    client = await open_redis(redis_url)
    try:
        store, model = EventStore(client, clock=lambda: FIXED_TS), Model()
        streams = [unique_id("model") for _ in range(3)]
        serial = 0
        for step in steps:
            if len(step) == 1:
                serial += 1
                request = request_for(step[0], streams, model, serial)
                wanted = model.apply(request)
                try:
                    got = await store.append(
                        request.stream_id, request.expected_version, request.events, move_id=request.move_id
                    )
                except VersionConflict as conflict:
                    got = conflict
                assert got == wanted
            else:
                # Expected versions are computed as the writer saw the store before the batch.
                batch = []
                for op in step:
                    serial += 1
                    batch.append(request_for(op, streams, model, serial))
                wanted_batch = [model.apply(request) for request in batch]
                assert await store.append_many(batch) == wanted_batch
        for stream in streams:
            stored = await store.read(stream)
            assert [(e.type, e.data, e.move_id) for e in stored] == model.logs.get(stream, [])
            assert [e.version for e in stored] == list(range(1, len(stored) + 1))
            assert await store.version(stream) == len(stored)
            for move_id in ("m1", "m2", "m3", "m4"):
                assert await store.move_result(stream, move_id) == model.moves.get(stream, {}).get(move_id)
    finally:
        await client.aclose()
