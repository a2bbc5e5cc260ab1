"""Wading Pool rules, one scripted test per rule, edge case and ruling, on hand-built boards.

Boards are written bottom to top per pile, cards as rank + suit letter ("10H", "AS", "KC").
"""

from __future__ import annotations

import engine
from engine.cards import standard_deck
from engine.errors import RuleError
from engine.events import CardsMoved
from engine.games.wading_pool import RULES, WadingPoolVariant, board_of
from engine.intents import DealIntent, MoveIntent, PairIntent, ResignIntent, UndoIntent

_RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}
_CARDS = {(card.rank, card.suit[0].upper()): card for card in standard_deck()}

# Every suit complete except spades, whose Ace lies alone on t4: one move from the win.
ONE_FROM_WIN = (
    "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
    "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H AH",
    "KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D AD",
    "KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C AC",
    "AS",
)
# Tops K K K K 2 2 2 2, every card beneath a top out of sequence with it: no move anywhere.
NO_MOVE = (
    "AS 3S 4S 5S 6S KS",
    "AH 3H 4H 5H 6H KH",
    "AD 3D 4D 5D 6D KD",
    "AC 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
    "7S 8S 9S 10S JS QS 2S",
    "7H 8H 9H 10H JH QH 2H",
    "7D 8D 9D 10D JD QD 2D",
    "2C",
)


def card(label: str):
    return _CARDS[(_RANKS.get(label[:-1]) or int(label[:-1]), label[-1])]


def state_of(*piles: str) -> engine.GameState:
    """A game on the given piles (missing piles are empty), its status as the rules judge it."""
    rows = [[card(label) for label in pile.split()] for pile in piles]
    rows += [[] for _ in range(8 - len(rows))]
    board = board_of(rows)
    variant = WadingPoolVariant()
    return engine.GameState("wading-pool", variant, 0, board, status=RULES.outcome(board, variant))


def full_state(*piles: str) -> engine.GameState:
    state = state_of(*piles)
    ids = [c.id for pile in state.board.piles for c in pile.cards]
    assert sorted(ids) == list(range(52)), "a full board holds each of the 52 cards once"
    return state


def labels(state: engine.GameState, pile: int) -> str:
    return " ".join(_label(c) for c in state.board.piles[pile].cards)


def _label(c) -> str:
    rank = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(c.rank, str(c.rank))
    return f"{rank}{c.suit[0].upper()}"


def legal(state: engine.GameState, src: str, dst: str, count: int = 1) -> engine.GameState:
    intent = MoveIntent(src, dst, count)
    assert intent in engine.legal_moves(state)
    result = engine.play(intent, state)
    assert not isinstance(result, RuleError), result
    return result[0]


def illegal(state: engine.GameState, intent, code: str = "illegal_move") -> str:
    error = engine.decide(intent, state)
    assert isinstance(error, RuleError) and error.code == code, error
    assert intent not in engine.legal_moves(state)
    return error.message


def test_the_deal_is_52_face_up_cards_in_piles_of_7_7_7_7_6_6_6_6():
    state = engine.initial_state("wading-pool", None, 7)
    assert [len(pile) for pile in state.board.piles] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert sorted(c.id for pile in state.board.piles for c in pile.cards) == list(range(52))
    view = engine.player_view(state)
    assert [(p.id, p.kind, p.down) for p in view.piles] == [(f"t{i}", "tableau", 0) for i in range(8)]
    assert [p.cards for p in view.piles] == [pile.cards for pile in state.board.piles]
    assert engine.hidden_cards(state) == frozenset()
    assert view.info == {"complete_suits": 0}


def test_the_variant_has_no_options_and_unknown_fields_are_a_clear_error():
    assert isinstance(engine.initial_state("wading-pool", {}, 1), engine.GameState)
    error = engine.initial_state("wading-pool", {"x": 1}, 1)
    assert isinstance(error, RuleError) and error.code == "bad_variant" and "x" in error.message


def test_a_card_goes_only_onto_its_own_suit_one_rank_higher():
    state = state_of("8S", "7S", "7H", "6S", "9S", "9H")
    after = legal(state, "t1", "t0")
    assert labels(after, 0) == "8S 7S" and labels(after, 1) == ""
    assert "same suit" in illegal(state, MoveIntent("t2", "t0"))  # other suit
    illegal(state, MoveIntent("t3", "t0"))  # two ranks lower
    illegal(state, MoveIntent("t4", "t0"))  # higher, not lower
    legal(state, "t0", "t4")  # 8S onto 9S
    illegal(state, MoveIntent("t0", "t5"))  # 8S onto 9H


def test_a_same_suit_descending_run_moves_as_a_group_or_in_part():
    state = state_of("2C 9H 8H 7H", "10H", "9D 8H", "KS", "QS JS")
    after = legal(state, "t0", "t1", 3)
    assert labels(after, 1) == "10H 9H 8H 7H" and labels(after, 0) == "2C"
    event = engine.decide(MoveIntent("t0", "t1", 3), state)
    assert event == [CardsMoved("t0", "t1", tuple(card(x).id for x in ("9H", "8H", "7H")))]
    # Only the count whose head card fits the target is a legal move onto a card.
    illegal(state, MoveIntent("t0", "t1", 2))
    illegal(state, MoveIntent("t0", "t1", 1))
    after = legal(state, "t4", "t3", 2)
    assert labels(after, 3) == "KS QS JS"


