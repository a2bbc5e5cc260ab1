"""Player statistics: a pure projection of finished games (streaks, daily streak, rebuilds)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.tournaments.catalogue import DAY_MS, day_start_ms
from services.games.entries import KINDS
from services.tournaments.statistics import (
    BAD_FACT,
    OUT_OF_ORDER,
    FinishedGame,
    PlayerStats,
    daily_streak_on,
    project,
    record,
)

DAY1 = day_start_ms(dt.date(2026, 12, 1))


def game(n: int, status: str, moves: int = 100, time_ms: int = 60_000, *, at: int | None = None,
         kind: str = "casual", variant: str = "suits=2", day: str | None = None, ranked: bool = False) -> FinishedGame:
    return FinishedGame(f"game-{n}", "spider", variant, status, moves, time_ms, DAY1 + n * 1000 if at is None else at,
                        kind, ranked, day)


def test_counts_best_average_and_winning_streaks():
    statuses = ["won", "won", "lost", "won", "won", "won", "abandoned", "won"]
    stats = project(game(i, s, moves=100 + i, time_ms=1000 * (9 - i)) for i, s in enumerate(statuses))
    two = stats.variants["spider/suits=2"]
    assert (two.played, two.won, two.lost, two.counts.abandoned) == (8, 6, 2, 1)
    assert two.win_rate == 6 / 8
    assert (two.current_streak, two.best_streak) == (1, 3)
    assert (two.counts.best_moves, two.counts.best_time_ms) == (100, 2000)  # from two different games
    assert two.counts.average_moves == pytest.approx((100 + 101 + 103 + 104 + 105 + 107) / 6)
    assert two.counts.average_time_ms == pytest.approx(1000 * (9 + 8 + 6 + 5 + 4 + 2) / 6)


def test_variants_are_apart():
    stats = project([game(1, "won"), game(2, "lost", variant="suits=4"), game(3, "won")])
    assert stats.variants["spider/suits=2"].current_streak == 2
    assert stats.variants["spider/suits=4"].current_streak == 0 and stats.variants["spider/suits=4"].lost == 1


def test_daily_streak_counts_consecutive_days_with_a_finished_ranked_attempt():
    def daily(n, day_index, status="lost", kind="daily", ranked=True):
        return game(n, status, at=DAY1 + day_index * DAY_MS + 5000, kind=kind, ranked=ranked)

    stats = project([daily(1, 0), daily(2, 1, "won"), daily(3, 1), daily(4, 2, "abandoned"), daily(5, 4),
                     daily(6, 5, ranked=False), daily(7, 6, kind="casual"), daily(8, 7, kind="race")])
    assert stats.ranked_days == ("2026-12-01", "2026-12-02", "2026-12-03", "2026-12-05")
    assert (stats.daily_streak, stats.best_daily_streak) == (1, 3)
    assert daily_streak_on(stats, "2026-12-05") == 1 and daily_streak_on(stats, "2026-12-06") == 1
    assert daily_streak_on(stats, "2026-12-07") == 0 and daily_streak_on(PlayerStats(), "2026-12-07") == 0


def test_an_attempt_ended_in_the_grace_hour_counts_for_its_challenge_day():
    # Day 2's attempt finished first (00:10 of day 2); day 1's ended at 00:30 of day 2, in its grace.
    day2 = game(1, "won", at=DAY1 + DAY_MS + 600_000, kind="daily", ranked=True, day="2026-12-02")
    day1 = game(2, "lost", at=DAY1 + DAY_MS + 1_800_000, kind="daily", ranked=True, day="2026-12-01")
    stats = project([day2, day1])
    assert stats.ranked_days == ("2026-12-01", "2026-12-02") and stats.daily_streak == 2


def test_folding_the_same_facts_twice_or_in_another_order_gives_the_same_stats():
    facts = [game(i, s) for i, s in enumerate(["won", "lost", "won", "won", "abandoned"])]
    once = project(facts)
    assert project(facts + facts) == once
    assert project(list(reversed(facts))) == once
    again = record(once, facts[-1])
    assert again == once  # the last fact delivered again
    assert record(once, facts[0]).code == OUT_OF_ORDER  # older: never guessed at


facts = st.builds(
    game,
    st.integers(0, 50),
    st.sampled_from(["won", "lost", "abandoned"]),
    st.integers(0, 500),
    st.integers(0, 10**7),
    kind=st.sampled_from(KINDS),
    variant=st.sampled_from(["suits=1", "suits=2"]),
    ranked=st.booleans(),
)


@given(st.lists(facts, max_size=30, unique_by=lambda f: f.game_id), st.randoms(use_true_random=False))
def test_rebuilds_agree_whatever_the_order(items, rnd):
    shuffled = list(items)
    rnd.shuffle(shuffled)
    assert project(shuffled) == project(items) == project(items + shuffled)
    stats = project(items)
    assert sum(v.played for v in stats.variants.values()) == len(items)
    for v in stats.variants.values():
        assert v.current_streak <= v.best_streak <= v.won


def test_one_game_with_two_different_endings_is_refused():
    assert project([game(1, "won"), game(1, "lost")]).code == BAD_FACT


@pytest.mark.parametrize("bad", [
    game(1, "in_progress"),
    game(1, "won", moves=-1),
    game(1, "won", kind="ranked"),
    game(1, "won", at=-5),
    game(1, "won", day="yesterday"),
    game(1, "won", ranked="yes"),
    FinishedGame("", "spider", "suits=2", "won", 1, 1, 1, "casual"),
    FinishedGame("g", "spider", {"suits": 2}, "won", 1, 1, 1, "casual"),
    FinishedGame("g", "spider", "suits=2", "won", 1, 1, 1, "daily_ranked"),
])
def test_bad_facts_are_refused_and_change_nothing(bad):
    before = project([game(5, "won")])
    assert project([game(5, "won"), bad]).code == BAD_FACT
    assert record(before, bad).code == BAD_FACT
    assert before == project([game(5, "won")])
