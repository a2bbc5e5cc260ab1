"""The Wish and Patient Pairs, rule by rule (docs/rules/the-wish.md, docs/rules/patient-pairs.md)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine.cards import standard_deck, wish_deck
from engine.errors import RuleError
from engine.intents import DealIntent, MoveIntent, PairIntent, ResignIntent
from tests.engine.pairing_boards import board_state
from tests.strategies import random_games


def test_wish_deal_is_32_cards_in_8_piles_of_4_three_face_down():
    state = engine.initial_state("wish", None, 5)
    assert [len(pile) for pile in state.board.piles] == [4] * 8
    assert [pile.down for pile in state.board.piles] == [3] * 8
    ranks = Counter(card.rank for pile in state.board.piles for card in pile.cards)
    assert ranks == Counter({rank: 4 for rank in (1, 7, 8, 9, 10, 11, 12, 13)})


def test_wish_open_variant_deals_every_card_face_up():
    state = engine.initial_state("wish", {"mode": "open"}, 5)
    assert [pile.down for pile in state.board.piles] == [0] * 8
    assert engine.hidden_cards(state) == frozenset()


@pytest.mark.parametrize(("piles", "sizes"), [(13, [4] * 13), (8, [7] * 4 + [6] * 4), (10, [6, 6] + [5] * 8)])
def test_patient_pairs_deals_all_52_face_up_first_piles_take_the_extra(piles, sizes):
    state = engine.initial_state("patient-pairs", {"piles": piles}, 3)
    assert [len(pile) for pile in state.board.piles] == sizes
    assert all(pile.down == 0 for pile in state.board.piles)
    assert sorted(c.id for p in state.board.piles for c in p.cards) == list(range(52))


def test_a_pair_of_equal_rank_is_removed_and_the_next_card_flips():
    state = board_state("wish", [[8, 12], [9, 12], [8, 9]], down=[1, 1, 1])
    state, events = engine.play(PairIntent(0, 1), state)
    assert [len(p) for p in state.board.piles] == [1, 1, 2]
    assert [p.down for p in state.board.piles] == [0, 0, 1]  # both emptied-top piles flipped
    assert events[0].cards == (1, 3)


def test_suits_are_irrelevant_only_rank_matters():
    state = board_state("wish", [[13], [13]])
    assert state.board.piles[0].top.suit != state.board.piles[1].top.suit
    assert not isinstance(engine.decide(PairIntent(0, 1), state), RuleError)


@pytest.mark.parametrize(
    ("intent", "code", "words"),
    [
        (PairIntent(0, 2), "illegal_move", "not the same rank"),
        (PairIntent(0, 0), "illegal_move", "two different piles"),
        (PairIntent(0, 8), "no_such_pile", "does not exist"),
        (PairIntent(-1, 0), "no_such_pile", "does not exist"),
        (PairIntent(0, 3), "illegal_move", "empty"),
        (MoveIntent("t0", "t1"), "not_supported", "only pair moves"),
        (DealIntent(), "not_supported", "only pair moves"),
    ],
)
def test_illegal_moves_are_clear_errors(intent, code, words):
    state = board_state("wish", [[9, 12], [8, 12], [7, 11], []])
    error = engine.decide(intent, state)
    assert isinstance(error, RuleError) and error.code == code and words in error.message


def test_three_of_a_kind_only_two_go_the_third_stays():
    state = board_state("wish", [[8, 12], [9, 12], [9, 12]])
    legal = engine.legal_moves(state)
    assert len(legal) == 4 and legal[-1] == ResignIntent()  # three pairs, then resign
    state, _ = engine.play(PairIntent(1, 2), state)
    assert state.board.piles[0].top.rank == 12


def test_empty_piles_stay_empty_and_the_game_is_won_when_all_are_gone():
    state = board_state("patient-pairs", [[7], [7], [], []], variant={"piles": 8})
    state, _ = engine.play(PairIntent(0, 1), state)
    assert state.status == engine.WON
    assert isinstance(engine.decide(PairIntent(0, 1), state), RuleError)


def test_lost_when_cards_remain_and_no_two_tops_share_a_rank():
    state = board_state("wish", [[8, 9], [8, 10], [11]])
    assert state.status == engine.LOST
    error = engine.decide(PairIntent(0, 1), state)
    assert isinstance(error, RuleError) and error.code == "game_over"


@pytest.mark.parametrize("game", ["wish", "patient-pairs"])
@given(data=st.data())
def test_cards_are_conserved(game, data):
    deck = {"wish": wish_deck, "patient-pairs": standard_deck}[game]()
    start, steps, final = data.draw(random_games(game, {}))
    on_table = [c.id for p in final.board.piles for c in p.cards]
    removed = [card for _, events in steps for event in events for card in getattr(event, "cards", ())]
    assert sorted(on_table + removed) == [card.id for card in deck]
