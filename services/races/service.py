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

The gateway plugs in a feed (s2c.race frames, racers' progress); this module knows no wire format.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Protocol

from engine.intents import ResignIntent

from ..games.entries import RACE, GameCreated, GameLinks
from ..games.live import LiveGame
from ..games.model import Snapshot
from ..games.service import GameService
from ..store import VersionConflict
from . import core
from .commands import (
    CheckWin, DealGames, Finish, Join, Leave, Presence, RaceError, RaceSettings, Rematch, SetReady, SignalStart,
    StartCountdown, TimeUp,
)
from .core import RaceState, decide, fold
from .deal import commitment
from .deal_pool import DealPool
from .events import AnyRaceEvent, RaceCreated, RaceEnded, RacerJoined, ResultsFinal, SealedDeal
from .progress import RacerProgress, progress_of
from .ratings import Ratings, rated_race_of
from .store import RaceStore
from .view import RaceView, public_view

log = logging.getLogger("arena.races")

IN_ANOTHER_RACE = "in_another_race"
NO_SUCH_CODE = "no_such_code"
BUSY = "busy"
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud, typed by hand
CODE_LENGTH = 6
DEFAULT_COUNTDOWN_MS = 5_000
VERDICT_POLL_MS = 2_000
POLL_S = 1.0
CACHE_RACES = 10_000


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


class RaceService:
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
        self._states: OrderedDict[str, RaceState] = OrderedDict()
        self._ended: OrderedDict[str, None] = OrderedDict()
        self._wrapped: set[str] = set()  # races whose end this process has wrapped up
        self._timers: dict[str, asyncio.Task] = {}
        self._poller: asyncio.Task | None = None

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

    # Lobby ------------------------------------------------------------------------------------

    async def create(
        self, player: str, settings: RaceSettings, *, rematch_of: str | None = None, race_id: str | None = None,
        seats: tuple[str, ...] = (),
    ) -> RaceView | RaceError:
        """A new race with `player` as its host and first seat (and, for a rematch, the other seats)."""
        race_id = race_id or secrets.token_hex(8)
        busy = await self.store.take_seat(player, race_id, self._seated_in)
        if busy is not None:
            return RaceError(IN_ANOTHER_RACE, f"you are racing in race {busy} already: one race at a time")
        chosen = await self.deals.take(settings.game, settings.variant)
        if isinstance(chosen, RaceError):
            await self.store.release_seat(player, race_id)
            return chosen
        code = await self._new_code(race_id)
        now = self.clock()
        created = RaceCreated(
            race_id, player, settings.game, settings.variant, settings.seats, settings.time_limit_ms,
            self.countdown_ms, code, commitment(race_id, chosen.seed, chosen.salt), chosen.check, now,
            SealedDeal(chosen.seed, chosen.salt), rematch_of,
        )
        events: list[AnyRaceEvent] = [created, RacerJoined(player, now)]
        for other in seats:
            if other != player and len(events) - 1 < settings.seats:
                if await self.store.take_seat(other, race_id, self._seated_in) is None:
                    events.append(RacerJoined(other, now))
        try:
            await self.store.append(race_id, 0, events)
        except VersionConflict:  # a rematch another process made first (the same id, so the same seats): theirs stands
            state = await self.load(race_id)
            return public_view(state) if state is not None else RaceError(BUSY, "the race could not be made")
        state = fold(events)
        self._remember(state)
        self.feed.race_changed(public_view(state))
        return public_view(state)

    async def _new_code(self, race_id: str) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if await self.store.claim_code(code, race_id):
                return code

    async def race_of_code(self, code: str) -> str | None:
        return await self.store.race_of_code(code.strip().upper())

    async def join(self, player: str, race_id: str) -> RaceView | RaceError:
        state = await self.load(race_id)
        if state is None:
            return RaceError(core.NO_SUCH_RACE, f"there is no race {race_id!r}")
        if player not in state.seated:
            refused = decide(Join(player), state, self.clock())  # full or started: say so before taking a seat key
            if isinstance(refused, RaceError):
                return refused
        busy = await self.store.take_seat(player, race_id, self._seated_in)
        if busy is not None:
            return RaceError(IN_ANOTHER_RACE, f"you are racing in race {busy} already: one race at a time")
        done = await self._execute(race_id, Join(player))
        if isinstance(done, RaceError):
            await self.store.release_seat(player, race_id)
            return done
        return public_view(done)

    async def leave(self, player: str, race_id: str) -> RaceView | RaceError:
        done = await self._execute(race_id, Leave(player))
        if isinstance(done, RaceError):
            return done
        await self.store.release_seat(player, race_id)
        return public_view(done)

    async def ready(self, player: str, race_id: str, ready: bool = True) -> RaceView | RaceError:
        return _view(await self._execute(race_id, SetReady(player, ready)))

    async def start(self, player: str, race_id: str) -> RaceView | RaceError:
        return _view(await self._execute(race_id, StartCountdown(player)))

    async def rematch(self, player: str, race_id: str) -> RaceView | RaceError:
        """The same seats, a new deal: made once, whoever of the racers asks first."""
        done = await self._execute(race_id, Rematch(player, secrets.token_hex(8)))
        if isinstance(done, RaceError):
            return done
        assert done.rematch is not None and done.created is not None
        existing = await self.load(done.rematch)
        if existing is not None:
            return public_view(existing)
        c = done.created
        settings = RaceSettings(c.game, c.variant, c.seats, c.time_limit_ms)
        return await self.create(player, settings, rematch_of=race_id, race_id=done.rematch, seats=done.seated)

    async def _seated_in(self, race_id: str) -> bool:
        """Whether a race still holds a player's seat key: it is there and not over."""
        state = await self.load(race_id)
        return state is not None and not state.over

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
        if state.status == core.COUNTDOWN and now >= state.start_at_ms:  # type: ignore[operator]
            if not state.games:  # the process that started the countdown died before dealing
                await self._deal(state)
            else:
                await self._signal(state)
        elif state.status == core.STARTED and now >= state.deadline_ms:  # type: ignore[operator]
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
            if self.clock() >= dealt.start_at_ms:  # type: ignore[operator]
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
        """When the race next needs a look: in the due set for every process, and a timer here."""
        now = self.clock()
        status = state.status
        due: int | None = None
        if status == core.COUNTDOWN:
            due = state.start_at_ms
        elif status == core.STARTED:
            due = state.deadline_ms
        elif status == core.ENDED and state.games:
            due = now + VERDICT_POLL_MS
        await self.store.set_due(state.race_id, due)
        if due is not None and self._poller is not None:
            self._timer(state.race_id, due)

    def _timer(self, race_id: str, at_ms: int) -> None:
        previous = self._timers.pop(race_id, None)
        if previous is not None:
            previous.cancel()

        async def fire() -> None:
            await asyncio.sleep(max(0.0, (at_ms - self.clock()) / 1000))
            self._timers.pop(race_id, None)
            try:
                await self.advance(race_id)
            except Exception:  # noqa: BLE001  the due set brings it back: log, never kill the loop
                log.exception("race %s: advance failed", race_id)

        self._timers[race_id] = asyncio.get_running_loop().create_task(fire())

    # Hooks: the game service, the validator, the sockets --------------------------------------

    def moved(self, live: LiveGame, snapshot: Snapshot) -> None:
        """MoveHook: a racer's move goes out as progress (counts only) on the race's feed."""
        race_id = live.created.links.race
        if race_id is not None and live.created.kind == RACE:
            self.feed.progress(race_id, progress_of(live.owner, snapshot.version, snapshot.view, snapshot.elapsed_ms))

    async def opened(self, game_id: str, at_ms: int) -> None:
        return None

    async def ended(self, game_id: str, player_id: str, status: str, moves: int, time_ms: int, at_ms: int) -> None:
        """ResultsHook: a racer's game ended; the race logs the finish (or ignores a game not its own)."""
        live = await self.games.load(game_id)
        if live is None or live.created.kind != RACE or live.created.links.race is None:
            return
        await self._execute(live.created.links.race, Finish(player_id, game_id, status, moves, time_ms, at_ms))

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

    # Running ----------------------------------------------------------------------------------

    def start_timers(self) -> None:
        self._poller = asyncio.get_running_loop().create_task(self._poll())

    async def stop_timers(self) -> None:
        await self.deals.stop()
        tasks = [*self._timers.values(), *([self._poller] if self._poller else [])]
        self._poller = None
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _poll(self) -> None:
        while True:
            try:
                for race_id in await self.store.due(self.clock()):
                    await self.advance(race_id)
            except Exception:  # noqa: BLE001  Redis away or a bad race: log, try again next tick
                log.exception("races: due poll failed")
            await asyncio.sleep(POLL_S)


def _view(done: RaceState | RaceError) -> RaceView | RaceError:
    return done if isinstance(done, RaceError) else public_view(done)
