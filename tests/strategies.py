"""Hypothesis strategies shared by the engine, service and gateway tests."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

import engine
from engine import intents as it


def game_variants(game: str) -> list[dict[str, Any]]:
    """The variants the shared property tests exercise for a game: its presets, the catalogue's."""
    return [dict(preset.variant) for entry in engine.catalog().games if entry.id == game for preset in entry.presets]


def registered_variants() -> list[tuple[str, dict[str, Any]]]:
    """(game, variant) for every preset of every registered game, read when called: a game added to
    the registry (or registered by a test) is covered by every suite built on this, with no list here."""
    return [(entry.id, dict(preset.variant)) for entry in engine.catalog().games for preset in entry.presets]


def forward_moves(state: engine.GameState) -> list[engine.AnyIntent]:
    """The legal moves a random player picks from: the listed ones but undo and resign. Resign would
    end the game at once; undo is mixed in at a rate of its own where a test wants it."""
    return [i for i in engine.legal_moves(state) if not isinstance(i, (it.UndoIntent, it.ResignIntent))]


seeds = st.integers(min_value=0, max_value=2**64 - 1)
pile_names = st.sampled_from(["t0", "t1", "t5", "t9", "t12", "f0", "f6", "waste", "stock", "x", ""])

# Any intent a client could send, legal or not.
any_intent = st.one_of(
    st.builds(it.PairIntent, st.integers(-2, 14), st.integers(-2, 14)),
    st.builds(it.MoveIntent, pile_names, pile_names, st.integers(-1, 14)),
    st.just(it.DealIntent()),
    st.just(it.RecycleIntent()),
    st.just(it.CastIntent()),
    st.builds(it.LuckIntent, st.integers(-1, 105), pile_names),
    st.just(it.UndoIntent()),
)


@st.composite
def random_games(draw, game: str, variant: dict[str, Any], max_moves: int = 60, resign: bool = False):
    """A deal and a random legal line of play: (initial state, [(intent, events)], final state).

    Undo (where the game has it) is mixed in at random, so replays cover undo too.
    """
    start = engine.initial_state(game, variant, draw(seeds))
    assert isinstance(start, engine.GameState), start
    state, steps = start, []
    for _ in range(draw(st.integers(0, max_moves))):
        options = forward_moves(state)
        if state.history and draw(st.integers(0, 9)) == 0:
            options = [it.UndoIntent()]
        if not options:
            break
        intent = options[draw(st.integers(0, len(options) - 1))]
        result = engine.play(intent, state)
        assert not isinstance(result, engine.RuleError), (intent, result)
        state, events = result
        steps.append((intent, events))
    if resign and state.status == engine.IN_PROGRESS and draw(st.booleans()):
        state, events = engine.play(it.ResignIntent(), state)
        steps.append((it.ResignIntent(), events))
    return start, steps, state
