"""The stored envelope of one event, and the values the store's API takes and returns.

A stream entry holds one field `e`: the msgpack encoding of a StoredEvent. The store treats `data` as
opaque bytes (the game service encodes engine events into it); `type` and `schema` let a reader pick
the decoder without opening `data`. This is the storage schema: add fields only with defaults, never
rename or reuse one, so every entry ever written still decodes.
"""

from __future__ import annotations

import msgspec

from services.store.keys import log_key, moves_key  # noqa: F401  (re-exported)

ENTRY_FIELD = b"e"
MAX_STREAM_ID_LENGTH = 200


class StoredEvent(msgspec.Struct, frozen=True):
    """One event as stored. `version` is its position in the stream (1 = first), equal to its entry id
    `0-<version>`. `ts_ms` is the appending process's wall clock (Unix ms) at append time: informational
    (a replay never uses it; order is the version)."""

    type: str
    version: int
    schema: int
    ts_ms: int
    data: bytes
    move_id: str | None = None


class NewEvent(msgspec.Struct, frozen=True):
    """An event to append: its type name, the encoded payload, and the payload's schema number."""

    type: str
    data: bytes
    schema: int = 1


class AppendRequest(msgspec.Struct, frozen=True):
    """One stream's append inside `EventStore.append_many`; same meaning as `append`'s arguments."""

    stream_id: str
    expected_version: int
    events: list[NewEvent]
    move_id: str | None = None


class AppendResult(msgspec.Struct, frozen=True):
    """`version`: the stream's version after the append. `duplicate`: the move id had been stored
    before, so nothing was written and `version` is the one recorded then. `ts_ms`: the time stamped on
    the entries written (0 for a duplicate). `watchers`: for a game's log, how many connections subscribed
    the game's update channel when the append ran, counted in the same atomic step (the fan-out skips
    asking); None for other logs, or where nobody counted them."""

    version: int
    duplicate: bool = False
    ts_ms: int = 0
    watchers: int | None = None


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(StoredEvent)


def encode_event(event: StoredEvent) -> bytes:
    return _encoder.encode(event)


def decode_event(raw: bytes) -> StoredEvent:
    return _decoder.decode(raw)



def check_stream_id(stream_id: object) -> str:
    """A stream id is a non-empty printable string without braces (they would break the hash tag)."""
    if not isinstance(stream_id, str) or not stream_id:
        raise ValueError(f"stream id must be a non-empty string, not {stream_id!r}")
    if len(stream_id) > MAX_STREAM_ID_LENGTH:
        raise ValueError(f"stream id is longer than {MAX_STREAM_ID_LENGTH} characters")
    if "{" in stream_id or "}" in stream_id or not stream_id.isprintable():
        raise ValueError(f"stream id {stream_id!r} may not contain braces or control characters")
    return stream_id


def check_move_id(move_id: object) -> str | None:
    if move_id is None:
        return None
    if not isinstance(move_id, str) or not move_id or len(move_id) > MAX_STREAM_ID_LENGTH:
        raise ValueError(f"move id must be None or a non-empty string of at most 200 chars, not {move_id!r}")
    return move_id
