"""A player's statistics as the HTTP API shows them: rows per game and variant, and the daily streak.

The figures come from the stored projection (stats_store.py), updated by each game that ends and
folded again from the player's games when it is missing, so the same logs always give the same figures.
"""

from __future__ import annotations

from msgspec import Struct

from .catalogue import utc_date_of
from .statistics import daily_streak_on
from .stats_store import StoredStatistics


class StatsRow(Struct, frozen=True):
    game: str
    variant: str
    played: int
    won: int
    lost: int  # abandoned games count as lost
    abandoned: int
    win_rate: float | None
    current_streak: int
    best_streak: int
    best_moves: int | None
    average_moves: float | None
    best_time_ms: int | None
    average_time_ms: float | None


class PlayerStatsView(Struct, frozen=True):
    player_id: str
    rows: list[StatsRow]
    daily_streak: int
    best_daily_streak: int


async def player_stats(stored: StoredStatistics, player_id: str, now_ms: int) -> PlayerStatsView:
    stats = await stored.of(player_id)
    rows = []
    for entry in stats.variants.values():
        c = entry.counts
        rows.append(StatsRow(c.game, c.variant, c.games, c.wins, c.losses, c.abandoned, c.win_rate,
                             entry.current_streak, entry.best_streak, c.best_moves, c.average_moves,
                             c.best_time_ms, c.average_time_ms))
    return PlayerStatsView(player_id, rows, daily_streak_on(stats, utc_date_of(now_ms)), stats.best_daily_streak)
