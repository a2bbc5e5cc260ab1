"""The archiver and the read-through: finished games leave Valkey, and read the same from the archive."""

from __future__ import annotations

import msgspec
import pytest

from engine import intents as it
from services.archive.archiver import Archiver
from services.archive.pointer import SWAPPED, pointer_of, swap
from services.games.entries import GameLinks
from services.games.hooks import AllResults
from services.games.model import ARCHIVED
from services.games.secrecy import DealSecrecy
from services.store.keys import archive_counts_key, archive_due_key, log_key, meta_key, moves_key, verdicts_key
from services.validator.public import public_replay
from tests.support.play import IN_PLAY_WISH, lost_wish_line, won_wish
from tests.support.replays import TEST_KEYS as KEYS

pytestmark = pytest.mark.integration


async def resigned(tier, player="g_resigner", **create):
    game = await tier.service.create_game(player, "wish", None, IN_PLAY_WISH, **create)
    await tier.service.open_for(game.id, player)
    tier.clock.tick()
    assert (await tier.service.submit(player, game.id, "resign", 0, it.ResignIntent())).answer.accepted
    return game.id


async def test_a_finished_game_leaves_valkey_and_reads_the_same_from_the_archive(tier):
    won = await won_wish(tier.service, "g_winner", tick=tier.clock.tick)
    gone = await resigned(tier)
    before = {game_id: (await tier.service.summary(game_id), await public_replay(tier.service, game_id, KEYS))
              for game_id in (won.id, gone)}
    assert (await tier.archiver.archive_once()).archived == 0, "the window since the end has not passed"
    tier.clock.tick(61_000)
    assert (await tier.archiver.archive_once()).archived == 1, "the win waits for its verdict"
    await tier.redis.hset(verdicts_key(), won.id, b"verdict")  # the validator's write (its content is not read)
    tier.clock.tick(11 * 60_000)
    assert (await tier.archiver.archive_once()).archived == 1
    for game_id, (summary, replay) in before.items():
        assert not await tier.redis.exists(log_key(game_id), moves_key(game_id)), "the log and move records left"
        assert await pointer_of(tier.redis, game_id) is not None
        pointer_bytes = await tier.redis.memory_usage(meta_key(game_id))
        assert pointer_bytes <= 300, f"what stays in Valkey of a finished game: {pointer_bytes} B"
        other = tier.fresh_service()
        assert await other.summary(game_id) == summary, "from the pointer alone"
        assert await other.rebuild(game_id) is not None and other._summary(other.live.get(game_id)) == summary
        assert msgspec.json.encode(await public_replay(other, game_id, KEYS)) == msgspec.json.encode(replay)
        rebuilt = await other.rebuild(game_id, verify=True)
        assert rebuilt.state == tier.service.live.get(game_id).state, "the archived log proves the same state"
        assert await other.store.version(game_id) == tier.service.live.get(game_id).stream_version
    assert await tier.store.move_result(gone, "resign") is not None, "move records read through as well"
    counts = await tier.redis.hgetall(archive_counts_key())
    assert int(counts[b"archived"]) == 2 and int(counts[b"bytes"]) > 0
    assert await tier.redis.zcard(archive_due_key()) == 0


async def test_a_deal_still_secret_stays_hot_until_it_is_public(tier):
    revealed = {"yes": False}
    tier.archiver.deal_public = _public_when(tier.service, revealed)
    tier.service.secrecy = DealSecrecy(challenge_revealed=lambda key: revealed["yes"])
    daily = await resigned(tier, kind="daily", links=GameLinks(challenge="2023-11-01/wish/mode=standard"))
    tier.clock.tick(3 * 86_400_000)
    assert (await tier.archiver.archive_once()).archived == 0
    assert await tier.redis.exists(log_key(daily)), "an unrevealed challenge's attempt stays hot"
    revealed["yes"] = True
    summary = await tier.service.summary(daily)
    tier.clock.tick(11 * 60_000)
    assert (await tier.archiver.archive_once()).archived == 1
    assert await tier.fresh_service().summary(daily) == summary, "challenge, ranked and all, from the pointer"
    assert await tier.redis.memory_usage(meta_key(daily)) <= 300


def _public_when(service, revealed):
    async def deal_public(created, now_ms):
        return service.secrecy.deal_public(created, True, now_ms)
    return deal_public


