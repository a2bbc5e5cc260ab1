"""Durability: an acknowledged append survives SIGKILL of redis-server (appendonly + fsync always),
and a crash in the middle of writing an append leaves no half of it behind."""

from __future__ import annotations

from pathlib import Path

from services.redis.client import open_redis
from services.redis.embedded import EmbeddedRedis
from services.store import AppendRequest, EventStore, NewEvent, StoredEvent
from services.store.envelope import ENTRY_FIELD, decode_event, encode_event, log_key, moves_key
from tests.fixtures.redis import unique_id

TS_MS = 1_700_000_000_000


def pair_of_events(round_number: int, n: int) -> list[NewEvent]:
    return [NewEvent("a", bytes([round_number, n])), NewEvent("b", b"")]


async def acknowledged_appends(server: EmbeddedRedis) -> dict[str, list[StoredEvent]]:
    """Append through every write path; return what the store acknowledged, per stream."""
    client = await open_redis(server.url)
    store = EventStore(client, clock=lambda: TS_MS)
    acked: dict[str, list[StoredEvent]] = {}
    try:
        solo = unique_id("solo")
        acked[solo] = []
        for version in range(1, 61):  # one move at a time, as a player plays
            data = f"move {version}".encode()
            result = await store.append(solo, version - 1, [NewEvent("moved", data)], move_id=f"m{version}")
            assert result.version == version and not result.duplicate
            acked[solo].append(StoredEvent("moved", version, 1, TS_MS, data, f"m{version}"))
        games = [unique_id("batch") for _ in range(10)]
        for game in games:
            acked[game] = []
        for round_number in range(4):  # many games per round trip, as the gateway batches them
            batch = [
                AppendRequest(game, round_number * 2, pair_of_events(round_number, n))
                for n, game in enumerate(games)
            ]
            results = await store.append_many(batch)
            assert [r.version for r in results] == [round_number * 2 + 2] * len(games)
            for request in batch:
                for offset, event in enumerate(request.events, start=1):
                    version = request.expected_version + offset
                    acked[request.stream_id].append(StoredEvent(event.type, version, 1, TS_MS, event.data))
    finally:
        await client.aclose()
    return acked


async def assert_stored_exactly(server: EmbeddedRedis, acked: dict[str, list[StoredEvent]]) -> None:
    client = await open_redis(server.url)
    try:
        store = EventStore(client)
        for stream_id, expected in acked.items():
            assert await store.read(stream_id) == expected
            # Entry by entry: id 0-<version>, the one envelope field, nothing partial.
            entries = await client.xrange(log_key(stream_id))
            for index, (entry_id, fields) in enumerate(entries, start=1):
                assert entry_id == f"0-{index}".encode()
                assert list(fields) == [ENTRY_FIELD]
                assert decode_event(fields[ENTRY_FIELD]).version == index
            for event in expected:
                if event.move_id is not None:
                    assert await store.move_result(stream_id, event.move_id) == event.version
    finally:
        await client.aclose()


async def test_acknowledged_appends_survive_sigkill(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path / "redis")
    server.start()
    try:
        acked = await acknowledged_appends(server)
        assert sum(len(events) for events in acked.values()) == 60 + 10 * 8
        server.kill()  # no shutdown, no final flush: only what was fsynced before each reply survives
        assert not server.running
        server.start()
        await assert_stored_exactly(server, acked)
    finally:
        server.kill()


def resp_command(*parts: bytes | str) -> bytes:
    """One command in the RESP form Redis writes to its append-only file."""
    encoded = [part.encode() if isinstance(part, str) else part for part in parts]
    return f"*{len(encoded)}\r\n".encode() + b"".join(
        f"${len(part)}\r\n".encode() + part + b"\r\n" for part in encoded
    )


def aof_tail(folder: Path) -> Path:
    """The file the server appends to: the last incremental file its AOF manifest lists (Valkey, like
    Redis 7, keeps a multi-part AOF in appendonlydir/: a base snapshot and incremental command files)."""
    aof_dir = folder / "appendonlydir"
    manifest = next(aof_dir.glob("*.manifest")).read_text().split("\n")
    increments = [line.split()[1] for line in manifest if line.endswith("type i")]
    assert increments, manifest
    return aof_dir / increments[-1]


async def test_a_torn_append_at_the_aof_tail_is_dropped_whole(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path / "redis")
    server.start()
    try:
        acked = await acknowledged_appends(server)
        solo = next(iter(acked))
        server.kill()
        # The crash hit while the next 2-event append was being written: the AOF ends inside its
        # MULTI block (a script's writes are logged as one MULTI/EXEC), mid-way through the 2nd XADD.
        envelopes = [encode_event(StoredEvent("torn", v, 1, TS_MS, b"x", "torn")) for v in (61, 62)]
        torn = (
            resp_command("MULTI")
            + resp_command("XADD", log_key(solo), "0-61", "e", envelopes[0])
            + resp_command("XADD", log_key(solo), "0-62", "e", envelopes[1])
            + resp_command("HSET", moves_key(solo), "torn", "62")
            + resp_command("EXEC")
        )
        with aof_tail(tmp_path / "redis").open("ab") as aof:
            aof.write(torn[: len(torn) * 2 // 3])
        server.start()
        await assert_stored_exactly(server, acked)  # all 60 acknowledged moves, not one torn event
        client = await open_redis(server.url)
        try:
            assert await EventStore(client).move_result(solo, "torn") is None
        finally:
            await client.aclose()
    finally:
        server.kill()
