"""The engine's per-move objects stay out of the cycle collector (engine/state.py says why): a struct
made with `gc=False` is never tracked, whatever it holds. A new struct type on the move path that forgets
it shows up here, for every game of the registry."""

from __future__ import annotations

import gc

import pytest

import engine
from engine.catalog import catalog


def _play_a_little(state, moves: int = 6):
    for _ in range(moves):
        legal = [m for m in engine.legal_moves(state) if type(m).__name__ not in ("ResignIntent", "UndoIntent")]
        if not legal or engine.is_over(state):
            return state
        state, events = engine.play(legal[0], state)
        assert not any(gc.is_tracked(event) for event in events)
    return state


@pytest.mark.parametrize("game", engine.game_ids())
def test_states_boards_piles_views_and_intents_are_not_tracked(game):
    entry = next(entry for entry in catalog().games if entry.id == game)
    state = _play_a_little(engine.initial_state(game, entry.default_variant, 7))
    view = engine.player_view(state)
    board_piles = [value for value in (getattr(state.board, f) for f in state.board.__struct_fields__)
                   if isinstance(value, tuple)]
    objects = [state, state.board, view, *view.piles, *view.actions, *engine.legal_moves(state)]
    objects += [pile for piles in board_piles for pile in piles if hasattr(pile, "__struct_fields__")]
    tracked = sorted({type(thing).__name__ for thing in objects if gc.is_tracked(thing)})
    assert tracked == [], f"tracked by the cycle collector: {tracked}"
