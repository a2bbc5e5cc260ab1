"""Long games: a replay of thousands of actions rebuilds the same state and compares equal."""

from __future__ import annotations

import random

import engine
from engine.intents import UndoIntent
from tests.strategies import forward_moves


def test_a_long_spider_game_with_undos_replays_to_an_equal_state():
    # Guards the undo history's shape: a nested (linked) history would make == recurse once per
    # move and raise RecursionError on a game this long.
    rng = random.Random(7)
    state = engine.initial_state("spider", {"suits": 1}, 5)
    events = []
    for _ in range(3000):
        options = forward_moves(state) or [UndoIntent()]
        if state.history and rng.random() < 0.1:
            options = [UndoIntent()]
        state, step = engine.play(rng.choice(options), state)
        events += step
    result = engine.replay("spider", {"suits": 1}, 5, events)
    assert result.ok, result.error
    assert result.state == state
    assert state.undos > 0 and len(events) == 3000
