"""The human-speed review, pure: why a verified win looks faster or more even than a person plays.

Re-simulation proves a log legal, not that a person made its moves. These rules read only what the
log says about time (its first look and each move's server time) and, where the solver answered,
the length of its winning line for the deal, and name what looks scripted:

- fast_first_move: from the first look to the first move, quicker than a person sees the board and
  answers it;
- fast_moves: the median time between moves below the floor (the old `ARENA_REVIEW_FLOOR_MS`);
- even_tempo: the moves' gaps too regular (their coefficient of variation, spread / mean, below a
  threshold), judged only over enough moves for the spread to mean anything;
- fast_total: the whole game quicker than a person makes the moves the deal needs (the solver's
  line, or the player's own moves when fewer) at a per-move human minimum.

A reason flags the win for an operator's review (it stays ranked, marked, until cleared): it is
never a rejection. So every threshold sits where a fast person does not reach it, and a bot that
reaches none of them plays at a human's pace, which is what a daily's board can ask.

Moves are the player's actions: the entries of one move id are one (the Finish button plays the rest
of a game as one move, its events in one append at one time), so a Finish is never read as a string
of instant moves, while separate moves stay separate however close together they came.
"""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING

from msgspec import Struct

from ..games.record import GameLog

if TYPE_CHECKING:
    from ..runtime.settings import Settings

# Reason codes (stored in the attempt stream and shown on the board: never renamed)
FAST_FIRST_MOVE, FAST_MOVES, EVEN_TEMPO, FAST_TOTAL = "fast_first_move", "fast_moves", "even_tempo", "fast_total"
REASONS = (FAST_FIRST_MOVE, FAST_MOVES, EVEN_TEMPO, FAST_TOTAL)


class ReviewRules(Struct, frozen=True, kw_only=True):
    """The thresholds (services/runtime/settings.py reads each from the environment); 0 turns a rule off.

    Why each default leaves a fast person alone:
    - first move 300 ms: the time runs from the server logging the first look, so it holds the
      board's trip to the browser, its drawing, a person's reaction (a simple visual reaction alone
      takes some 200-250 ms, and finding a move among 8 to 10 top cards longer) and the move's trip
      back; a script answers in the time of a round trip.
    - moves 150 ms median: half of the moves quicker than a click aimed at a card takes.
    - even tempo 0.15 over 12 moves: a person's times spread with the moves' difficulty (an obvious
      pair, then a look around): over a dozen moves the spread is about half the mean or more; a
      script's fixed pause plus the network's jitter stays under a tenth.
    - total 250 ms a move: The Wish's 16 pairs in 4 s is 32 clicks at 8 a second, the pace of a
      clicking-speed test with nothing to look for; the audited script took 2,648 ms.
    """

    first_move_ms: int = 300
    move_floor_ms: int = 150
    even_spread: float = 0.15
    even_moves: int = 12  # gaps between moves needed before the spread is judged
    total_move_ms: int = 250


class MoveStats(Struct, frozen=True):
    """The tempo of a log, as the review reads it (every field from its server times)."""

    fastest_gap_ms: int  # shortest time between two consecutive actions (the first look included)
    median_gap_ms: float
    first_move_ms: int = 0  # first look to first action
    actions: int = 0  # the player's actions: moves, a Finish's events counted once
    spread: float | None = None  # standard deviation / mean of the gaps between actions (None under 2 gaps)
    total_ms: int = 0  # first look to the last action


def action_times(log: GameLog) -> list[int]:
    """The server time of each of the player's actions, in order (consecutive entries of one move id
    are one; entries without one, from older logs, each count)."""
    times: list[int] = []
    previous: str | None = None
    for timed in log.events:
        if not times or timed.move_id is None or timed.move_id != previous:
            times.append(timed.ts_ms)
        previous = timed.move_id
    return times


def move_stats(log: GameLog) -> MoveStats | None:
    if log.shown is None or not log.events:
        return None
    actions = action_times(log)
    times = [log.shown.at_ms, *actions]
    gaps = [later - earlier for earlier, later in zip(times, times[1:])]
    between = gaps[1:]  # the first look's gap is a look at a new deal, not a move's tempo
    spread = None
    if len(between) >= 2:
        mean = statistics.fmean(between)
        spread = statistics.pstdev(between) / mean if mean > 0 else 0.0
    return MoveStats(min(gaps), statistics.median(gaps), gaps[0], len(actions), spread, times[-1] - times[0])


def review_reasons(stats: MoveStats | None, rules: ReviewRules | None, line_moves: int | None = None) -> tuple[str, ...]:
    """The reasons to review a win with these stats, in REASONS' order; () for none. `line_moves`:
    the solver's winning line's length for the deal, None when unknown (then no total check)."""
    if stats is None or rules is None:
        return ()
    reasons = []
    if rules.first_move_ms > 0 and stats.first_move_ms < rules.first_move_ms:
        reasons.append(FAST_FIRST_MOVE)
    if rules.move_floor_ms > 0 and stats.median_gap_ms < rules.move_floor_ms:
        reasons.append(FAST_MOVES)
    if (rules.even_spread > 0 and stats.spread is not None and stats.actions - 1 >= rules.even_moves
            and stats.spread < rules.even_spread):
        reasons.append(EVEN_TEMPO)
    if rules.total_move_ms > 0 and line_moves:
        # The moves the deal needs: the solver's line, or the player's own actions when fewer (a
        # shorter line than the solver's, or a Finish that played several at once).
        needed = min(line_moves, stats.actions)
        if stats.total_ms < needed * rules.total_move_ms:
            reasons.append(FAST_TOTAL)
    return tuple(reasons)


def rules_from(settings: Settings) -> ReviewRules:
    """The review's rules as the settings give them (ARENA_REVIEW_*)."""
    return ReviewRules(
        first_move_ms=settings.review_first_move_ms, move_floor_ms=settings.review_floor_ms,
        even_spread=settings.review_even_spread, even_moves=settings.review_even_moves,
        total_move_ms=settings.review_total_move_ms,
    )
