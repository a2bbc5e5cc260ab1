"""The engine's side of the flow of play: every button's availability and reason, Finish as a line of
ordinary moves, practice undo, and the status in players' words."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import intents as it
from engine.cards import wizard_deck
from engine.errors import NOTHING_TO_FINISH
from engine.games.wizard import WizardVariant
from engine.games.wizard_moves import FOUNDATIONS, WizardBoard
from engine.piles import Pile
from engine.registry import rules_for
from tests.engine.spider_boards import board, run_text, state_of as spider_state
from tests.engine.test_wading_pool_rules import state_of as pool_state
from tests.strategies import forward_moves, registered_variants, seeds

ACTION_INTENTS = {"deal": it.DealIntent(), "recycle": it.RecycleIntent(), "cast": it.CastIntent(),
                  "undo": it.UndoIntent(), "resign": it.ResignIntent(), "finish": it.FinishIntent()}


def walk(game: str, variant: dict, seed: int, steps: int, practice_undo: bool = False):
    """The states of a line of first-listed forward moves (cheap and deterministic)."""
    state = engine.initial_state(game, variant, seed, practice_undo=practice_undo)
    yield state
    for step in range(steps):
        moves = forward_moves(state)
        if not moves:
            return
        state, _ = engine.play(moves[(seed + step) % len(moves)], state)
        yield state


@pytest.mark.parametrize(("game", "variant"), registered_variants())
@settings(max_examples=6, deadline=None)
@given(seed=seeds, practice=st.booleans())
def test_every_button_is_available_exactly_when_the_engine_accepts_it_and_says_why_not(game, variant, seed, practice):
    for state in walk(game, variant, seed, 40, practice):
        views = engine.actions(state)
        assert [v.type for v in views][-2:] == ["finish", "resign"]
        assert set(rules_for(game).actions) <= {v.type for v in views}
        for view in views:
            decided = engine.decide(ACTION_INTENTS[view.type], state)
            refused = isinstance(decided, engine.RuleError)
            assert view.available is not refused, (view, decided)
            if refused:
                assert (view.code, view.reason) == (decided.code, decided.message) and view.reason
            else:
                assert view.code == view.reason == ""


@pytest.mark.parametrize(("game", "variant"), registered_variants())
@settings(max_examples=8, deadline=None)
@given(seed=seeds)
def test_finish_is_ordinary_moves_that_replay_and_win(game, variant, seed):
    for state in walk(game, variant, seed, 400):
        finish = next(v for v in engine.actions(state) if v.type == "finish")
        if not finish.available:
            continue
        events = engine.decide(it.FinishIntent(), state)
        assert events and all(not isinstance(e, (engine.events.MoveUndone, engine.events.GameResigned)) for e in events)
        replayed = engine.replay_events(state, events)  # each one decided again from the move it names
        assert replayed.ok and replayed.state.status == engine.WON
        assert replayed.state.moves == state.moves + len(events)
        return


def test_finish_is_refused_while_the_rest_needs_choices():
    state = engine.initial_state("wish", {"mode": "open"}, 1)
    refused = engine.decide(it.FinishIntent(), state)
    assert refused.code == NOTHING_TO_FINISH and "single card" in refused.message
    assert it.FinishIntent() not in engine.legal_moves(state), "Finish is many moves: offered, not listed"


def test_spider_finishes_once_the_stock_is_dealt_and_every_column_is_one_run():
    columns = [run_text("s", 13, 6), run_text("s", 5, 1), run_text("s", 13, 9), run_text("s", 8, 1)]
    state = spider_state(board(columns, cleared_runs=6), suits=1)
    assert next(v for v in engine.actions(state) if v.type == "finish").available
    events = engine.decide(it.FinishIntent(), state)
    assert [(e.src, e.dst) for e in events] == [("t1", "t0"), ("t3", "t2")]
    with_stock = spider_state(board(columns, stock=" ".join(["Ks"] * 10), cleared_runs=5), suits=1)
    assert engine.decide(it.FinishIntent(), with_stock).code == NOTHING_TO_FINISH
    face_down = spider_state(board(["Kh / " + run_text("s", 13, 6), run_text("s", 5, 1)], cleared_runs=6), suits=1)
    assert engine.decide(it.FinishIntent(), face_down).code == NOTHING_TO_FINISH


def test_wading_pool_finishes_once_every_pile_is_one_suit_run():
    state = pool_state("KS QS JS 10S 9S 8S 7S", "6S 5S 4S 3S 2S AS", "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H AH",
                       "KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D AD", "KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C AC")
    events = engine.decide(it.FinishIntent(), state)
    assert [(e.src, e.dst, len(e.cards)) for e in events] == [("t1", "t0", 6)]
    assert engine.play(it.FinishIntent(), state)[0].status == engine.WON
    broken = pool_state("KS QS JS 10S 9S 8S 7S", "6S 5S 4S 3S AS 2S", "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H AH",
                        "KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D AD", "KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C AC")
    assert engine.decide(it.FinishIntent(), broken).code == NOTHING_TO_FINISH


def _wizard_end(*, stock: bool = False) -> engine.GameState:
    """Every card home but the Queen and King of Moon and the King of Stars: t0 holds the King of
    Stars under the Queen of Moon, t1 the King of Moon."""
    deck = wizard_deck()
    find = {(card.suit, card.rank): card for card in deck}
    out = {("moon", 12), ("moon", 13), ("stars", 13)}
    suits = sorted({card.suit for card in deck})
    slots = tuple(Pile(tuple(find[(suit, rank)] for rank in range(14) if (suit, rank) not in out)) for suit in suits)
    assert len(slots) == FOUNDATIONS
    tableau = (Pile((find[("stars", 13)], find[("moon", 12)])), Pile((find[("moon", 13)],))) + (Pile(),) * 5
    spare = (slots[0].cards[-1],) if stock else ()
    if stock:
        slots = (Pile(slots[0].cards[:-1]),) + slots[1:]
    wizard = WizardBoard(tableau, slots, spare)
    rules = rules_for("wizard")
    return engine.GameState("wizard", WizardVariant(), 0, wizard, status=rules.outcome(wizard, WizardVariant()))


def test_the_wizard_finishes_lowest_card_first_once_stock_and_waste_are_empty():
    state = _wizard_end()
    events = engine.decide(it.FinishIntent(), state)
    slot = {card.suit: f"f{i}" for i, pile in enumerate(state.board.foundations) for card in pile.cards[:1]}
    assert [(e.src, e.dst) for e in events] == [("t0", slot["moon"]), ("t0", slot["stars"]), ("t1", slot["moon"])]
    assert engine.replay_events(state, events).state.status == engine.WON
    assert engine.decide(it.FinishIntent(), _wizard_end(stock=True)).code == NOTHING_TO_FINISH


@pytest.mark.parametrize("game", ["wish", "patient-pairs", "wizard", "wading-pool", "spider"])
def test_practice_undo_takes_back_a_move_and_marks_games_without_undo_assisted(game):
    variant = {"mode": "open"} if game == "wish" else None
    state = next(s for s in walk(game, variant, 5, 3, practice_undo=True) if s.moves == 2)
    undone, _ = engine.play(it.UndoIntent(), state)
    assert undone.board == next(s for s in walk(game, variant, 5, 3, True) if s.moves == 1).board
    assert engine.undo_assisted(undone) is (not rules_for(game).has_undo)
    plain = next(s for s in walk(game, variant, 5, 3) if s.moves == 2)
    if not rules_for(game).has_undo:  # ranked and race play follow the rules: no undo there
        assert engine.decide(it.UndoIntent(), plain).code == "not_supported"
        assert "undo" not in [v.type for v in engine.actions(plain)]


def test_a_lost_game_with_practice_undo_stays_lost_but_is_not_over():
    seed = next(s for s in range(1, 500) for last in [list(walk("wish", {"mode": "standard"}, s, 40))[-1]]
                if last.status == engine.LOST and last.moves)
    lost = list(walk("wish", {"mode": "standard"}, seed, 40, practice_undo=True))[-1]
    assert lost.status == engine.LOST and not engine.is_over(lost)
    assert engine.decide(it.ResignIntent(), lost).code == "game_over"
    assert engine.legal_moves(lost) == [it.UndoIntent()]


def test_statuses_are_words():
    wizard = engine.player_view(engine.initial_state("wizard", {"redeals": 3}, 1))
    assert wizard.notes[:3] == ("70 cards in the stock", "0 of 98 home", "3 redeals left")
    assert not any("_" in note for note in wizard.notes)
    spider = engine.player_view(engine.initial_state("spider", {"suits": 1}, 1))
    assert spider.notes == ("5 deals left", "0 of 8 runs cleared")
    wish = engine.player_view(engine.initial_state("wish", None, 1))
    assert wish.notes == ("32 cards left",)
    encoded = msgspec.json.decode(msgspec.json.encode(wizard))
    assert {"actions", "notes"} <= encoded.keys()
