"""The replay file's shape (docs/replay-format.md): its fields, their types and bounds, its canonical bytes.

A replay file is a JSON document; these Structs are its schema, strict on purpose: every integer
is a whole number from 0 to 2**64 - 1, every id a short run of letters, digits, `_` and `-`, every
field known (`forbid_unknown_fields`), every enumeration a Literal. The strict reader
(replay_reader.py) goes further than a typed decode can: the document must be exactly what
`encode_document` gives back for it, so a `true` where `1` belongs, a missing field, an unknown
field inside an entry or a variant written another way is refused too.

The canonical bytes are RFC 8785's (the JSON Canonicalization Scheme: members sorted by name, no
white space, strings with only the escapes JSON requires), with one difference: an integer is
written whole in decimal. JCS writes numbers as IEEE doubles, which cannot hold a 64-bit seed; for
integers below 2**53 the two agree. For the documents this format allows (ASCII names, integers,
no fractions) that is exactly msgspec's encoding with sorted keys, which a test checks against the
`rfc8785` package.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal, cast

import msgspec
from msgspec import Meta, Struct

from ..games import codec

FORMAT_UNSIGNED: Final = 1  # exported before files were signed; still read, reported as unsigned
FORMAT_SIGNED: Final = 2
FORMATS = (FORMAT_UNSIGNED, FORMAT_SIGNED)

MAX_BYTES = 16 * 1024 * 1024  # a replay file larger than this is refused unread (a game of ~100,000 entries)
MAX_DEPTH = 8  # arrays and objects inside one another: a file never needs more than 6
MAX_DIGITS = 20  # of an integer: 2**64 - 1 has 20
U64_MAX = 2**64 - 1

U64 = Annotated[int, Meta(ge=0)]  # at most U64_MAX too: the reader's parser refuses a larger one (msgspec
# bounds stop at int64)
Id = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
Name = Annotated[str, Meta(pattern=r"^[a-z0-9-]{1,32}$")]  # a game id of the registry
Hex64 = Annotated[str, Meta(pattern=r"^[0-9a-f]{64}$")]
SaltHex = Annotated[str, Meta(pattern=r"^[0-9a-f]{2,128}$")]
ChallengeKey = Annotated[str, Meta(max_length=128)]
VariantValue = int | str | bool
Kind = Literal["casual", "practice", "daily", "race"]
Status = Literal["won", "lost", "abandoned", "in_progress"]
ALGORITHM: Final = "Ed25519"
KeyId = Annotated[str, Meta(pattern=r"^[0-9a-f]{16}$")]
SignatureValue = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-]{86}$")]  # 64 bytes, base64url without padding


class ReplayEntry(Struct, frozen=True, forbid_unknown_fields=True):
    version: U64  # position in the game's stream, from 1
    at_ms: U64  # the server's time when the entry was stored
    entry: codec.AnyEntry


class ReplayResult(Struct, frozen=True, forbid_unknown_fields=True):
    status: Status
    moves: U64
    time_ms: U64 | None  # first look to the last engine event (0 with no event); None: never shown


class ReplaySignature(Struct, frozen=True, forbid_unknown_fields=True):
    """The server's Ed25519 signature over the document's canonical bytes without this field."""

    algorithm: Literal["Ed25519"]
    key_id: KeyId  # which of the server's keys (GET /api/replay-keys lists every one ever used)
    value: SignatureValue


class ReplayFile(Struct, frozen=True, forbid_unknown_fields=True):
    format: Literal[1, 2]
    game_id: Id
    game: Name
    variant: dict[Annotated[str, Meta(pattern=r"^[a-z_]{1,32}$")], VariantValue]
    deal_version: U64
    kind: Kind
    player_id: Id
    seed: U64
    entries: list[ReplayEntry]
    result: ReplayResult
    digest: Hex64
    challenge: ChallengeKey | None = None
    race: Id | None = None
    salt: SaltHex | None = None
    commitment: Hex64 | None = None
    signature: ReplaySignature | None = None  # format 2 as served; absent from format 1


_encoder = msgspec.json.Encoder(order="sorted")


def status_of(text: str) -> Status:
    """An engine status as the file's Literal (the engine's four are the file's four)."""
    assert text in ("won", "lost", "abandoned", "in_progress"), text
    return cast(Status, text)


def document_of(file: ReplayFile) -> dict[str, Any]:  # Any: JSON
    """The file as the JSON tree it is written as (format 1 files never had `signature`)."""
    tree: dict[str, Any] = msgspec.to_builtins(file)  # Any: JSON
    if file.format == FORMAT_UNSIGNED and file.signature is None:
        del tree["signature"]
    return tree


def canonical(tree: Any) -> bytes:  # Any: any JSON tree
    """RFC 8785 bytes of a JSON tree of this format (see the module's note)."""
    return _encoder.encode(tree)


def signed_bytes(file: ReplayFile) -> bytes:
    """What the signature covers: a fixed context line, then the canonical bytes of the whole
    document with `signature` left out (every header field, every entry, result and digest)."""
    tree = document_of(file)
    tree.pop("signature", None)
    return SIGNING_CONTEXT + canonical(tree)


SIGNING_CONTEXT = b"patience-arena/replay-file/v2\n"  # so these bytes can never be another message's


def encode_replay(file: ReplayFile) -> bytes:
    """The file as served and exported: the same tree, indented for people."""
    return msgspec.json.format(canonical(document_of(file)), indent=1)
