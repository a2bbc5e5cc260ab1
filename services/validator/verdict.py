"""The replay check, pure: a game's log re-run from its deal, and the verdict on the win it claims.

A log proves a win when: it starts with its creation; the deal is the one the game had to have (a
daily's challenge seed, a race's seed) dealt by a known deal algorithm; the player is the one the
claim names; every event is what the engine decides for the move it names, from the deal on; the
last state is won; the move count and the time (first look to winning entry, server clock) are what
the claim says; and every time stamp runs forward. The first failure is the verdict's reason.

Re-simulation proves a game legal, not that a person played it: `MoveStats` records the tempo so
games faster than a configured floor are flagged for review (a flag, never a rejection).
"""

from __future__ import annotations

import statistics
from typing import Literal

from msgspec import Struct

import engine
from engine import WON, RuleError

from ..games.entries import DEAL_VERSION
from ..games.record import GameLog, start_state

VERIFIED, REJECTED = "verified", "rejected"

# Reasons a verdict rejects a log, codes a program can branch on.
BAD_LOG = "bad_log"
UNKNOWN_DEAL = "unknown_deal_version"
WRONG_SEED = "wrong_seed"
WRONG_PLAYER = "wrong_player"
ILLEGAL_EVENT = "illegal_event"
NOT_WON = "not_won"
WRONG_MOVES = "wrong_move_count"
WRONG_TIME = "wrong_time"
TIME_BACKWARDS = "time_backwards"
NOT_SHOWN = "never_shown"


class Claim(Struct, frozen=True):
    """What the win is said to be: whose, which deal, how many moves, how long (server ms)."""

    game_id: str
    player_id: str
    moves: int
    time_ms: int
    seed: int | None = None  # the seed the game must have (daily, race); None: the log's own


class MoveStats(Struct, frozen=True):
    fastest_gap_ms: int  # shortest time between two consecutive entries (first look and moves)
    median_gap_ms: float


class Verdict(Struct, frozen=True):
    game_id: str
    outcome: Literal["verified", "rejected"]
    reason: str = ""  # a code above, empty when verified
    message: str = ""
    bad_entry: int | None = None  # the stream version of the first entry that fails, when one does
    moves: int = 0
    time_ms: int = 0
    stats: MoveStats | None = None
    flagged: bool = False  # faster than the review floor: shown as flagged, still counted

    @property
    def verified(self) -> bool:
        return self.outcome == VERIFIED


def _rejected(claim: Claim, reason: str, message: str, entry: int | None = None) -> Verdict:
    return Verdict(claim.game_id, REJECTED, reason, message, entry)


def move_stats(log: GameLog) -> MoveStats | None:
    if log.shown is None or not log.events:
        return None
    times = [log.shown.at_ms, *(timed.ts_ms for timed in log.events)]
    gaps = [later - earlier for earlier, later in zip(times, times[1:])]
    return MoveStats(min(gaps), statistics.median(gaps))


def check_log(log: GameLog, claim: Claim, *, review_floor_ms: int = 0) -> Verdict:
    """The verdict on `claim` from the log alone."""
    created = log.created
    if created.deal_version != DEAL_VERSION:
        return _rejected(claim, UNKNOWN_DEAL, f"deal algorithm version {created.deal_version} is unknown", 1)
    if claim.seed is not None and created.seed != claim.seed:
        return _rejected(claim, WRONG_SEED, "the game was not dealt from the seed it had to have", 1)
    if created.player_id != claim.player_id:
        return _rejected(claim, WRONG_PLAYER, f"the log is {created.player_id!r}'s game, not {claim.player_id!r}'s", 1)
    if log.shown is None:
        return _rejected(claim, NOT_SHOWN, "the log has no first look: there is no start to time from")
    late = _first_backwards(log)
    if late is not None:
        return _rejected(claim, TIME_BACKWARDS, "a time stamp runs backwards", late)
    start = start_state(created)
    if isinstance(start, RuleError):
        return _rejected(claim, BAD_LOG, f"the creation does not deal: {start.message}", 1)
    replayed = engine.replay_events(start, log.engine_events())
    if not replayed.ok:
        bad = log.events[replayed.error.index].stream_version  # type: ignore[union-attr]
        return _rejected(claim, ILLEGAL_EVENT, replayed.error.message, bad)  # type: ignore[union-attr]
    state = replayed.state
    assert state is not None
    if state.status != WON:
        return _rejected(claim, NOT_WON, f"the log ends {state.status}, not won")
    time_ms = log.events[-1].ts_ms - log.shown.at_ms
    if state.moves != claim.moves:
        return _rejected(claim, WRONG_MOVES, f"the log has {state.moves} moves, the claim {claim.moves}")
    if time_ms != claim.time_ms:
        return _rejected(claim, WRONG_TIME, f"the log took {time_ms} ms, the claim {claim.time_ms} ms")
    stats = move_stats(log)
    flagged = stats is not None and review_floor_ms > 0 and stats.median_gap_ms < review_floor_ms
    return Verdict(claim.game_id, VERIFIED, moves=state.moves, time_ms=time_ms, stats=stats, flagged=flagged)


def _first_backwards(log: GameLog) -> int | None:
    """The stream version of the first entry stamped earlier than the one before it."""
    assert log.shown is not None
    previous = max(log.created.created_at_ms, 0)
    if log.shown.at_ms < previous:
        return 2
    previous = log.shown.at_ms
    for timed in log.events:
        if timed.ts_ms < previous:
            return timed.stream_version
        previous = timed.ts_ms
    return None
