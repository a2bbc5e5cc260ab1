"""Replay files: a finished game's whole log as a documented JSON file anyone can check offline.

A file (docs/replay-format.md; its shape in replay_format.py, read strictly by replay_reader.py)
holds the game's header (game, variant, deal version, kind, links, player, seed, and for a daily
its salt and commitment), every entry of the log with its stream version and server time, the
result (status, moves, time from the first look to the last engine event), `digest` (SHA-256 over
the entries, the same the server computes from its stream) and, from format 2, the server's
Ed25519 signature over all of it (replay_signing.py).

Verifying a file proves two different things. From the log alone, with the engine: every move is
legal from the deal, the result is what the moves give, the header is the log's own, every time
stamp runs forward, a daily's deal is the one its commitment bound. From the signature, when the
server's keys are given: that the server wrote the file as it is, so the times it stamped and the
player it names are the server's word, not an editor's. A file that is not signed (format 1, from
before files were) proves the first and not the second, and is reported so.
"""

from __future__ import annotations

import hashlib
from typing import Literal

import msgspec
from msgspec import Struct

import engine
from engine import WON, RuleError
from engine.replay import ReplayError

from ..games import codec
from ..games.entries import DAILY, PRACTICE, RACE
from ..games.record import BadLog, GameLog, read_log, start_state
from ..store import StoredEvent
from .daily_binding import COMMITMENT_MISMATCH, binding_problem
from .replay_format import FORMAT_SIGNED, ReplayEntry, ReplayFile, ReplayResult, canonical, status_of
from .replay_signing import Keyring
from .replay_times import file_time_ms, first_time_problem
from .verdict import (
    ILLEGAL_EVENT, NOT_WON, REJECTED, TIME_BACKWARDS, WRONG_MOVES, WRONG_TIME, Claim, Verdict, check_log,
)

TAMPERED = "tampered_file"
WRONG_RESULT = "wrong_result"
WRONG_LINKS = "wrong_links"
NO_BINDING = "missing_commitment"

Proof = Literal["valid", "unchecked", "unsigned"]


class FileVerdict(Struct, frozen=True):
    """The verdict on a file's log, and what its signature proved: `valid` (checked against the keys
    given: time and identity are the server's), `unchecked` (signed, no keys given), `unsigned`."""

    verdict: Verdict
    signature: Proof
    key_id: str | None = None


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
    """The replay file of a stored log, unsigned (ReplaySigner.sign signs it). The caller decides
    whether the game may be public yet."""
    log = read_log(entries)
    created = log.created
    start = start_state(created)
    assert not isinstance(start, RuleError), start
    state = engine.fold(start, log.engine_events())
    return ReplayFile(
        format=FORMAT_SIGNED, game_id=game_id, game=created.game, variant=created.variant,
        deal_version=created.deal_version, kind=created.kind, player_id=created.player_id, seed=created.seed,
        entries=[ReplayEntry(s.version, s.ts_ms, codec.decode(s)) for s in entries],
        result=ReplayResult(status_of(state.status), state.moves, file_time_ms(log, FORMAT_SIGNED)),
        digest=log_digest(entries), challenge=created.links.challenge, race=created.links.race,
        salt=salt, commitment=commitment,
    )


def verify_replay(file: ReplayFile, keys: Keyring | None = None) -> FileVerdict:
    """The verdict on a file read by replay_reader: its signature checked when `keys` are given, its
    entries re-run, its header, links, times and result checked against them."""
    proof: Proof = "unsigned" if file.signature is None else "unchecked" if keys is None else "valid"
    key_id = file.signature.key_id if file.signature is not None else None
    if file.signature is not None and keys is not None:
        problem = keys.problem(file)
        if problem is not None:
            return FileVerdict(Verdict(file.game_id, REJECTED, problem[0], problem[1]), "unchecked", key_id)
    return FileVerdict(_check(file), proof, key_id)


