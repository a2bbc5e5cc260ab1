"""How the race service plugs into the game service and the replay validator, beside what they had.

- results: the game service tells both the validator's submitter and the races how a game ended;
- moves: every accepted move of a race game goes out as progress;
- secrecy: a race game's deal stays secret until its race has ended, as this process learns it;
- the validator checks a race game against its race's seed, and tells the race each verdict.
"""

from __future__ import annotations

from ..games.entries import GameCreated
from ..games.secrecy import DealSecrecy
from ..games.service import GameService, ResultsHook
from ..validator.queue import ValidatorQueue
from .service import RaceService
from .store import RaceStore


class BothResults:
    """A ResultsHook telling two hooks in turn (the validator's submitter first: a win is submitted
    before the race hears of it, so a verdict can never be waited for on a win never submitted)."""

    def __init__(self, first: ResultsHook, second: ResultsHook) -> None:
        self.first, self.second = first, second

    async def opened(self, game_id: str, at_ms: int) -> None:
        await self.first.opened(game_id, at_ms)
        await self.second.opened(game_id, at_ms)

    async def ended(self, game_id: str, player_id: str, status: str, moves: int, time_ms: int, at_ms: int) -> None:
        await self.first.ended(game_id, player_id, status, moves, time_ms, at_ms)
        await self.second.ended(game_id, player_id, status, moves, time_ms, at_ms)


def attach(races: RaceService, games: GameService, queue: ValidatorQueue | None) -> None:
    games.results = BothResults(games.results, races)
    games.move_hook = races
    games.secrecy = DealSecrecy(race_ended=races.has_ended, race_learn=races.learn)
    if queue is None:
        return
    seeds, sink = queue.seeds, queue.sink

    async def seed_authority(created: GameCreated) -> int | None:
        race_seed = await races.seed_of(created)
        return race_seed if race_seed is not None else await seeds(created)

    async def verdict_sink(created: GameCreated, verdict) -> None:
        await sink(created, verdict)
        await races.on_verdict(created, verdict)

    async def verdict_of(game_id: str) -> tuple[bool, str] | None:
        stored = await queue.verdict_of(game_id)
        return None if stored is None else (stored.verdict.verified, stored.verdict.reason)

    queue.seeds, queue.sink = seed_authority, verdict_sink
    races.verdicts = verdict_of


def race_seeds(store: RaceStore):
    """A SeedAuthority from the race logs alone, for a validator process without a race service
    (`arena validate`): a race game must have been dealt from its race's seed."""

    async def seed_of(created: GameCreated) -> int | None:
        if created.kind != "race" or created.links.race is None:
            return None
        state = await store.load(created.links.race)
        if state is None or state.created is None:
            raise LookupError(f"the game names race {created.links.race!r}, which does not exist")
        return state.created.sealed.seed

    return seed_of
