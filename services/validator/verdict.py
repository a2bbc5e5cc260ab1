"""The replay check, pure: a game's log re-run from its deal, and the verdict on the win it claims.

A log proves a win when: it starts with its creation; the deal is the one the game had to have (a
daily's challenge seed, a race's seed) dealt by a known deal algorithm; the player is the one the
claim names; every event is what the engine decides for the move it names, from the deal on; the
last state is won; the move count and the time (first look to winning entry, server clock) are what
the claim says; and every time stamp runs forward. The first failure is the verdict's reason.

Re-simulation proves a game legal, not that a person played it: the human-speed review (review.py)
reads the log's tempo and names what looks scripted; a verified win with a reason is flagged for an
operator's review (a flag, never a rejection).
"""

from __future__ import annotations

from typing import Final, Literal

from msgspec import Struct

import engine
from engine import WON, RuleError
from engine.replay import ReplayError

from ..games.entries import DEAL_VERSION
from ..games.record import GameLog, start_state
from .review import MoveStats, ReviewRules, move_stats, review_reasons

VERIFIED: Final = "verified"  # Final: the checker reads each as its Literal, as Verdict.outcome wants
REJECTED: Final = "rejected"

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


class Verdict(Struct, frozen=True):
    game_id: str
    outcome: Literal["verified", "rejected"]
    reason: str = ""  # a code above, empty when verified
    message: str = ""
    bad_entry: int | None = None  # the stream version of the first entry that fails, when one does
    moves: int = 0
    time_ms: int = 0
    stats: MoveStats | None = None
    flagged: bool = False  # the review found a reason (any): shown marked for review, still counted
    review: tuple[str, ...] = ()  # the review's reason codes (review.REASONS), empty when not flagged

    @property
    def verified(self) -> bool:
        return self.outcome == VERIFIED


def _rejected(claim: Claim, reason: str, message: str, entry: int | None = None) -> Verdict:
    return Verdict(claim.game_id, REJECTED, reason, message, entry)


def check_log(log: GameLog, claim: Claim, *, review: ReviewRules | None = None,
              line_moves: int | None = None) -> Verdict:
    """The verdict on `claim` from the log alone; a verified one reviewed by `review`'s rules (none:
    no review), `line_moves` being the solver's winning line's length for the deal when known."""
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
    if replayed.error is not None:
        index = replayed.error.index if isinstance(replayed.error, ReplayError) else 0
        return _rejected(claim, ILLEGAL_EVENT, replayed.error.message, log.events[index].stream_version)
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
    reasons = review_reasons(stats, review, line_moves)
    return Verdict(claim.game_id, VERIFIED, moves=state.moves, time_ms=time_ms, stats=stats, flagged=bool(reasons),
                   review=reasons)


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
