"""Preparing and settling days on a real Redis: no weak fallback unless the setting allows it (then
marked `check: weak`), two proven deals a day (ranked and guests'), and the index of unrevealed days
rebuilt from the challenge streams alone."""

from __future__ import annotations

import datetime as dt
import logging

import pytest

from services.games.service import GameService
from services.store import EventStore
from services.store.keys import daily_unrevealed_key
from services.tournaments import days
from services.tournaments.catalogue import challenges_of
from services.tournaments.challenge import public_info
from services.tournaments.derivation import DAY_KEY_LABEL, GUEST_KEY_LABEL, pick_seed
from services.tournaments.service import TournamentService
from services.tournaments.winnable import (
    EXACT_SOLVER, PROOF_COUNTERS, WEAK, WinnabilityCheck, check_for, register_check,
)
from tests.services.conftest import Clock

pytestmark = pytest.mark.integration

DAY = dt.date(2037, 8, 2)
SECRET = b"test tournament secret for days 0123"


def wish_on(day: dt.date):
    return next(ref for ref in challenges_of(day) if ref.daily.game == "wish")


def service(redis, clock, *, weak: bool = False) -> TournamentService:
    return TournamentService(redis, GameService(EventStore(redis, clock=clock), redis), secret=SECRET,
                             clock=clock, weak_check=weak)


@pytest.fixture
def unprovable(monkeypatch):
    """The Wish's solver proves nothing (as a solver out of budget would), run in this process."""
    async def inline(work, *args):
        return work(*args)

    monkeypatch.setattr(days, "in_solver_worker", inline)
    proved = check_for("wish")
    register_check("wish", WinnabilityCheck(EXACT_SOLVER, True, lambda game, variant, seed: False))
    yield
    register_check("wish", proved)


async def test_an_unprovable_day_is_not_prepared_without_the_setting(private_redis_client, unprovable, caplog):
    clock = Clock(wish_on(DAY).opens_at_ms - 8 * 24 * 3600 * 1000)
    ref = wish_on(DAY)
    with caplog.at_level(logging.ERROR, "arena.tournaments"):
        state = await service(private_redis_client, clock).prepare(ref)
    assert state.prepared is None and public_info(state, clock()).code == "not_prepared"
    assert f"no deal proven winnable in {PROOF_COUNTERS} tries" in caplog.text
    assert ref.key not in await service(private_redis_client, clock).unrevealed()


async def test_the_weak_fallback_is_recorded_and_shown_as_weak(private_redis_client, unprovable):
    ref = wish_on(DAY + dt.timedelta(days=1))
    clock = Clock(ref.opens_at_ms - 8 * 24 * 3600 * 1000)
    state = await service(private_redis_client, clock, weak=True).prepare(ref)
    assert state.prepared is not None and state.prepared.check == WEAK
    assert public_info(state, clock()).check == "weak"


async def test_a_day_has_a_ranked_and_a_guests_deal_both_proven(private_redis_client):
    ref = wish_on(DAY + dt.timedelta(days=2))
    clock = Clock(ref.opens_at_ms - 8 * 24 * 3600 * 1000)
    state = await service(private_redis_client, clock).prepare(ref)
    prepared = state.prepared
    assert prepared.check == EXACT_SOLVER
    check = check_for("wish")
    for label, seed in ((DAY_KEY_LABEL, prepared.sealed.seed), (GUEST_KEY_LABEL, prepared.guest_seed)):
        assert pick_seed(SECRET, ref.date, "wish", ref.daily.variant, check, label=label).seed == seed
    assert prepared.guest_seed != prepared.sealed.seed
    assert public_info(state, clock()).published_at_ms == clock()


async def test_the_unrevealed_index_is_rebuilt_from_the_streams(private_redis_client):
    clock = Clock(wish_on(DAY + dt.timedelta(days=3)).opens_at_ms - 8 * 24 * 3600 * 1000)
    t = service(private_redis_client, clock)
    refs = [wish_on(DAY + dt.timedelta(days=n)) for n in (3, 4)]
    for ref in refs:
        await t.prepare(ref)
    await private_redis_client.delete(daily_unrevealed_key())  # lost, or made before the index existed
    assert await t.rebuild_unrevealed() >= 2
    assert {ref.key for ref in refs} <= set(await t.unrevealed())
    clock.now = refs[0].final_at_ms + 1
    assert (await t.settle(refs[0])).revealed is not None
    assert refs[0].key not in await t.unrevealed() and refs[1].key in await t.unrevealed()
