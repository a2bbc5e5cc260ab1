"""What the races need from a validator, and what a validator without a race service needs from them.

The process wiring (services/gateway/wiring.py) hands the race service to the game service (results,
moves, deal secrecy) and to the validator (seed authority, verdict sink) beside the tournaments'.
"""

from __future__ import annotations

from ..games.entries import RACE, GameCreated
from ..validator.queue import ValidatorQueue
from .service import VerdictLookup
from .store import RaceStore


def verdict_lookup(queue: ValidatorQueue) -> VerdictLookup:
    """The race service's question to the validator: a game's verdict, if it has one yet."""

    async def verdict_of(game_id: str) -> tuple[bool, str] | None:
        stored = await queue.verdict_of(game_id)
        return None if stored is None else (stored.verdict.verified, stored.verdict.reason)

    return verdict_of


def race_seeds(store: RaceStore):
    """A SeedAuthority from the race logs alone, for a validator process without a race service
    (`arena validate`): a race game must have been dealt from its race's seed."""

    async def seed_of(created: GameCreated) -> int | None:
        if created.kind != RACE or created.links.race is None:
            return None
        state = await store.load(created.links.race)
        if state is None or state.created is None:
            raise LookupError(f"the game names race {created.links.race!r}, which does not exist")
        return state.created.sealed.seed

    return seed_of
