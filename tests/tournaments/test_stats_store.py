"""Players' statistics as a stored projection on a real Redis: updated by each end, never counted twice,
folded again from the games when missing, and the same figures as a fold of the games."""

from __future__ import annotations

import asyncio
import itertools
import secrets

import msgspec
import pytest

import engine
from engine import intents as it
from engine.solver import solve
from services.games.hooks import AllResults, NoResults
from services.games.retention import Retention
from services.games.service import GameService
from services.redis.client import open_redis
from services.store import EventStore
from services.store.keys import player_games_key, player_stats_key, retention_key
from services.tournaments.statistics import PlayerStats
from services.tournaments.stats_store import StoredStatistics, folded_from_games
from tests.services.conftest import Clock
from tests.services.test_play_flow import WISH, losing_line, play

pytestmark = pytest.mark.integration


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def stack(redis_client, clock):
    redis = redis_client
    games = GameService(EventStore(redis, clock=clock), redis)
    stored = StoredStatistics(redis, games)
    games.results = stored
    return games, stored


def player() -> str:
    return f"g_stats_{secrets.token_hex(4)}"


async def win(games: GameService, who: str, clock, seed: int = 5) -> str:
    game = await games.create_game(who, "wish", WISH, seed)
    await games.open_for(game.id, who)
    await play(games, game.id, solve(games.live.get(game.id).state).line, clock, player=who)
    return game.id


_SEEDS = itertools.count(1)


def playable_seed() -> int:
    """A Wish deal not lost as dealt (a random one may be: it takes no resign)."""
    return next(seed for seed in _SEEDS if engine.initial_state("wish", WISH, seed).status == engine.IN_PROGRESS)


async def resign(games: GameService, who: str, clock) -> str:
    game = await games.create_game(who, "wish", WISH, playable_seed())
    await games.open_for(game.id, who)
    await play(games, game.id, [it.ResignIntent()], clock, player=who)
    return game.id


def row(stats, game="wish"):
    [entry] = [v for v in stats.variants.values() if v.counts.game == game]
    return entry


async def test_each_end_updates_the_stored_figures_without_reading_the_games(stack, clock, redis_client):
    redis = redis_client
    games, stored = stack
    who = player()
    await win(games, who, clock)
    await resign(games, who, clock)
    assert await redis.exists(player_stats_key(who)), "the first end stored the figures"
    await redis.delete(player_games_key(who))  # a fold from the games would now find none
    entry = row(await stored.of(who))
    assert (entry.played, entry.won, entry.lost, entry.current_streak, entry.best_streak) == (2, 1, 1, 0, 1)


async def test_the_stored_figures_are_those_a_fold_of_the_games_gives(stack, clock, redis_client):
    redis = redis_client
    games, stored = stack
    who = player()
    for _ in range(2):
        await win(games, who, clock)
    await resign(games, who, clock)
    kept = await stored.of(who)
    await redis.delete(player_stats_key(who))  # lost: the next read folds it again from the games
    assert await stored.of(who) == kept == (await folded_from_games(games, who))[0]
    assert await redis.exists(player_stats_key(who))


async def test_ends_told_at_once_by_two_servers_are_each_counted(stack, clock, redis_url):
    games, stored = stack
    who = player()
    await resign(games, who, clock)
    assert row(await stored.of(who)).played == 1
    games.results = NoResults()  # the next ends are told below, all at once, by two servers
    ended = []
    for _ in range(8):
        live = games.live.get(await resign(games, who, clock))
        ended.append((live.created, live.game_id, live.finished_at_ms))
    second = await open_redis(redis_url)  # the same Redis through connections of its own, as a second server's
    other = StoredStatistics(second, games)
    try:
        await asyncio.gather(*((stored, other)[n % 2].ended(created, game_id, "abandoned", 0, 0, at)
                               for n, (created, game_id, at) in enumerate(ended)))
    finally:
        await second.aclose()
    stats = await stored.of(who)
    assert row(stats).played == 9
    assert stats == (await folded_from_games(games, who))[0]


async def test_a_loss_reopened_by_a_practice_undo_and_lost_again_counts_once(stack, clock):
    games, stored = stack
    who = player()
    seed, line = losing_line()
    game = await games.create_game(who, "wish", WISH, seed)  # practice on a chosen deal: undo allowed
    await games.open_for(game.id, who)
    await play(games, game.id, line, clock, player=who)
    assert (row(await stored.of(who)).played, row(await stored.of(who)).lost) == (1, 1)
    await play(games, game.id, [it.UndoIntent()] * len(line), clock, player=who)
    await play(games, game.id, line, clock, player=who)  # lost again, told again
    entry = row(await stored.of(who))
    assert (entry.played, entry.lost, entry.won) == (1, 1, 0), "the same game, not a second loss"
    assert await stored.of(who) == (await folded_from_games(games, who))[0]


async def test_a_redis_away_never_fails_the_end_it_is_told_of(stack, clock):
    import redis.asyncio as aioredis

    from services.redis.embedded import free_port

    games, _ = stack
    who = player()
    live = games.live.get(await resign(games, who, clock))
    away = aioredis.Redis(port=free_port(), socket_connect_timeout=0.2)
    try:
        await StoredStatistics(away, games).ended(live.created, live.game_id, "abandoned", 0, 0, clock.now)
    finally:
        await away.aclose()


async def test_on_a_cluster_the_figures_are_stored_by_their_script_and_the_ends_pipeline_lands(redis_cluster, clock):
    """The statistics' compare-and-set script runs in the player's slot; the end's pipeline (the game's
    meta, the retention index: other slots) lands on every node it names."""
    client = await open_redis(redis_cluster.url)
    try:
        games = GameService(EventStore(client, clock=clock), client)
        stored = StoredStatistics(client, games)
        games.results = AllResults(Retention(client, days=30, clock=clock), stored)
        who = player()
        first = await resign(games, who, clock)
        await win(games, who, clock)
        assert await client.zscore(retention_key(), first) is not None
        entry = row(_decoded(await client.get(player_stats_key(who))))
        assert (entry.played, entry.won) == (2, 1)
        assert [s.status for s in await games.list_games(who)] == ["won", "abandoned"]
    finally:
        await client.aclose()


def _decoded(raw):
    assert raw is not None, "the figures were stored"
    return msgspec.msgpack.decode(raw, type=PlayerStats)
