"""Results of a race, pure: won first, then the shorter time, then fewer moves.

After the winners: the racers whose game ended otherwise (stuck or resigned), sharing one place; then
those still playing at the time limit (not finished), sharing the next; last, a win the replay
validator refused (a forged or broken log wins nothing). Equal wins (same time and moves) share a
place too; places count like 1, 2, 2, 4.

Before the results are final, a win still waiting for its verdict ranks as a win (the view marks it
unverified); the final standings are written once every win has its verdict.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from engine import WON

from .events import RacerFinished, Standing, WinChecked


class RaceFacts(Protocol):
    """What the standings read of a race's state (core.RaceState has it): a protocol, so this module,
    which owns the ranking, imports nothing of the race decider that uses it."""

    @property
    def seated(self) -> tuple[str, ...]: ...
    @property
    def games(self) -> Mapping[str, str]: ...
    @property
    def finishes(self) -> Mapping[str, RacerFinished]: ...
    @property
    def checks(self) -> Mapping[str, WinChecked]: ...
    @property
    def over(self) -> bool: ...

TIMED_OUT = "timed_out"  # still playing when the time limit ended the race
REJECTED = "rejected"  # won, says the game; the replay validator refused the log


def ranking_key(result: str, time_ms: int | None, moves: int) -> tuple[int, int, int]:
    """Smaller is better: wins (by time, then moves), ended games, not finished, refused wins."""
    if result == WON:
        return (0, time_ms or 0, moves)
    return ({TIMED_OUT: 2, REJECTED: 3}.get(result, 1), 0, 0)


def result_of(state: RaceFacts, player: str) -> tuple[str, int, int | None]:
    """A racer's (result, moves, time_ms) as the race's log says it now."""
    finished = state.finishes.get(player)
    if finished is None:
        return (TIMED_OUT if state.over else "in_play"), 0, None
    check = state.checks.get(player)
    if finished.result == WON and check is not None and check.outcome != "verified":
        return REJECTED, finished.moves, finished.time_ms
    return finished.result, finished.moves, finished.time_ms


def standings(state: RaceFacts) -> list[Standing]:
    """Every racer of the race's games, in place order (seat order among equals)."""
    rows = []
    for seat, player in enumerate(p for p in state.seated if p in state.games):
        result, moves, time_ms = result_of(state, player)
        rows.append((ranking_key(result, time_ms, moves), seat, player, result, moves, time_ms))
    rows.sort()
    placed: list[Standing] = []
    previous = None
    place = 0
    for index, (key, _seat, player, result, moves, time_ms) in enumerate(rows, start=1):
        if key != previous:
            place, previous = index, key
        placed.append(Standing(player, place, result, moves, time_ms))
    return placed
