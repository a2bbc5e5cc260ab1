"""The daily challenge Deciders: preparation, one attempt each, guests unranked, close, grace, reveal."""

from __future__ import annotations

import msgspec
import pytest

from engine.errors import RuleError
from services.tournaments.catalogue import DAY_MS, GRACE_MS, parse_challenge_key
from services.tournaments.challenge import (
    ALREADY_PREPARED,
    ATTEMPT_EXISTS,
    ATTEMPT_OVER,
    BAD_RESULT,
    CHALLENGE_CLOSED,
    GRACE_OVER,
    GRACE_RUNNING,
    NOT_A_RANKED_WIN,
    NOT_OPEN_YET,
    NOT_PREPARED,
    NOT_YET,
    PENDING,
    REJECTED,
    STILL_PLAYED,
    TOO_LATE_TO_PREPARE,
    UNRANKED,
    VERIFIED,
    AttemptState,
    ChallengeState,
    CloseChallenge,
    EndAttemptAtGrace,
    FinishAttempt,
    PrepareChallenge,
    RecordVerdict,
    RevealSeed,
    StartAttempt,
    decide_attempt,
    decide_challenge,
    evolve_attempt,
    evolve_challenge,
    public_info,
)
from services.tournaments.derivation import pick_seed, verify_commitment
from services.tournaments.events import AttemptFinished, ChallengeClosed, SeedRevealed
from services.tournaments.winnable import check_for

SECRET = b"0123456789abcdef-test-secret"
REF = parse_challenge_key("2026-12-01/spider/suits=2")
OPENS, CLOSES, FINAL = REF.opens_at_ms, REF.closes_at_ms, REF.final_at_ms
SALT = bytes(range(16))
PICK = pick_seed(SECRET, REF.date, "spider", REF.daily.variant, check_for("spider"))


def run(decide, evolve, state, *commands):
    """Fold each command's events into the state; returns (state, events of the last command)."""
    events = []
    for command in commands:
        events = decide(command, state)
        assert isinstance(events, list), events
        for event in events:
            state = evolve(state, event)
    return state, events


def prepared() -> ChallengeState:
    command = PrepareChallenge(REF, PICK, SALT, check_for("spider").name, OPENS - 8 * DAY_MS)
    return run(decide_challenge, evolve_challenge, ChallengeState(), command)[0]


def attempt(challenge, *commands, ranked=True):
    start = StartAttempt("g_alice", "game-1", ranked, OPENS + 1000, "" if ranked else "guest")
    return run(lambda c, s: decide_attempt(c, s, challenge), evolve_attempt, AttemptState(), start, *commands)


def test_an_attempt_is_ranked_or_unranked_with_its_reason():
    challenge = prepared()
    for ranked, why in ((True, "guest"), (False, "")):
        refused = decide_attempt(StartAttempt("g_a", "game-1", ranked, OPENS + 1, why), AttemptState(), challenge)
        assert isinstance(refused, RuleError) and refused.code == "bad_result"
    started = decide_attempt(StartAttempt("g_a", "game-1", False, OPENS + 1, "new_account"), AttemptState(), challenge)
    assert started[0].unranked == "new_account" and started[0].on_guest_deal


def test_prepare_commits_to_the_picked_seed_and_hides_it():
    state = prepared()
    event = state.prepared
    assert (event.challenge, event.opens_at_ms, event.closes_at_ms, event.grace_ms) == (REF.key, OPENS, CLOSES, GRACE_MS)
    assert verify_commitment(event.commitment, REF.date, "spider", "suits=2", PICK.seed, SALT)
    info = public_info(state, OPENS + 5)
    assert info.status == "open" and info.seed is None and info.salt is None and info.day_key is None
    shown = msgspec.json.encode(info).decode()
    assert str(PICK.seed) not in shown and SALT.hex() not in shown and PICK.day_key.hex() not in shown
    assert decide_challenge(PrepareChallenge(REF, PICK, SALT, "x", OPENS - 9 * DAY_MS), state).code == ALREADY_PREPARED


def test_a_late_commitment_shows_its_time_and_a_closed_day_takes_none():
    late = decide_challenge(PrepareChallenge(REF, PICK, SALT, "x", OPENS + 5), ChallengeState())
    assert late[0].prepared_at_ms == OPENS + 5  # published late: anyone can see when
    closed = PrepareChallenge(REF, PICK, SALT, "x", CLOSES)
    assert decide_challenge(closed, ChallengeState()).code == TOO_LATE_TO_PREPARE
    assert decide_challenge(CloseChallenge(CLOSES), ChallengeState()).code == NOT_PREPARED


def test_a_second_attempt_is_refused_and_names_the_first_game():
    challenge = prepared()
    state, _ = attempt(challenge)
    again = decide_attempt(StartAttempt("g_alice", "game-2", True, OPENS + 5000), state, challenge)
    assert again.code == ATTEMPT_EXISTS and "game-1" in again.message
    finished, _ = attempt(challenge, FinishAttempt("lost", 40, 9000, OPENS + 10_000))
    assert decide_attempt(StartAttempt("g_alice", "game-3", True, OPENS + 20_000), finished, challenge).code == ATTEMPT_EXISTS


