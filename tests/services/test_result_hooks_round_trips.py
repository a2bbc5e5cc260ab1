"""A game's creation and end: the results hooks that only write a key or two (the validator's
unsettled set, the retention and archive indexes) ride in the pipeline of the game's own meta hash,
so they add no round trip; a win is still submitted to the validator before it leaves the unsettled
set. On a real Redis, through the service, counting the round trips of one client all of them share."""

from __future__ import annotations

import pytest

import engine
from engine import intents as it
from services.archive.archiver import Archiver
from services.archive.objects import open_objects
from services.games.hooks import AllResults, NoResults
from services.games.retention import Retention
from services.games.model import meta_key, player_games_key
from services.games.service import GameService
from services.redis.lean_commands import LeanCommands
from services.redis.lean_link import LeanLink
from services.store import EventStore
from services.store.keys import archive_due_key, retention_key, unsettled_key
from services.validator.queue import ValidatorQueue
from services.validator.submitter import Submitter
from tests.support.play import won_wish
from tests.support.round_trips import RoundTrips

pytestmark = pytest.mark.integration


class Told:
    """A hook with more to do than queue writes: told as before, after the pipeline."""

    def __init__(self) -> None:
        self.games_opened: list[str] = []
        self.games_ended: list[tuple[str, str]] = []

    async def opened(self, created, game_id, at_ms) -> None:
        self.games_opened.append(game_id)

    async def ended(self, created, game_id, status, moves, time_ms, at_ms) -> None:
        self.games_ended.append((game_id, status))


def stack(redis, clock, tmp_path, *, hooks: bool):
    trips = RoundTrips(redis)
    store = EventStore(redis, clock=clock)
    told = Told()
    results = NoResults()
    submitter = None
    if hooks:
        submitter = Submitter(ValidatorQueue(trips, store), store)
        archiver = Archiver(trips, open_objects((tmp_path / "archive").as_uri(), timeout_s=5), clock=clock,
                            after_ms=1_000, lost_after_ms=2_000)
        results = AllResults(submitter, Retention(trips, days=30, clock=clock), archiver, told)
    return GameService(store, trips, results=results), trips, told


async def resigned_game(service: GameService, trips: RoundTrips, player: str, seed: int) -> tuple[str, int, int]:
    """A casual Wish game made and resigned: its id and the round trips of each (creation, end)."""
    before = trips.count
    game = await service.create_game(player, "wish", {"mode": "standard"}, seed)
    assert not isinstance(game, engine.RuleError), game
    made = trips.count - before
    await service.open_for(game.id, player)
    before = trips.count
    version = service.live.get(game.id).version
    answer = (await service.submit(player, game.id, "resign", version, it.ResignIntent())).answer
    assert answer.accepted, answer
    return game.id, made, trips.count - before


async def test_the_hooks_that_only_write_add_no_round_trip(redis, clock, tmp_path):
    plain, plain_trips, _ = stack(redis, clock, tmp_path, hooks=False)
    hooked, hooked_trips, told = stack(redis, clock, tmp_path, hooks=True)
    _, made_plain, ended_plain = await resigned_game(plain, plain_trips, "g_plain_hooks", 11)
    game_id, made, ended = await resigned_game(hooked, hooked_trips, "g_with_hooks", 11)
    assert (made, ended) == (made_plain, ended_plain)
    # ...and every one of their writes was made: in the unsettled set while open, out of it at the end,
    # in the retention and archive indexes; the hook with more to do was told both times, once.
    assert await redis.zscore(unsettled_key(), game_id) is None
    assert await redis.zscore(retention_key(), game_id) is not None
    assert await redis.zscore(archive_due_key(), game_id) == clock.now + 1_000
    assert told.games_opened == [game_id] and told.games_ended == [(game_id, "abandoned")]


async def test_a_game_in_play_is_in_the_unsettled_set(redis, clock, tmp_path):
    service, _, _ = stack(redis, clock, tmp_path, hooks=True)
    game = await service.create_game("g_open_hooks", "wish", {"mode": "standard"}, 12)
    assert await redis.zscore(unsettled_key(), game.id) == clock.now


async def test_a_win_is_submitted_before_it_leaves_the_unsettled_set(redis, clock, tmp_path):
    service, _, told = stack(redis, clock, tmp_path, hooks=True)
    submissions = []
    submitter = service.results.hooks[0]
    real_submit = submitter.queue.submit

    async def submit(submission):
        submissions.append((submission.game_id, await redis.zscore(unsettled_key(), submission.game_id)))
        await real_submit(submission)

    submitter.queue.submit = submit
    game = await won_wish(service, "g_winner_hooks")
    assert submissions and submissions[0][0] == game.id and submissions[0][1] is not None  # still unsettled then
    assert await redis.zscore(unsettled_key(), game.id) is None
    assert told.games_ended == [(game.id, "won")]


async def test_over_the_lean_link_a_game_is_made_and_ended_with_nothing_through_redis_py(redis, clock, tmp_path):
    service, trips, told = stack(redis, clock, tmp_path, hooks=True)
    link = LeanLink(redis, reply_timeout=5)
    service.lean = LeanCommands(trips, link)  # redis-py (counted) only for what the link cannot carry
    game_id, made, ended = await resigned_game(service, trips, "g_lean_hooks", 13)
    assert (made, ended) == (0, 0)
    assert link.round_trips >= 3  # the recent games read and the creation's writes; the end's writes
    # ...and every write was made, the hooks' too.
    assert await redis.hget(meta_key(game_id), "status") == b"abandoned"
    assert await redis.zscore(player_games_key("g_lean_hooks"), game_id) == clock.now
    assert await redis.zscore(unsettled_key(), game_id) is None
    assert await redis.zscore(retention_key(), game_id) is not None
    assert await redis.zscore(archive_due_key(), game_id) == clock.now + 1_000
    assert told.games_opened == [game_id] and told.games_ended == [(game_id, "abandoned")]
    await link.aclose()
