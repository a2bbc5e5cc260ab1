"""Replay files: a finished game's whole log as a documented JSON file anyone can check offline.

Format 1 (docs/replay-format.md): the game's header (game, variant, deal version, kind, links,
player, seed, and for a daily its salt and commitment), every entry of the log in order with its
stream version and server time (the creation, the first look, each engine event), the result
(status, moves, time from the first look to the last entry), and `digest`: SHA-256 over the log's
entries in a canonical encoding, the same the server computes from its stream, so a file can be
compared with the server's copy and any edit to an entry changes it.

Verifying a file re-runs it exactly as the validator re-runs a stored log, and checks that the
header and the result say what the entries say, and that a daily's salt and commitment bind its
deal to its challenge (daily_binding.py).
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec
from msgspec import Struct

import engine
from engine import RuleError

from ..games import codec
from ..games.record import BadLog, GameLog, read_log, start_state
from ..store import StoredEvent
from .daily_binding import COMMITMENT_MISMATCH, binding_problem
from .verdict import REJECTED, Claim, Verdict, check_log

FORMAT = 1
TAMPERED = "tampered_file"


class ReplayEntry(Struct, frozen=True):
    version: int  # position in the game's stream, from 1
    at_ms: int  # the server's time when the entry was stored
    entry: codec.AnyEntry


class ReplayResult(Struct, frozen=True):
    status: str
    moves: int
    time_ms: int | None


class ReplayFile(Struct, frozen=True):
    format: int
    game_id: str
    game: str
    variant: dict[str, Any]
    deal_version: int
    kind: str
    player_id: str
    seed: int
    entries: list[ReplayEntry]
    result: ReplayResult
    digest: str
    challenge: str | None = None
    race: str | None = None
    salt: str | None = None
    commitment: str | None = None


def log_digest(entries: list[StoredEvent]) -> str:
    """SHA-256 over each entry's (version, type, schema, time, payload at today's schema) in order."""
    digest = hashlib.sha256()
    for stored in entries:
        fresh = codec.new_entry(codec.decode(stored))
        digest.update(msgspec.msgpack.encode([stored.version, fresh.type, fresh.schema, stored.ts_ms, fresh.data]))
    return digest.hexdigest()


def stored_entries(file: ReplayFile) -> list[StoredEvent]:
    """The file's entries as the store would hold them."""
    out = []
    for item in file.entries:
        fresh = codec.new_entry(item.entry)
        out.append(StoredEvent(fresh.type, item.version, fresh.schema, item.at_ms, fresh.data))
    return out


def build_replay(game_id: str, entries: list[StoredEvent], *, salt: str | None = None,
                 commitment: str | None = None) -> ReplayFile:
    """The replay file of a stored log. The caller decides whether the game may be public yet."""
    log = read_log(entries)
    created = log.created
    start = start_state(created)
    assert not isinstance(start, RuleError), start
    state = engine.fold(start, log.engine_events())
    time_ms = log.events[-1].ts_ms - log.shown.at_ms if log.shown is not None and log.events else None
    return ReplayFile(
        format=FORMAT, game_id=game_id, game=created.game, variant=created.variant,
        deal_version=created.deal_version, kind=created.kind, player_id=created.player_id, seed=created.seed,
        entries=[ReplayEntry(s.version, s.ts_ms, codec.decode(s)) for s in entries],
        result=ReplayResult(state.status, state.moves, time_ms), digest=log_digest(entries),
        challenge=created.links.challenge, race=created.links.race, salt=salt, commitment=commitment,
    )


def verify_replay(file: ReplayFile) -> Verdict:
    """The verdict on a replay file, offline: its entries re-run, its header and result checked."""
    def tampered(message: str, entry: int | None = None) -> Verdict:
        return Verdict(file.game_id, REJECTED, TAMPERED, message, entry)

    entries = stored_entries(file)
    if [e.version for e in entries] != list(range(1, len(entries) + 1)):
        return tampered("the entries are not numbered 1, 2, 3, ... in order")
    try:
        log: GameLog = read_log(entries)
    except BadLog as exc:
        return Verdict(file.game_id, REJECTED, "bad_log", str(exc), exc.version)
    created = log.created
    header = (file.game, file.variant, file.deal_version, file.kind, file.player_id, file.seed)
    if header != (created.game, created.variant, created.deal_version, created.kind, created.player_id, created.seed):
        return tampered("the header does not match the game's creation entry", 1)
    if file.challenge != created.links.challenge:  # the commitment is checked against this key
        return tampered("the header's challenge is not the one the game's creation entry links", 1)
    if log_digest(entries) != file.digest:
        return tampered("the digest does not match the entries: an entry was edited, added or removed")
    unbound = binding_problem(file.challenge, file.game, file.variant, file.seed, file.salt, file.commitment)
    if unbound is not None:
        return Verdict(file.game_id, REJECTED, COMMITMENT_MISMATCH, unbound, None)
    claim = Claim(file.game_id, file.player_id, file.result.moves, file.result.time_ms or 0)
    return check_log(log, claim)


_decoder = msgspec.json.Decoder(ReplayFile)
_encoder = msgspec.json.Encoder()


def encode_replay(file: ReplayFile) -> bytes:
    return msgspec.json.format(_encoder.encode(file), indent=1)


def decode_replay(data: bytes) -> ReplayFile:
    """A replay file; msgspec.ValidationError / DecodeError when it is not one."""
    return _decoder.decode(data)
