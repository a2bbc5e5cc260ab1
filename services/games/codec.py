"""Engine events <-> stored entries. Engine events are msgpack (msgspec), named by their tag.

The store keeps (type, data, schema); `type` is the event's tag so a log reads without decoding
the payload, and the payload is the whole tagged struct so decoding needs only the bytes.
Service events (``game_created``) are JSON-free msgpack maps of their own.
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine import AnyEvent

from ..store import NewEvent

SCHEMA = 1
GAME_CREATED = "game_created"

_encoder = msgspec.msgpack.Encoder()
_event_decoder = msgspec.msgpack.Decoder(AnyEvent)


class GameCreated(msgspec.Struct, frozen=True):
    """The first entry of every game stream: what deals the game and whose it is."""

    game: str
    variant: dict[str, Any]
    seed: int
    player_id: str
    created_at_ms: int


_created_decoder = msgspec.msgpack.Decoder(GameCreated)


def event_tag(event: AnyEvent) -> str:
    return type(event).__struct_config__.tag  # type: ignore[return-value]


def encode_event(event: AnyEvent) -> bytes:
    return _encoder.encode(event)


def decode_event(data: bytes) -> AnyEvent:
    return _event_decoder.decode(data)


def encode_created(created: GameCreated) -> bytes:
    return _encoder.encode(created)


def decode_created(data: bytes) -> GameCreated:
    return _created_decoder.decode(data)


def created_entry(created: GameCreated) -> NewEvent:
    return NewEvent(GAME_CREATED, encode_created(created), SCHEMA)


def event_entry(event: AnyEvent) -> NewEvent:
    return NewEvent(event_tag(event), encode_event(event), SCHEMA)
