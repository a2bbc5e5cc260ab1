"""The archived object: the whole log (times and move ids too), compressed, refused when it is not the game."""

from __future__ import annotations

import json

import pytest
import zstandard

from services.archive.archived_game import CORRUPT, Unreadable, object_key, pack, replay_of, unpack
from services.validator.replay_file import verify_replay
from tests.support.play import won_wish

pytestmark = pytest.mark.integration


async def test_an_object_gives_back_the_stored_log_exactly(service):
    summary = await won_wish(service, "g_archivist")
    entries = await service.store.read(summary.id)
    data, digest = pack(summary.id, entries)
    assert len(data) < sum(len(e.data) for e in entries) * 4, "compressed: far below the JSON it holds"
    assert unpack(summary.id, data, digest) == entries, "versions, times, payloads and move ids all kept"
    assert unpack(summary.id, data, object_key(summary.id, digest).rsplit("/", 1)[1][:32]) == entries
    assert object_key(summary.id, digest) == object_key(summary.id, pack(summary.id, entries)[1]), "idempotent"
    replay = replay_of(data)
    assert replay.digest == digest and verify_replay(replay).verdict.outcome == "verified"


async def test_a_corrupt_object_is_refused_with_its_reason(service):
    summary = await won_wish(service, "g_archivist2")
    entries = await service.store.read(summary.id)
    data, digest = pack(summary.id, entries)
    raw = zstandard.ZstdDecompressor().decompress(data)
    edited = raw.replace(b'"at_ms":', b'"at_ms":1', 1)  # one entry's time changed: the digest differs
    cases = {
        "flipped byte": data[:20] + bytes([data[20] ^ 0xFF]) + data[21:],
        "truncated": data[: len(data) // 2],
        "an entry edited": zstandard.ZstdCompressor().compress(edited),
        "not zstd": b"{}",
    }
    for name, bad in cases.items():
        problem = unpack(summary.id, bad, digest)
        assert isinstance(problem, Unreadable) and problem.code == CORRUPT, name
    assert isinstance(unpack("another-game", data, digest), Unreadable), "another game's object"
    assert isinstance(unpack(summary.id, data, "0" * 64), Unreadable), "not the digest the pointer names"
    assert isinstance(unpack(summary.id, data, digest[:8]), Unreadable), "a digest too short to name a log"


async def test_an_object_archived_before_files_were_signed_still_reads(service):
    """Objects written before format 2 hold a format 1 replay (no signature field): they read the same."""
    summary = await won_wish(service, "g_archivist3")
    entries = await service.store.read(summary.id)
    data, digest = pack(summary.id, entries)
    old = json.loads(zstandard.ZstdDecompressor().decompress(data))
    assert old["replay"].pop("signature") is None
    old["replay"]["format"] = 1
    written_then = zstandard.ZstdCompressor().compress(json.dumps(old).encode())
    assert unpack(summary.id, written_then, digest) == entries
    assert replay_of(written_then).format == 1
