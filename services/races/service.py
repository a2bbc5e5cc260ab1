"""The race service: lobby commands, the start signal, finishes, the end, results and rematches.

Every change is one decision of the pure core (core.decide) appended to the race's stream with its
expected version; a process that loses the append reads the log again and decides again, so any
gateway process may act on any race. What follows a change (dealing the games, showing them at the
start signal, resigning the games still in play at the end, giving the seats back, rating the final
results) is done by the process that made the change and done again, idempotently, by whoever looks
at the race next (`advance`): a process killed in between leaves nothing half done for long.

Time: the start signal and the time limit are absolute times in the log. A timer in the process that
made the countdown, the due set every process polls, and every request on the race all call
`advance`, which acts on what is due. The racers' clocks start at the signal: each game's first look
is logged at that time (GameService.show_at), and no game id leaves the server before it.

The lobby's commands are in lobby.py, what the service hears from games, validator and sockets in
hooks.py, the timers in timers.py. The gateway plugs in a feed (s2c.race frames, racers' progress);
this package knows no wire format.
"""

from __future__ import annotations

import logging
from collections import OrderedDict

from engine.intents import ResignIntent

from ..games.entries import RACE, GameLinks
from ..games.service import GameService
from ..store import VersionConflict
from . import core
from .commands import CheckWin, DealGames, RaceError, SignalStart, TimeUp
from .core import RaceState, decide, fold
from .deal_pool import DealPool
from .events import AnyRaceEvent, ResultsFinal
from .hooks import NoFeed, RaceFeed, RaceHooks, VerdictLookup, no_verdicts
from .lobby import BUSY, IN_ANOTHER_RACE, NO_SUCH_CODE, RaceLobby
from .ratings import Ratings, rated_race_of
from .store import RaceStore
from .timers import RaceTimers
from .view import RaceView, public_view

__all__ = ["BUSY", "IN_ANOTHER_RACE", "NO_SUCH_CODE", "RaceFeed", "RaceService", "VerdictLookup"]

log = logging.getLogger("arena.races")

DEFAULT_COUNTDOWN_MS = 5_000
CACHE_RACES = 10_000


