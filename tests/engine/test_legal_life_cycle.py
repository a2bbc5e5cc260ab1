"""Undo and resign in the legal list: listed exactly when decide accepts them, never by default.

Resign is listed while a game is in play (a lost game stays lost: resigning it is refused, or a
loss would turn into "abandoned"); undo while the game has undo, something to take back and has
not been won, so a lost Spider game lists undo as its one legal move.
"""

from __future__ import annotations

import engine
from engine.intents import MoveIntent, PairIntent, ResignIntent, UndoIntent
from tests.engine.spider_boards import board, run_text, state_of


def _accepted(intent, state) -> bool:
    return not isinstance(engine.decide(intent, state), engine.RuleError)


def test_a_fresh_spider_game_lists_resign_last_and_no_undo():
    state = engine.initial_state("spider", {"suits": 1}, 3)
    legal = engine.legal_moves(state)
    assert legal[-1] == ResignIntent() and UndoIntent() not in legal  # nothing to take back yet
    assert engine.decide(UndoIntent(), state).code == "nothing_to_undo"
    assert list(engine.player_view(state).legal) == legal


def test_undo_is_listed_after_a_spider_move_before_resign():
    state = engine.initial_state("spider", {"suits": 1}, 3)
    state, _ = engine.play(engine.legal_moves(state)[0], state)
    assert engine.legal_moves(state)[-2:] == [UndoIntent(), ResignIntent()]
    assert engine.player_view(state).legal[-2:] == (UndoIntent(), ResignIntent())


def test_a_lost_spider_game_lists_undo_as_its_only_move_and_refuses_resign():
    state = state_of(board(["Ks / 8h", "Qs / 9s"] + ["Kd"] * 8))
    lost, _ = engine.play(MoveIntent("t0", "t1"), state)
    assert lost.status == engine.LOST
    assert engine.legal_moves(lost) == [UndoIntent()] == list(engine.player_view(lost).legal)
    error = engine.decide(ResignIntent(), lost)
    assert error.code == "game_over" and "stays lost" in error.message
    assert engine.play(ResignIntent(), lost) == error  # and nothing changes


def test_a_spider_game_lost_at_the_start_lists_nothing():
    lost = state_of(board(["Ks / 8h", "Qs / 5d"] + ["Kd"] * 8))  # no move, no stock, no history
    assert lost.status == engine.LOST and not lost.history
    assert engine.legal_moves(lost) == [] == list(engine.player_view(lost).legal)
    assert not _accepted(UndoIntent(), lost) and not _accepted(ResignIntent(), lost)


def test_a_game_without_undo_never_lists_it():
    state = engine.initial_state("wish", {"mode": "open"}, 5)
    state, _ = engine.play(engine.legal_moves(state)[0], state)
    legal = engine.legal_moves(state)
    assert state.moves == 1 and UndoIntent() not in legal and legal[-1] == ResignIntent()
    assert engine.decide(UndoIntent(), state).code == "not_supported"


def test_a_lost_game_without_undo_lists_nothing_and_refuses_resign():
    lost = engine.initial_state("wading-pool", None, 0)  # lost before the first move (docs/rules)
    assert lost.status == engine.LOST and engine.legal_moves(lost) == []
    assert engine.decide(ResignIntent(), lost).code == "game_over"


def test_won_and_abandoned_games_list_nothing():
    one_from_win = state_of(board([run_text("d", 13, 2), "Ad"], cleared_runs=7))
    won, _ = engine.play(MoveIntent("t1", "t0"), one_from_win)
    assert won.status == engine.WON and won.history  # there is a move to take back, yet a won game takes none
    assert engine.legal_moves(won) == [] and not _accepted(UndoIntent(), won)
    abandoned, _ = engine.play(ResignIntent(), engine.initial_state("wish", None, 7))
    assert abandoned.status == engine.ABANDONED and engine.legal_moves(abandoned) == []
    assert not _accepted(PairIntent(0, 1), abandoned) and not _accepted(ResignIntent(), abandoned)
