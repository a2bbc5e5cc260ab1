"""Race events are the storage schema: their stored bytes are pinned forever.

tests/golden/race-events.json holds the msgpack of one event of each kind. A change that alters these
bytes breaks every stored race: add fields only with defaults (old bytes must still decode).
Regenerate only for a NEW event kind: `python -m tests.races.test_events_golden`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from services.races import events as ev
from services.store import StoredEvent
from tests.races.samples import created

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "race-events.json"
SAMPLES = {
    "race_created": created(),
    "race_created_as_rematch": ev.RaceCreated(
        "r2", "p2", "spider", {"suits": 1}, 8, 60_000, 5_000, "XYZ789", "ab" * 32, "exact_solver", 9,
        ev.SealedDeal(1, "00" * 16), rematch_of="r1",
    ),
    "racer_joined": ev.RacerJoined("p2", 1),
    "racer_left": ev.RacerLeft("p2", 2),
    "racer_ready": ev.RacerReady("p2", True, 3),
    "countdown_started": ev.CountdownStarted(10, "all_ready", 4),
    "games_dealt": ev.GamesDealt({"p1": "g1", "p2": "g2"}, 5),
    "race_started": ev.RaceStarted(10),
    "racer_presence": ev.RacerPresence("p2", False, 11),
    "racer_finished": ev.RacerFinished("p1", "g1", "won", 80, 9_000, 12),
    "race_ended": ev.RaceEnded("time_limit", 13),
    "win_checked": ev.WinChecked("p1", "rejected", "illegal_event", 14),
    "results_final": ev.ResultsFinal([ev.Standing("p1", 1, "won", 80, 9_000), ev.Standing("p2", 2, "timed_out", 0, None)], 15),
    "rematch_created": ev.RematchCreated("r2", "p1", 16),
}


def test_stored_bytes_are_pinned_and_still_decode():
    golden = json.loads(GOLDEN.read_text())
    assert set(golden) == set(SAMPLES)
    for name, event in SAMPLES.items():
        assert ev.encode_event(event).hex() == golden[name], name
        assert ev.decode_event(bytes.fromhex(golden[name])) == event


def test_the_store_envelope_names_the_event_and_its_schema():
    for event in SAMPLES.values():
        entry = ev.to_new_event(event)
        assert entry.schema == ev.SCHEMA == 1 and entry.type == type(event).__struct_config__.tag
        assert ev.from_stored(StoredEvent(entry.type, 1, entry.schema, 0, entry.data)) == event


def test_an_unknown_schema_is_refused_not_misread():
    entry = ev.to_new_event(SAMPLES["race_started"])
    with pytest.raises(ValueError, match="schema 2"):
        ev.from_stored(StoredEvent(entry.type, 1, 2, 0, entry.data))


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps({n: ev.encode_event(e).hex() for n, e in SAMPLES.items()}, indent=1) + "\n")
