"""The archived object of one finished game: its replay file (unsigned), compressed, checked on read.

The object holds the whole log, so everything a hot game proves an archived one proves too: a rebuild
or `arena verify` from it gives the same state. It is the replay file of docs/replay-format.md
(services/validator/replay_file.build_replay: every entry with its stream version and server time,
the digest over them) plus one thing a replay file leaves out and the store keeps: each entry's
client move id (the human-speed review reads moves by their ids, and a rebuild must give back the
log as it was stored). Wrapped in a small envelope with its own format number, so either part can
grow without the other.

Compressed with Zstandard (the `zstandard` package, level 9): a replay file is JSON that repeats
the same keys on every entry, which zstd shrinks about 10x at a few hundred microseconds a game;
zlib gives a third less at a similar speed, lzma a few percent more at ten times the CPU, and the
archiver runs in the same process that answers moves (bench/bench_archive.py prints the figures).

Reading an object back checks it three ways before anything is served from it: it decodes, its
entries' digest is the one its replay file states, and that is the digest the game's pointer in
Valkey names (the digest the archiver computed from the hot log). Anything else is `corrupt`.
"""

from __future__ import annotations

import msgspec
import zstandard
from msgspec import Struct

from ..store import StoredEvent
from ..validator.replay_file import ReplayFile, build_replay, log_digest, stored_entries
from ..validator.replay_reader import FileRefusal, read_replay

ARCHIVE_FORMAT = 1
LEVEL = 9
DIGEST_DIGITS = 32  # of the log's SHA-256 in hex: what names its object (128 bits)
CORRUPT = "corrupt"

_encoder = msgspec.json.Encoder()


class ArchivedGame(Struct, frozen=True):
    archive_format: int
    replay: ReplayFile
    move_ids: list[str | None]  # per entry, in order: the client move id it was stored with


class _StoredObject(Struct, frozen=True):
    """An object as read back: its replay file kept as bytes, for the strict reader to read."""

    archive_format: int
    replay: msgspec.Raw
    move_ids: list[str | None]


class Unreadable(Struct, frozen=True):
    """An archived object that is not the game it should be (code `corrupt`), and why."""

    code: str
    message: str


_decoder = msgspec.json.Decoder(_StoredObject)


def object_key(game_id: str, digest: str) -> str:
    """Where a game's object lives: by its id and its log's digest, so a put is idempotent (the same
    game archived twice writes the same key and bytes) and a different log never overwrites it."""
    return f"games/{game_id[:2]}/{game_id}/{digest[:DIGEST_DIGITS]}.replay.zst"


def pack(game_id: str, entries: list[StoredEvent]) -> tuple[bytes, str]:
    """The compressed object of a stored log, and the log's digest."""
    replay = build_replay(game_id, entries)
    archived = ArchivedGame(ARCHIVE_FORMAT, replay, [stored.move_id for stored in entries])
    return zstandard.ZstdCompressor(level=LEVEL).compress(_encoder.encode(archived)), replay.digest


def unpack(game_id: str, data: bytes, digest: str) -> list[StoredEvent] | Unreadable:
    """The stored log an object holds, checked against the digest the pointer names (the whole digest,
    or the 32 hex digits of it the object's key carries)."""
    def corrupt(why: str) -> Unreadable:
        return Unreadable(CORRUPT, f"the archived object of game {game_id} {why}")

    try:
        archived = _decoder.decode(zstandard.ZstdDecompressor().decompress(data))
    except (zstandard.ZstdError, msgspec.DecodeError, msgspec.ValidationError) as exc:
        return corrupt(f"does not decode: {exc}")
    # The strict reader, as for any replay file; unsigned (the pointer's digest vouches for the
    # object), and no size cap (a game too long for one exported file is still a game).
    replay = read_replay(bytes(archived.replay), allow_unsigned=True, max_bytes=None)
    if isinstance(replay, FileRefusal):
        return corrupt(f"does not read as a replay file: {replay.message} ({replay.code})")
    if archived.archive_format != ARCHIVE_FORMAT or replay.game_id != game_id:
        return corrupt(f"is format {archived.archive_format} of game {replay.game_id}")
    if len(archived.move_ids) != len(replay.entries):
        return corrupt("has move ids for another number of entries")
    try:
        entries = [
            StoredEvent(e.type, e.version, e.schema, e.ts_ms, e.data, move_id)
            for e, move_id in zip(stored_entries(replay), archived.move_ids)
        ]
        actual = log_digest(entries)
    except Exception as exc:  # noqa: BLE001  an entry that no longer decodes is corruption too
        return corrupt(f"has an entry that does not decode: {exc}")
    if [e.version for e in entries] != list(range(1, len(entries) + 1)):
        return corrupt("has entries out of order")
    if actual != replay.digest or len(digest) < DIGEST_DIGITS or not actual.startswith(digest):
        return corrupt(f"has digest {actual[:16]}..., not the archived {digest[:16]}...")
    return entries


def replay_of(data: bytes) -> ReplayFile:
    """The replay file inside an object already checked by `unpack` (for exports and tooling)."""
    replay = read_replay(bytes(_decoder.decode(zstandard.ZstdDecompressor().decompress(data)).replay),
                         allow_unsigned=True, max_bytes=None)
    assert not isinstance(replay, FileRefusal), replay
    return replay