class RaceService(RaceLobby, RaceHooks):
    def __init__(
        self,
        store: RaceStore,
        games: GameService,
        *,
        countdown_ms: int = DEFAULT_COUNTDOWN_MS,
        deals: DealPool | None = None,
        verdicts: VerdictLookup = no_verdicts,
        ratings: Ratings | None = None,
        feed: RaceFeed | None = None,
    ) -> None:
        self.store, self.games = store, games
        self.clock = games.clock
        self.countdown_ms = countdown_ms
        self.deals = deals or DealPool(store.redis, size=0)
        self.verdicts = verdicts
        self.ratings = ratings
        self.feed: RaceFeed = feed or NoFeed()
        self.timers = RaceTimers(store, self.clock, self.advance)
        self._states: OrderedDict[str, RaceState] = OrderedDict()
        self._ended: OrderedDict[str, None] = OrderedDict()
        self._wrapped: set[str] = set()  # races whose end this process has wrapped up

    # Reading ----------------------------------------------------------------------------------

    async def load(self, race_id: str) -> RaceState | None:
        state = await self.store.load(race_id, self._states.get(race_id))
        if state is not None:
            self._remember(state)
        return state

    def _remember(self, state: RaceState) -> None:
        self._states[state.race_id] = state
        self._states.move_to_end(state.race_id)
        while len(self._states) > CACHE_RACES:
            self._states.popitem(last=False)
        if state.over:
            self._ended[state.race_id] = None
            while len(self._ended) > 10 * CACHE_RACES:
                self._ended.popitem(last=False)

    async def view(self, race_id: str) -> RaceView | None:
        state = await self.advance(race_id)
        return None if state is None else public_view(state)

    def has_ended(self, race_id: str) -> bool:
        """Whether this process knows the race has ended (the deal secrecy's question; sync)."""
        return race_id in self._ended

    async def learn(self, race_id: str) -> None:
        await self.load(race_id)

    # Deciding ---------------------------------------------------------------------------------

    async def _execute(self, race_id: str, command) -> RaceState | RaceError:
        """Decide and append, again on a fresh read when another process wrote first; then the effects."""
        for _ in range(16):
            state = await self.load(race_id)
            if state is None:
                return RaceError(core.NO_SUCH_RACE, f"there is no race {race_id!r}")
            events = decide(command, state, self.clock())
            if isinstance(events, RaceError) or not events:
                return events if isinstance(events, RaceError) else state
            try:
                await self.store.append(race_id, state.version, events)
            except VersionConflict:
                continue
            state = fold(events, state)
            self._remember(state)
            self.feed.race_changed(public_view(state))
            await self._after(state, events)
            return state
        return RaceError(BUSY, "the race is changing too fast; try again")

    async def _after(self, state: RaceState, events: list[AnyRaceEvent]) -> None:
        kinds = {type(event).__name__ for event in events}
        if "CountdownStarted" in kinds:
            await self._deal(state)
            return  # dealing schedules the start
        if "RaceEnded" in kinds:
            await self._wrap_up(state)
        if any(isinstance(event, ResultsFinal) for event in events):
            await self._rate(state)
        await self._schedule(state)

    async def advance(self, race_id: str) -> RaceState | None:
        """Act on whatever is due for the race now (idempotent); the race as it then is."""
        state = await self.load(race_id)
        if state is None:
            return None
        now = self.clock()
        if state.status == core.COUNTDOWN and now >= state.start_at_ms:  # type: ignore[operator]  # set in a countdown
            if not state.games:  # the process that started the countdown died before dealing
                await self._deal(state)
            else:
                await self._signal(state)
        elif state.status == core.STARTED and now >= state.deadline_ms:  # type: ignore[operator]  # set once started
            await self._execute(race_id, TimeUp())
        elif state.status == core.ENDED:
            if race_id not in self._wrapped:
                await self._wrap_up(state)
            for player in state.winners_unchecked():
                found = await self.verdicts(state.games[player])
                if found is not None:
                    verified, reason = found if isinstance(found, tuple) else (found, "")
                    await self._execute(race_id, CheckWin(player, state.games[player], verified, reason))
        elif state.status == core.FINAL and self.ratings is not None and race_id not in self._wrapped:
            await self._rate(state)
            self._wrapped.add(race_id)
        state = self._states.get(race_id, state)
        await self._schedule(state)
        return state

    # Effects ----------------------------------------------------------------------------------

    async def _deal(self, state: RaceState) -> None:
        """One game of the race's deal per racer; the ids stay in the log until the start signal."""
        created = state.created
        assert created is not None
        games = {}
        for player in state.seated:
            game = await self.games.create_game(
                player, created.game, created.variant, created.sealed.seed, kind=RACE,
                links=GameLinks(race=state.race_id),
            )
            assert not isinstance(game, Exception) and hasattr(game, "id"), game  # the deal dealt at creation
            games[player] = game.id
        dealt = await self._execute(state.race_id, DealGames(games))
        if not isinstance(dealt, RaceError):
            if dealt.games != games:
                log.warning("race %s: games dealt twice; the log's stand", state.race_id)
            await self._schedule(dealt)
            if self.clock() >= dealt.start_at_ms:  # type: ignore[operator]  # dealt: in its countdown
                await self._signal(dealt)

    async def _signal(self, state: RaceState) -> None:
        """The start signal: every racer's game shows its deal at the start time, then the race starts."""
        start = state.start_at_ms
        assert start is not None
        for game_id in state.games.values():
            await self.games.show_at(game_id, start, f"race:{state.race_id}")
        await self._execute(state.race_id, SignalStart())

    async def _wrap_up(self, state: RaceState) -> None:
        """At the end: seats given back, and every game still in play resigned (it no longer counts)."""
        self._wrapped.add(state.race_id)
        for player in state.seated:
            await self.store.release_seat(player, state.race_id)
        for player, game_id in state.games.items():
            if player in state.finishes:
                continue
            live = await self.games.refresh(game_id)
            if live is not None and live.shown_at_ms is not None and not self.games.is_over(live):
                await self.games.submit(player, game_id, f"race-end-{state.race_id}", live.version, ResignIntent())

    async def _rate(self, state: RaceState) -> None:
        if self.ratings is not None and state.final is not None:
            await self.ratings.record(rated_race_of(state))

    async def _schedule(self, state: RaceState) -> None:
        await self.timers.schedule(state)

    # Running ----------------------------------------------------------------------------------

    def start_timers(self) -> None:
        self.timers.start()

    async def stop_timers(self) -> None:
        await self.deals.stop()
        await self.timers.stop()
