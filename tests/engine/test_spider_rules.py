"""Spider's rules, scripted: one test per row of the edge-case table in spider.txt, then the rest."""

from __future__ import annotations

import pytest

import engine
from engine.errors import RuleError
from engine.events import CardsMoved, StockDealt
from engine.intents import (
    CastIntent, DealIntent, LuckIntent, MoveIntent, PairIntent, RecycleIntent, ResignIntent, UndoIntent,
)
from tests.engine.spider_boards import board, ranks, run_text, state_of


def play_ok(intent, state):
    result = engine.play(intent, state)
    assert not isinstance(result, RuleError), result
    return result


def refused(intent, state, code="illegal_move") -> RuleError:
    err = engine.decide(intent, state)
    assert isinstance(err, RuleError), err
    assert err.code == code and err.message
    assert intent not in engine.legal_moves(state)
    return err


# Edge-case table of spider.txt, row by row ----------------------------------------------------

def test_move_a_card_onto_a_face_down_card_is_not_allowed():
    # In play a column's top is always face up; a hand-made board can still show the guard works.
    state = state_of(board(["8h", "Ks 9s /", "Qd", "Jc"] + ["Kd"] * 6))  # Jc onto Qd keeps it going
    err = refused(MoveIntent("t0", "t1"), state)
    assert "face down" in err.message
    # Nor may a face-down card be picked up: only 1 card of t1 below is face up.
    state = state_of(board(["10d", "8s / 9h"] + ["Kd"] * 8))
    assert "face-down" in refused(MoveIntent("t1", "t0", 2), state).message


def test_move_a_group_with_mixed_suits_is_not_allowed():
    state = state_of(board(["10s", "9h 8s", "9c"] + ["Kd"] * 7))
    err = refused(MoveIntent("t1", "t0", 2), state)
    assert "descending run of one suit" in err.message
    # The top card of that group may still move on its own, onto a 9 of any suit.
    assert engine.legal_moves(state) == [MoveIntent("t1", "t2", 1), MoveIntent("t2", "t0", 1), ResignIntent()]


def test_move_a_single_card_onto_a_different_suit_is_allowed_one_rank_lower():
    state = state_of(board(["9s", "8h", "7d"] + ["Kc"] * 7))
    after, events = play_ok(MoveIntent("t1", "t0"), state)
    assert events == [CardsMoved("t1", "t0", (state.board.columns[1].cards[0].id,))]
    assert ranks(after.board.columns[0]) == ["9s", "8h"]
    refused(MoveIntent("t2", "t0"), state)  # 7 onto 9: two ranks lower


def test_empty_column_takes_any_face_up_card_or_valid_run_not_only_a_king():
    state = state_of(board(["Kc / 5h", "", "9d 8d 7d", "Qh Js"] + ["Kc"] * 6))
    after, _ = play_ok(MoveIntent("t0", "t1"), state)
    assert ranks(after.board.columns[1]) == ["5h"]
    after, _ = play_ok(MoveIntent("t2", "t1", 3), state)
    assert ranks(after.board.columns[1]) == ["9d", "8d", "7d"]
    after, _ = play_ok(MoveIntent("t2", "t1", 2), state)
    assert ranks(after.board.columns[1]) == ["8d", "7d"]
    refused(MoveIntent("t3", "t1", 2), state)  # Q of hearts, J of spades: not one suit


def test_deal_while_a_column_is_empty_is_not_allowed():
    state = state_of(board(["9s"] * 3 + [""] + ["9s"] * 6, stock=run_text("h", 10, 1)))
    err = refused(DealIntent(), state)
    assert "t3" in err.message and "empty" in err.message
    assert engine.play(DealIntent(), state) == err
    assert engine.player_view(state).info["deals_left"] == 1


def test_complete_a_run_in_the_middle_of_a_column_clears_it_with_cards_below():
    column = f"3c 4d / 7h {run_text('s', 13, 2)}"
    state = state_of(board([column, "As", "Kd"] + ["Kc"] * 7))
    after, _ = play_ok(MoveIntent("t1", "t0"), state)
    left = after.board.columns[0]
    assert ranks(left) == ["7h"] and left.down == 2  # the 7 was face up already: nothing flips
    assert after.board.cleared_runs == 1 and ranks_of(after.board.cleared) == run_text("s").split()
    assert after.board.columns[1].cards == ()
    # With a face-down card right beneath the run, that card flips.
    state = state_of(board([f"3c 4d / {run_text('s', 13, 2)}", "As", "Kd"] + ["Kc"] * 7))
    after, _ = play_ok(MoveIntent("t1", "t0"), state)
    assert ranks(after.board.columns[0]) == ["4d"] and after.board.columns[0].down == 1


