"""A race's events: the storage schema of its stream (arena:race:{<race id>}:log).

One stream per race holds its whole life, so a race is rebuilt, replayed and re-rated from its log
alone: created (with its sealed deal), joined, left, ready, countdown started (the absolute start
time), games dealt, started, presence, each racer's finish, ended, each winner's verdict, results
final, rematch. Every time in them is the server's.

Stored forever (golden bytes in tests/races pin them): a field may be added only with a default, a
tag is never reused, and the envelope's schema number says which layout a payload has.
`RaceCreated.sealed` holds the seed and salt: server-side only until the race has ended, and no view
or response may copy it before then (see view.public_view).
"""

from __future__ import annotations

from typing import Any, Literal, Union

import msgspec
from msgspec import Struct

from services.store import NewEvent, StoredEvent

SCHEMA = 1

EndReason = Literal["all_finished", "time_limit", "emptied"]
Outcome = Literal["verified", "rejected"]


class RaceEvent(Struct, frozen=True, tag_field="type"):
    """Base of every race event."""


class SealedDeal(Struct, frozen=True):
    """What the commitment hides until the race has ended. The salt as lowercase hex."""

    seed: int
    salt: str


class RaceCreated(RaceEvent, tag="race_created", frozen=True):
    race_id: str
    host: str
    game: str
    variant: dict[str, Any]  # every field given
    seats: int  # 2..8
    time_limit_ms: int
    countdown_ms: int
    code: str  # the short join code
    commitment: str  # SHA-256 of the sealed deal (deal.commitment), published from the start
    check: str  # how the deal was chosen: exact_solver, or not_lost_at_deal for a game without one
    created_at_ms: int
    sealed: SealedDeal
    rematch_of: str | None = None


class RacerJoined(RaceEvent, tag="racer_joined", frozen=True):
    player: str
    at_ms: int


class RacerLeft(RaceEvent, tag="racer_left", frozen=True):
    player: str
    at_ms: int


class RacerReady(RaceEvent, tag="racer_ready", frozen=True):
    player: str
    ready: bool
    at_ms: int


class CountdownStarted(RaceEvent, tag="countdown_started", frozen=True):
    start_at_ms: int  # the absolute start signal: every racer's clock starts here
    by: str  # the host's id when the host started it, "all_ready" when the last seat got ready
    at_ms: int


class GamesDealt(RaceEvent, tag="games_dealt", frozen=True):
    games: dict[str, str]  # player -> game id, one game of the race's deal per racer
    at_ms: int


class RaceStarted(RaceEvent, tag="race_started", frozen=True):
    at_ms: int  # the start signal (CountdownStarted.start_at_ms), not the moment a process noticed


class RacerPresence(RaceEvent, tag="racer_presence", frozen=True):
    player: str
    connected: bool  # the racer's last race socket closed (False), or one opened again (True)
    at_ms: int


class RacerFinished(RaceEvent, tag="racer_finished", frozen=True):
    player: str
    game_id: str
    result: str  # won, lost or abandoned, as the game ended
    moves: int
    time_ms: int  # server-measured, from the start signal to the game's last entry
    at_ms: int


class RaceEnded(RaceEvent, tag="race_ended", frozen=True):
    reason: EndReason
    at_ms: int  # for the time limit: start + limit, not the moment a process noticed


class WinChecked(RaceEvent, tag="win_checked", frozen=True):
    player: str
    outcome: Outcome  # the replay validator's verdict on the racer's win
    reason: str  # the validator's reason code when rejected, "" when verified
    at_ms: int


class Standing(Struct, frozen=True):
    player: str
    place: int  # 1 = first; equal results share a place
    result: str  # won, lost, abandoned, timed_out, rejected (a win the validator refused)
    moves: int
    time_ms: int | None


class ResultsFinal(RaceEvent, tag="results_final", frozen=True):
    standings: list[Standing]  # in place order: what ratings are computed from
    at_ms: int


class RematchCreated(RaceEvent, tag="rematch_created", frozen=True):
    race_id: str  # the new race, the same seats and a new deal
    by: str
    at_ms: int


AnyRaceEvent = Union[
    RaceCreated, RacerJoined, RacerLeft, RacerReady, CountdownStarted, GamesDealt, RaceStarted, RacerPresence,
    RacerFinished, RaceEnded, WinChecked, ResultsFinal, RematchCreated,
]

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(AnyRaceEvent)


def event_tag(event: RaceEvent) -> str:
    return type(event).__struct_config__.tag  # type: ignore[return-value]  # a tagged Struct's tag: a str here, which the checker types str | int | None


def encode_event(event: RaceEvent) -> bytes:
    return _encoder.encode(event)


def decode_event(data: bytes) -> AnyRaceEvent:
    return _decoder.decode(data)


def to_new_event(event: RaceEvent) -> NewEvent:
    """The store's envelope: the tag as its type, the whole tagged struct as its payload."""
    return NewEvent(event_tag(event), encode_event(event), SCHEMA)


def from_stored(stored: StoredEvent) -> AnyRaceEvent:
    if stored.schema != SCHEMA:
        raise ValueError(f"race event {stored.type!r} has schema {stored.schema}; this code reads {SCHEMA}")
    return decode_event(stored.data)
