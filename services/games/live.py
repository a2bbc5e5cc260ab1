"""A game held in process: its creation facts, the engine state at its stored version, recent answers.

The service keeps live games in an LRU so a move costs one append, not a re-read of the log. The
state is only trusted while this process is the one writing; a VersionConflict or a cache miss
rebuilds it from the log.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from msgspec import Struct

import engine
from engine import GameState, PlayerView

from .entries import GameCreated, HintGiven

ANSWERS_KEPT = 64  # answers remembered per game for retried move ids (the store keeps accepted ones for good)


class MoveAnswer(Struct, frozen=True):
    """What a c2s.move gets: accepted at a version, or rejected with a code a program can branch on."""

    move_id: str
    accepted: bool
    version: int
    code: str = ""
    message: str = ""


class LiveGame:
    def __init__(
        self, game_id: str, created: GameCreated, state: GameState, version: int, stream_version: int
    ) -> None:
        self.game_id = game_id
        self.created = created
        self.state = state
        self.version = version  # engine events stored: the protocol's version
        self.stream_version = stream_version  # every entry stored (creation and first look included)
        self.shown_at_ms: int | None = None
        self.finished_at_ms: int | None = None
        self.hint_versions: list[int] = []  # stream versions of hint entries: not moves, but in the stream
        self.last_hint: HintGiven | None = None
        self.lock = asyncio.Lock()
        self.answers: OrderedDict[str, MoveAnswer] = OrderedDict()
        self._view: PlayerView | None = None
        self._view_of: GameState | None = None  # the state _view shows

    def view(self) -> PlayerView:
        """The engine's view of the state now, built once per state: the move that made it, every
        spectator's first snapshot and every resync at that version share it (the legal list is the
        dearest part of a move in some games)."""
        if self._view_of is not self.state:
            self._view, self._view_of = engine.player_view(self.state), self.state
        return self._view  # type: ignore[return-value]  # set on the line above when stale

    def cached_view(self) -> PlayerView | None:
        """The view of the state now if one was built (what the last frame showed), without building one."""
        return self._view if self._view_of is self.state else None

    @property
    def owner(self) -> str:
        return self.created.player_id

    @property
    def assisted(self) -> bool:
        return bool(self.hint_versions)

    def version_at(self, stream_version: int) -> int:
        """The protocol version (moves stored) once the stream had `stream_version` entries: every
        entry up to there that is not an engine event (the creation, the first look, hints) is left
        out. The first look always comes before the first move."""
        service_entries = 1 + (self.shown_at_ms is not None) + sum(v <= stream_version for v in self.hint_versions)
        return stream_version - service_entries

    def remember(self, answer: MoveAnswer) -> None:
        self.answers[answer.move_id] = answer
        if len(self.answers) > ANSWERS_KEPT:
            self.answers.popitem(last=False)


class LiveGames:
    """A bounded LRU of live games by id."""

    def __init__(self, limit: int) -> None:
        self._limit = max(1, limit)
        self._games: OrderedDict[str, LiveGame] = OrderedDict()

    def get(self, game_id: str) -> LiveGame | None:
        live = self._games.get(game_id)
        if live is not None:
            self._games.move_to_end(game_id)
        return live

    def put(self, live: LiveGame) -> None:
        self._games[live.game_id] = live
        self._games.move_to_end(live.game_id)
        while len(self._games) > self._limit:
            self._games.popitem(last=False)

    def __len__(self) -> int:
        return len(self._games)


def ms_between(start: int | None, end: int | None) -> int | None:
    if start is None or end is None:
        return None
    return max(0, end - start)

