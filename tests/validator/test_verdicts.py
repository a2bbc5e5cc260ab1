"""Every win rechecked from its log, on a real Redis; every tampering rejected with its reason."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from engine import events as ev
from services.games import codec
from services.games.entries import GameCreated, GameShown
from services.store.keys import meta_key, validator_counts_key
from services.validator.queue import Submission
from tests.support.play import won_wish
from tests.validator.conftest import drain, read_stored, with_entry, write_log

pytestmark = pytest.mark.integration


def tick_by(clock, ms: int):
    def tick():
        clock.now += ms
    return tick


async def test_a_won_game_is_submitted_and_verified_once(stack, clock, private_redis_client):
    service, queue, worker = stack
    before = int(await private_redis_client.hget(validator_counts_key(), "verified") or 0)
    summary = await won_wish(service, "g_winner", tick=tick_by(clock, 700))
    await drain(worker)
    stored = await queue.verdict_of(summary.id)
    assert stored is not None and stored.verdict.verified, stored
    assert (stored.verdict.moves, stored.verdict.time_ms) == (summary.moves, summary.elapsed_ms)
    assert stored.verdict.stats.fastest_gap_ms == 700 and stored.verdict.stats.median_gap_ms == 700
    # A duplicate submission (a sweep, a retry) gets the same single verdict; the count moves once.
    await queue.submit(Submission(summary.id, "g_winner", summary.moves, summary.elapsed_ms, clock.now))
    await drain(worker)
    assert await queue.verdict_of(summary.id) == stored
    assert int(await private_redis_client.hget(validator_counts_key(), "verified")) == before + 1


async def test_a_win_whose_submission_was_lost_is_found_by_the_sweep(stack, clock):
    service, queue, worker = stack
    hook = service.results
    service.results = type(hook).__new__(type(hook))  # a hook that hears the opening, loses the win:
    service.results.queue, service.results.store = hook.queue, hook.store
    service.results.ended = _lost_submission
    summary = await won_wish(service, "g_unlucky", tick=tick_by(clock, 10))
    await drain(worker)
    assert await queue.verdict_of(summary.id) is None  # nothing was submitted
    clock.now += 60_000
    assert await hook.sweep(now_ms=clock.now) >= 1
    await drain(worker)
    assert (await queue.verdict_of(summary.id)).verdict.verified


async def _lost_submission(*args, **kwargs) -> None:
    return None


async def _won_log(stack, clock, player="g_honest"):
    service, queue, worker = stack
    summary = await won_wish(service, player, tick=tick_by(clock, 1_000))
    return summary, await read_stored(service.redis, summary.id)


async def _verdict_on(stack, entries, claim_player, moves, time_ms, clock):
    service, queue, worker = stack
    forged = await write_log(service.redis, entries)
    await queue.submit(Submission(forged, claim_player, moves, time_ms, clock.now))
    await drain(worker)
    return (await queue.verdict_of(forged)).verdict


def _engine_indexes(entries):
    return [i for i, e in enumerate(entries) if e.type not in (codec.GAME_CREATED, codec.GAME_SHOWN)]


async def test_tampered_logs_are_rejected_with_their_reason(stack, clock):
    summary, entries = await _won_log(stack, clock)
    moves, time_ms, player = summary.moves, summary.elapsed_ms, "g_honest"
    first, *_ = _engine_indexes(entries)
    pair = codec.decode(entries[first])
    assert isinstance(pair, ev.PairRemoved)
    other_card = ev.PairRemoved(piles=pair.piles, cards=(pair.cards[1], pair.cards[0]))
    other_pile = ev.PairRemoved(piles=(pair.piles[0], (pair.piles[1] + 1) % 8 or 1), cards=pair.cards)
    cases = {
        "edited card": (entries[:first] + [with_entry(entries[first], other_card)] + entries[first + 1:], "illegal_event"),
        "edited pile": (entries[:first] + [with_entry(entries[first], other_pile)] + entries[first + 1:], "illegal_event"),
        # Swapped moves also swap their time stamps: the clock running backwards gives them away first.
        "reordered": (entries[:first] + [entries[first + 1], entries[first]] + entries[first + 2:], "time_backwards"),
        # The moves played backwards under the original times (two moves that commute may swap
        # harmlessly: the game is then as legal and as long, so only a reorder that matters is a cheat).
        "reordered, times kept": (entries[:first] + [
            msgspec.structs.replace(moved, ts_ms=kept.ts_ms)
            for moved, kept in zip(entries[first:][::-1], entries[first:])], "illegal_event"),
        "inserted": (entries[:first + 1] + [entries[first]] + entries[first + 1:], "illegal_event"),
        "dropped": (entries[:first] + entries[first + 1:], "illegal_event"),
        "dropped last": (entries[:-1], "not_won"),
    }
    for name, (log, reason) in cases.items():
        verdict = await _verdict_on(stack, log, player, moves, time_ms, clock)
        assert (verdict.outcome, verdict.reason) == ("rejected", reason), (name, verdict)
    # The first bad entry is named: the edited one.
    edited = await _verdict_on(stack, cases["edited card"][0], player, moves, time_ms, clock)
    assert edited.bad_entry == first + 1


async def test_forged_times_seeds_and_players_are_rejected(stack, clock):
    summary, entries = await _won_log(stack, clock)
    moves, time_ms, player = summary.moves, summary.elapsed_ms, "g_honest"
    created, shown = codec.decode(entries[0]), codec.decode(entries[1])
    assert isinstance(created, GameCreated) and isinstance(shown, GameShown)
    later_look = with_entry(entries[1], msgspec.structs.replace(shown, at_ms=shown.at_ms + 500))
    past_first_move = with_entry(entries[1], msgspec.structs.replace(shown, at_ms=entries[2].ts_ms + 1))
    early_win = msgspec.structs.replace(entries[-1], ts_ms=entries[-2].ts_ms - 1)
    other_seed = with_entry(entries[0], msgspec.structs.replace(created, seed=created.seed + 1))
    other_player = with_entry(entries[0], msgspec.structs.replace(created, player_id="g_cheat"))
    cases = [
        ([entries[0], later_look, *entries[2:]], player, time_ms, "wrong_time"),  # a shortened time
        ([entries[0], past_first_move, *entries[2:]], player, time_ms - 1_000, "time_backwards"),
        ([*entries[:-1], early_win], player, time_ms, "time_backwards"),
        ([other_seed, *entries[1:]], player, time_ms, "illegal_event"),  # another deal: the moves no longer fit
        ([other_player, *entries[1:]], player, time_ms, "wrong_player"),  # the creation says another player
        (entries, "g_thief", time_ms, "wrong_player"),  # another player's log submitted under my name
        ([entries[0], *entries[2:]], player, time_ms, "never_shown"),
    ]
    for log, claimant, claimed_time, reason in cases:
        verdict = await _verdict_on(stack, log, claimant, moves, claimed_time, clock)
        assert (verdict.outcome, verdict.reason) == ("rejected", reason), (reason, verdict)


async def test_a_forged_won_status_in_the_projections_is_never_verified(stack, clock, private_redis_client):
    service, queue, worker = stack
    game = await service.create_game("g_forger", "wish", {"mode": "open"}, 5)
    await service.open_for(game.id, "g_forger")
    await private_redis_client.hset(meta_key(game.id), "status", "won")  # the projection lies
    await queue.submit(Submission(game.id, "g_forger", 16, 1_000, clock.now))
    await drain(worker)
    assert (await queue.verdict_of(game.id)).verdict.reason == "not_won"
    clock.now += 60_000
    await service.results.sweep(now_ms=clock.now)  # the sweep reads logs, not projections: nothing to submit


async def test_a_daily_must_be_dealt_from_its_challenges_seed(stack, clock):
    service, queue, worker = stack
    summary, entries = await _won_log(stack, clock, player="a_daily")
    seed = codec.decode(entries[0]).seed

    async def challenge_seed(created):
        return seed + 1  # the challenge's own seed is another one

    queue.seeds = challenge_seed
    verdict = await _verdict_on(stack, entries, "a_daily", summary.moves, summary.elapsed_ms, clock)
    assert verdict.reason == "wrong_seed"


async def test_a_submission_that_keeps_failing_goes_to_the_dead_letters_with_its_reason(stack, clock, private_redis_client):
    from services.store.keys import dead_letters_key

    service, queue, worker = stack
    before = await private_redis_client.xlen(dead_letters_key())
    await queue.submit(Submission("{not a game id}", "g_x", 1, 1, clock.now))  # its check raises every time
    for _ in range(queue.max_attempts):
        await worker.run_once(block=False)
        worker.claim_idle_ms = 1  # the next round claims it again at once, as another worker would
        await asyncio.sleep(0.005)
    dead = await private_redis_client.xrange(dead_letters_key())
    assert len(dead) == before + 1 and b"ValueError" in dead[-1][1][b"reason"]
    await drain(worker)
    assert await queue.verdict_of("{not a game id}") is None  # no verdict on what could not be read
