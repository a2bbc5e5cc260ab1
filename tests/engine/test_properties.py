"""Properties every game must keep, run over random seeds and random legal play."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine.errors import RuleError
from engine.intents import ResignIntent, UndoIntent
from tests.strategies import any_intent, random_games, registered_variants

CASES = registered_variants()
IDS = [f"{game}-{msgspec.json.encode(variant).decode()}" for game, variant in CASES]


def _shown_ids(value) -> set[int]:
    """Ids of every card the view names anywhere (piles, info, legal moves), as the wire carries it."""
    if isinstance(value, (list, tuple)):
        return set().union(*map(_shown_ids, value))
    if not isinstance(value, dict):
        return set()
    own = {value["id"]} if {"id", "rank", "suit"} <= value.keys() else set()
    if value.get("type") == "luck":
        own.add(value["card"])
    return own.union(*map(_shown_ids, value.values()))


@pytest.mark.parametrize(("game", "variant"), CASES, ids=IDS)
@given(data=st.data())
def test_replay_of_the_events_equals_live_play(game, variant, data):
    start, steps, final = data.draw(random_games(game, variant, resign=True))
    events = [event for _, step_events in steps for event in step_events]
    result = engine.replay(game, variant, start.seed, events)
    assert result.ok, result.error
    assert result.state == final
    assert engine.fold(start, events) == final


@pytest.mark.parametrize(("game", "variant"), CASES, ids=IDS)
@given(data=st.data())
def test_legal_moves_and_decide_agree(game, variant, data):
    """In every status, undo and resign included: listed means accepted, accepted means listed."""
    _, _, state = data.draw(random_games(game, variant, resign=True))
    legal = engine.legal_moves(state)
    for intent in legal:
        assert not isinstance(engine.decide(intent, state), RuleError), intent
    for probe in (data.draw(any_intent), UndoIntent(), ResignIntent()):
        decided = engine.decide(probe, state)
        if isinstance(decided, RuleError):
            assert decided.message and decided.code
            assert probe not in legal
        else:
            assert probe in legal or _same_move_other_order(probe, legal), probe


@pytest.mark.parametrize(("game", "variant"), CASES, ids=IDS)
@given(data=st.data())
def test_resign_is_listed_exactly_while_in_play_and_undo_exactly_while_it_can_take_something_back(
    game, variant, data
):
    _, _, state = data.draw(random_games(game, variant, resign=True))
    legal = engine.legal_moves(state)
    assert (ResignIntent() in legal) == (state.status == engine.IN_PROGRESS)
    has_undo = engine.rules_for(game).has_undo
    assert (UndoIntent() in legal) == (has_undo and bool(state.history) and state.status != engine.WON
                                       and state.status != engine.ABANDONED)
    if ResignIntent() in legal:
        assert legal[-1] == ResignIntent()  # last: a caller taking the first move never gives up
    view = engine.player_view(state)
    assert list(view.legal) == legal


def _same_move_other_order(probe, legal) -> bool:
    return isinstance(probe, engine.intents.PairIntent) and engine.intents.PairIntent(probe.b, probe.a) in legal


@pytest.mark.parametrize(("game", "variant"), CASES, ids=IDS)
@given(data=st.data())
def test_no_view_ever_shows_a_hidden_card(game, variant, data):
    start, steps, _ = data.draw(random_games(game, variant))
    state = start
    for _, events in [(None, [])] + steps:
        for event in events:
            state = engine.evolve(state, event)
        view = engine.player_view(state)
        hidden = engine.hidden_cards(state)
        assert not (_shown_ids(msgspec.to_builtins(view)) & hidden)
