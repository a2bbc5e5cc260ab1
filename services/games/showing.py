"""What the game service shows: the snapshot a socket gets, the first look that starts the clock, summaries.

A part of GameService (services/games/service.py), kept apart by what it does: these methods read the
live game the service loads (`load`, `refresh`, `rebuild`) and log the first look through its store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from collections.abc import Callable

import engine
from engine import IN_PROGRESS, PlayerView, RuleError

from . import codec
from .entries import CASUAL_KINDS, RACE, GameShown
from .live import LiveGame, LiveGames, ms_between
from .model import NOT_PUBLIC_YET, NOT_STARTED, GameSummary, Refusal, Snapshot, meta_key, player_games_key, stream_of
from .secrecy import DealSecrecy
from ..redis.lean_commands import LeanCommands
from .view_delta import Baseline
from ..store import EventStore, VersionConflict


class Showing:
    """GameService's showing half. (The service sets these; `refresh`, `load`, `rebuild` are its own.)"""

    store: EventStore
    redis: Any  # Any: a redis-py client, one server's or a cluster's (they share no type)
    lean: LeanCommands  # the first look's meta write goes this way (services/redis/lean_commands.py)
    clock: Callable[[], int]
    live: LiveGames
    secrecy: DealSecrecy

    if TYPE_CHECKING:  # provided by GameService (it reads the logs); declared for the checker only
        async def load(self, game_id: str) -> LiveGame | None: ...

        async def refresh(self, game_id: str) -> LiveGame | None: ...

        async def rebuild(self, game_id: str, *, verify: bool = False) -> LiveGame | None: ...

    async def open_for(self, game_id: str, viewer_id: str) -> tuple[Snapshot, bool] | Refusal | None:
        """The snapshot a socket gets on connect, and whether the viewer is the player; a Refusal when
        the viewer may not watch this game yet (a daily attempt or race game before its reveal).

        The first look by anyone, spectators included, starts the clock: it is logged as game_shown
        (time runs from the deal first shown, so a second identity cannot study the deal first).
        The log is checked for moves made through other processes: a (re)connect is never stale.
        """
        live = await self.refresh(game_id)
        if live is None:
            return None
        if not self.secrecy.may_watch(live.created, viewer_id, self.clock()):
            return Refusal(NOT_PUBLIC_YET, "only its player may open this game until its deal is public")
        if live.shown_at_ms is None and live.created.kind == RACE:
            return Refusal(NOT_STARTED, "a race game opens at its race's start signal")
        if live.shown_at_ms is None:
            async with live.lock:
                live = await self.show(live, viewer_id)
        return self.snapshot_of(live), viewer_id == live.owner

    async def show_at(self, game_id: str, at_ms: int, viewer_id: str) -> LiveGame | None:
        """Log the first look at a given time (a race's start signal, for its racer's game) unless the
        log has one already; the live game. A time before the game's creation is taken as its creation
        (a look before the deal existed would run the log's clock backwards); a future one is refused."""
        live = await self.refresh(game_id)
        if live is None or live.shown_at_ms is not None:
            return live
        if at_ms > self.clock():
            raise ValueError(f"game {game_id}: a first look at {at_ms} is in the future")
        async with live.lock:
            return await self.show(live, viewer_id, max(at_ms, live.created.created_at_ms))

    async def show(self, live: LiveGame, viewer_id: str, at_ms: int | None = None) -> LiveGame:
        """Log the first look unless the log has one; the live game with its shown time."""
        if live.shown_at_ms is not None:
            return live
        shown = GameShown(at_ms=self.clock() if at_ms is None else at_ms, viewer_id=viewer_id)
        try:
            result = await self.store.append(stream_of(live.game_id), live.stream_version, [codec.new_entry(shown)])
        except VersionConflict:  # another process logged a look (or a move) first: the log has the answer
            return await self.rebuild(live.game_id) or live
        live.shown_at_ms, live.stream_version = shown.at_ms, result.version
        fields = {"shown_at_ms": shown.at_ms}
        if live.state.status != IN_PROGRESS and live.version == 0:  # lost as dealt: stopped at the first look
            live.finished_at_ms = fields["finished_at_ms"] = shown.at_ms
        await self.lean.hset(meta_key(live.game_id), mapping=fields)
        return live

    async def snapshot(self, game_id: str) -> Snapshot | None:
        live = await self.load(game_id)
        return None if live is None else self.snapshot_of(live)

    def is_over(self, live: LiveGame) -> bool:
        """No further move of any kind: won, abandoned, or lost with nothing (not even undo) left."""
        return engine.is_over(live.state)

    def deal_public(self, live: LiveGame) -> bool:
        # A game on a deal of its own (no contest) is public once play has stopped: won, abandoned or
        # lost, even a loss a (practice) undo could leave; its number was never secret anyway.
        stopped = live.state.status != IN_PROGRESS
        return self.secrecy.deal_public(live.created, stopped, self.clock())

    def snapshot_of(self, live: LiveGame) -> Snapshot:
        ended = self.deal_public(live)
        deal: PlayerView | None = None
        if ended:
            revealed = engine.revealed_view(live.created.game, live.created.variant, live.created.seed)
            assert not isinstance(revealed, RuleError), revealed  # the game dealt when it was created
            deal = revealed
        return Snapshot(
            game_id=live.game_id,
            version=live.version,
            view=live.view(),
            elapsed_ms=self._elapsed(live),
            seed=live.created.seed if ended else None,
            deal=deal,
            deal_number=self.deal_number(live),
        )

    def baseline(self, live: LiveGame) -> Baseline | None:
        """What the last frame of this game showed, to send the next one as a change to it; None when no
        view of the state now was built (a game just rebuilt from its log: the next frame goes whole)."""
        view = live.cached_view()
        return None if view is None else Baseline(live.version, view, self.deal_number(live))

    def deal_number(self, live: LiveGame) -> int | None:
        """The deal number a player may see now: a casual or practice game's own deal at once (it is
        unranked, and "Play this deal again" names it), any other once its deal is public."""
        created = live.created
        if created.kind in CASUAL_KINDS and self.secrecy.may_hint(created, self.clock()):
            return created.seed
        return created.seed if self.deal_public(live) else None

    def _elapsed(self, live: LiveGame) -> int | None:
        if live.shown_at_ms is None:
            return None
        if live.finished_at_ms is not None:
            return ms_between(live.shown_at_ms, live.finished_at_ms)
        return ms_between(live.shown_at_ms, self.clock())

    # Summaries --------------------------------------------------------------------------------

    async def summary(self, game_id: str) -> GameSummary | None:
        if self.live.get(game_id) is None:
            # An archived game's pointer holds its final summary: a list of games or their statistics
            # never fetch objects from the archive (services/archive/pointer.py).
            archived_summary = getattr(self.store, "archived_summary", None)
            archived = None if archived_summary is None else await archived_summary(game_id)
            if archived is not None:
                return archived
        live = await self.refresh(game_id)  # fresh: another process may have moved since
        return None if live is None else self._summary(live)

    def _summary(self, live: LiveGame) -> GameSummary:
        created, state = live.created, live.state
        ended = self.deal_public(live)
        return GameSummary(
            id=live.game_id,
            game=created.game,
            variant=created.variant,
            player_id=created.player_id,
            status=state.status,
            version=live.version,
            moves=state.moves,
            created_at_ms=created.created_at_ms,
            seed=created.seed if ended else None,
            elapsed_ms=self._elapsed(live),
            kind=created.kind,
            chosen_deal=created.chosen_deal,
            finished_at_ms=live.finished_at_ms,
            challenge=created.links.challenge,
            ranked=created.ranked,
            assisted=live.assisted or engine.undo_assisted(state),
            ghost=created.links.ghost,
            deal_number=self.deal_number(live),
            practice_undo=state.practice_undo,
        )

    async def list_games(self, player_id: str, limit: int = 50) -> list[GameSummary]:
        """The player's games, newest first."""
        ids = await self.redis.zrevrange(player_games_key(player_id), 0, max(0, limit - 1))
        summaries = []
        for raw in ids:
            summary = await self.summary(_text(raw))
            if summary is not None and not (summary.kind == RACE and summary.elapsed_ms is None):
                summaries.append(summary)  # a race game is listed from its start signal on, never before
        return summaries


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