def test_a_mixed_suit_run_cannot_move_as_a_group():
    state = state_of("10S 9S 8H 7H", "9H", "")
    # 9S 8H 7H descends, but in two suits: not a group, not even into an empty pile.
    assert "cannot move as a group" in illegal(state, MoveIntent("t0", "t2", 3))
    legal(state, "t0", "t2", 2)  # the same-suit part (8H 7H) does move
    legal(state, "t0", "t1", 2)


def test_a_run_with_a_rank_gap_cannot_move_as_a_group():
    state = state_of("JS 9S 8S", "10S", "")
    assert "cannot move as a group" in illegal(state, MoveIntent("t0", "t2", 3))  # J 9 8 skips the 10
    legal(state, "t0", "t1", 2)


def test_an_empty_pile_takes_any_card_or_any_part_of_the_top_run():
    state = state_of("4D KH QH JH", "2C", "")
    moves_to_empty = [m for m in engine.legal_moves(state) if isinstance(m, MoveIntent) and m.dst == "t2"]
    assert moves_to_empty == [MoveIntent("t0", "t2", n) for n in (1, 2, 3)] + [MoveIntent("t1", "t2", 1)]
    after = legal(state, "t0", "t2", 3)
    assert labels(after, 2) == "KH QH JH" and labels(after, 0) == "4D"
    illegal(state, MoveIntent("t0", "t2", 4))  # 4D is not part of the run


def test_a_whole_pile_may_move_into_another_empty_pile_though_it_is_pointless():
    # The chosen ruling: allowed, as every move the rules allow is legal (docs/rules/wading-pool.md).
    state = state_of("QD JD 10D", "", "KC")
    assert MoveIntent("t0", "t1", 3) in engine.legal_moves(state)
    after = legal(state, "t0", "t1", 3)
    assert labels(after, 0) == "" and labels(after, 1) == "QD JD 10D" and after.moves == 1
    after = legal(after, "t1", "t0", 3)
    assert labels(after, 0) == "QD JD 10D" and after.moves == 2


def test_moving_the_last_suit_home_wins_with_four_complete_suits_and_four_empty_piles():
    state = full_state(*ONE_FROM_WIN)
    assert state.status == engine.IN_PROGRESS and engine.player_view(state).info == {"complete_suits": 3}
    won = legal(state, "t4", "t0")
    assert won.status == engine.WON
    assert [len(pile) for pile in won.board.piles] == [13, 13, 13, 13, 0, 0, 0, 0]
    assert engine.player_view(won).info == {"complete_suits": 4}
    assert engine.legal_moves(won) == []
    assert illegal(won, MoveIntent("t0", "t4", 13), "game_over")
    illegal(won, UndoIntent(), "game_over")


def test_the_texts_all_eight_piles_complete_is_not_needed_the_suits_may_lie_in_any_four_piles():
    state = full_state("", *ONE_FROM_WIN[1:4], "", "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S AS")
    assert state.status == engine.WON
    assert sum(1 for pile in state.board.piles if not pile.cards) == 4


def test_three_complete_suits_and_the_fourth_in_two_runs_is_not_a_win():
    state = full_state(*ONE_FROM_WIN[:4], "", "", "", "AS")
    assert state.status == engine.IN_PROGRESS


def test_no_legal_move_is_a_loss_and_play_stops():
    state = full_state(*NO_MOVE)
    assert state.status == engine.LOST and engine.legal_moves(state) == []
    assert "lost" in illegal(state, MoveIntent("t4", "t7"), "game_over")
    assert "stays lost" in illegal(state, ResignIntent(), "game_over")  # not rewritten to abandoned


def test_a_move_that_leaves_no_move_loses_the_game():
    before = full_state(*NO_MOVE[:3], NO_MOVE[3] + " 2C", *NO_MOVE[4:7], "")
    assert before.status == engine.IN_PROGRESS
    assert engine.legal_moves(before) == [MoveIntent(f"t{i}", "t7", 1) for i in range(7)] + [ResignIntent()]
    assert legal(before, "t3", "t7").status == engine.LOST


def test_a_deal_can_be_lost_from_the_start():
    # Read literally, a deal whose tops allow no move is lost at once; seed 0 is one (see the docs).
    state = engine.initial_state("wading-pool", None, 0)
    assert state.status == engine.LOST and engine.legal_moves(state) == []


def test_the_player_may_resign_at_any_time_in_play():
    for state in (engine.initial_state("wading-pool", None, 7), full_state(*ONE_FROM_WIN)):
        resigned, events = engine.play(ResignIntent(), state)
        assert resigned.status == engine.ABANDONED
        illegal(resigned, MoveIntent("t4", "t0"), "game_over")


def test_bad_intents_are_clear_errors_and_change_nothing():
    state = state_of("8S 7S", "", "9H")
    for intent in (PairIntent(0, 1), DealIntent(), UndoIntent()):
        illegal(state, intent, "not_supported")
    for src, dst in (("t8", "t1"), ("t0", "f0"), ("waste", "t1"), ("T0", "t1"), ("t-1", "t1"), ("t00", "t1")):
        illegal(state, MoveIntent(src, dst), "no_such_pile")
    assert "two different piles" in illegal(state, MoveIntent("t0", "t0"))
    assert "empty" in illegal(state, MoveIntent("t1", "t0"))
    for count in (0, -1, 3):
        assert "count must be 1 to 2" in illegal(state, MoveIntent("t0", "t1", count))
    assert engine.play(MoveIntent("t0", "t2"), state) == engine.decide(MoveIntent("t0", "t2"), state)
    assert state == state_of("8S 7S", "", "9H")
