"""Hints in practice games on a real Redis: logged, marking the game assisted for good, refused where
the rules give none (casual games, a daily's or race's deal before its reveal, someone else's game)."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import msgspec
import pytest

import engine
from services.games import codec, hints as h
from services.games.entries import PRACTICE, GameLinks
from services.games.model import NOT_YOUR_GAME, STALE_VERSION, Refusal, meta_key
from services.games.projections import rebuild_projections
from services.games.record import BadLog, read_log
from services.games.secrecy import challenge_reveal_ms
from services.games.service import GameService

pytestmark = pytest.mark.integration

ALICE, BOB = "g_alice", "g_bob"
WISH = {"mode": "standard"}
WINNABLE_SEED, UNWINNABLE_SEED = 3, 0  # solver verdicts of these Wish deals from the start


@pytest.fixture
def hints(service):
    desk = h.Hints(service)
    yield desk
    desk.close()


async def practice(service: GameService, seed: int = WINNABLE_SEED, **kwargs):
    game = await service.create_game(ALICE, "wish", WISH, seed, **kwargs)
    assert not isinstance(game, engine.RuleError), game
    return game


async def test_a_hint_is_a_legal_move_of_a_winning_line_and_is_logged(service, hints, redis):
    game = await practice(service)
    assert game.kind == PRACTICE and not game.assisted
    answer = await hints.hint(ALICE, game.id, 0)
    assert isinstance(answer, h.HintAnswer), answer
    assert (answer.result, answer.version, answer.assisted) == ("winnable", 0, True)
    assert answer.move in engine.legal_moves(service.live.get(game.id).state)
    entries = await service.store.read(game.id)
    assert [e.type for e in entries] == ["game_created", "game_shown", "hint_given"]  # a hint is a look
    log = read_log(entries)
    assert log.assisted and log.hints[0].move == answer.move and log.hints[0].version == 0
    assert (await service.summary(game.id)).assisted
    assert await redis.hget(meta_key(game.id), "assisted") == b"1"


async def test_following_the_hints_wins_and_the_game_stays_assisted(service, hints):
    game = await practice(service)
    for step in range(60):
        live = service.live.get(game.id)
        if live.state.status != "in_progress":
            break
        answer = await hints.hint(ALICE, game.id, live.version)
        assert answer.result == "winnable", answer
        moved = await service.submit(ALICE, game.id, f"m{step}", live.version, answer.move)
        assert moved.answer.accepted, moved.answer
    summary = await service.summary(game.id)
    assert summary.status == "won" and summary.assisted
    assert (await hints.hint(ALICE, game.id)).code == h.GAME_OVER
    cold = await GameService(service.store, service.redis).rebuild(game.id, verify=True)
    assert cold.assisted and cold.state.status == "won"


async def test_a_second_ask_at_the_same_position_is_answered_from_the_log(service, hints):
    game = await practice(service)
    first = await hints.hint(ALICE, game.id)
    hints.close()  # no worker any more: only the log can answer now
    again = await hints.hint(ALICE, game.id)
    cold = await h.Hints(GameService(service.store, service.redis), executor=hints._executor).hint(ALICE, game.id)
    assert again.move == first.move == cold.move
    assert [e.type for e in await service.store.read(game.id)].count("hint_given") == 1


async def test_proven_no_winning_line_is_said_and_logged(service, hints):
    game = await practice(service, UNWINNABLE_SEED)
    answer = await hints.hint(ALICE, game.id)
    assert (answer.result, answer.move, answer.assisted) == ("unwinnable", None, True)
    assert read_log(await service.store.read(game.id)).hints[0].result == "unwinnable"


async def test_a_search_that_runs_out_of_budget_tells_nothing_and_marks_nothing(service):
    game = await service.create_game(ALICE, "spider", {"suits": 4}, 5)
    desk = h.Hints(service, budget=1)
    answer = await desk.hint(ALICE, game.id)
    desk.close()  # no worker any more: a second search could not even be queued
    again = await desk.hint(ALICE, game.id)  # remembered: the same search would end the same way
    assert (answer.result, answer.move, answer.assisted) == ("unknown", None, False)
    assert again == answer
    assert "hint_given" not in [e.type for e in await service.store.read(game.id)]
    assert not (await service.summary(game.id)).assisted


async def test_a_casual_game_gets_no_hint_and_nothing_is_written(service, hints):
    game = await service.create_game(ALICE, "wish", WISH)
    assert game.kind == "casual"
    refused = await hints.hint(ALICE, game.id)
    assert isinstance(refused, Refusal) and refused.code == h.HINTS_PRACTICE_ONLY
    assert [e.type for e in await service.store.read(game.id)] == ["game_created"]


async def test_someone_elses_game_a_stale_version_and_no_game_are_refused(service, hints):
    game = await practice(service)
    assert (await hints.hint(BOB, game.id)).code == NOT_YOUR_GAME
    assert (await hints.hint(ALICE, game.id, 3)).code == STALE_VERSION
    assert (await hints.hint(ALICE, "nosuchgame")).code == "no_such_game"
    assert [e.type for e in await service.store.read(game.id)] == ["game_created"]


async def test_no_hint_on_a_daily_deal_before_its_reveal_then_one_after(service, hints, clock):
    # The clock's day is 2023-11-14: practice on that day's deal (after one's attempt) stays secret.
    key = "2023-11-14/wish/mode=standard"
    game = await practice(service, kind=PRACTICE, links=GameLinks(challenge=key))
    refused = await hints.hint(ALICE, game.id)
    assert isinstance(refused, Refusal) and refused.code == h.HINTS_AFTER_REVEAL
    assert [e.type for e in await service.store.read(game.id)] == ["game_created"]
    clock.now = challenge_reveal_ms(key) - 1
    assert (await hints.hint(ALICE, game.id)).code == h.HINTS_AFTER_REVEAL
    clock.now = challenge_reveal_ms(key)
    assert (await hints.hint(ALICE, game.id)).result == "winnable"


async def test_no_hint_on_a_race_deal_until_the_race_has_ended(service, hints):
    ended: set[str] = set()
    service.secrecy.race_ended = lambda race_id: race_id in ended
    game = await practice(service, kind=PRACTICE, links=GameLinks(race="r1"))
    assert (await hints.hint(ALICE, game.id)).code == h.HINTS_AFTER_REVEAL
    ended.add("r1")
    assert (await hints.hint(ALICE, game.id)).result == "winnable"


async def test_too_many_searches_queued_is_unavailable_not_a_wait(service):
    first, second = await practice(service), await service.create_game(BOB, "wish", WISH, 4)
    worker, gate = ThreadPoolExecutor(max_workers=1), threading.Event()
    worker.submit(gate.wait)  # the one worker is busy: the first search waits in the queue
    desk = h.Hints(service, max_waiting=1, executor=worker)
    try:
        waiting = asyncio.create_task(desk.hint(ALICE, first.id))
        while desk.waiting == 0:
            await asyncio.sleep(0.01)
        busy = await desk.hint(BOB, second.id)
        assert isinstance(busy, Refusal) and busy.code == h.UNAVAILABLE
        gate.set()
        assert (await waiting).result == "winnable"
        assert (await desk.hint(BOB, second.id)).result == "winnable"  # room again
    finally:
        gate.set()
        desk.close()


async def test_a_retried_move_keeps_its_version_across_hint_entries(service, hints):
    game = await practice(service)
    first = (await hints.hint(ALICE, game.id)).move
    assert (await service.submit(ALICE, game.id, "m1", 0, first)).answer.version == 1
    second = (await hints.hint(ALICE, game.id)).move
    assert (await service.submit(ALICE, game.id, "m2", 1, second)).answer.version == 2
    cold = GameService(service.store, service.redis)  # answered from the store's move record
    assert (await cold.submit(ALICE, game.id, "m1", 0, first)).answer.version == 1
    assert (await cold.submit(ALICE, game.id, "m2", 1, second)).answer.version == 2


async def test_assisted_is_rebuilt_from_the_logs_alone(service, hints, redis):
    game = await practice(service)
    await hints.hint(ALICE, game.id)
    written = await redis.hgetall(meta_key(game.id))
    assert written[b"assisted"] == b"1"
    await redis.delete(meta_key(game.id))
    await rebuild_projections(service.store, redis)
    assert await redis.hgetall(meta_key(game.id)) == written  # what the service wrote is what the log says


async def test_a_hint_entry_in_a_daily_attempts_log_is_not_a_log_this_server_wrote(service, hints):
    """Tampering: a hint spliced into a non-practice log (or logged before the look, or for another
    position) makes the whole log unreadable, so the validator rejects it as bad_log."""
    game = await practice(service)
    await hints.hint(ALICE, game.id)
    created, shown, given = await service.store.read(game.id)
    daily = codec.new_entry(msgspec.structs.replace(codec.decode(created), kind="daily"))
    forged = msgspec.structs.replace(created, data=daily.data)
    with pytest.raises(BadLog, match="hints exist only in practice games"):
        read_log([forged, shown, given])
    with pytest.raises(BadLog, match="before the deal was shown"):
        read_log([created, msgspec.structs.replace(given, version=2)])
    state = service.live.get(game.id).state
    move = codec.new_entry(engine.decide(engine.legal_moves(state)[0], state)[0])
    moved = msgspec.structs.replace(given, type=move.type, data=move.data, schema=move.schema)
    with pytest.raises(BadLog, match="a hint for version 0 logged at version 1"):
        read_log([created, shown, moved, msgspec.structs.replace(given, version=4)])
