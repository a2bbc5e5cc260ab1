"""A finished game's replay steps (every card face up) and the solver's review of them."""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import given, settings

import engine
from engine.events import MoveUndone
from engine.intents import ResignIntent, UndoIntent
from engine.replay_views import replay_steps
from engine.solver import solve
from engine.solver.advice import point_of_no_return
from engine.solver.review import Budget, review
from tests.strategies import registered_variants, seeds

CASES = registered_variants()
IDS = [f"{game}-{msgspec.json.encode(variant).decode()}" for game, variant in CASES]


def random_game(game: str, variant, seed: int, *, moves: int = 60, undo: float = 0.0, resign_at: int | None = None):
    """Intents and events of a game played at random (never resigning unless asked, undoing now and then)."""
    rng = random.Random(seed)
    state = engine.initial_state(game, variant, seed)
    intents, events = [], []
    while len(events) < moves:
        legal = engine.legal_moves(state)
        own = [m for m in legal if not isinstance(m, (ResignIntent, UndoIntent))]
        if resign_at is not None and len(events) == resign_at:
            intent = ResignIntent()
        elif UndoIntent() in legal and rng.random() < undo:
            intent = UndoIntent()
        elif own:
            intent = rng.choice(own)
        else:
            break
        state, made = engine.play(intent, state)
        intents.append(intent)
        events.extend(made)
        if engine.is_over(state):
            break
    return intents, events


@pytest.mark.parametrize(("game", "variant"), CASES, ids=IDS)
@settings(max_examples=8, deadline=None)
@given(seed=seeds)
def test_every_step_shows_the_position_with_every_card_face_up(game, variant, seed):
    intents, events = random_game(game, variant, seed % 1000, moves=40, undo=0.2)
    replay = replay_steps(game, variant, seed % 1000, events)
    assert len(replay.steps) == len(events) + 1 == len(replay.states)
    assert replay.steps[0].view == engine.revealed_view(game, variant, seed % 1000)
    assert replay.steps[0].event is None and replay.steps[0].intent is None
    deck = sorted(card.id for pile in replay.steps[0].view.piles for card in pile.cards)
    state = engine.initial_state(game, variant, seed % 1000)
    for k, (step, event, intent) in enumerate(zip(replay.steps[1:], events, intents), start=1):
        assert engine.decide(step.intent, state) == [event], "the step's intent is the move that was played"
        assert step.intent == intent and step.event == event
        moved = {card.id for card in step.cards}
        before = {card.id: card for pile in replay.steps[k - 1].view.piles for card in pile.cards}
        assert all(before[card.id] == card for card in step.cards), "the cards as they lay before the move"
        state = engine.evolve(state, event)
        assert replay.states[k] == state
        shown = engine.player_view(state)
        assert step.view.status == shown.status and (step.view.moves, step.view.undos) == (shown.moves, shown.undos)
        assert [(p.id, p.kind) for p in step.view.piles] == [(p.id, p.kind) for p in shown.piles]
        assert all(pile.down == 0 for pile in step.view.piles) and step.view.legal == ()
        assert set(step.hidden) == engine.hidden_cards(state)
        ids = [card.id for pile in step.view.piles for card in pile.cards]
        assert set(ids) <= set(deck) and len(ids) == len(set(ids)), "each card once, none invented"
        assert moved <= set(before)


def test_a_won_wish_is_winnable_at_every_step_and_knows_the_solvers_line():
    start = engine.initial_state("wish", {"mode": "open"}, 3)
    line = solve(start).line
    events = []
    state = start
    for intent in line:
        state, made = engine.play(intent, state)
        events.extend(made)
    assert state.status == engine.WON
    found = review(replay_steps("wish", {"mode": "open"}, 3, events).states, events)
    assert set(found.verdicts) == {"winnable"} and found.point_of_no_return == "never"
    assert found.lost_at is None and found.shortest_line == len(line) == 16


def test_the_point_of_no_return_of_lost_wish_games_is_the_advice_s():
    checked = 0
    for seed in range(40):
        intents, events = random_game("wish", None, seed, moves=100)
        replay = replay_steps("wish", None, seed, events)
        found = review(replay.states, events, Budget(1_000_000, 10_000_000))
        advice = point_of_no_return(replay.states[0], intents)
        assert "unknown" not in found.verdicts, "a Wish is small enough to decide every step"
        if advice.result == "found":
            assert found.point_of_no_return == "found" and found.lost_at == advice.index + 1
            checked += 1
        else:
            assert (found.point_of_no_return, found.lost_at) == (advice.result, None)
        for step, verdict in enumerate(found.verdicts):  # with no undo: winnable, then unwinnable, once
            assert verdict == ("winnable" if found.lost_at and step < found.lost_at or advice.result == "never"
                               else "unwinnable")
        assert len(found.searched) <= 2 + len(events).bit_length(), "a bisection, not a solve per step"
    assert checked >= 5


def test_a_resigned_game_is_judged_on_its_board():
    start = engine.initial_state("wish", {"mode": "open"}, 3)
    state, events = start, []
    for intent in [*solve(start).line[:3], ResignIntent()]:
        state, made = engine.play(intent, state)
        events.extend(made)
    assert state.status == engine.ABANDONED
    found = review(replay_steps("wish", {"mode": "open"}, 3, events).states, events)
    assert found.verdicts == ("winnable",) * 5 and found.point_of_no_return == "never", "given up while winnable"


def test_with_undo_a_verdict_is_never_carried_across_an_undo():
    intents, events = random_game("spider", {"suits": 1}, 3, moves=60, undo=0.15)
    replay = replay_steps("spider", {"suits": 1}, 3, events)
    undos = [k for k, event in enumerate(events, start=1) if isinstance(event, MoveUndone)]
    assert undos, "the line has undos"
    found = review(replay.states, events)
    assert found.point_of_no_return == "found"
    lost = found.lost_at
    assert solve(replay.states[lost - 1], 20_000).winnable
    assert solve(replay.states[lost], 20_000).result == "unwinnable"
    for k in undos:  # an undo's position is the board of an earlier step, with that step's verdict
        earlier = max(j for j in range(k) if replay.states[j].board == replay.states[k].board)
        assert found.verdicts[k] == found.verdicts[earlier]
    for k in found.searched:
        direct = solve(replay.states[k], found.budget.per_solve).result
        assert direct in ("unknown", found.verdicts[k])


@pytest.mark.parametrize(("game", "variant", "budget"), [
    ("spider", {"suits": 2}, Budget(300, 2_000)), ("wizard", None, Budget(500, 3_000)),
])
def test_a_review_keeps_to_its_budget_and_is_the_same_every_run(game, variant, budget):
    _, events = random_game(game, variant, 5, moves=150, undo=0.05)
    replay = replay_steps(game, variant, 5, events)
    first = review(replay.states, events, budget)
    assert first.nodes <= budget.total
    assert review(replay.states, events, budget) == first


def test_a_game_without_a_solver_has_no_review(monkeypatch):
    _, events = random_game("wish", None, 1, moves=5)
    replay = replay_steps("wish", None, 1, events)
    monkeypatch.setattr(type(engine.rules_for("wish")), "has_solver", False)
    refused = review(replay.states, events)
    assert isinstance(refused, engine.RuleError) and refused.code == "not_supported"