def _check(file: ReplayFile) -> Verdict:
    def rejected(reason: str, message: str, entry: int | None = None) -> Verdict:
        return Verdict(file.game_id, REJECTED, reason, message, entry)

    entries = stored_entries(file)
    if [e.version for e in entries] != list(range(1, len(entries) + 1)):
        return rejected(TAMPERED, "the entries are not numbered 1, 2, 3, ... in order")
    try:
        log: GameLog = read_log(entries)
    except BadLog as exc:
        return rejected("bad_log", str(exc), exc.version)
    created = log.created
    header = [file.game, file.variant, file.deal_version, file.kind, file.player_id, file.seed]
    if canonical(header) != canonical([created.game, created.variant, created.deal_version, created.kind,
                                       created.player_id, created.seed]):
        return rejected(TAMPERED, "the header does not match the game's creation entry", 1)
    if (file.challenge, file.race) != (created.links.challenge, created.links.race):
        return rejected(TAMPERED, "the header's challenge or race is not the one the game's creation entry links", 1)
    links = _links_problem(file)
    if links is not None:
        return rejected(WRONG_LINKS, links, 1)
    if log_digest(entries) != file.digest:
        return rejected(TAMPERED, "the digest does not match the entries: an entry was edited, added or removed")
    if file.format >= FORMAT_SIGNED and file.kind == DAILY and created.ranked and file.commitment is None:
        return rejected(NO_BINDING, "a ranked daily attempt's file carries its day's salt and commitment: this one has none")
    unbound = binding_problem(file.challenge, file.game, file.variant, file.seed, file.salt, file.commitment)
    if unbound is not None:
        return rejected(COMMITMENT_MISMATCH, unbound)
    late = first_time_problem(file, log)
    if late is not None:
        return rejected(TIME_BACKWARDS, late[1], late[0])
    return _check_result(file, log)


def _links_problem(file: ReplayFile) -> str | None:
    """A kind the links do not fit: a daily names its challenge, a race game its race, and nothing
    else names either (practice may name the daily whose deal it is on)."""
    if file.kind == DAILY and file.challenge is None:
        return "a daily attempt names no challenge"
    if file.kind == RACE and file.race is None:
        return "a race game names no race"
    if file.challenge is not None and file.kind not in (DAILY, PRACTICE):
        return f"a {file.kind} game cannot belong to a daily challenge"
    if file.race is not None and file.kind != RACE:
        return f"a {file.kind} game cannot belong to a race"
    return None


def _check_result(file: ReplayFile, log: GameLog) -> Verdict:
    """The result whole (status, moves, time) against the re-run log; then, for a win, the validator's check."""
    def rejected(reason: str, message: str, entry: int | None = None) -> Verdict:
        return Verdict(file.game_id, REJECTED, reason, message, entry)

    start = start_state(log.created)
    if isinstance(start, RuleError):
        return rejected("bad_log", f"the creation does not deal: {start.message}", 1)
    replayed = engine.replay_events(start, log.engine_events())
    if replayed.error is not None:
        index = replayed.error.index if isinstance(replayed.error, ReplayError) else 0
        return rejected(ILLEGAL_EVENT, replayed.error.message, log.events[index].stream_version)
    state = replayed.state
    assert state is not None
    result = file.result
    if result.status != state.status:
        return rejected(WRONG_RESULT, f"the file says {result.status}, its log ends {state.status}")
    if result.moves != state.moves:
        return rejected(WRONG_MOVES, f"the log has {state.moves} moves, the file says {result.moves}")
    expected = file_time_ms(log, file.format)
    if result.time_ms != expected:
        return rejected(WRONG_TIME, f"the log took {expected} ms from its first look, the file says {result.time_ms}")
    if state.status != WON:
        return rejected(NOT_WON, f"a true record of a game that ended {state.status}: only a win is verified")
    return check_log(log, Claim(file.game_id, file.player_id, result.moves, result.time_ms or 0))
