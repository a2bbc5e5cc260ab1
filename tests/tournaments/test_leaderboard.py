"""The Redis leaderboard against a real Redis and a real 3-master cluster (one challenge = one slot)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

from services.redis.client import open_redis
from services.store.keys import daily_board_key, daily_counts_key, daily_entries_key, daily_status_key
from services.tournaments.leaderboard import (
    BAD_PAGE,
    BOARD_FINAL,
    NOT_PENDING,
    STILL_PLAYED,
    WRONG_STATUS,
    BoardEntry,
    EntryGate,
    RedisLeaderboard,
)
from tests.fixtures.redis import unique_id

pytestmark = pytest.mark.integration
T0 = 1_796_083_200_000


@pytest.fixture(params=["embedded_redis", "redis_cluster"])
async def board(request) -> AsyncIterator[RedisLeaderboard]:
    client = await open_redis(request.getfixturevalue(request.param).url)
    yield RedisLeaderboard(client)
    await client.aclose()


@pytest.fixture
def challenge() -> str:
    return f"2026-12-01/spider/suits=2#{unique_id('lb')}"  # a fresh board per test


def win(player: str, moves: int, time_ms: int = 1000, finished: int = T0 + 5000) -> BoardEntry:
    return BoardEntry(player, f"game-{player}", "won", moves, time_ms, finished, name=player.upper())


async def verified(board, challenge, entry):
    assert await board.start(challenge, entry.player, True) == "-"
    assert await board.finish(challenge, entry, True) == "playing"
    assert await board.promote(challenge, entry.player) == "pending"


async def test_a_win_is_pending_until_promoted_and_off_the_board_when_removed(board, challenge):
    gate: EntryGate = board  # what the replay verifier is given
    await board.start(challenge, "g_a", True)
    await board.finish(challenge, win("g_a", 90), True)
    assert (await board.page(challenge)).rows == []
    assert (await board.standing(challenge, "g_a")).status == "pending"
    assert await gate.promote(challenge, "g_a") == "pending"
    page = await board.page(challenge)
    assert [(r.rank, r.entry.player, r.entry.name) for r in page.rows] == [(1, "g_a", "G_A")] and page.total == 1
    assert await gate.promote(challenge, "g_a") == "verified"  # delivered twice: no change
    assert await gate.remove(challenge, "g_a") == "verified"
    assert (await board.page(challenge)).total == 0
    assert (await board.standing(challenge, "g_a")).status == "rejected"
    assert (await gate.promote(challenge, "g_a")).code == WRONG_STATUS  # a rejected win never comes back


async def test_losses_and_guests_never_reach_the_board(board, challenge):
    await board.start(challenge, "g_lost", True)
    await board.finish(challenge, BoardEntry("g_lost", "x", "lost", 30, 5, T0), True)
    await board.finish(challenge, BoardEntry("g_quit", "y", "abandoned", 3, 5, T0), True)
    await board.start(challenge, "g_guest", False)
    await board.finish(challenge, win("g_guest", 10), False)
    assert (await board.promote(challenge, "g_lost")).code == NOT_PENDING
    assert (await board.promote(challenge, "g_guest")).code == WRONG_STATUS
    assert (await board.page(challenge)).total == 0
    guest = await board.standing(challenge, "g_guest")
    assert (guest.status, guest.rank, guest.entry.moves) == ("guest_done", None, 10)  # shown as unranked
    counts = await board.counts(challenge)
    assert (counts.players, counts.wins, counts.losses, counts.guests, counts.playing) == (2, 0, 2, 1, 0)
    assert (await board.standing(challenge, "g_nobody")).status is None


async def test_ranks_follow_moves_time_finish_and_ties_share_a_rank(board, challenge):
    entries = [win("g_b", 90, 2000), win("g_a", 90, 1000, T0 + 9), win("g_c", 80, 9000), win("g_d", 90, 1000, T0 + 9),
               win("g_e", 100)]
    for entry in entries:
        await verified(board, challenge, entry)
    page = await board.page(challenge)
    assert [(r.rank, r.entry.player) for r in page.rows] == [(1, "g_c"), (2, "g_a"), (2, "g_d"), (4, "g_b"), (5, "g_e")]
    second = await board.page(challenge, offset=2, limit=2)
    assert [(r.rank, r.entry.player) for r in second.rows] == [(2, "g_d"), (4, "g_b")]  # a tie across the edge
    assert [(await board.standing(challenge, p)).rank for p in ("g_c", "g_a", "g_d", "g_b", "g_e")] == [1, 2, 2, 4, 5]
    assert (await board.page(challenge, offset=5)).rows == []


async def test_pages_match_a_sorted_model_with_many_ties(board, challenge):
    rng = random.Random(7)
    entries = [win(f"g_{i:04d}", rng.randint(50, 60), rng.choice([1000, 2000]), T0 + rng.randint(0, 2)) for i in range(600)]
    for chunk in range(0, len(entries), 100):
        await asyncio.gather(*(verified(board, challenge, e) for e in entries[chunk : chunk + 100]))
    ordered = sorted(entries, key=lambda e: (e.moves, e.time_ms, e.finished_at_ms, e.player))
    keys = [(e.moves, e.time_ms, e.finished_at_ms) for e in ordered]
    expected = [(1 + keys.index(key), e.player) for key, e in zip(keys, ordered)]
    rows = []
    for offset in range(0, 600, 100):
        rows += [(r.rank, r.entry.player) for r in (await board.page(challenge, offset, 100)).rows]
    assert rows == expected
    counts = await board.counts(challenge)
    assert (counts.players, counts.wins, counts.pending) == (600, 600, 0)


async def test_final_board_refuses_changes_and_waits_for_running_and_pending(board, challenge):
    await verified(board, challenge, win("g_a", 90))
    await board.start(challenge, "g_run", True)
    await board.start(challenge, "g_guest", False)
    await board.start(challenge, "g_wait", True)
    await board.finish(challenge, win("g_wait", 70), True)
    refused = await board.finalize(challenge, T0)
    assert refused.code == STILL_PLAYED and "2 attempt(s)" in refused.message and "1 win(s)" in refused.message
    await board.finish(challenge, BoardEntry("g_run", "r", "abandoned", 0, 1, T0), True)
    await board.finish(challenge, BoardEntry("g_guest", "q", "abandoned", 0, 1, T0), False)
    await board.remove(challenge, "g_wait")
    assert await board.finalize(challenge, T0) is True
    assert await board.finalize(challenge, T0 + 1) is False
    assert (await board.page(challenge)).final and (await board.counts(challenge)).final
    assert (await board.start(challenge, "g_new", True)).code == BOARD_FINAL
    assert (await board.remove(challenge, "g_a")).code == BOARD_FINAL
    assert (await board.page(challenge)).total == 1


async def test_bad_pages_are_refused(board, challenge):
    for offset, limit in ((-1, 10), (0, 0), (0, 101), ("0", 10), (0, True)):
        assert (await board.page(challenge, offset, limit)).code == BAD_PAGE


async def test_a_challenges_keys_share_one_cluster_slot(redis_cluster):
    client = await open_redis(redis_cluster.url)
    try:
        key = "2026-12-01/wizard/redeals=None"
        keys = [daily_board_key(key), daily_entries_key(key), daily_status_key(key), daily_counts_key(key)]
        slots = {await client.cluster_keyslot(k) for k in keys}
        assert len(slots) == 1
    finally:
        await client.aclose()
