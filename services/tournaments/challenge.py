"""The daily challenge's life cycle as two Deciders: decide(command, state) -> events | RuleError, evolve.

The challenge itself: prepared (the commitment published at least 7 days ahead), closed 24 h after
00:00 UTC, and, once the hour of grace is over and no attempt runs or waits for the replay verifier,
its seed revealed: from then on the leaderboard is final and everything is public.

One attempt per player: the first StartAttempt creates it, every later one is refused (the error
names the game). An attempt is ranked (a named account made before the challenge opened, on the
committed deal) or unranked with its reason (a guest, or an account made since, on the guests' deal):
an unranked one is played and finished, never verified or ranked.
An attempt still running at the end of the grace is ended as abandoned. A ranked win waits for the
replay verifier's verdict before it counts; one the human-speed review flagged counts marked `review`
until an operator decides (review_decider.py). Commands carry the server's clock (`now_ms`): the decider
reads no clock. Repeating a close or a reveal gives no events, so a retried job does nothing twice.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Struct

from engine import ABANDONED, LOST, WON
from engine.errors import RuleError, rule_error

from .catalogue import DAY_MS, GRACE_MS, ChallengeRef
from .derivation import SeedPick, commitment
from .events import (
    AttemptFinished,
    AttemptStarted,
    ChallengeClosed,
    ChallengeEvent,
    ChallengePrepared,
    EntryRejected,
    EntryVerified,
    ReviewCleared,
    ReviewFlagged,
    SealedDeal,
    SeedRevealed,
)

PUBLISH_AHEAD_MS = 7 * DAY_MS
RESULTS = (WON, LOST, ABANDONED)
# Error codes
NOT_PREPARED, ALREADY_PREPARED, TOO_LATE_TO_PREPARE = "not_prepared", "already_prepared", "too_late_to_prepare"
NOT_OPEN_YET, CHALLENGE_CLOSED, ATTEMPT_EXISTS = "not_open_yet", "challenge_closed", "attempt_exists"
NO_ATTEMPT, ATTEMPT_OVER, GRACE_OVER = "no_attempt", "attempt_over", "grace_over"
NOT_YET, GRACE_RUNNING, STILL_PLAYED = "not_yet", "grace_running", "still_played"
NOT_A_RANKED_WIN, BAD_RESULT = "not_a_ranked_win", "bad_result"
# Verdict states of an attempt
UNRANKED, PENDING, VERIFIED, REJECTED = "unranked", "pending", "verified", "rejected"


class ChallengeState(Struct, frozen=True):
    prepared: ChallengePrepared | None = None
    closed: bool = False
    revealed: SeedRevealed | None = None

    @property
    def final_at_ms(self) -> int:
        assert self.prepared is not None
        return self.prepared.closes_at_ms + self.prepared.grace_ms


class AttemptState(Struct, frozen=True):
    started: AttemptStarted | None = None
    finished: AttemptFinished | None = None
    verdict: str | None = None  # None until finished; then unranked, or pending -> verified / rejected
    flagged: ReviewFlagged | None = None  # the human-speed review's reasons, on a verified win
    cleared: ReviewCleared | None = None  # an operator let the flagged win stand

    @property
    def under_review(self) -> bool:
        """Flagged, verified, and not yet cleared or rejected: shown marked `review`."""
        return self.flagged is not None and self.cleared is None and self.verdict == VERIFIED


class PrepareChallenge(Struct, frozen=True):
    ref: ChallengeRef
    pick: SeedPick
    salt: bytes
    check: str  # the winnability check's name (winnable.WinnabilityCheck.name)
    now_ms: int
    guest_seed: int | None = None  # the guests' deal (derivation.GUEST_KEY_LABEL)


class CloseChallenge(Struct, frozen=True):
    now_ms: int


class RevealSeed(Struct, frozen=True):
    """`running` and `pending`: attempts still running, ranked wins still unverified (the caller
    reads them from the leaderboard's counts once it has ended the late attempts)."""

    now_ms: int
    running: int
    pending: int


class StartAttempt(Struct, frozen=True):
    player: str
    game_id: str  # the id the attempt's game will be created under (claimed first, then created)
    ranked: bool  # the player had a named account before the challenge opened
    now_ms: int
    unranked: str = ""  # why not ranked: "guest" or "new_account" (both play the guests' deal)


class FinishAttempt(Struct, frozen=True):
    result: str
    moves: int
    time_ms: int
    finished_at_ms: int


class EndAttemptAtGrace(Struct, frozen=True):
    now_ms: int


class RecordVerdict(Struct, frozen=True):
    valid: bool
    reason: str  # why the replay verifier refused it ("" when valid)
    now_ms: int
    review: tuple[str, ...] = ()  # the human-speed review's reasons on a valid win (none: not flagged)


ChallengeCommand = PrepareChallenge | CloseChallenge | RevealSeed
AttemptCommand = StartAttempt | FinishAttempt | EndAttemptAtGrace | RecordVerdict


def decide_challenge(command: ChallengeCommand, state: ChallengeState) -> list[ChallengeEvent] | RuleError:
    if isinstance(command, PrepareChallenge):
        return _prepare(command, state)
    prepared = state.prepared
    if prepared is None:
        return rule_error(NOT_PREPARED, "this challenge has not been prepared")
    if isinstance(command, CloseChallenge):
        if state.closed:
            return []
        if command.now_ms < prepared.closes_at_ms:
            return rule_error(NOT_YET, f"{prepared.challenge} closes at {prepared.closes_at_ms} ms, not before")
        return [ChallengeClosed(prepared.closes_at_ms)]
    if state.revealed is not None:
        return []
    if command.now_ms < state.final_at_ms:
        return rule_error(GRACE_RUNNING, f"the seed is revealed at the end of the grace, {state.final_at_ms} ms")
    if command.running or command.pending:
        return rule_error(
            STILL_PLAYED,
            f"{command.running} attempt(s) still running and {command.pending} win(s) awaiting the verifier",
        )
    sealed = prepared.sealed
    reveal = SeedRevealed(sealed.seed, sealed.salt, sealed.counter, sealed.day_key, command.now_ms)
    return [reveal] if state.closed else [ChallengeClosed(prepared.closes_at_ms), reveal]


def _prepare(command: PrepareChallenge, state: ChallengeState) -> list[ChallengeEvent] | RuleError:
    ref, pick = command.ref, command.pick
    if state.prepared is not None:
        return rule_error(ALREADY_PREPARED, f"{ref.key} was prepared; its commitment is {state.prepared.commitment}")
    # Commitments go out PUBLISH_AHEAD_MS before the day opens; a fresh server catching up on days it
    # never prepared may still publish one late (its prepared_at_ms shows it), but never once it closed.
    if command.now_ms >= ref.closes_at_ms:
        return rule_error(TOO_LATE_TO_PREPARE, f"{ref.key} has closed: a deal can no longer be committed to it")
    daily = ref.daily
    bound = commitment(ref.date, daily.game, daily.variant_text, pick.seed, command.salt)
    sealed = SealedDeal(pick.seed, command.salt.hex(), pick.counter, pick.day_key.hex())
    return [
        ChallengePrepared(
            ref.key, ref.date, daily.game, dict(daily.variant), ref.opens_at_ms, ref.closes_at_ms, GRACE_MS,
            bound, command.check, command.now_ms, sealed, command.guest_seed,
        )
    ]


def evolve_challenge(state: ChallengeState, event: ChallengeEvent) -> ChallengeState:
    if isinstance(event, ChallengePrepared):
        return msgspec.structs.replace(state, prepared=event)
    if isinstance(event, ChallengeClosed):
        return msgspec.structs.replace(state, closed=True)
    if isinstance(event, SeedRevealed):
        return msgspec.structs.replace(state, revealed=event)
    return state


def decide_attempt(
    command: AttemptCommand, attempt: AttemptState, challenge: ChallengeState
) -> list[ChallengeEvent] | RuleError:
    prepared = challenge.prepared
    if prepared is None:
        return rule_error(NOT_PREPARED, "this challenge has not been prepared")
    if isinstance(command, StartAttempt):
        if attempt.started is not None:
            return rule_error(
                ATTEMPT_EXISTS, f"you have had your attempt at {prepared.challenge}: game {attempt.started.game_id}"
            )
        if command.now_ms < prepared.opens_at_ms:
            return rule_error(NOT_OPEN_YET, f"{prepared.challenge} opens at {prepared.opens_at_ms} ms")
        if challenge.closed or command.now_ms >= prepared.closes_at_ms:
            return rule_error(CHALLENGE_CLOSED, f"{prepared.challenge} is closed")
        if command.ranked == bool(command.unranked):
            return rule_error(BAD_RESULT, "an attempt is ranked, or unranked with a reason, not both")
        return [AttemptStarted(prepared.challenge, command.player, command.game_id, command.ranked, command.now_ms,
                               command.unranked)]
    started = attempt.started
    if started is None:
        return rule_error(NO_ATTEMPT, "no attempt has been started")
    if isinstance(command, RecordVerdict):
        return _verdict(command, attempt, started)
    if attempt.finished is not None:
        return [] if isinstance(command, EndAttemptAtGrace) else rule_error(ATTEMPT_OVER, "this attempt has ended")
    if isinstance(command, EndAttemptAtGrace):
        if command.now_ms < challenge.final_at_ms:
            return rule_error(GRACE_RUNNING, f"the grace ends at {challenge.final_at_ms} ms")
        ended = challenge.final_at_ms
        return [AttemptFinished(started.player, ABANDONED, 0, ended - started.started_at_ms, ended, "grace")]
    problem = _result_problem(command, started)
    if problem:
        return rule_error(BAD_RESULT, problem)
    if command.finished_at_ms >= challenge.final_at_ms:
        return rule_error(GRACE_OVER, "the grace is over: this attempt ends as abandoned")
    return [AttemptFinished(started.player, command.result, command.moves, command.time_ms, command.finished_at_ms)]


def _result_problem(command: FinishAttempt, started: AttemptStarted) -> str | None:
    if command.result not in RESULTS:
        return f"an attempt ends won, lost or abandoned, not {command.result!r}"
    for name in ("moves", "time_ms", "finished_at_ms"):
        value = getattr(command, name)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**63:
            return f"{name} must be a whole number of at least 0, not {value!r}"
    if command.finished_at_ms < started.started_at_ms:
        return "an attempt cannot finish before it started"
    return None


def _verdict(command: RecordVerdict, attempt: AttemptState, started: AttemptStarted) -> list[ChallengeEvent] | RuleError:
    if attempt.verdict in (VERIFIED, REJECTED):
        return []  # the verifier may deliver twice; the first verdict stands
    if attempt.verdict != PENDING:
        why = "a guest's attempt is unranked" if not started.ranked else "only a finished ranked win is verified"
        return rule_error(NOT_A_RANKED_WIN, why)
    if command.valid:
        verified: list[ChallengeEvent] = [EntryVerified(started.player, command.now_ms)]
        if command.review:
            verified.append(ReviewFlagged(started.player, list(command.review), command.now_ms))
        return verified
    return [EntryRejected(started.player, command.reason or "the replay did not confirm the win", command.now_ms)]


def evolve_attempt(attempt: AttemptState, event: ChallengeEvent) -> AttemptState:
    if isinstance(event, AttemptStarted):
        return msgspec.structs.replace(attempt, started=event)
    if isinstance(event, AttemptFinished):
        ranked = attempt.started is not None and attempt.started.ranked
        verdict = (PENDING if event.result == WON else None) if ranked else UNRANKED
        return msgspec.structs.replace(attempt, finished=event, verdict=verdict)
    if isinstance(event, EntryVerified):
        return msgspec.structs.replace(attempt, verdict=VERIFIED)
    if isinstance(event, EntryRejected):
        return msgspec.structs.replace(attempt, verdict=REJECTED)
    if isinstance(event, ReviewFlagged):
        return msgspec.structs.replace(attempt, flagged=event)
    if isinstance(event, ReviewCleared):
        return msgspec.structs.replace(attempt, cleared=event)
    return attempt


class ChallengeInfo(Struct, frozen=True):
    """What anyone may see of a challenge: the commitment always, the sealed deal only once revealed."""

    challenge: str
    date: str
    game: str
    variant: dict[str, Any]  # Any: a variant's JSON values (the engine checks them)
    status: str  # scheduled, open, closed (in the grace), final
    opens_at_ms: int
    closes_at_ms: int
    final_at_ms: int
    commitment: str
    check: str  # exact_solver (proven winnable), or weak: only "not lost as dealt" (a setting allows it)
    published_at_ms: int = 0  # when the commitment was made (its stream's first event)
    seed: int | None = None
    salt: str | None = None
    counter: int | None = None
    day_key: str | None = None


def public_info(state: ChallengeState, now_ms: int) -> ChallengeInfo | RuleError:
    prepared = state.prepared
    if prepared is None:
        return rule_error(NOT_PREPARED, "this challenge has not been prepared")
    if state.revealed is not None:
        status = "final"
    elif state.closed or now_ms >= prepared.closes_at_ms:
        status = "closed"
    else:
        status = "open" if now_ms >= prepared.opens_at_ms else "scheduled"
    info = ChallengeInfo(
        prepared.challenge, prepared.date, prepared.game, dict(prepared.variant), status, prepared.opens_at_ms,
        prepared.closes_at_ms, state.final_at_ms, prepared.commitment, prepared.check, prepared.prepared_at_ms,
    )
    revealed = state.revealed
    if revealed is None:
        return info
    return msgspec.structs.replace(
        info, seed=revealed.seed, salt=revealed.salt, counter=revealed.counter, day_key=revealed.day_key
    )
