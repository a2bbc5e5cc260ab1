"""The race service's lobby commands: make a race, join it (by id or code), leave, ready, start, rematch.

A seat is claimed in Redis (one race at a time per player) before the race's log takes the racer, and
given back when the log refuses them, so a refused join leaves no seat behind.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable

from ..store import VersionConflict
from . import core
from .commands import Join, Leave, RaceError, RaceSettings, Rematch, SetReady, StartCountdown
from .core import RaceState, decide, fold
from .deal import commitment
from .deal_pool import DealPool
from .events import AnyRaceEvent, RaceCreated, RacerJoined, SealedDeal
from .hooks import RaceFeed
from .store import RaceStore
from .view import RaceView, public_view

IN_ANOTHER_RACE = "in_another_race"
NO_SUCH_CODE = "no_such_code"
BUSY = "busy"
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud, typed by hand
CODE_LENGTH = 6


class RaceLobby:
    """Mixed into RaceService, which supplies what is declared here."""

    store: RaceStore
    deals: DealPool
    countdown_ms: int
    clock: Callable[[], int]
    load: Callable[[str], Awaitable[RaceState | None]]
    _execute: Callable[..., Awaitable[RaceState | RaceError]]
    _remember: Callable[[RaceState], None]
    feed: RaceFeed

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


def _view(done: RaceState | RaceError) -> RaceView | RaceError:
    return done if isinstance(done, RaceError) else public_view(done)
