"""What the race service hears from the rest of the process, and where its changes go out.

- the game service: every accepted move of a race game (MoveHook, progress out on the feed) and how
  each game ended (ResultsHook, the racer's finish in the race log);
- the replay validator: the seed a race game had to be dealt from (SeedAuthority) and each verdict
  on a racer's win (VerdictSink);
- the race socket: a racer's presence, and every racer's progress for a socket's first frames.
Each ignores the games that are not race games, so it can sit beside the tournaments' hooks.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from ..games.entries import RACE, GameCreated
from ..games.live import LiveGame
from ..games.model import Snapshot
from ..games.service import GameService
from .commands import CheckWin, Finish, Presence, RaceError
from .core import RaceState
from .progress import RacerProgress, progress_of
from .store import RaceStore
from .view import RaceView


class RaceFeed(Protocol):
    """Where a race's changes go out (the gateway's fan-out). Called in the move path: no waiting."""

    def race_changed(self, view: RaceView) -> None: ...

    def progress(self, race_id: str, progress: RacerProgress) -> None: ...


class NoFeed:
    def race_changed(self, view: RaceView) -> None:
        return None

    def progress(self, race_id: str, progress: RacerProgress) -> None:
        return None


VerdictLookup = Callable[[str], Awaitable[bool | tuple[bool, str] | None]]  # game id -> (verified, reason)


async def no_verdicts(game_id: str) -> None:
    return None


class RaceHooks:
    """Mixed into RaceService, which supplies what is declared here."""

    store: RaceStore
    games: GameService
    feed: RaceFeed
    load: Callable[[str], Awaitable[RaceState | None]]
    _execute: Callable[..., Awaitable[RaceState | RaceError]]

    def moved(self, live: LiveGame, snapshot: Snapshot) -> None:
        """MoveHook: a racer's move goes out as progress (counts only) on the race's feed."""
        race_id = live.created.links.race
        if race_id is not None and live.created.kind == RACE:
            self.feed.progress(race_id, progress_of(live.owner, snapshot.version, snapshot.view, snapshot.elapsed_ms))

    async def opened(self, created: GameCreated, game_id: str, at_ms: int) -> None:
        return None

    async def ended(self, created: GameCreated, game_id: str, status: str, moves: int, time_ms: int,
                    at_ms: int) -> None:
        """ResultsHook: a racer's game ended; the race logs the finish (or ignores a game not its own)."""
        if created.kind != RACE or created.links.race is None:
            return
        await self._execute(created.links.race, Finish(created.player_id, game_id, status, moves, time_ms, at_ms))

    async def on_verdict(self, created: GameCreated, verdict) -> None:
        """VerdictSink: the validator's verdict on a racer's win (heard at least once)."""
        race_id = created.links.race
        if race_id is None or created.kind != RACE:
            return
        await self._execute(race_id, CheckWin(created.player_id, verdict.game_id, verdict.verified, verdict.reason))

    async def seed_of(self, created: GameCreated) -> int | None:
        """SeedAuthority: a race game must have been dealt from its race's seed."""
        race_id = created.links.race
        if race_id is None or created.kind != RACE:
            return None
        state = await self.load(race_id)
        if state is None or state.created is None:
            raise LookupError(f"the game names race {race_id!r}, which does not exist")
        return state.created.sealed.seed

    async def presence(self, race_id: str, player: str, connected: bool) -> None:
        """A racer's race socket opened or closed; the race logs when the last one closes or one reopens."""
        count = await self.store.presence(race_id, player, 1 if connected else -1)
        if (connected and count == 1) or (not connected and count == 0):
            await self._execute(race_id, Presence(player, connected))

    async def progress_now(self, state: RaceState) -> list[RacerProgress]:
        """Every racer's progress from their game's log (a socket's first frames)."""
        found = []
        for player, game_id in state.games.items():
            live = await self.games.refresh(game_id)
            if live is not None and live.shown_at_ms is not None:
                snapshot = self.games.snapshot_of(live)
                found.append(progress_of(player, snapshot.version, snapshot.view, snapshot.elapsed_ms))
        return found
