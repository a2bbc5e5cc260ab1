"""A player's statistics: a pure projection of their finished games.

Per game and variant: played, won, lost (abandoned counts as lost), win rate, current and best
winning streak, best and average moves and time of won games (engine/stats.py counts those; the
streaks, which depend on order, are kept here). Per player: the daily streak, the consecutive UTC
days with a finished ranked daily attempt (won, lost or abandoned alike).

Facts are taken in finishing order (finished_at_ms, then game id). `project` sorts and removes
repeats first, so rebuilding from the logs in any order, or with a game read twice, gives the same
statistics. `record` adds one fact to stats already built: the last fact counted, given again,
changes nothing; an older one is refused with out_of_order (it may never have been counted, so the
caller rebuilds with `project` rather than guess).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

import msgspec
from msgspec import Struct

from engine.errors import RuleError, rule_error
from engine.stats import VariantStats, check_outcome, tally

from services.games.entries import DAILY, KINDS

from .catalogue import utc_date_of

BAD_FACT, OUT_OF_ORDER = "bad_fact", "out_of_order"


class FinishedGame(Struct, frozen=True):
    """One finished game of one player, as read from its log."""

    game_id: str
    game: str
    variant: str  # the canonical variant text, e.g. "suits=2"
    status: str  # won, lost or abandoned
    moves: int
    time_ms: int  # server-measured
    finished_at_ms: int
    kind: str  # the game log's kind: casual, practice, daily or race
    ranked: bool = False  # the game log's flag: a named account's daily attempt
    challenge_date: str | None = None  # a daily attempt's challenge day (it may end in the next day's grace hour)


class GameVariantStats(Struct, frozen=True):
    counts: VariantStats
    current_streak: int = 0  # wins since the last loss or abandon
    best_streak: int = 0

    @property
    def played(self) -> int:
        return self.counts.games

    @property
    def won(self) -> int:
        return self.counts.wins

    @property
    def lost(self) -> int:
        return self.counts.losses

    @property
    def win_rate(self) -> float | None:
        return self.counts.win_rate


class PlayerStats(Struct, frozen=True):
    variants: dict[str, GameVariantStats] = {}  # by "<game>/<variant>"
    ranked_days: tuple[str, ...] = ()  # sorted UTC dates with a finished ranked daily attempt
    daily_streak: int = 0  # consecutive days ending at the last ranked day
    best_daily_streak: int = 0
    last: tuple[int, str] | None = None  # (finished_at_ms, game_id) of the last fact counted


def fact_problem(fact: FinishedGame) -> str | None:
    if not isinstance(fact, FinishedGame):
        return "not a FinishedGame"
    for name in ("game_id", "game"):
        if not isinstance(getattr(fact, name), str) or not getattr(fact, name):
            return f"a finished game needs a {name}"
    if not isinstance(fact.variant, str):
        return f"variant must be the canonical variant text, not {fact.variant!r}"
    outcome = check_outcome(fact.status, fact.moves, fact.time_ms)
    if outcome:
        return outcome
    if fact.kind not in KINDS:
        return f"kind must be one of {', '.join(KINDS)}, not {fact.kind!r}"
    if not isinstance(fact.ranked, bool):
        return f"ranked must be true or false, not {fact.ranked!r}"
    value = fact.finished_at_ms
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        return f"finished_at_ms must be a whole number of at least 0, not {value!r}"
    if fact.challenge_date is not None:
        try:
            dt.date.fromisoformat(fact.challenge_date)
        except (TypeError, ValueError):
            return f"challenge_date must be a date written YYYY-MM-DD, not {fact.challenge_date!r}"
    return None


def record(stats: PlayerStats, fact: FinishedGame) -> PlayerStats | RuleError:
    """`stats` with one more finished game counted (see the module doc for repeats and order)."""
    problem = fact_problem(fact)
    if problem:
        return rule_error(BAD_FACT, problem)
    position = (fact.finished_at_ms, fact.game_id)
    if stats.last is not None and position <= stats.last:
        if position == stats.last:
            return stats
        return rule_error(OUT_OF_ORDER, f"game {fact.game_id} finished before the last one counted")
    key = f"{fact.game}/{fact.variant}"
    before = stats.variants.get(key) or GameVariantStats(VariantStats(fact.game, fact.variant))
    counts = tally(before.counts, fact.status, fact.moves, fact.time_ms)
    if isinstance(counts, RuleError):
        return rule_error(BAD_FACT, f"game {fact.game_id}: {counts.message}")
    streak = before.current_streak + 1 if fact.status == "won" else 0
    after = GameVariantStats(counts, streak, max(before.best_streak, streak))
    stats = msgspec.structs.replace(stats, variants={**stats.variants, key: after}, last=position)
    if fact.kind == DAILY and fact.ranked:
        stats = _add_ranked_day(stats, fact.challenge_date or utc_date_of(fact.finished_at_ms))
    return stats


def _add_ranked_day(stats: PlayerStats, day: str) -> PlayerStats:
    day = dt.date.fromisoformat(day).isoformat()  # one spelling, so the days sort as dates
    if day in stats.ranked_days:
        return stats
    # A day may arrive after a later one (an attempt ended in the grace hour), so the streaks are
    # counted again over the sorted days rather than stepped on.
    days = tuple(sorted((*stats.ranked_days, day)))
    current = best = 0
    previous: dt.date | None = None
    for text in days:
        date = dt.date.fromisoformat(text)
        current = current + 1 if previous is not None and (date - previous).days == 1 else 1
        best = max(best, current)
        previous = date
    return msgspec.structs.replace(stats, ranked_days=days, daily_streak=current, best_daily_streak=best)


def project(facts: Iterable[FinishedGame]) -> PlayerStats | RuleError:
    """Statistics from all of a player's finished games, in any order, repeats counted once (a game
    given twice with different facts is refused: a log ends only one way)."""
    unique: dict[str, FinishedGame] = {}
    for index, fact in enumerate(facts):
        problem = fact_problem(fact)
        if problem:
            return rule_error(BAD_FACT, f"fact {index}: {problem}")
        if unique.setdefault(fact.game_id, fact) != fact:
            return rule_error(BAD_FACT, f"fact {index}: game {fact.game_id} is given twice with different results")
    stats = PlayerStats()
    for fact in sorted(unique.values(), key=lambda f: (f.finished_at_ms, f.game_id)):
        counted = record(stats, fact)
        if isinstance(counted, RuleError):
            return counted
        stats = counted
    return stats


def daily_streak_on(stats: PlayerStats, today: str) -> int:
    """The daily streak as seen on `today` (a UTC date): it still stands if the last ranked day is
    today or yesterday (today's challenge may still be played), else it is broken (0)."""
    if not stats.ranked_days:
        return 0
    gap = (dt.date.fromisoformat(today) - dt.date.fromisoformat(stats.ranked_days[-1])).days
    return stats.daily_streak if gap in (0, 1) else 0
