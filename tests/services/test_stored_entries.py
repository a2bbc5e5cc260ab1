"""Golden stored bytes: every entry type a game stream holds, at every schema ever written, still reads.

tests/golden/entries/entries.json was written once from the code of its day; a row is never edited.
A change that would break old logs (a renamed field, a new required one, a changed tag) fails here.
"""

from __future__ import annotations

import json
import typing
from pathlib import Path

import msgspec
import pytest

from engine import events as ev
from services.games import codec
from services.store.envelope import decode_event

ROWS = json.loads((Path(__file__).parents[1] / "golden" / "entries" / "entries.json").read_text())


def _is_current(row: dict) -> bool:
    stored = decode_event(bytes.fromhex(row["stored_hex"]))
    return stored.schema == codec.schema_of(stored.type)


CURRENT = [row for row in ROWS if _is_current(row)]  # older schemas are only read, never written again


def expected_entry(row: dict) -> codec.AnyEntry:
    return msgspec.convert(row["expected"], codec.AnyEntry)  # type: ignore[arg-type]


@pytest.mark.parametrize("row", ROWS, ids=[row["name"] for row in ROWS])
def test_every_golden_entry_decodes_to_todays_struct(row):
    stored = decode_event(bytes.fromhex(row["stored_hex"]))
    assert codec.decode(stored) == expected_entry(row)


@pytest.mark.parametrize("row", CURRENT, ids=[row["name"] for row in CURRENT])
def test_todays_schema_encodes_to_the_golden_bytes(row):
    stored = decode_event(bytes.fromhex(row["stored_hex"]))
    entry = codec.new_entry(expected_entry(row))
    assert (entry.type, entry.schema, entry.data) == (stored.type, stored.schema, stored.data)


def test_every_entry_type_written_today_has_a_golden_row_at_its_schema():
    engine_tags = {cls.__struct_config__.tag for cls in typing.get_args(ev.AnyEvent)}
    written = {(tag, codec.schema_of(tag)) for tag in engine_tags | codec.SERVICE_TAGS}
    golden = {(s.type, s.schema) for s in (decode_event(bytes.fromhex(r["stored_hex"])) for r in ROWS)}
    assert written <= golden, f"add golden rows for {sorted(written - golden)}"


def test_older_schemas_go_through_their_upcasters():
    upcast = [r for r in ROWS if not _is_current(r)]
    assert {r["name"] for r in upcast} == {"game_created-v1", "pair_removed-v1"}
    old_pair = codec.decode(decode_event(bytes.fromhex(next(r for r in upcast if r["name"] == "pair_removed-v1")["stored_hex"])))
    assert old_pair == ev.PairRemoved(piles=(2, 5), cards=(11, 30))  # canonical: lower pile first, cards follow


def test_an_unknown_schema_or_a_mislabelled_entry_is_a_clear_error():
    payload = codec.encode_payload(ev.SpellCast())
    with pytest.raises(codec.UnknownEntry, match="schema 9"):
        codec.decode_payload("spell_cast", 9, payload)
    with pytest.raises(codec.UnknownEntry, match="holds a 'spell_cast'"):
        codec.decode_payload("move_undone", 1, payload)
    with pytest.raises(codec.UnknownEntry, match="does not decode"):
        codec.decode_payload("game_shown", 1, b"\xc1")
