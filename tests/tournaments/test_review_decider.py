"""The review in the attempt's Decider: a flagged verdict records its reasons, an operator clears or
rejects a win under review once, and nothing else is under review."""

from __future__ import annotations

from engine.errors import RuleError
from services.tournaments.catalogue import DAY_MS, parse_challenge_key
from services.tournaments.challenge import (
    REJECTED, VERIFIED, AttemptState, ChallengeState, PrepareChallenge, RecordVerdict, RevealSeed, decide_attempt,
    decide_challenge, evolve_attempt, evolve_challenge,
)
from services.tournaments.derivation import pick_seed
from services.tournaments.events import (
    AttemptFinished, AttemptStarted, EntryRejected, EntryVerified, ReviewCleared, ReviewFlagged,
)
from services.tournaments.review_decider import (
    NOT_UNDER_REVIEW, REVIEW_FINAL, ClearReview, RejectOnReview, decide_review,
)
from services.tournaments.winnable import check_for

REF = parse_challenge_key("2026-12-02/wish/mode=standard")
OPENS = REF.opens_at_ms
REASONS = ("fast_first_move", "even_tempo", "fast_total")


def fold(state, events, evolve):
    assert isinstance(events, list), events
    for event in events:
        state = evolve(state, event)
    return state


def challenge() -> ChallengeState:
    pick = pick_seed(b"0123456789abcdef-test-secret", REF.date, "wish", REF.daily.variant, check_for("wish"))
    command = PrepareChallenge(REF, pick, bytes(16), "exact_solver", OPENS - 8 * DAY_MS)
    return fold(ChallengeState(), decide_challenge(command, ChallengeState()), evolve_challenge)


def won(state: ChallengeState, review: tuple[str, ...] = REASONS) -> AttemptState:
    attempt = fold(AttemptState(), [AttemptStarted(REF.key, "g_ann", "game-1", True, OPENS + 10),
                                    AttemptFinished("g_ann", "won", 16, 2_648, OPENS + 9_000)], evolve_attempt)
    events = decide_attempt(RecordVerdict(True, "", OPENS + 9_500, review), attempt, state)
    return fold(attempt, events, evolve_attempt)


def test_a_flagged_verdict_is_verified_with_its_reasons_recorded():
    state = challenge()
    attempt = fold(AttemptState(), [AttemptStarted(REF.key, "g_ann", "game-1", True, OPENS + 10),
                                    AttemptFinished("g_ann", "won", 16, 2_648, OPENS + 9_000)], evolve_attempt)
    events = decide_attempt(RecordVerdict(True, "", OPENS + 9_500, REASONS), attempt, state)
    assert events == [EntryVerified("g_ann", OPENS + 9_500), ReviewFlagged("g_ann", list(REASONS), OPENS + 9_500)]
    reviewed = fold(attempt, events, evolve_attempt)
    assert reviewed.verdict == VERIFIED and reviewed.under_review
    unflagged = decide_attempt(RecordVerdict(True, "", OPENS + 9_500), attempt, state)
    assert unflagged == [EntryVerified("g_ann", OPENS + 9_500)]
    assert not fold(attempt, unflagged, evolve_attempt).under_review


def test_an_operator_clears_a_win_once():
    state = challenge()
    attempt = won(state)
    events = decide_review(ClearReview("watched the replay: a person", OPENS + HOUR), attempt, state)
    assert events == [ReviewCleared("g_ann", "watched the replay: a person", OPENS + HOUR)]
    cleared = fold(attempt, events, evolve_attempt)
    assert not cleared.under_review and cleared.verdict == VERIFIED  # still ranked
    again = decide_review(ClearReview("", OPENS + 2 * HOUR), cleared, state)
    assert isinstance(again, RuleError) and again.code == NOT_UNDER_REVIEW and "cleared" in again.message
    late = decide_review(RejectOnReview("second thoughts", OPENS + 2 * HOUR), cleared, state)
    assert isinstance(late, RuleError) and late.code == NOT_UNDER_REVIEW


def test_an_operator_rejects_a_win_before_the_reveal_only():
    state = challenge()
    attempt = won(state)
    events = decide_review(RejectOnReview("same timings as three other accounts", OPENS + HOUR), attempt, state)
    assert events == [EntryRejected("g_ann", "review_rejected: same timings as three other accounts", OPENS + HOUR)]
    rejected = fold(attempt, events, evolve_attempt)
    assert rejected.verdict == REJECTED and not rejected.under_review
    assert decide_review(ClearReview("", OPENS + HOUR), rejected, state).code == NOT_UNDER_REVIEW
    final = fold(state, decide_challenge(RevealSeed(REF.final_at_ms, 0, 0), state), evolve_challenge)
    refused = decide_review(RejectOnReview("", REF.final_at_ms + 1), attempt, final)
    assert isinstance(refused, RuleError) and refused.code == REVIEW_FINAL
    assert decide_review(ClearReview("", REF.final_at_ms + 1), attempt, final)[0].player == "g_ann"


def test_nothing_else_is_under_review():
    state = challenge()
    for attempt in (AttemptState(), won(state, review=())):
        refused = decide_review(ClearReview("", OPENS + HOUR), attempt, state)
        assert isinstance(refused, RuleError) and refused.code == NOT_UNDER_REVIEW


HOUR = 3_600_000