def test_undo_a_completed_run_restores_the_state_before_the_move():
    state = state_of(board([f"3c 4d / {run_text('s', 13, 2)}", "5h / As", "Kd"] + ["Kc"] * 7))
    after, _ = play_ok(MoveIntent("t1", "t0"), state)
    assert after.board.cleared_runs == 1 and after.moves == 1
    undone, events = play_ok(UndoIntent(), after)
    assert undone.board == state.board  # the run, the flip of 4d and of 5h are all taken back
    assert (undone.moves, undone.undos, undone.history) == (0, 1, ())
    assert engine.player_view(undone).info == {"deals_left": 0, "cleared_runs": 0}


def test_re_deal_after_the_stock_is_empty_is_not_allowed():
    state = engine.initial_state("spider", {"suits": 4}, 7)
    for deal in range(5):
        assert engine.player_view(state).info["deals_left"] == 5 - deal
        state, _ = play_ok(DealIntent(), state)
    assert engine.player_view(state).info["deals_left"] == 0 and state.board.stock == ()
    err = refused(DealIntent(), state)
    assert "stock is empty" in err.message


# The rest of the rules ----------------------------------------------------------------------

def ranks_of(cards) -> list[str]:
    return ranks(engine.piles.Pile(tuple(cards)))


@pytest.mark.parametrize("suits, expected", [(1, {"spades": 104}), (2, {"spades": 52, "hearts": 52}),
                                             (4, {"spades": 26, "hearts": 26, "diamonds": 26, "clubs": 26})])
def test_deal_layout_per_suit_count(suits, expected):
    state = engine.initial_state("spider", {"suits": suits}, 3)
    columns = state.board.columns
    assert [len(pile) for pile in columns] == [6, 6, 6, 6, 5, 5, 5, 5, 5, 5]
    assert all(pile.down == len(pile) - 1 for pile in columns)  # only the top card face up
    assert len(state.board.stock) == 50 and state.board.cleared == ()
    cards = [card for pile in columns for card in pile.cards] + list(state.board.stock)
    assert sorted(card.id for card in cards) == list(range(104))
    counts: dict[str, int] = {}
    for card in cards:
        counts[card.suit] = counts.get(card.suit, 0) + 1
    assert counts == expected
    assert state.status == engine.IN_PROGRESS and state.moves == 0


@pytest.mark.parametrize("variant", [{"suits": 3}, {"suits": 0}, {"suits": 8}, {"suits": "2"},
                                     {"suits": True}, {"colours": 2}, {"suits": 2.0}])
def test_bad_variant_is_a_clear_error(variant):
    err = engine.initial_state("spider", variant, 1)
    assert isinstance(err, RuleError) and err.code == "bad_variant" and "spider" in err.message


def test_default_variant_is_one_suit():
    state = engine.initial_state("spider", None, 1)
    assert state.variant.suits == 1


@pytest.mark.parametrize("src, dst", [("f0", "t1"), ("t1", "waste"), ("t10", "t1"), ("stock", "t0"),
                                      ("t0", "cleared"), ("T1", "t0"), ("t01", "t0")])
def test_unknown_pile_names_are_refused(src, dst):
    state = engine.initial_state("spider", None, 1)
    err = refused(MoveIntent(src, dst), state, code="no_such_pile")
    assert "t0 to t9" in err.message


@pytest.mark.parametrize("intent", [PairIntent(0, 1), RecycleIntent(), CastIntent(), LuckIntent(3, "t0")])
def test_other_games_intents_are_not_supported(intent):
    refused(intent, engine.initial_state("spider", None, 1), code="not_supported")


@pytest.mark.parametrize("count", [0, -1, 14])
def test_bad_counts_and_same_column_are_refused(count):
    state = state_of(board(["9s 8s 7s", "10h"] + ["Kd"] * 8))
    refused(MoveIntent("t0", "t1", count), state)
    refused(MoveIntent("t0", "t0", 1), state)


