"""Race events and states built by hand for the pure tests."""

from __future__ import annotations

from services.races.core import RaceState, decide, evolve, fold
from services.races.events import RaceCreated, RacerJoined, SealedDeal

T0 = 1_700_000_000_000
SEED = 12_345_678_901_234_567


def created(seats: int = 4, *, race_id: str = "r1", host: str = "p1", limit_ms: int = 600_000) -> RaceCreated:
    return RaceCreated(
        race_id, host, "wish", {"mode": "standard"}, seats, limit_ms, 3_000, "ABC234", "c0" * 32, "exact_solver", T0,
        SealedDeal(SEED, "5a" * 16),
    )


def lobby(*players: str, seats: int = 4) -> RaceState:
    host = players[0] if players else "p1"
    return fold([created(seats, host=host), *(RacerJoined(p, T0) for p in players)])


def run(state: RaceState, command, now_ms: int = T0) -> RaceState:
    """Apply a command that must be accepted."""
    events = decide(command, state, now_ms)
    assert isinstance(events, list), events
    for event in events:
        state = evolve(state, event)
    return state
