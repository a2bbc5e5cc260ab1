"""Challenge and attempt events are the storage schema: their stored bytes are pinned forever.

tests/golden/daily-events.json holds the msgpack of one event of each kind. A change that alters these
bytes breaks every stored challenge: add fields only with defaults (old bytes must still decode).
Regenerate only for a NEW event kind: `python -m tests.tournaments.test_events_golden`.
"""

from __future__ import annotations

import json
from pathlib import Path

from services.store import StoredEvent
from services.tournaments.events import (
    SCHEMA,
    AttemptFinished,
    AttemptStarted,
    ChallengeClosed,
    ChallengePrepared,
    EntryRejected,
    EntryVerified,
    ReviewCleared,
    ReviewFlagged,
    SealedDeal,
    SeedRevealed,
    decode_event,
    encode_event,
    from_stored,
    to_new_event,
)

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "daily-events.json"
SAMPLES = {
    "challenge_prepared": ChallengePrepared(
        "2026-12-01/spider/suits=2", "2026-12-01", "spider", {"suits": 2}, 1, 2, 3, "ab" * 32, "not_lost_at_deal", 0,
        SealedDeal(42, "00" * 16, 3, "11" * 32),
    ),
    "challenge_closed": ChallengeClosed(2),
    "seed_revealed": SeedRevealed(42, "00" * 16, 3, "11" * 32, 5),
    "attempt_started": AttemptStarted("c", "g_a", "game-1", True, 7),
    "attempt_finished": AttemptFinished("g_a", "won", 120, 300_000, 8),
    "attempt_finished_by_grace": AttemptFinished("g_a", "abandoned", 0, 9, 10, "grace"),
    "entry_verified": EntryVerified("g_a", 11),
    "entry_rejected": EntryRejected("g_a", "replay differs", 12),
    "review_flagged": ReviewFlagged("g_a", ["fast_first_move", "even_tempo"], 13),
    "review_cleared": ReviewCleared("g_a", "a person: checked the replay", 14),
}


def test_stored_bytes_are_pinned_and_still_decode():
    golden = json.loads(GOLDEN.read_text())
    assert set(golden) == set(SAMPLES)
    for name, event in SAMPLES.items():
        assert encode_event(event).hex() == golden[name], name
        assert decode_event(bytes.fromhex(golden[name])) == event


def test_the_store_envelope_names_the_event_and_its_schema():
    for event in SAMPLES.values():
        entry = to_new_event(event)
        assert entry.schema == SCHEMA == 1 and entry.type == type(event).__struct_config__.tag
        stored = StoredEvent(entry.type, 1, entry.schema, 0, entry.data)
        assert from_stored(stored) == event


def test_an_unknown_schema_is_refused_not_misread():
    entry = to_new_event(SAMPLES["challenge_closed"])
    try:
        from_stored(StoredEvent(entry.type, 1, 2, 0, entry.data))
    except ValueError as exc:
        assert "schema 2" in str(exc)
    else:
        raise AssertionError("a schema-2 payload was read as schema 1")


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps({n: encode_event(e).hex() for n, e in SAMPLES.items()}, indent=1) + "\n")
