"""Update frames as changes: over random play of every registered game, a delta applied to the view at its
base gives exactly the view at its version (as the server's structs and as a client's decoded JSON), shows
no card or intent that view does not (so none the engine hides), and gives way to the whole snapshot where
a delta could leave something stale."""

from __future__ import annotations

import json

import msgspec
import pytest
from hypothesis import given, settings, strategies as st

import engine
from services.games.model import Snapshot
from services.games.view_delta import FULL_EVERY, Baseline, SnapshotDelta, applied, applied_json, delta_between
from tests.strategies import random_games, registered_variants

encode = msgspec.json.Encoder().encode
decode_delta = msgspec.json.Decoder(SnapshotDelta).decode


def snapshot(version: int, state: engine.GameState, **extra) -> Snapshot:
    return Snapshot("g-1", version, engine.player_view(state), 1_000 + version, **extra)


def as_json(value) -> dict:
    return json.loads(encode(value))


@pytest.mark.parametrize("game, variant", registered_variants())
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_a_delta_applied_to_its_base_is_the_view_at_its_version(game, variant, data):
    start, steps, _ = data.draw(random_games(game, variant, max_moves=80))
    state, version = start, 0
    shown = as_json(snapshot(0, start))  # what a client holds, deltas applied as JSON
    for _, events in steps:
        before = Baseline(version, engine.player_view(state), None)
        for event in events:
            state = engine.evolve(state, event)
        version += len(events)
        after = snapshot(version, state)
        delta = delta_between(before, after)
        if delta is None:
            shown = as_json(after)
            continue
        assert delta.base == before.version and delta.version == version
        # Through the wire and back: the typed delta, and the client's JSON one.
        assert applied(before.view, decode_delta(encode(delta))) == after.view
        shown = applied_json(shown, as_json(delta))
        assert shown == as_json(after)
        # Nothing in it the view at its version does not show: no hidden card, no deal.
        hidden = engine.hidden_cards(state)
        cards = {card.id for cut in delta.piles for card in cut.cards}
        assert cards <= {card.id for pile in after.view.piles for card in pile.cards} and not cards & hidden
        new_intents = [entry for entry in delta.legal if not isinstance(entry, int)]
        assert all(intent in after.view.legal for intent in new_intents)
        assert not {"seed", "deal", "deal_number"} & set(as_json(delta))


def played(game: str, variant: dict, seed: int, moves: int) -> list[engine.GameState]:
    state = engine.initial_state(game, variant, seed)
    states = [state]
    for _ in range(moves):
        options = [i for i in engine.legal_moves(state) if not isinstance(i, (engine.intents.UndoIntent, engine.intents.ResignIntent))]
        state, _ = engine.play(options[0], state)
        states.append(state)
    return states


def test_the_whole_snapshot_goes_where_a_delta_could_leave_something_stale():
    first, second = played("spider", {"suits": 1}, 5, 1)
    before = Baseline(0, engine.player_view(first), None)
    assert delta_between(before, snapshot(1, second)) is not None
    assert delta_between(None, snapshot(1, second)) is None, "no view of the base: a rebuilt game"
    assert delta_between(Baseline(FULL_EVERY - 1, before.view, None), snapshot(FULL_EVERY, second)) is None
    assert delta_between(before, snapshot(1, second, seed=5)) is None, "the deal shows: the end"
    assert delta_between(before, snapshot(1, second, deal_number=5)) is None, "its number shows"
    assert delta_between(before, snapshot(0, first)) is None, "not newer than the base"
    resigned, _ = engine.play(engine.intents.ResignIntent(), second)
    assert delta_between(Baseline(1, engine.player_view(second), None), snapshot(2, resigned)) is None


def test_a_delta_is_far_smaller_than_the_snapshot():
    """The point of it: a move's frame carries the move, not the whole table (bench gateway has the figures)."""
    states = played("spider", {"suits": 1}, 5, 20)
    deltas = wholes = 0
    for version, (was, now) in enumerate(zip(states, states[1:]), start=1):
        delta = delta_between(Baseline(version - 1, engine.player_view(was), None), snapshot(version, now))
        assert delta is not None
        deltas, wholes = deltas + len(encode(delta)), wholes + len(encode(snapshot(version, now)))
    assert deltas * 3 < wholes, (deltas, wholes)


def test_a_client_refuses_a_delta_that_does_not_follow():
    first, second, third = played("wish", {"mode": "standard"}, 9, 2)
    delta = delta_between(Baseline(1, engine.player_view(second), None), snapshot(2, third))
    assert delta is not None
    assert applied_json(as_json(snapshot(0, first)), as_json(delta)) is None
