"""The player's index of casual games in play (services/games/in_play.py) on a real Redis: a new game reads
it instead of the recent games' meta hashes, and never leaves a game in play unabandoned, whether the index
is kept, lapsed, lost, or made again by an undo out of a loss."""

from __future__ import annotations

import pytest

import engine
from engine import intents as it
from services.games.in_play import KEPT
from services.games.service import GameService
from services.store import EventStore
from services.store.keys import player_in_play_key
from tests.support.round_trips import RoundTrips

pytestmark = pytest.mark.integration


async def wish(service: GameService, player: str, seed: int, mode: str = "standard"):
    summary = await service.create_game(player, "wish", {"mode": mode}, seed)
    assert not isinstance(summary, engine.RuleError), summary
    return summary


async def members(redis, player: str) -> set[str]:
    return {m.decode() for m in await redis.zrange(player_in_play_key(player), 0, -1)}


async def test_the_index_holds_the_games_in_play_and_a_new_game_reads_no_meta_hash(redis, clock):
    trips = RoundTrips(redis)
    service = GameService(EventStore(redis, clock=clock), trips)
    player = "g_in_play"
    first = await wish(service, player, 1)
    assert await members(redis, player) == {KEPT, first.id}
    await service.submit(player, first.id, "r1", 0, it.ResignIntent())
    assert await members(redis, player) == {KEPT}  # out in the end's own round trip
    for n in range(2, 8):  # a history of finished games
        game = await wish(service, player, n)
        await service.submit(player, game.id, f"r{n}", 0, it.ResignIntent())
    elsewhere = GameService(EventStore(redis, clock=clock), trips)  # a fresh process: nothing held
    before = trips.count
    game = await wish(elsewhere, player, 20)
    # Beside the store's append: the index read and the creation's one batch, no meta hash of the seven.
    assert trips.count - before == 2
    await elsewhere.submit(player, game.id, "r20", 0, it.ResignIntent())
    await redis.delete(player_in_play_key(player))  # without it: the recent games, then their meta hashes
    before = trips.count
    await wish(GameService(EventStore(redis, clock=clock), trips), player, 21)
    assert trips.count - before == 4


async def test_a_game_in_play_elsewhere_is_abandoned_through_the_index(redis, clock):
    player = "g_in_play_other"
    one = GameService(EventStore(redis, clock=clock), redis)
    other = GameService(EventStore(redis, clock=clock), redis)
    playing = await wish(one, player, 3)
    newer = await wish(other, player, 4)
    assert (await one.summary(playing.id)).status == "abandoned"
    assert await members(redis, player) == {KEPT, newer.id}


@pytest.mark.parametrize("lost", ["deleted", "unmarked"])
async def test_an_index_not_kept_is_not_trusted_and_the_recent_games_are_read(redis, clock, lost):
    """Lost (or lapsed), or made again without its mark: the next new game reads the recent games as it did
    before the index, abandons the one in play, and marks the index kept again."""
    service = GameService(EventStore(redis, clock=clock), redis)
    player = f"g_in_play_{lost}"
    playing = await wish(service, player, 5)
    await redis.delete(player_in_play_key(player))
    if lost == "unmarked":  # an index holding something, but not known to be whole
        await redis.zadd(player_in_play_key(player), {"0000000000000000": 1})
    newer = await wish(GameService(EventStore(redis, clock=clock), redis), player, 6)
    assert (await service.summary(playing.id)).status == "abandoned"
    assert KEPT in await members(redis, player) and newer.id in await members(redis, player)
    assert await redis.pttl(player_in_play_key(player)) > 86_400_000  # its life renewed


async def test_an_undo_out_of_a_loss_puts_the_game_back_and_the_next_game_abandons_it(redis, clock):
    """A casual game lost with an undo left is not in play (nothing to abandon); an undo brings it back in
    play, and into the index, so a new game resigns it."""
    service = GameService(EventStore(redis, clock=clock), redis)
    player = "g_in_play_undo"
    for seed in range(1, 400):  # a casual Wish deal that random first moves lose
        game = await wish(service, player, seed, "open")
        live = service.live.get(game.id)
        version = 0
        while live.state.status == engine.IN_PROGRESS:
            moves = [m for m in engine.legal_moves(live.state) if not isinstance(m, (it.UndoIntent, it.ResignIntent))]
            if not moves:
                break
            assert (await service.submit(player, game.id, f"m{version}", version, moves[0])).answer.accepted
            version = live.version
        if live.state.status == engine.LOST:
            break
        if live.state.status == engine.IN_PROGRESS:
            await service.submit(player, game.id, "resign", live.version, it.ResignIntent())
    else:
        pytest.fail("no lost deal found")
    assert game.id not in await members(redis, player)
    assert (await service.submit(player, game.id, "undo", live.version, it.UndoIntent())).answer.accepted
    assert live.state.status == engine.IN_PROGRESS and game.id in await members(redis, player)
    await wish(GameService(EventStore(redis, clock=clock), redis), player, 999)
    assert (await service.summary(game.id)).status == "abandoned"


async def test_an_entry_found_not_in_play_is_taken_out(redis, clock):
    """An entry whose game is not in play by its meta hash (a write lost between them) is read once, then
    taken out by the new game's own batch."""
    service = GameService(EventStore(redis, clock=clock), redis)
    player = "g_in_play_stale"
    game = await wish(service, player, 8)
    await service.submit(player, game.id, "r", 0, it.ResignIntent())
    await redis.zadd(player_in_play_key(player), {game.id: 1})  # as if its end's ZREM had been lost
    await wish(GameService(EventStore(redis, clock=clock), redis), player, 9)
    assert game.id not in await members(redis, player)