def test_a_group_is_defined_by_the_card_picked_up():
    state = state_of(board(["Kc / 10h 9h 8h 7h", "10s", "9d", "Kd"] + ["Kc"] * 6))
    after, events = play_ok(MoveIntent("t0", "t1", 3), state)  # pick up the 9: 9-8-7 go
    assert ranks(after.board.columns[1]) == ["10s", "9h", "8h", "7h"]
    assert events[0].cards == tuple(card.id for card in state.board.columns[0].cards[-3:])
    after, _ = play_ok(MoveIntent("t0", "t2", 2), state)  # pick up the 8: only 8-7 go
    assert ranks(after.board.columns[2]) == ["9d", "8h", "7h"]
    assert ranks(after.board.columns[0]) == ["10h", "9h"]
    refused(MoveIntent("t0", "t3", 4), state)  # 10 onto a King: wrong rank


def test_only_the_top_exposed_card_flips():
    state = state_of(board(["Kc Qc / 5h", "6s", "Kd"] + ["Kc"] * 7))
    after, _ = play_ok(MoveIntent("t0", "t1"), state)
    assert after.board.columns[0].down == 1 and ranks(after.board.columns[0]) == ["Qc"]
    assert engine.hidden_cards(after) == {state.board.columns[0].cards[0].id}


def test_a_deal_puts_one_face_up_card_on_each_column_from_t0():
    state = engine.initial_state("spider", {"suits": 2}, 11)
    stock = state.board.stock
    after, events = play_ok(DealIntent(), state)
    assert events == [StockDealt(tuple(card.id for card in stock[:10]))]
    for index, pile in enumerate(after.board.columns):
        assert pile.cards[-1] == stock[index] and pile.down == len(pile) - 2
    assert after.board.stock == stock[10:] and after.moves == 1
    assert engine.player_view(after).info["deals_left"] == 4


def test_a_deal_that_completes_runs_clears_them_from_the_left():
    columns = ["Kc", f"Kc / {run_text('h', 13, 2)}", "Kc", f"5d / {run_text('s', 13, 2)}"] + ["Kc"] * 6
    state = state_of(board(columns, stock="2c Ah 3c As 4c 5c 6c 7c 8c 9c"))
    after, _ = play_ok(DealIntent(), state)
    assert after.board.cleared_runs == 2
    assert ranks_of(after.board.cleared) == run_text("h").split() + run_text("s").split()
    assert ranks(after.board.columns[1]) == ["Kc"] and ranks(after.board.columns[3]) == ["5d"]
    assert ranks(after.board.columns[0]) == ["Kc", "2c"]


def test_clearing_repeats_until_no_column_ends_in_a_complete_run():
    # Hand-made: a complete spade run already lies under the heart run being completed.
    column = f"9d / {run_text('s')} {run_text('h', 13, 2)}"
    state = state_of(board([column, "Ah", "Kc"] + ["Kc"] * 7))
    after, _ = play_ok(MoveIntent("t1", "t0"), state)
    assert after.board.cleared_runs == 2
    assert ranks_of(after.board.cleared) == run_text("h").split() + run_text("s").split()
    assert ranks(after.board.columns[0]) == ["9d"]


def test_a_mixed_suit_king_to_ace_does_not_clear():
    column = "Ks Qs Jh 10s 9s 8s 7s 6s 5s 4s 3s 2s"
    state = state_of(board([column, "As", "Kc"] + ["Kc"] * 7))
    after, _ = play_ok(MoveIntent("t1", "t0"), state)
    assert after.board.cleared_runs == 0 and len(after.board.columns[0]) == 13


def test_eighth_run_wins_and_a_won_game_accepts_nothing_more():
    state = state_of(board([run_text("d", 13, 2), "Ad"], cleared_runs=7))
    won, _ = play_ok(MoveIntent("t1", "t0"), state)
    assert won.status == engine.WON and won.board.cleared_runs == 8
    assert engine.legal_moves(won) == []
    for intent in (UndoIntent(), DealIntent(), MoveIntent("t0", "t1")):
        assert engine.decide(intent, won).code == "game_over"
    assert engine.hidden_cards(won) == frozenset()


def test_lost_when_no_move_and_no_deal_but_undo_still_works():
    # The only legal move (8h onto 9s) turns up a King of spades with nowhere to go.
    state = state_of(board(["Ks / 8h", "Qs / 9s"] + ["Kd"] * 8))
    assert engine.legal_moves(state) == [MoveIntent("t0", "t1"), ResignIntent()]
    lost, _ = play_ok(MoveIntent("t0", "t1"), state)
    assert lost.status == engine.LOST and engine.legal_moves(lost) == [UndoIntent()]  # the only way on
    err = engine.decide(MoveIntent("t1", "t0"), lost)
    assert err.code == "game_over" and "undo" in err.message
    err = engine.decide(ResignIntent(), lost)  # a lost game stays lost: resigning would make it abandoned
    assert err.code == "game_over" and "stays lost" in err.message and "undo" in err.message
    back, _ = play_ok(UndoIntent(), lost)
    assert back.status == engine.IN_PROGRESS and back.board == state.board


