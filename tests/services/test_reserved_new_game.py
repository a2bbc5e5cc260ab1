"""A new game made under an id reserved first (a socket's c2s.new_game), asked for again after the store failed
part way: on a real Redis, the log written but the creation's batch (meta hash, player's index, games in play,
the validator's unsettled set) lost to a timeout. The ask again finds the game, writes that batch from its log,
and makes no second game; the game itself is not taken for an unfinished one and resigned."""

from __future__ import annotations

import pytest
from redis.exceptions import TimeoutError as RedisTimeout

import engine
from engine import intents as it
from services.games.in_play import KEPT
from services.games.service import GameService
from services.redis.lean_commands import LeanCommands
from services.store import EventStore
from services.store.keys import meta_key, player_games_key, player_in_play_key, unsettled_key
from services.validator.queue import ValidatorQueue
from services.validator.submitter import Submitter

pytestmark = pytest.mark.integration


class BatchTimesOut(LeanCommands):
    """The service's small commands, whose next batch writing the meta hash of game `game_id` times out instead
    of running (nothing of it written): the creation's batch, after the log's append."""

    def __init__(self, client) -> None:
        super().__init__(client, None)
        self.game_id: str | None = None

    async def execute(self, commands):
        if self.game_id is not None and ["DEL", meta_key(self.game_id)] in commands:
            self.game_id = None  # once
            raise RedisTimeout("Timeout reading from the socket (injected)")
        return await super().execute(commands)


def text_members(raw) -> set[str]:
    return {item.decode() if isinstance(item, bytes) else item for item in raw}


async def test_asked_again_after_the_creation_batch_failed_the_game_is_made_once_and_whole(redis, clock):
    player = "g_reserved_retry"
    lean = BatchTimesOut(redis)
    store = EventStore(redis, clock=clock)
    service = GameService(store, redis, lean=lean, results=Submitter(ValidatorQueue(redis, store), store))
    older = await service.create_game(player, "spider", {"suits": 1}, None)
    assert not isinstance(older, engine.RuleError)
    game_id = service.new_game_id()

    lean.game_id = game_id  # the log is written, then the batch after it times out: what `unavailable` answers
    with pytest.raises(RedisTimeout):
        await service.create_game(player, "spider", {"suits": 1}, None, game_id=game_id, unasked=True)
    assert await store.exists(game_id) and not await redis.exists(meta_key(game_id)), "(the fault: the log, no meta)"

    elsewhere = GameService(store, redis, lean=lean, results=Submitter(ValidatorQueue(redis, store), store))  # the ask again, even in another process
    again = await elsewhere.create_game(player, "spider", {"suits": 1}, None, game_id=game_id)
    assert not isinstance(again, engine.RuleError)
    assert again.id == game_id and again.status == "in_progress" and again.version == 0
    assert text_members(await redis.zrange(player_games_key(player), 0, -1)) == {older.id, game_id}, "one game made"
    assert text_members(await redis.zrange(player_in_play_key(player), 0, -1)) >= {game_id}
    assert (await redis.hget(meta_key(game_id), "status")) == b"in_progress"
    assert await redis.zscore(unsettled_key(), game_id) is not None, "the hooks' creation writes too"
    assert (await service.summary(older.id)).status == "abandoned", "the first ask resigned the older game"

    # Asked yet again, the answer is the same and nothing changes; the game plays on.
    third = await GameService(store, redis, lean=lean).create_game(player, "spider", {"suits": 1}, None, game_id=game_id)
    assert third.id == game_id and third.status == "in_progress"
    moved = await elsewhere.submit(player, game_id, "m1", 0, it.ResignIntent())
    assert moved.answer.accepted
    assert text_members(await redis.zrange(player_in_play_key(player), 0, -1)) == {KEPT}


async def test_a_reserved_id_never_written_is_made_when_asked_again(redis, clock):
    player = "g_reserved_unwritten"
    service = GameService(EventStore(redis, clock=clock), redis)
    game_id = service.new_game_id()
    made = await service.create_game(player, "wish", {"mode": "standard"}, None, game_id=game_id)
    assert not isinstance(made, engine.RuleError) and made.id == game_id
    assert text_members(await redis.zrange(player_games_key(player), 0, -1)) == {game_id}


class OpenedTimesOut:
    """A results hook told of each opened game after the creation's batch, timing out the first time."""

    def __init__(self) -> None:
        self.failed = False

    async def opened(self, created, game_id, at_ms) -> None:
        if not self.failed:
            self.failed = True
            raise RedisTimeout("Timeout reading from the socket (injected)")

    async def ended(self, created, game_id, status, moves, time_ms, at_ms) -> None:
        return None


async def test_asked_again_after_the_batch_was_written_the_game_is_not_resigned_as_unfinished(redis, clock):
    """Everything written but a hook told after the batch: the ask again finds the game in the player's games in
    play, and must not take it for one of their unfinished games and resign it."""
    player = "g_reserved_after_batch"
    store = EventStore(redis, clock=clock)
    service = GameService(store, redis, results=OpenedTimesOut())
    game_id = service.new_game_id()
    with pytest.raises(RedisTimeout):
        await service.create_game(player, "wish", {"mode": "standard"}, 7, game_id=game_id, unasked=True)
    assert game_id in text_members(await redis.zrange(player_in_play_key(player), 0, -1)), "(the fault: after the batch)"
    again = await GameService(store, redis).create_game(player, "wish", {"mode": "standard"}, 7, game_id=game_id)
    assert not isinstance(again, engine.RuleError)
    assert again.id == game_id and again.status == "in_progress"
    assert (await service.summary(game_id)).status == "in_progress"


async def test_asked_again_once_ended_nothing_of_the_game_is_written_again(redis, clock):
    """A repeat long after (a script's): the game has ended meanwhile, its end wrote its projections; the answer
    is the game as it is, and its meta hash (an archived game's pointer, later) is not rewritten from the log."""
    player = "g_reserved_ended"
    store = EventStore(redis, clock=clock)
    service = GameService(store, redis)
    game_id = service.new_game_id()
    await service.create_game(player, "wish", {"mode": "standard"}, 8, game_id=game_id, unasked=True)
    await service.submit(player, game_id, "r1", 0, it.ResignIntent())
    await redis.hset(meta_key(game_id), "marker", "kept")  # anything a rewrite from the log would drop
    again = await GameService(store, redis).create_game(player, "wish", {"mode": "standard"}, 8, game_id=game_id)
    assert again.id == game_id and again.status == "abandoned"
    assert await redis.hget(meta_key(game_id), "marker") == b"kept"
