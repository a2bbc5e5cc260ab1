"""A player's statistics as the HTTP API shows them: folded from their games, as the logs tell them.

The game service reads each game from its log (or its cache of it); `statistics.project` folds the
finished ones, so the same logs always give the same figures.
"""

from __future__ import annotations

from msgspec import Struct

from engine import RuleError
from engine.rules import variant_key

from ..games.service import GameService
from .catalogue import utc_date_of
from .statistics import FinishedGame, daily_streak_on, project

GAMES_READ = 1000  # a player's most recent games the figures cover


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


async def player_stats(service: GameService, player_id: str, now_ms: int) -> PlayerStatsView:
    facts = []
    for summary in await service.list_games(player_id, limit=GAMES_READ):
        if summary.finished_at_ms is None or summary.status not in ("won", "lost", "abandoned"):
            continue  # still in play (a lost game that may still undo is not over)
        facts.append(FinishedGame(
            summary.id, summary.game, variant_key(summary.variant), summary.status, summary.moves,
            summary.elapsed_ms or 0, summary.finished_at_ms, summary.kind, summary.ranked,
            summary.challenge.split("/", 1)[0] if summary.challenge else None,
        ))
    stats = project(facts)
    if isinstance(stats, RuleError):  # facts read from our own logs: a refusal is a bug, said plainly
        raise ValueError(f"statistics of {player_id}: {stats.message}")
    rows = []
    for entry in stats.variants.values():
        c = entry.counts
        rows.append(StatsRow(c.game, c.variant, c.games, c.wins, c.losses, c.abandoned, c.win_rate,
                             entry.current_streak, entry.best_streak, c.best_moves, c.average_moves,
                             c.best_time_ms, c.average_time_ms))
    return PlayerStatsView(player_id, rows, daily_streak_on(stats, utc_date_of(now_ms)), stats.best_daily_streak)