def test_a_stock_left_means_not_lost():
    state = state_of(board(["Ks / 8h", "Qs / 5d"] + ["Kd"] * 8, stock=run_text("c", 10, 1)))
    assert engine.legal_moves(state) == [DealIntent(), ResignIntent()]
    assert state.status == engine.IN_PROGRESS


def test_legal_moves_include_pointless_ones():
    state = state_of(board(["9s 8s", "", "9h"] + ["Kd"] * 7))
    legal = engine.legal_moves(state)
    for intent in [MoveIntent("t0", "t1", 1), MoveIntent("t0", "t1", 2), MoveIntent("t0", "t2", 1),
                   MoveIntent("t2", "t1", 1), MoveIntent("t3", "t1", 1)]:
        assert intent in legal
    back, _ = play_ok(MoveIntent("t0", "t2"), state)
    again, _ = play_ok(MoveIntent("t2", "t0"), back)  # and back again: both legal
    assert again.board.columns[0].cards == state.board.columns[0].cards and again.moves == 2


def test_move_count_counts_the_final_line_and_undos_separately():
    state = engine.initial_state("spider", {"suits": 1}, 5)
    state, _ = play_ok(DealIntent(), state)
    state, _ = play_ok(engine.legal_moves(state)[0], state)
    state, _ = play_ok(UndoIntent(), state)
    state, _ = play_ok(UndoIntent(), state)
    assert (state.moves, state.undos) == (0, 2)
    assert engine.decide(UndoIntent(), state).code == "nothing_to_undo"
    state, _ = play_ok(DealIntent(), state)
    assert (state.moves, state.undos) == (1, 2)


def test_view_shows_columns_stock_count_and_each_cleared_run_king_on_top():
    state = state_of(board([f"3c 4d / {run_text('s', 13, 2)}", "5h / As", "Kd"] + ["Kc"] * 7,
                           stock="2c 3c 4c 5c 6c 7c 8c 9c 10c Jc"))
    after, _ = play_ok(MoveIntent("t1", "t0"), state)
    view = engine.player_view(after)
    assert [pile.id for pile in view.piles] == [f"t{i}" for i in range(10)] + ["stock", "c0"]
    assert [pile.kind for pile in view.piles] == ["tableau"] * 10 + ["stock", "cleared"]
    stock, cleared = view.piles[10], view.piles[11]
    assert (stock.down, stock.cards) == (10, ())
    assert (cleared.down, ranks_of(cleared.cards)) == (0, run_text("s").split()[::-1])  # Ace first, King on top
    assert view.notes == ("1 deal left", "1 of 8 runs cleared")
    assert view.piles[0].down == 1 and ranks_of(view.piles[0].cards) == ["4d"]
    assert view.info == {"deals_left": 1, "cleared_runs": 1}
    hidden = engine.hidden_cards(after)
    assert hidden == {after.board.columns[0].cards[0].id} | {card.id for card in after.board.stock}


def test_replay_rejects_a_log_that_names_the_wrong_cards():
    state = engine.initial_state("spider", {"suits": 4}, 42)
    move = engine.legal_moves(state)[0]
    after, moved = play_ok(move, state)
    _, dealt = play_ok(DealIntent(), after)
    good = moved + dealt
    assert engine.replay("spider", {"suits": 4}, 42, good).ok
    wrong_card = CardsMoved(moved[0].src, moved[0].dst, (moved[0].cards[0] + 1,))
    result = engine.replay("spider", {"suits": 4}, 42, [wrong_card] + dealt)
    assert result.error.code == "event_mismatch" and result.applied == 0
    shuffled_deal = StockDealt(tuple(reversed(dealt[0].cards)))
    result = engine.replay("spider", {"suits": 4}, 42, moved + [shuffled_deal])
    assert result.error.code == "event_mismatch" and result.applied == 1
    too_many = CardsMoved(moved[0].src, moved[0].dst, moved[0].cards * 2)
    assert engine.replay("spider", {"suits": 4}, 42, [too_many]).error.code == "illegal_move"
