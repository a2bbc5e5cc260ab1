"""A game's log read back: its creation, its first look, its hints, its engine events, with their server times.

`read_log` is the one place that turns a stream's stored entries into these facts; the service's
rebuild, the projections' rebuild and the validator all read games through it, so they cannot
disagree about what a log says. A hint is not an engine event: it changes no position, only marks
the game assisted, and it may only stand in a practice game's log, after the first look, naming the
position it was given at; anything else is not a log this server wrote.
"""

from __future__ import annotations

from collections.abc import Sequence

from msgspec import Struct

import engine
from engine import AnyEvent, GameState, RuleError

from ..store import StoredEvent
from . import codec
from .entries import CASUAL_KINDS, PRACTICE, GameCreated, GameShown, HintGiven


def practice_undo(created: GameCreated) -> bool:
    """Casual and practice games may undo in every game (marked assisted where the game's own rules
    have no undo); dailies and races follow the rules as written. The game's kind says which, so
    every reader of a log (rebuild, projections, validator, replay) deals it the same way."""
    return created.kind in CASUAL_KINDS


def start_state(created: GameCreated) -> GameState | RuleError:
    """The engine state a game's log starts from: its deal, with the undo its kind allows."""
    return engine.initial_state(created.game, created.variant, created.seed, practice_undo=practice_undo(created))


class BadLog(ValueError):
    """The stream is not a game log this code can read (say why, and at which entry)."""

    def __init__(self, message: str, version: int | None = None) -> None:
        super().__init__(message if version is None else f"entry {version}: {message}")
        self.version = version


class TimedEvent(Struct, frozen=True):
    event: AnyEvent
    stream_version: int  # its entry's position in the stream
    ts_ms: int  # the server's time when it was appended
    move_id: str | None = None  # the client's move id: one for every event of one move (a Finish has many)


class GameLog(Struct, frozen=True):
    created: GameCreated
    shown: GameShown | None
    events: tuple[TimedEvent, ...]
    stream_version: int  # entries in the stream
    hints: tuple[HintGiven, ...] = ()
    hint_versions: tuple[int, ...] = ()  # the stream versions of the hint entries

    @property
    def assisted(self) -> bool:
        """A hint was taken: the game is marked assisted for good (so is a practice undo in a game
        without undo of its own: engine.undo_assisted, read from the state)."""
        return bool(self.hints)

    @property
    def version(self) -> int:
        """The protocol's version: engine events stored (moves, undos, resigns)."""
        return len(self.events)

    def engine_events(self) -> list[AnyEvent]:
        return [timed.event for timed in self.events]


def settled(state: GameState) -> bool:
    """Whether the game's end is told to those who hear ends (validator, retention, contests): when it
    is over, or lost in casual or practice play, where only a practice undo could reopen it (a later
    end is then told again). A lost Spider daily that may still undo is not settled: play goes on."""
    return engine.is_over(state) or (state.status == engine.LOST and state.practice_undo)


def stopped_at(log: GameLog, state: GameState) -> int | None:
    """When the game's clock stopped, from the log alone: the time of the entry that made it won,
    lost or abandoned (a lost game that may still undo has stopped too, until an undo takes it back
    into play), or its first look when the deal was lost as dealt; None while it is in progress."""
    if state.status == engine.IN_PROGRESS:
        return None
    if log.events:
        return log.events[-1].ts_ms
    return log.shown.at_ms if log.shown is not None else None


def read_log(entries: Sequence[StoredEvent]) -> GameLog:
    """The facts of a log; BadLog when it is not one (empty, no creation first, a second creation...)."""
    if not entries:
        raise BadLog("the stream is empty")
    created: GameCreated | None = None
    shown: GameShown | None = None
    events: list[TimedEvent] = []
    hints: list[HintGiven] = []
    hint_versions: list[int] = []
    for stored in entries:
        try:
            entry = codec.decode(stored)
        except codec.UnknownEntry as exc:
            raise BadLog(str(exc), stored.version) from exc
        if isinstance(entry, GameCreated):
            if created is not None or stored.version != 1:
                raise BadLog("game_created may only be the first entry", stored.version)
            created = entry
        elif created is None:
            raise BadLog("the first entry is not game_created", stored.version)
        elif isinstance(entry, GameShown):
            if shown is not None:
                raise BadLog("a second game_shown", stored.version)
            if events:
                raise BadLog("game_shown after a move: the deal was played before it was shown", stored.version)
            shown = entry
        elif isinstance(entry, HintGiven):
            if created.kind != PRACTICE:
                raise BadLog(f"a hint in a {created.kind} game: hints exist only in practice games", stored.version)
            if shown is None:
                raise BadLog("a hint before the deal was shown", stored.version)
            if entry.version != len(events):
                raise BadLog(f"a hint for version {entry.version} logged at version {len(events)}", stored.version)
            hints.append(entry)
            hint_versions.append(stored.version)
        else:
            events.append(TimedEvent(entry, stored.version, stored.ts_ms, stored.move_id))
    assert created is not None
    return GameLog(created, shown, tuple(events), entries[-1].version, tuple(hints), tuple(hint_versions))