def test_attempts_only_while_open():
    challenge = prepared()
    early = decide_attempt(StartAttempt("g_bob", "g", True, OPENS - 1), AttemptState(), challenge)
    late = decide_attempt(StartAttempt("g_bob", "g", True, CLOSES), AttemptState(), challenge)
    assert (early.code, late.code) == (NOT_OPEN_YET, CHALLENGE_CLOSED)
    assert decide_attempt(StartAttempt("g_bob", "g", True, OPENS), AttemptState(), ChallengeState()).code == NOT_PREPARED


def test_a_ranked_win_waits_for_the_verifier():
    challenge = prepared()
    state, events = attempt(challenge, FinishAttempt("won", 120, 300_000, OPENS + 301_000))
    assert events == [AttemptFinished("g_alice", "won", 120, 300_000, OPENS + 301_000)]
    assert state.verdict == PENDING
    verified, _ = run(lambda c, s: decide_attempt(c, s, challenge), evolve_attempt, state, RecordVerdict(True, "", 5))
    rejected, _ = run(lambda c, s: decide_attempt(c, s, challenge), evolve_attempt, state, RecordVerdict(False, "bad", 5))
    assert (verified.verdict, rejected.verdict) == (VERIFIED, REJECTED)
    assert decide_attempt(RecordVerdict(False, "late", 6), verified, challenge) == []  # the first verdict stands
    assert decide_attempt(FinishAttempt("won", 1, 1, OPENS + 400_000), state, challenge).code == ATTEMPT_OVER


def test_a_guest_plays_unranked_and_is_never_verified():
    challenge = prepared()
    state, events = attempt(challenge, FinishAttempt("won", 100, 1000, OPENS + 2000), ranked=False)
    assert state.started.ranked is False and state.verdict == UNRANKED
    assert decide_attempt(RecordVerdict(True, "", 9), state, challenge).code == NOT_A_RANKED_WIN
    lost, _ = attempt(challenge, FinishAttempt("lost", 1, 1, OPENS + 2000))
    assert lost.verdict is None and decide_attempt(RecordVerdict(True, "", 9), lost, challenge).code == NOT_A_RANKED_WIN


@pytest.mark.parametrize("finish", [
    FinishAttempt("in_progress", 1, 1, OPENS + 2000),
    FinishAttempt("won", -1, 1, OPENS + 2000),
    FinishAttempt("won", 1, True, OPENS + 2000),
    FinishAttempt("won", 1, 1, OPENS + 999),  # before the attempt started
])
def test_bad_results_are_refused(finish):
    challenge = prepared()
    state, _ = attempt(challenge)
    assert decide_attempt(finish, state, challenge).code == BAD_RESULT


def test_close_twice_is_one_close():
    state = prepared()
    assert decide_challenge(CloseChallenge(CLOSES - 1), state).code == NOT_YET
    closed, events = run(decide_challenge, evolve_challenge, state, CloseChallenge(CLOSES + 7))
    assert events == [ChallengeClosed(CLOSES)]  # the official hour, not when a job noticed
    assert decide_challenge(CloseChallenge(CLOSES + 60_000), closed) == []
    assert public_info(closed, CLOSES + 1).status == "closed"


def test_grace_lets_a_running_attempt_finish_then_ends_it_abandoned():
    running, _ = attempt(prepared())  # started while open; the close comes next
    challenge = run(decide_challenge, evolve_challenge, prepared(), CloseChallenge(CLOSES))[0]
    in_grace = decide_attempt(FinishAttempt("won", 80, 1000, FINAL - 1), running, challenge)
    assert isinstance(in_grace, list) and in_grace[0].result == "won"
    assert decide_attempt(FinishAttempt("won", 80, 1000, FINAL), running, challenge).code == GRACE_OVER
    assert decide_attempt(EndAttemptAtGrace(FINAL - 1), running, challenge).code == GRACE_RUNNING
    ended, events = run(lambda c, s: decide_attempt(c, s, challenge), evolve_attempt, running, EndAttemptAtGrace(FINAL + 5))
    assert events == [AttemptFinished("g_alice", "abandoned", 0, FINAL - (OPENS + 1000), FINAL, "grace")]
    assert decide_attempt(EndAttemptAtGrace(FINAL + 9), ended, challenge) == []  # ending twice: once


def test_the_seed_is_revealed_only_after_the_grace_with_nothing_left_to_play():
    state = prepared()
    assert decide_challenge(RevealSeed(FINAL - 1, 0, 0), state).code == GRACE_RUNNING
    assert decide_challenge(RevealSeed(FINAL, 1, 0), state).code == STILL_PLAYED
    assert decide_challenge(RevealSeed(FINAL, 0, 2), state).code == STILL_PLAYED
    final, events = run(decide_challenge, evolve_challenge, state, RevealSeed(FINAL, 0, 0))
    assert events == [ChallengeClosed(CLOSES), SeedRevealed(PICK.seed, SALT.hex(), PICK.counter, PICK.day_key.hex(), FINAL)]
    assert decide_challenge(RevealSeed(FINAL + 1, 0, 0), final) == []
    info = public_info(final, FINAL)
    assert (info.status, info.seed, info.salt, info.counter) == ("final", PICK.seed, SALT.hex(), PICK.counter)
    assert verify_commitment(info.commitment, info.date, info.game, "suits=2", info.seed, bytes.fromhex(info.salt))
