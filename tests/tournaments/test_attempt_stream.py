"""One attempt per player across processes: the attempt stream's version-0 race, on a real Redis.

Two first requests for the same attempt (two gateway processes, a double click) both decide on an
empty stream; the store's expected-version check lets only one AttemptStarted in.
"""

from __future__ import annotations

import asyncio

import pytest

from services.store import VersionConflict
from services.store.keys import attempt_stream_id, daily_stream_id
from services.tournaments.catalogue import DAY_MS, parse_challenge_key
from services.tournaments.challenge import (
    AttemptState,
    ChallengeState,
    PrepareChallenge,
    StartAttempt,
    decide_attempt,
    decide_challenge,
    evolve_attempt,
    evolve_challenge,
)
from services.tournaments.derivation import pick_seed
from services.tournaments.events import from_stored, to_new_event
from services.tournaments.winnable import check_for
from tests.fixtures.redis import unique_id

pytestmark = pytest.mark.integration
REF = parse_challenge_key("2026-12-01/wish/mode=standard")
PICK = pick_seed(b"0123456789abcdef-test-secret", REF.date, "wish", REF.daily.variant, check_for("wish"))


async def test_two_first_requests_make_one_attempt(event_store):
    challenge_stream = daily_stream_id(REF.key + "#" + unique_id())
    prepare = PrepareChallenge(REF, PICK, bytes(16), check_for("wish").name, REF.opens_at_ms - 8 * DAY_MS)
    await event_store.append(challenge_stream, 0, [to_new_event(e) for e in decide_challenge(prepare, ChallengeState())])
    challenge = ChallengeState()
    for stored in await event_store.read(challenge_stream):
        challenge = evolve_challenge(challenge, from_stored(stored))
    assert challenge.prepared.commitment

    stream = attempt_stream_id(REF.key, unique_id("g"))

    async def first_request(game_id: str):
        events = decide_attempt(StartAttempt("g_alice", game_id, True, REF.opens_at_ms + 10), AttemptState(), challenge)
        try:
            return await event_store.append(stream, 0, [to_new_event(e) for e in events])
        except VersionConflict as conflict:
            return conflict

    results = await asyncio.gather(first_request("game-a"), first_request("game-b"))
    assert sorted(type(r).__name__ for r in results) == ["AppendResult", "VersionConflict"]
    attempt = AttemptState()
    for stored in await event_store.read(stream):
        attempt = evolve_attempt(attempt, from_stored(stored))
    again = decide_attempt(StartAttempt("g_alice", "game-c", True, REF.opens_at_ms + 20), attempt, challenge)
    assert again.code == "attempt_exists" and attempt.started.game_id in again.message