async def test_a_loss_an_undo_could_reopen_waits_the_longer_window_and_is_read_only_after(tier):
    seed, line = lost_wish_line()
    game = await tier.service.create_game("g_loser", "wish", {"mode": "standard"}, seed)
    for version, intent in enumerate(line):
        tier.clock.tick()
        assert (await tier.service.submit("g_loser", game.id, f"m{version}", version, intent)).answer.accepted
    tier.clock.tick(61_000)
    assert (await tier.archiver.archive_once()).archived == 0, "an undo may still take it back: the long window"
    tier.clock.tick(600_000)
    assert (await tier.archiver.archive_once()).archived == 1
    other = tier.fresh_service()
    undo = await other.submit("g_loser", game.id, "late-undo", len(line), it.UndoIntent())
    assert not undo.answer.accepted and undo.answer.code == ARCHIVED


async def test_a_game_played_again_before_the_swap_stays_hot(tier):
    game_id = await resigned(tier)
    length = await tier.store.version(game_id)
    summary = await tier.service.summary(game_id)
    assert await swap(tier.redis, summary, length - 1, "0" * 64) == length, "not the log archived"
    assert await tier.redis.exists(log_key(game_id)) and await pointer_of(tier.redis, game_id) is None
    assert await swap(tier.redis, summary, length, "0" * 64) == SWAPPED


async def test_an_archive_that_is_away_leaves_games_hot_and_playable(tier, monkeypatch, tmp_path):
    from services.archive.objects import open_objects

    for name, value in {"AWS_ENDPOINT_URL": "http://127.0.0.1:9", "AWS_ACCESS_KEY_ID": "x",
                        "AWS_SECRET_ACCESS_KEY": "y", "AWS_REGION": "us-east-1"}.items():
        monkeypatch.setenv(name, value)  # nothing listens on the discard port
    away = open_objects("s3://nowhere/arena", timeout_s=0.5)
    archiver = Archiver(tier.redis, away, clock=tier.clock, after_ms=0, lost_after_ms=0)
    game_id = await resigned(tier)
    await archiver.ended(None, game_id, "abandoned", 0, 0, tier.clock())  # type: ignore[arg-type]
    tier.clock.tick()
    done = await archiver.archive_once()
    assert done.archived == 0 and "127.0.0.1:9" in done.failure, done
    assert await tier.redis.exists(log_key(game_id)) and await tier.redis.zscore(archive_due_key(), game_id)
    assert (await tier.fresh_service().summary(game_id)).status == "abandoned"
    tier.clock.tick(61_000)
    assert (await tier.archiver.archive_once()).archived == 1, "the store back: archived on the next pass"


async def test_a_corrupt_object_is_reported_not_served(tier, tmp_path):
    from services.archive.read_through import ArchiveCorrupt

    game_id = await resigned(tier)
    tier.clock.tick(61_000)
    assert (await tier.archiver.archive_once()).archived == 1
    pointer = await pointer_of(tier.redis, game_id)
    path = tmp_path / "archive" / pointer.key
    path.write_bytes(path.read_bytes()[:-5] + b"xxxxx")
    with pytest.raises(ArchiveCorrupt, match="archived object"):
        await tier.fresh_service().rebuild(game_id)
    assert int(await tier.redis.hget(archive_counts_key(), "corrupt")) == 1


async def test_the_projections_rebuilt_keep_archived_games_in_their_players_index(tier):
    from services.games.projections import rebuild_projections
    from services.store.keys import player_games_key

    game_id = await resigned(tier, player="g_rebuilt")
    tier.clock.tick(61_000)
    assert (await tier.archiver.archive_once()).archived == 1
    await tier.redis.delete(player_games_key("g_rebuilt"))
    await rebuild_projections(tier.store, tier.redis)
    assert [g.id for g in await tier.fresh_service().list_games("g_rebuilt")] == [game_id]


async def test_retention_trims_an_archived_guest_game_object_and_all(tier, tmp_path):
    from services.games.retention import DAY_MS, Retention

    retention = Retention(tier.redis, days=30, clock=tier.clock, objects=tier.objects)
    tier.service.results = AllResults(tier.archiver, retention)
    game_id = await resigned(tier, player="g_forgotten")
    tier.clock.tick(61_000)
    assert (await tier.archiver.archive_once()).archived == 1
    path = tmp_path / "archive" / (await pointer_of(tier.redis, game_id)).key
    assert path.exists()
    tier.clock.tick(31 * DAY_MS)
    assert await retention.trim_once() == 1
    assert not path.exists() and not await tier.redis.exists(meta_key(game_id))
    assert await tier.fresh_service().summary(game_id) is None
