"""Replay files made without a server, for the tamper suite: real logs from the engine, signed with the tests' key.

Each builder gives a game's stored entries as the service writes them (the creation, the first
look, the engine's events, a practice game's hint), with server times that run forward; `signed`
turns them into the JSON tree a server serves. The edits a cheater makes are plain functions on that
tree, and `redigest` / `resign` redo what a cheater could redo (the SHA-256) or could not (the
signature: `resign` stands for a server that signed an edited file, so the log checks alone are tested).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import msgspec

import engine
from engine.solver import solve
from services.games import codec
from services.games.entries import DAILY, PRACTICE, GameCreated, GameLinks, GameShown, HintGiven
from services.games.record import read_log, start_state
from services.store import StoredEvent
from services.tournaments.derivation import commitment
from services.validator.replay_file import build_replay, log_digest, stored_entries
from services.validator.replay_format import ReplayFile, document_of
from services.validator.replay_signing import ReplaySigner
from services.validator.replay_times import file_time_ms
from tests.support.replays import SIGNER

T0 = 1_700_000_000_000
PLAYER = "g_0123456789abcdef"
GAME_ID = "0123456789abcdef"
DAY = "2026-12-01"
CHALLENGE = f"{DAY}/wish/mode=standard"
SALT = bytes(range(16))
FORGER = ReplaySigner(b"a cheater's own key")
WINNABLE_WISH = next(s for s in range(1, 500) if solve(engine.initial_state("wish", None, s)).winnable)
LOST_AS_DEALT_WISH = next(s for s in range(1, 1000) if engine.initial_state("wish", None, s).status == engine.LOST)

Tree = dict[str, Any]


def _log(created: GameCreated, intents: list, *, hint_after: int | None = None) -> list[StoredEvent]:
    """The stored entries of a game: created, shown 100 ms later, then each move 700 ms after the last."""
    facts: list[tuple[Any, int]] = [(created, created.created_at_ms + 5)]
    shown_at = created.created_at_ms + 100
    facts.append((GameShown(at_ms=shown_at, viewer_id=created.player_id), shown_at + 10))
    state = start_state(created)
    assert not isinstance(state, engine.RuleError)
    now, played = shown_at + 10, 0
    for intent in intents:
        if hint_after is not None and played == hint_after:
            now += 300
            facts.append((HintGiven(at_ms=now - 5, version=played, result="winnable", move=intent), now))
        state, events = engine.play(intent, state)
        for event in events:
            now += 700
            facts.append((event, now))
        played += len(events)
    out = []
    for version, (entry, at_ms) in enumerate(facts, start=1):
        fresh = codec.new_entry(entry)
        out.append(StoredEvent(fresh.type, version, fresh.schema, at_ms, fresh.data))
    return out


def _created(seed: int, **fields: Any) -> GameCreated:
    return GameCreated("wish", {"mode": "standard"}, seed, PLAYER, T0, **fields)


def _line(seed: int) -> list:
    return list(solve(engine.initial_state("wish", None, seed)).line)


def won_casual() -> list[StoredEvent]:
    return _log(_created(WINNABLE_WISH), _line(WINNABLE_WISH))


def won_daily() -> list[StoredEvent]:
    return _log(_created(WINNABLE_WISH, kind=DAILY, ranked=True, links=GameLinks(challenge=CHALLENGE)),
                _line(WINNABLE_WISH))


def won_practice_with_hint() -> list[StoredEvent]:
    return _log(_created(WINNABLE_WISH, kind=PRACTICE, chosen_deal=True), _line(WINNABLE_WISH), hint_after=2)


def lost_as_dealt() -> list[StoredEvent]:
    return _log(_created(LOST_AS_DEALT_WISH), [])


def resigned_spider() -> list[StoredEvent]:
    created = GameCreated("spider", msgspec.structs.asdict(engine.rules_for("spider").parse_variant(None)),  # type: ignore[union-attr]
                          7, PLAYER, T0)
    return _log(created, [engine.legal_moves(engine.initial_state("spider", None, 7))[-1]])  # the resign


def daily_binding(seed: int = WINNABLE_WISH) -> dict[str, str]:
    return {"salt": SALT.hex(), "commitment": commitment(DAY, "wish", "mode=standard", seed, SALT)}


def signed(entries: list[StoredEvent], *, signer: ReplaySigner = SIGNER, **binding: str) -> Tree:
    return document_of(signer.sign(build_replay(GAME_ID, entries, **binding)))


def unsigned_format_1(entries: list[StoredEvent]) -> Tree:
    """A file as exported before files were signed (its time rule too: null with no engine event)."""
    file = build_replay(GAME_ID, entries)
    result = msgspec.structs.replace(file.result, time_ms=file_time_ms(read_log(entries), 1))
    return document_of(msgspec.structs.replace(file, format=1, result=result))


def _file(tree: Tree) -> ReplayFile:
    return msgspec.convert(tree, ReplayFile)


def redigest(tree: Tree) -> Tree:
    """What anyone can redo after an edit: the SHA-256 over the entries."""
    return {**tree, "digest": log_digest(stored_entries(_file(tree)))}


def resign(tree: Tree, signer: ReplaySigner = SIGNER) -> Tree:
    """What only the key's holder can redo: the signature (the tests' server key, or a forger's)."""
    return document_of(signer.sign(_file({**tree, "signature": None})))


def edited(tree: Tree, change: Callable[[Tree], Any], *, digest: bool = False, sign: bool = False) -> bytes:
    """The tree's bytes after `change` (on a deep copy), re-digested and re-signed when asked."""
    clone = copy.deepcopy(tree)
    change(clone)
    if digest:
        clone = redigest(clone)
    if sign:
        clone = resign(clone)
    return json.dumps(clone).encode()


def moves(tree: Tree) -> list[int]:
    """Indexes into `entries` of the engine's events."""
    return [n for n, item in enumerate(tree["entries"]) if item["entry"]["type"] not in
            ("game_created", "game_shown", "hint_given")]
