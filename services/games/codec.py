"""A game stream's entries <-> stored bytes, decoded by (type, schema version) and upcast when old.

A game's stream holds the service's own entries (``game_created`` first, ``game_shown`` at the first
look, ``hint_given`` for each hint a practice game took) and the engine's events. The store keeps (type, schema, data): `type` names the entry so a log
reads without decoding payloads, `schema` says which shape `data` has. Entries are stored forever, so
an old shape is never rejected: it is decoded as builtins, passed through its upcasters one schema at
a time, and converted to today's struct. Golden stored bytes in tests/golden/entries pin every shape.
"""

from __future__ import annotations

from typing import Any, Union
from collections.abc import Callable

import msgspec

from engine import AnyEvent
from engine.events import PairRemoved

from ..store import NewEvent, StoredEvent
from .entries import GAME_CREATED, GAME_SHOWN, HINT_GIVEN, GameCreated, GameShown, HintGiven

ServiceEntry = Union[GameCreated, GameShown, HintGiven]
AnyEntry = Union[GameCreated, GameShown, HintGiven, AnyEvent]

_encoder = msgspec.msgpack.Encoder()
_event_decoder = msgspec.msgpack.Decoder(AnyEvent)
_raw_decoder = msgspec.msgpack.Decoder()

# The schema each entry type is written with today. An engine event not named here is at schema 1.
CURRENT_SCHEMA: dict[str, int] = {GAME_CREATED: 2, GAME_SHOWN: 1, HINT_GIVEN: 1, "pair_removed": 2}
_SERVICE_TYPES: dict[str, type[msgspec.Struct]] = {GAME_CREATED: GameCreated, GAME_SHOWN: GameShown,
                                                   HINT_GIVEN: HintGiven}
SERVICE_TAGS: frozenset[str] = frozenset(_SERVICE_TYPES)
# Any: each decodes one type of AnyEntry, which the checker cannot tie to its name in the table.
_typed_decoders: dict[str, msgspec.msgpack.Decoder[Any]] = {name: msgspec.msgpack.Decoder(kind) for name, kind in _SERVICE_TYPES.items()}  # Any: each decodes its own type (above)


class UnknownEntry(ValueError):
    """A stored entry whose (type, schema) this code cannot read: newer code wrote it, or it is corrupt."""


# Upcasters: (type, schema n) -> a function from the builtins of schema n to the builtins of n + 1.

def _created_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:  # Any: JSON
    # Schema 1 predates kinds and deal versions: every such game was casual and dealt by shuffle v1.
    return {**data, "deal_version": 1, "kind": "casual"}


def _pair_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:  # Any: JSON
    # Schema 1 kept the piles in the order the player named them; one canonical form is lower pile first.
    (a, b), (card_a, card_b) = data["piles"], data["cards"]
    if a > b:
        a, b, card_a, card_b = b, a, card_b, card_a
    return {**data, "piles": [a, b], "cards": [card_a, card_b]}


UPCASTERS: dict[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]] = {  # Any: JSON
    (GAME_CREATED, 1): _created_v1_to_v2,
    ("pair_removed", 1): _pair_v1_to_v2,
}


def schema_of(entry_type: str) -> int:
    return CURRENT_SCHEMA.get(entry_type, 1)


def entry_tag(entry: AnyEntry) -> str:
    return type(entry).__struct_config__.tag  # type: ignore[return-value]  # a tagged Struct's tag: a str here, which the checker types str | int | None


def new_entry(entry: AnyEntry) -> NewEvent:
    """What the store appends for a service entry or an engine event, at today's schema."""
    tag = entry_tag(entry)
    return NewEvent(tag, _encoder.encode(entry), schema_of(tag))


def decode(stored: StoredEvent) -> AnyEntry:
    """Today's struct for a stored entry of any schema this code knows."""
    return decode_payload(stored.type, stored.schema, stored.data)


def decode_payload(entry_type: str, schema: int, data: bytes) -> AnyEntry:
    current = schema_of(entry_type)
    if schema == current:  # the common case: no detour through builtins
        try:
            decoder = _typed_decoders.get(entry_type, _event_decoder)
            entry = decoder.decode(data)
        except msgspec.DecodeError as exc:
            raise UnknownEntry(f"a {entry_type!r} entry at schema {schema} does not decode: {exc}") from exc
        if entry_tag(entry) != entry_type:
            raise UnknownEntry(f"an entry named {entry_type!r} holds a {entry_tag(entry)!r}")
        return entry
    if not 1 <= schema < current:
        raise UnknownEntry(f"no decoder for {entry_type!r} at schema {schema} (this code reads up to {current})")
    raw = _raw_decoder.decode(data)
    for step in range(schema, current):
        upcast = UPCASTERS.get((entry_type, step))
        if upcast is None:
            raise UnknownEntry(f"no upcaster for {entry_type!r} from schema {step}")
        raw = upcast(raw)
    kind = _SERVICE_TYPES.get(entry_type, AnyEvent)
    try:
        return msgspec.convert(raw, kind)  # type: ignore[return-value]  # kind is one type of AnyEntry, or the events' union alias
    except msgspec.ValidationError as exc:
        raise UnknownEntry(f"a {entry_type!r} entry upcast from schema {schema} is not valid: {exc}") from exc


def encode_payload(entry: AnyEntry) -> bytes:
    return _encoder.encode(entry)


__all__ = [
    "GAME_CREATED", "GAME_SHOWN", "HINT_GIVEN", "SERVICE_TAGS", "UPCASTERS", "AnyEntry", "GameCreated",
    "GameShown", "HintGiven", "PairRemoved",
    "ServiceEntry", "UnknownEntry", "decode", "decode_payload", "encode_payload", "entry_tag", "new_entry",
    "schema_of",
]
