"""The human-speed review's rules on real Wish logs: the engine's own events for the solver's line, stamped
with the times a script or a person would have made them at, checked as the validator checks a win."""

from __future__ import annotations

import asyncio
import itertools

import engine
from engine.solver import solve
from services.games.entries import DAILY, GameCreated, GameShown
from services.games.record import GameLog, TimedEvent, start_state
from services.validator.review import (
    EVEN_TEMPO, FAST_FIRST_MOVE, FAST_MOVES, FAST_TOTAL, ReviewRules, move_stats, review_reasons,
)
from services.validator.solver_lines import SolverLines, line_length
from services.validator.verdict import Claim, check_log

SHOWN = 1_000_000
RULES = ReviewRules()


def wish_log(seed: int, gaps: list[int]) -> tuple[GameLog, int]:
    """A won Wish log: the solver's line, move k stamped `gaps[k]` after the one before (the first after the
    first look; a gap of None puts a move in the same append as the one before, as the Finish button does)."""
    created = GameCreated("wish", {"mode": "standard"}, seed, "g_player", SHOWN - 5_000, kind=DAILY, ranked=True)
    state = start_state(created)
    line = solve(state).line
    assert len(gaps) == len(line), f"the line has {len(line)} moves"
    times = list(itertools.accumulate((gap or 0 for gap in gaps), initial=SHOWN))[1:]
    move_ids = list(itertools.accumulate((gap is not None for gap in gaps), initial=0))[1:]
    events = []
    for n, (intent, at, move) in enumerate(zip(line, times, move_ids)):
        decided = engine.decide(intent, state)
        assert not isinstance(decided, engine.RuleError), decided
        for event in decided:
            state = engine.evolve(state, event)
            events.append(TimedEvent(event, n + 3, at, f"m{move}"))
    assert state.status == engine.WON
    log = GameLog(created, GameShown(SHOWN, "g_player"), tuple(events), len(events) + 2)
    return log, times[-1] - SHOWN


def verdict_of(log: GameLog, time_ms: int, line_moves: int | None = 16):
    claim = Claim("game", "g_player", len(log.events), time_ms)
    return check_log(log, claim, review=RULES, line_moves=line_moves)


# The audit's line: a fresh account's script won The Wish's 16 pairs in 2,648 ms from the first look,
# a move every ~165 ms, give or take the network's few ms: above the old 150 ms floor.
AUDIT_GAPS = [180, 166, 161, 170, 163, 168, 159, 167, 164, 171, 160, 166, 162, 169, 165, 157]
# A person: a look at the deal, then moves as each is found, 1 to 4 s apart.
HUMAN_GAPS = [2300, 1200, 3400, 1800, 2600, 1100, 3900, 1500, 2200, 1300, 2900, 1700, 3100, 1000, 2400, 1600]


def test_the_audited_script_is_flagged_though_its_median_is_above_the_floor():
    log, time_ms = wish_log(7, AUDIT_GAPS)
    assert time_ms == 2_648
    verdict = verdict_of(log, time_ms)
    assert verdict.verified and verdict.flagged
    assert verdict.review == (FAST_FIRST_MOVE, EVEN_TEMPO, FAST_TOTAL)  # not fast_moves: 165 ms > 150 ms
    stats = verdict.stats
    assert stats.first_move_ms == 180 and stats.actions == 16 and stats.total_ms == 2_648
    assert stats.median_gap_ms > RULES.move_floor_ms and stats.spread < 0.05


def test_a_script_waiting_a_human_first_look_is_still_even_and_too_quick_in_total():
    log, time_ms = wish_log(7, [1_400, *AUDIT_GAPS[1:]])
    assert verdict_of(log, time_ms).review == (EVEN_TEMPO, FAST_TOTAL)


def test_a_human_paced_win_is_not_flagged():
    log, time_ms = wish_log(7, HUMAN_GAPS)
    verdict = verdict_of(log, time_ms)
    assert verdict.verified and not verdict.flagged and verdict.review == ()
    assert verdict.stats.spread > 0.3


def test_a_fast_human_with_the_finish_button_is_not_flagged():
    """Ten pairs found quickly (0.4 to 1.3 s), then Finish plays the last six in one append: the six are one
    action, not five instant moves that would pull the median under the floor."""
    gaps = [900, 450, 1300, 600, 400, 1100, 500, 800, 700, 1200, 650, None, None, None, None, None]
    log, time_ms = wish_log(7, gaps)
    verdict = verdict_of(log, time_ms)
    assert verdict.stats.actions == 11 and verdict.stats.median_gap_ms == 700 and verdict.review == ()


def test_moves_sent_at_once_are_each_a_move():
    """A script that waits a second, then sends its 16 moves in one burst the server stamps in one ms: each
    is a move of its own (its own move id): instant, even, and too quick in total."""
    log, time_ms = wish_log(7, [1_000] + [0] * 15)
    verdict = verdict_of(log, time_ms)
    assert verdict.stats.actions == 16 and verdict.review == (FAST_MOVES, EVEN_TEMPO, FAST_TOTAL)


def test_each_rule_alone():
    quick_look = [120] + [1_000 + 250 * (n % 5) for n in range(15)]
    assert review_reasons(move_stats(wish_log(7, quick_look)[0]), RULES, 16) == (FAST_FIRST_MOVE,)
    rapid = [800] + [60 + 60 * (n % 3) for n in range(15)]  # uneven, but most under 150 ms
    reasons = review_reasons(move_stats(wish_log(7, rapid)[0]), RULES, 16)
    assert FAST_MOVES in reasons and EVEN_TEMPO not in reasons
    metronome = [1_500] + [700] * 15
    assert review_reasons(move_stats(wish_log(7, metronome)[0]), RULES, 16) == (EVEN_TEMPO,)


def test_even_tempo_needs_enough_moves_and_fast_total_a_known_line():
    stats = move_stats(wish_log(7, AUDIT_GAPS)[0])
    few = ReviewRules(even_moves=16)  # 15 gaps between the 16 moves: too few to judge
    assert EVEN_TEMPO not in review_reasons(stats, few, 16)
    assert FAST_TOTAL not in review_reasons(stats, RULES, None)  # the solver had no answer: no length check
    assert review_reasons(stats, None, 16) == ()  # no review at all
    off = ReviewRules(first_move_ms=0, move_floor_ms=0, even_spread=0, total_move_ms=0)
    assert review_reasons(stats, off, 16) == ()


def test_the_line_length_is_the_solvers_and_solved_once_per_deal():
    created = wish_log(7, HUMAN_GAPS)[0].created
    assert line_length(created) == 16  # The Wish: 32 cards, 16 pairs

    asked: list[int] = []

    async def counted(created: GameCreated) -> int | None:
        asked.append(created.seed)
        return line_length(created)

    async def run() -> list[int | None]:
        lines = SolverLines(counted)
        casual = GameCreated("wish", {"mode": "standard"}, 7, "g_player", 0)
        return [await lines(created), await lines(created), await lines(casual)]

    assert asyncio.run(run()) == [16, 16, None]  # a casual game is never looked up
    assert asked == [7]
