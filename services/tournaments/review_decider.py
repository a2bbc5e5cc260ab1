"""An operator's decision on a win the human-speed review flagged: a Decider on the attempt's state.

The review (services/validator/review.py) flags, never rejects: a flagged win keeps its place on the
board, marked `review`, until an operator looks at its replay and decides (`arena review`):
- ClearReview: the win stands; ReviewCleared in the attempt stream takes the mark off;
- RejectOnReview: the win was not a person's; EntryRejected (reason `review_rejected: <note>`) takes it
  off the board, as the replay verifier's rejection would. Only before the reveal: a final board is
  published and never changes, so a win still under review then can only be cleared.
Anything not under review (never flagged, cleared, rejected) is refused with `not_under_review`, so a
second clear or a wrong player changes nothing. Commands carry the operator's clock (`now_ms`).
"""

from __future__ import annotations

from msgspec import Struct

from engine.errors import RuleError, rule_error

from .challenge import REJECTED, AttemptState, ChallengeState
from .events import ChallengeEvent, EntryRejected, ReviewCleared

# Error codes
NOT_UNDER_REVIEW, REVIEW_FINAL = "not_under_review", "review_final"
REVIEW_REJECTED = "review_rejected"  # the reason code an operator's rejection is recorded with


class ClearReview(Struct, frozen=True):
    note: str  # why it stands (shown to other operators; never to players)
    now_ms: int


class RejectOnReview(Struct, frozen=True):
    note: str
    now_ms: int


ReviewCommand = ClearReview | RejectOnReview


def decide_review(command: ReviewCommand, attempt: AttemptState, challenge: ChallengeState) -> list[ChallengeEvent] | RuleError:
    started = attempt.started
    if started is None:
        return rule_error(NOT_UNDER_REVIEW, "no attempt: there is nothing to review")
    if not attempt.under_review:
        was = ("it was cleared" if attempt.cleared is not None else "it was rejected" if attempt.verdict == REJECTED
               else "it was never flagged")
        return rule_error(NOT_UNDER_REVIEW, f"{started.player}'s entry in {started.challenge} is not under review: {was}")
    if isinstance(command, ClearReview):
        return [ReviewCleared(started.player, command.note, command.now_ms)]
    if challenge.revealed is not None:
        return rule_error(REVIEW_FINAL, f"{started.challenge} is final: its board no longer changes (clear the entry instead)")
    reason = f"{REVIEW_REJECTED}: {command.note}" if command.note else REVIEW_REJECTED
    return [EntryRejected(started.player, reason, command.now_ms)]
