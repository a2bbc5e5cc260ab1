"""Win/loss statistics per (game, variant): a pure fold over finished-game results.

Statistics count abandoned games as losses (docs/rules/tournaments.md) (they are also counted on their
own); best and average moves and time are taken over won games only. Best moves and best time are each
the best of any won game, so they may come from two different games. Every figure here is independent of
the order of the results (streaks, which are not, are kept by services/tournaments/statistics.py). Bad
input is refused with a RuleError and leaves the statistics as they were (every value here is immutable).
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable

import msgspec
from msgspec import Struct

from .errors import RuleError, rule_error
from .rules import variant_key
from .state import ABANDONED, LOST, WON

BAD_RESULT = "bad_result"
FINISHED_STATUSES = (WON, LOST, ABANDONED)


class GameResult(Struct, frozen=True):
    """One finished game: `time_ms` is the server-measured time from first view to the end."""

    game: str
    variant: dict[str, Any]  # Any: a variant as JSON values; the game's variant_type checks them
    status: str
    moves: int
    time_ms: int


class VariantStats(Struct, frozen=True):
    """The statistics of one game and variant. Totals are kept so averages stay exact."""

    game: str
    variant: str  # canonical text: sorted name=value pairs, e.g. "suits=2"
    games: int = 0
    wins: int = 0
    losses: int = 0  # lost + abandoned
    abandoned: int = 0
    best_moves: int | None = None
    best_time_ms: int | None = None
    won_moves_total: int = 0
    won_time_ms_total: int = 0

    @property
    def average_moves(self) -> float | None:
        return self.won_moves_total / self.wins if self.wins else None

    @property
    def average_time_ms(self) -> float | None:
        return self.won_time_ms_total / self.wins if self.wins else None

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None


StatsTable = dict[tuple[str, str], VariantStats]


def check_result(result: GameResult) -> str | None:
    """Why a result cannot be counted, or None."""
    if not isinstance(result.game, str) or not result.game:
        return "a result needs a game id"
    if not isinstance(result.variant, dict):
        return f"variant must be a mapping, not {result.variant!r}"
    return check_outcome(result.status, result.moves, result.time_ms)


def check_outcome(status: str, moves: int, time_ms: int) -> str | None:
    """Why a finished game's status, moves and time cannot be counted, or None."""
    if status not in FINISHED_STATUSES:
        return f"only finished games count: status must be won, lost or abandoned, not {status!r}"
    for name, value in (("moves", moves), ("time_ms", time_ms)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return f"{name} must be a whole number of at least 0, not {value!r}"
    return None


def record(stats: VariantStats, result: GameResult) -> VariantStats | RuleError:
    """`stats` with one more finished game of its own game and variant counted."""
    problem = check_result(result)
    if problem is None and (result.game, variant_key(result.variant)) != (stats.game, stats.variant):
        problem = f"result of {result.game} {variant_key(result.variant)!r} given to {stats.game} {stats.variant!r}"
    if problem:
        return rule_error(BAD_RESULT, problem)
    return tally(stats, result.status, result.moves, result.time_ms)


def tally(stats: VariantStats, status: str, moves: int, time_ms: int) -> VariantStats | RuleError:
    """`stats` with one more finished game counted, for a caller that already holds the game and
    variant as `stats` names them (a projection keyed by the canonical variant text)."""
    problem = check_outcome(status, moves, time_ms)
    if problem:
        return rule_error(BAD_RESULT, problem)
    games = stats.games + 1
    if status != WON:
        abandoned = stats.abandoned + (status == ABANDONED)
        return msgspec.structs.replace(stats, games=games, losses=stats.losses + 1, abandoned=abandoned)
    return msgspec.structs.replace(
        stats,
        games=games,
        wins=stats.wins + 1,
        best_moves=moves if stats.best_moves is None else min(stats.best_moves, moves),
        best_time_ms=time_ms if stats.best_time_ms is None else min(stats.best_time_ms, time_ms),
        won_moves_total=stats.won_moves_total + moves,
        won_time_ms_total=stats.won_time_ms_total + time_ms,
    )


def fold_results(results: Iterable[GameResult], table: StatsTable | None = None) -> StatsTable | RuleError:
    """A new table with every result counted, or the first bad result's error (the table unchanged)."""
    out = dict(table or {})
    for index, result in enumerate(results):
        problem = check_result(result) if isinstance(result, GameResult) else "not a GameResult"
        if problem:
            return rule_error(BAD_RESULT, f"result {index}: {problem}")
        key = (result.game, variant_key(result.variant))
        counted = record(out.get(key) or VariantStats(*key), result)
        assert not isinstance(counted, RuleError), counted
        out[key] = counted
    return out
