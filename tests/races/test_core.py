"""The race decider, pure: lobby rules, the countdown, the start, finishes, the end, the results."""

from __future__ import annotations

import msgspec

from services.races import core
from services.races.commands import (
    CheckWin, DealGames, Finish, Join, Leave, Presence, RaceError, Rematch, SetReady, SignalStart, StartCountdown,
    TimeUp,
)
from services.races.core import decide
from services.races.view import public_view
from tests.races.samples import SEED, T0, lobby, run

FOUR = ("p1", "p2", "p3", "p4")


def started(players=FOUR) -> core.RaceState:
    state = lobby(*players)
    state = run(state, StartCountdown(players[0]))
    state = run(state, DealGames({p: f"g-{p}" for p in players}))
    return run(state, SignalStart(), state.start_at_ms)


def finish(state, player, result="won", moves=50, time_ms=9_000):
    return run(state, Finish(player, f"g-{player}", result, moves, time_ms, state.start_at_ms + time_ms), T0 + 10_000)


def test_a_full_race_refuses_another_racer_and_eight_is_the_most_there_is():
    state = lobby("p1", "p2", seats=2)
    refused = decide(Join("p3"), state, T0)
    assert isinstance(refused, RaceError) and refused.code == core.RACE_FULL
    eight = lobby(*(f"p{i}" for i in range(1, 9)), seats=8)
    assert len(eight.seated) == 8
    ninth = decide(Join("p9"), eight, T0)
    assert isinstance(ninth, RaceError) and ninth.code == core.RACE_FULL


def test_joining_twice_changes_nothing_and_a_started_race_takes_nobody():
    state = lobby("p1", "p2")
    assert decide(Join("p2"), state, T0) == []
    state = run(state, StartCountdown("p1"))
    for command in (Join("p5"), Leave("p2"), SetReady("p2", True)):
        refused = decide(command, state, T0)
        assert isinstance(refused, RaceError) and refused.code == core.RACE_STARTED


def test_the_countdown_starts_when_every_seat_is_ready_and_at_least_two_sit():
    state = lobby("p1")
    state = run(state, SetReady("p1", True))
    assert state.status == core.LOBBY  # alone: no race
    state = run(state, Join("p2"), T0 + 5)
    state = run(state, SetReady("p2", True), T0 + 10)
    assert state.status == core.COUNTDOWN and state.start_at_ms == T0 + 10 + 3_000
    assert state.countdown.by == "all_ready"


def test_only_the_host_starts_early_and_only_with_two():
    state = lobby("p1")
    assert decide(StartCountdown("p1"), state, T0).code == core.TOO_FEW
    state = run(state, Join("p2"))
    assert decide(StartCountdown("p2"), state, T0).code == core.NOT_HOST
    assert run(state, StartCountdown("p1")).status == core.COUNTDOWN


def test_the_host_leaving_passes_the_host_on_and_the_last_one_out_ends_the_race():
    state = run(lobby("p1", "p2"), Leave("p1"))
    assert state.host == "p2" and state.seated == ("p2",)
    state = run(state, Leave("p2"))
    assert state.status == core.ENDED and state.ended.reason == "emptied"


def test_the_start_waits_for_the_signal_and_the_games():
    state = run(lobby("p1", "p2"), StartCountdown("p1"))
    assert decide(SignalStart(), state, state.start_at_ms) == []  # no games yet
    state = run(state, DealGames({"p1": "g-p1", "p2": "g-p2"}))
    assert decide(SignalStart(), state, state.start_at_ms - 1) == []
    [event] = decide(SignalStart(), state, state.start_at_ms + 250)
    assert event.at_ms == state.start_at_ms  # the signal's time, not when a process noticed


def test_results_rank_wins_by_time_then_moves_and_are_final_once_each_win_is_checked():
    state = started()
    state = finish(state, "p1", "won", 80, 9_000)
    state = finish(state, "p2", "won", 70, 9_000)
    state = finish(state, "p3", "lost", 10, 2_000)
    assert state.status == core.STARTED
    state = finish(state, "p4", "won", 90, 5_000)
    assert state.status == core.ENDED and state.ended.reason == "all_finished"
    assert [(s.player, s.place) for s in public_view(state).standings] == [("p4", 1), ("p2", 2), ("p1", 3), ("p3", 4)]
    state = run(state, CheckWin("p4", "g-p4", True, ""))
    state = run(state, CheckWin("p2", "g-p2", False, "illegal_event"))
    assert state.status == core.ENDED
    state = run(state, CheckWin("p1", "g-p1", True, ""))
    assert state.status == core.FINAL
    final = [(s.player, s.place, s.result) for s in state.final.standings]
    assert final == [("p4", 1, "won"), ("p1", 2, "won"), ("p3", 3, "lost"), ("p2", 4, "rejected")]


def test_the_time_limit_ends_the_race_and_a_late_finish_does_not_count():
    state = started()
    state = finish(state, "p1", "won", 50, 9_000)
    deadline = state.deadline_ms
    assert decide(TimeUp(), state, deadline - 1) == []
    late = decide(Finish("p2", "g-p2", "won", 40, 600_001, deadline + 1), state, deadline + 5)
    assert [type(e).__name__ for e in late] == ["RaceEnded"] and late[0].at_ms == deadline
    state = run(state, TimeUp(), deadline + 30)
    assert state.ended.at_ms == deadline and state.ended.reason == "time_limit"
    state = run(state, CheckWin("p1", "g-p1", True, ""))
    assert [(s.player, s.place, s.result) for s in state.final.standings] == [
        ("p1", 1, "won"), ("p2", 2, "timed_out"), ("p3", 2, "timed_out"), ("p4", 2, "timed_out")]


def test_a_finish_of_a_game_that_is_not_the_racers_is_ignored():
    state = started()
    assert decide(Finish("p1", "g-someone-else", "won", 5, 1_000, T0 + 5_000), state, T0 + 5_000) == []
    assert decide(Finish("stranger", "g-p1", "won", 5, 1_000, T0 + 5_000), state, T0 + 5_000) == []


def test_presence_is_logged_only_when_it_changes_during_the_race():
    state = started()
    state = run(state, Presence("p2", False))
    assert public_view(state).racers[1].connected is False
    assert decide(Presence("p2", False), state, T0) == []
    assert run(state, Presence("p2", True)).away == frozenset()


def test_the_view_keeps_the_seed_until_the_end_and_game_ids_until_the_start():
    state = run(lobby("p1", "p2"), StartCountdown("p1"))
    state = run(state, DealGames({"p1": "g-p1", "p2": "g-p2"}))
    for shown in (public_view(lobby("p1", "p2")), public_view(state)):
        text = msgspec.json.encode(shown).decode()
        assert str(SEED) not in text and "5a5a" not in text and "g-p1" not in text
    state = run(state, SignalStart(), state.start_at_ms)
    assert public_view(state).racers[0].game_id == "g-p1" and public_view(state).seed is None
    state = run(state, TimeUp(), state.deadline_ms)
    view = public_view(state)
    assert view.seed == SEED and view.salt == "5a" * 16


def test_a_rematch_is_made_once_after_the_end_by_a_racer():
    state = started(("p1", "p2"))
    assert decide(Rematch("p1", "r2"), state, T0).code == core.NOT_OVER
    state = run(state, TimeUp(), state.deadline_ms)
    assert decide(Rematch("stranger", "r2"), state, T0).code == core.NOT_SEATED
    state = run(state, Rematch("p2", "r2"))
    assert state.rematch == "r2" and decide(Rematch("p1", "r3"), state, T0) == []
