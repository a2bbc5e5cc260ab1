"""The EventStore contract, run on every backend (embedded Redis, container Redis, 3-master cluster)."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis

from services.redis.client import open_redis
from services.store import AppendRequest, AppendResult, EventStore, NewEvent, StoredEvent, VersionConflict
from services.store.envelope import ENTRY_FIELD, decode_event, log_key, moves_key
from services.store.keys import updates_channel
from tests.fixtures.redis import unique_id
from tests.store.conftest import FIXED_TS_MS, Backend


def events(*names: str) -> list[NewEvent]:
    return [NewEvent(name, f"payload of {name}".encode()) for name in names]


async def test_append_read_version(backend: Backend) -> None:
    store, game = backend.store, unique_id()
    assert await store.version(game) == 0
    assert not await store.exists(game)

    first = await store.append(game, 0, events("a", "b"), move_id="m1")
    second = await store.append(game, 2, [NewEvent("c", b"\x00\xff", schema=3)])

    assert (first, second) == (AppendResult(2, False, FIXED_TS_MS, 0), AppendResult(3, False, FIXED_TS_MS, 0))
    assert await store.version(game) == 3
    assert await store.exists(game)
    assert await store.read(game) == [
        StoredEvent("a", 1, 1, FIXED_TS_MS, b"payload of a", "m1"),
        StoredEvent("b", 2, 1, FIXED_TS_MS, b"payload of b", "m1"),
        StoredEvent("c", 3, 3, FIXED_TS_MS, b"\x00\xff", None),
    ]


async def test_entry_ids_are_versions_and_the_log_never_expires(backend: Backend) -> None:
    store, game = backend.store, unique_id()
    await store.append(game, 0, events("a", "b", "c"), move_id="m")
    entries = await backend.client.xrange(log_key(game))
    assert [entry_id for entry_id, _ in entries] == [b"0-1", b"0-2", b"0-3"]
    assert await backend.client.ttl(log_key(game)) == -1  # no TTL on the log...
    assert await backend.client.ttl(moves_key(game)) == -1  # ...nor on the move ids


async def test_a_namespace_keeps_its_streams_apart_from_game_logs(backend: Backend) -> None:
    races = EventStore(backend.client, clock=lambda: FIXED_TS_MS, namespace="race")
    race = unique_id("race")
    await races.append(race, 0, events("race_created"), move_id="m")
    assert await races.version(race) == 1 and await races.move_result(race, "m") == 1
    assert await backend.store.version(race) == 0 and not await backend.store.exists(race)
    assert await backend.client.exists(log_key(race, "race")) and not await backend.client.exists(log_key(race))
    assert log_key(race, "race") == f"arena:race:{{{race}}}:log"
    with pytest.raises(ValueError):
        EventStore(backend.client, namespace="nope")


async def test_stale_writer_gets_a_conflict_and_nothing_is_written(backend: Backend) -> None:
    store, game = backend.store, unique_id()
    await store.append(game, 0, events("a", "b"))
    before = await store.read(game)

    for stale in (0, 1, 3, 7):
        with pytest.raises(VersionConflict) as caught:
            await store.append(game, stale, events("late"), move_id=f"late-{stale}")
        assert (caught.value.stream_id, caught.value.expected, caught.value.actual) == (game, stale, 2)
        assert await store.move_result(game, f"late-{stale}") is None

    assert await store.read(game) == before
    assert await store.version(game) == 2


async def test_a_conflict_on_a_new_stream_does_not_create_it(backend: Backend) -> None:
    store, game = backend.store, unique_id()
    with pytest.raises(VersionConflict):
        await store.append(game, 1, events("a"))
    assert not await store.exists(game)
    assert await store.read(game) == []


async def test_duplicate_move_id_gets_the_first_result_and_writes_nothing(backend: Backend) -> None:
    store, game = backend.store, unique_id()
    assert await store.append(game, 0, events("a", "b"), move_id="m1") == AppendResult(2, False, FIXED_TS_MS, 0)
    await store.append(game, 2, events("c"), move_id="m2")
    before = await store.read(game)

    # A retry after a lost reply: the version moved on, the move id still answers, with anything attached.
    assert await store.append(game, 0, events("x"), move_id="m1") == AppendResult(2, True, watchers=0)
    assert await store.append(game, 3, events("y"), move_id="m1") == AppendResult(2, True, watchers=0)
    assert await store.append(game, 3, events("z"), move_id="m2") == AppendResult(3, True, watchers=0)

    assert await store.read(game) == before
    assert await store.move_result(game, "m1") == 2
    assert await store.move_result(game, "m2") == 3
    assert await store.move_result(game, "never") is None


async def test_move_ids_are_per_stream(backend: Backend) -> None:
    store, game, other = backend.store, unique_id(), unique_id()
    await store.append(game, 0, events("a"), move_id="same")
    assert await store.append(other, 0, events("b"), move_id="same") == AppendResult(1, False, FIXED_TS_MS, 0)


async def test_concurrent_writers_at_one_version_exactly_one_wins(backend: Backend) -> None:
    store, game = backend.store, unique_id()
    await store.append(game, 0, events("start"))
    writers = [store.append(game, 1, events(f"writer-{i}")) for i in range(20)]

    outcomes = await asyncio.gather(*writers, return_exceptions=True)

    winners = [i for i, outcome in enumerate(outcomes) if isinstance(outcome, AppendResult)]
    assert len(winners) == 1
    assert outcomes[winners[0]] == AppendResult(2, False, FIXED_TS_MS, 0)
    losers = [outcome for outcome in outcomes if not isinstance(outcome, AppendResult)]
    assert all(isinstance(loser, VersionConflict) and loser.actual == 2 for loser in losers)
    assert [e.type for e in await store.read(game)] == ["start", f"writer-{winners[0]}"]


async def test_concurrent_retries_of_one_move_store_it_once(backend: Backend) -> None:
    store, game = backend.store, unique_id()
    retries = [store.append(game, 0, events(f"try-{i}"), move_id="m") for i in range(20)]
    outcomes = await asyncio.gather(*retries)
    assert sorted(outcome.duplicate for outcome in outcomes) == [False] + [True] * 19
    assert {outcome.version for outcome in outcomes} == {1}
    assert await store.version(game) == 1


async def test_read_from_a_version(backend: Backend) -> None:
    store, game = backend.store, unique_id()
    await store.append(game, 0, events(*(f"e{i}" for i in range(1, 11))))
    assert [e.version for e in await store.read(game, 4)] == list(range(4, 11))
    assert [e.type for e in await store.read(game, 10)] == ["e10"]
    assert await store.read(game, 11) == []
    for bad in (0, 2**64):
        with pytest.raises(ValueError):
            await store.read(game, bad)


async def test_unknown_stream_reads_empty(backend: Backend) -> None:
    store, game = backend.store, unique_id()
    assert await store.read(game) == []
    assert await store.read(game, 5) == []
    assert await store.version(game) == 0
    assert not await store.exists(game)
    assert await store.move_result(game, "m") is None
    with pytest.raises(ValueError):
        await store.move_result(game, None)  # type: ignore[arg-type]


async def test_append_many_mixes_successes_conflicts_and_duplicates(backend: Backend) -> None:
    store = backend.store
    games = [unique_id() for _ in range(12)]
    await store.append(games[0], 0, events("old"), move_id="done")
    batch = [AppendRequest(game, 0, events(f"first-{n}"), move_id=f"m-{n}") for n, game in enumerate(games)]
    batch.append(AppendRequest(games[1], 1, events("second")))  # same stream, later in the batch: in order
    batch.append(AppendRequest(games[2], 0, events("stale")))  # lost to the request before it
    batch.append(AppendRequest(games[0], 5, events("retry"), move_id="done"))  # an earlier move, retried

    results = await store.append_many(batch)

    assert results[0] == VersionConflict(games[0], 0, 1)
    assert results[1:12] == [AppendResult(1, False, FIXED_TS_MS, 0)] * 11
    assert results[12:] == [AppendResult(2, False, FIXED_TS_MS, 0), VersionConflict(games[2], 0, 1), AppendResult(1, True, watchers=0)]
    assert [e.type for e in await store.read(games[0])] == ["old"]
    assert [e.type for e in await store.read(games[1])] == ["first-1", "second"]
    assert [e.type for e in await store.read(games[2])] == ["first-2"]
    assert await store.move_result(games[5], "m-5") == 1
    assert await store.append_many([]) == []


async def test_appends_survive_a_flushed_script_cache(backend: Backend) -> None:
    store, game = backend.store, unique_id()
    await backend.client.script_flush()  # as after a server restart: EVALSHA answers NOSCRIPT
    assert await store.append(game, 0, events("a")) == AppendResult(1, False, FIXED_TS_MS, 0)
    await backend.client.script_flush()
    assert await store.append_many([AppendRequest(game, 1, events("b"))]) == [AppendResult(2, False, FIXED_TS_MS, 0)]


async def test_stored_entries_are_single_field_envelopes(backend: Backend) -> None:
    store, game = backend.store, unique_id()
    every_byte = bytes(range(256))
    await store.append(game, 0, [NewEvent("Kartenzug ♠", every_byte, schema=2)], move_id="m-ü")
    [(_, fields)] = await backend.client.xrange(log_key(game))
    assert list(fields) == [ENTRY_FIELD]
    expected = StoredEvent("Kartenzug ♠", 1, 2, FIXED_TS_MS, every_byte, "m-ü")
    assert decode_event(fields[ENTRY_FIELD]) == expected
    assert await store.read(game) == [decode_event(fields[ENTRY_FIELD])]


@pytest.mark.parametrize(
    ("stream", "expected", "batch", "move_id"),
    [
        ("g{x}", 0, events("a"), None),  # braces would break the hash tag
        ("", 0, events("a"), None),
        ("g", -1, events("a"), None),
        ("g", True, events("a"), None),
        ("g", 2**64, events("a"), None),  # past what the script's Lua numbers hold exactly
        ("g", 0, [], None),
        ("g", 0, [NewEvent("a", "text, not bytes")], None),  # type: ignore[arg-type]
        # Fields of the wrong type would store an envelope that never decodes again.
        ("g", 0, [NewEvent(7, b"x")], None),  # type: ignore[arg-type]
        ("g", 0, [NewEvent("", b"x")], None),
        ("g", 0, [NewEvent("a", b"x", schema="1")], None),  # type: ignore[arg-type]
        ("g", 0, [NewEvent("a", b"x", schema=True)], None),
        ("g", 0, events("a"), ""),
    ],
)
async def test_bad_input_is_refused_and_changes_nothing(
    backend: Backend, stream: str, expected: int, batch: list[NewEvent], move_id: str | None
) -> None:
    store = backend.store
    real = unique_id()
    stream = stream.replace("g", real, 1) if stream else stream
    with pytest.raises(ValueError):
        await store.append(stream, expected, batch, move_id=move_id)
    with pytest.raises(ValueError):
        await store.append_many(
            [AppendRequest(real + "-ok", 0, events("a")), AppendRequest(stream, expected, batch, move_id)]
        )
    assert not await store.exists(real)
    assert not await store.exists(real + "-ok")  # the batch was refused whole, before sending anything


async def test_append_many_refuses_what_is_not_an_append_request(backend: Backend) -> None:
    game = unique_id()
    with pytest.raises(ValueError, match="AppendRequest"):
        await backend.store.append_many([AppendRequest(game, 0, events("a")), (game, 0, events("b"))])
    assert not await backend.store.exists(game)


async def test_in_the_cluster_a_games_keys_share_one_slot(redis_cluster) -> None:
    client = await open_redis(redis_cluster.url)
    try:
        games = [unique_id() for _ in range(30)]
        slots = [await client.cluster_keyslot(log_key(game)) for game in games]
        for game, slot in zip(games, slots):
            assert await client.cluster_keyslot(moves_key(game)) == slot
        nodes = {client.get_node_from_key(log_key(game)).name for game in games}
        assert len(nodes) == 3  # the games spread over every master, so append_many really fans out
        batch = [AppendRequest(game, 0, events("a")) for game in games]
        results = await EventStore(client, clock=lambda: FIXED_TS_MS).append_many(batch)
        assert results == [AppendResult(1, False, FIXED_TS_MS, 0)] * 30
    finally:
        await client.aclose()


async def test_an_append_to_a_game_counts_who_subscribes_its_update_channel(backend: Backend) -> None:
    """The gateway's fan-out publishes a move only where another process listens. The append counts the
    game's update channel's subscribers (classic and shard) in the same atomic step, so a subscriber the
    count misses came after the move was stored; logs of other kinds count nothing."""
    store, game = backend.store, unique_id()
    assert (await store.append(game, 0, events("a"), move_id="m1")).watchers == 0
    channel = updates_channel(game)
    node = None
    if backend.name == "cluster":  # a shard subscription sits on the master of the channel's slot
        owner = backend.client.get_node_from_key(channel)  # type: ignore[attr-defined]  # a RedisCluster here
        node = aioredis.Redis(host=owner.host, port=owner.port)
    listener = (node or backend.client).pubsub()  # type: ignore[attr-defined]  # a Redis here
    try:
        await listener.ssubscribe(channel)  # as a gateway on a cluster does
        if backend.name != "cluster":  # one server: the gateway subscribes the classic way
            await listener.subscribe(channel)
        expected = 1 if backend.name == "cluster" else 2
        for _ in range(expected):
            assert (await listener.get_message(timeout=5)) is not None  # each subscription confirmed
        second = await store.append(game, 1, events("b"), move_id="m2")
        assert (second.version, second.watchers) == (2, expected)
        assert (await store.append(game, 0, events("c"), move_id="m2")).watchers == expected  # a retry counts too
        batch = await store.append_many([AppendRequest(game, 2, events("d")), AppendRequest(unique_id(), 0, events("e"))])
        assert [result.watchers for result in batch] == [expected, 0]  # type: ignore[union-attr]  # both stored
    finally:
        await listener.aclose()
        if node is not None:
            await node.aclose()
    daily = EventStore(backend.client, namespace="daily", clock=lambda: FIXED_TS_MS)  # type: ignore[arg-type]
    assert (await daily.append(unique_id(), 0, events("a"))).watchers is None


async def test_an_append_whose_count_redis_refuses_is_stored_and_left_uncounted(embedded_redis) -> None:
    """The count comes after the writes in the script: a deployment whose user may not run PUBSUB must
    still have its moves stored (and answered), only without a count, which the fan-out then asks for."""
    admin = await open_redis(embedded_redis.url)
    user = unique_id("nopubsub")
    await admin.acl_setuser(user, enabled=True, passwords=["+secret"], keys=["*"], channels=["*"],
                            categories=["+@all", "-@pubsub"])
    limited = aioredis.Redis(host=embedded_redis.host, port=embedded_redis.port, username=user, password="secret")
    store = EventStore(limited, clock=lambda: FIXED_TS_MS)
    game = unique_id()
    try:
        assert await store.append(game, 0, events("a"), move_id="m1") == AppendResult(1, False, FIXED_TS_MS, None)
        assert [e.type for e in await store.read(game)] == ["a"]
    finally:
        await limited.aclose()
        await admin.acl_deluser(user)
        await admin.aclose()
