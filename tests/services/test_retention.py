"""Retention: ended casual guest games go after the retention period; nothing that counts ever does."""

from __future__ import annotations

import pytest

from engine import intents as it
from services.games.entries import GameLinks
from services.games.retention import DAY_MS, Retention
from services.games.service import GameService
from services.store import EventStore
from services.store.keys import account_key, log_key, meta_key, player_games_key
from tests.support.play import IN_PLAY_WISH

pytestmark = pytest.mark.integration


async def test_only_ended_casual_guest_games_past_the_period_are_trimmed(private_redis_client, clock):
    redis = private_redis_client
    retention = Retention(redis, days=30, clock=clock)
    service = GameService(EventStore(redis, clock=clock), redis, results=retention)
    guest, named = "g_forgetful", "g_named"
    await redis.hset(account_key(named), mapping={"name": "Named"})  # a named account keeps its games

    async def ended(player, kind="casual", **create):
        game = await service.create_game(player, "wish", None, IN_PLAY_WISH, kind=kind, **create)
        if kind == "race":  # a race game opens at its race's start signal, logged by the race
            await service.show_at(game.id, clock.now, "race:r_1")
        assert (await service.submit(player, game.id, "r", 0, it.ResignIntent())).answer.accepted
        return game.id

    old_casual = await ended(guest)
    old_named = await ended(named)
    old_daily = await ended(guest, kind="daily", links=GameLinks(challenge="2026-11-01/wish/mode=standard"))
    old_race = await ended(guest, kind="race", links=GameLinks(race="r_1"))
    unfinished = await service.create_game(guest, "wish", {"mode": "open"}, 3, kind="daily",
                                           links=GameLinks(challenge="2026-11-02/wish/mode=standard"))
    clock.now += 29 * DAY_MS
    assert await retention.trim_once() == 0  # not old enough yet
    recent = await ended(guest)
    clock.now += 2 * DAY_MS
    assert await retention.trim_once() == 1
    assert not await redis.exists(log_key(old_casual), meta_key(old_casual))
    assert await service.summary(old_casual) is None
    assert old_casual.encode() not in await redis.zrange(player_games_key(guest), 0, -1)
    for kept in (old_named, old_daily, old_race, unfinished.id, recent):
        assert await redis.exists(log_key(kept)), kept
    assert await Retention(redis, days=0, clock=clock).trim_once() == 0  # 0 days: keep everything


async def test_a_loss_undone_back_into_play_is_not_trimmed_until_it_ends_again(private_redis_client, clock):
    from tests.services.test_play_flow import losing_line

    redis = private_redis_client
    retention = Retention(redis, days=30, clock=clock)
    service = GameService(EventStore(redis, clock=clock), redis, results=retention)
    seed, line = losing_line()
    game = await service.create_game("g_undoer", "wish", {"mode": "standard"}, seed)
    for version, intent in enumerate([*line, it.UndoIntent()]):
        clock.now += 1000
        assert (await service.submit("g_undoer", game.id, f"m{version}", version, intent)).answer.accepted
    assert (await service.summary(game.id)).status == "in_progress"  # lost, then undone: in play again
    clock.now += 31 * DAY_MS
    await retention.trim_once()  # (this Redis may hold other tests' ended games: they may go)
    assert await redis.exists(log_key(game.id)), "a game in play is never trimmed"
    clock.now += 1000
    assert (await service.submit("g_undoer", game.id, "resign", len(line) + 1, it.ResignIntent())).answer.accepted
    clock.now += 31 * DAY_MS
    assert await retention.trim_once() >= 1
    assert not await redis.exists(log_key(game.id)), "ended again: trimmed a period after that end"
