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


def _tracked_inside(thing, seen: set[int], found: set[str]) -> None:
    """Every object reachable from a struct through its fields, tuples, lists and dicts that is still tracked."""
    if id(thing) in seen:
        return
    seen.add(id(thing))
    if gc.is_tracked(thing):
        found.add(type(thing).__name__)
    if isinstance(thing, (tuple, list)):
        for item in thing:
            _tracked_inside(item, seen, found)
    elif isinstance(thing, dict):
        for key, value in thing.items():
            _tracked_inside(key, seen, found)
            _tracked_inside(value, seen, found)
    elif hasattr(thing, "__struct_fields__"):
        for field in thing.__struct_fields__:
            _tracked_inside(getattr(thing, field), seen, found)


@pytest.mark.parametrize("game", engine.game_ids())
def test_after_one_collection_nothing_inside_a_state_or_its_view_stays_tracked(game):
    """A tuple stays tracked while it holds anything of a type the collector could track (a card of an
    ordinary struct type did): then every pile of every live game was walked by every collection of its
    generation, for as long as the game lived."""
    entry = next(entry for entry in catalog().games if entry.id == game)
    state = _play_a_little(engine.initial_state(game, entry.default_variant, 7))
    legal = engine.legal_moves(state)
    view, events = engine.player_view(state), (engine.play(legal[0], state)[1] if legal else ())
    gc.collect()
    found: set[str] = set()
    for thing in (state, view, *events):
        _tracked_inside(thing, set(), found)
    assert found == set(), f"still tracked after a collection: {sorted(found)}"
