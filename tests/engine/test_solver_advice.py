"""Hints (the next move of a winning line) and the point of no return of a finished game."""

from __future__ import annotations

import random

import engine
from engine.solver import solve
from engine.solver.advice import hint, point_of_no_return


def _after(state, intents):
    for intent in intents:
        state, _ = engine.play(intent, state)
    return state


def test_a_hint_is_the_next_move_of_a_winning_line():
    state = engine.initial_state("wizard", None, 1)
    given = hint(state, 5_000)
    assert given.result == "winnable" and given.move == solve(state, 5_000).line[0]
    assert solve(_after(state, [given.move]), 5_000).winnable


def test_no_winning_line_from_here_is_said_when_proven():
    state = engine.initial_state("wading-pool", None, 1)  # no pile can ever be emptied
    assert hint(state).result == "unwinnable" and hint(state).move is None
    assert hint(engine.initial_state("spider", {"suits": 4}, 1), 50).result == "unknown"


def _random_game(seed: int):
    """A Wish game played at random to its end, from a winnable deal."""
    rng = random.Random(seed)
    start = engine.initial_state("wish", None, 3)
    state, intents = start, []
    while engine.legal_moves(state):
        intent = rng.choice(engine.legal_moves(state))
        intents.append(intent)
        state, _ = engine.play(intent, state)
    return start, intents, state


def test_the_point_of_no_return_is_the_first_move_that_lost_the_game():
    checked = 0
    for seed in range(30):
        start, intents, end = _random_game(seed)
        found = point_of_no_return(start, intents)
        if end.status == engine.WON:
            assert found.result == "never" and found.index is None
            continue
        assert found.result == "found"
        before = _after(start, intents[: found.index])
        after = _after(start, intents[: found.index + 1])
        assert solve(before).winnable and solve(after).result == "unwinnable"
        checked += 1
    assert checked > 5


def test_a_deal_lost_from_the_start_blames_no_move():
    start = engine.initial_state("wading-pool", None, 1)
    intents = engine.legal_moves(start)[:1]
    assert point_of_no_return(start, intents).result == "deal"
