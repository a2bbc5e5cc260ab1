"""Solitaire Wizard: winning, and losing only when no play can ever be made again.

The positions use the KINGS tableau (seven face-up Kings, no tableau move): a stock or waste card
plays only if it is a Queen or a Wizard, so where the one Queen of moon can surface decides.
"""

from __future__ import annotations

import engine
from engine.cards import WIZARD_SUITS
from engine.intents import CastIntent, DealIntent, LuckIntent, MoveIntent, RecycleIntent, ResignIntent
from tests.engine.test_wizard_positions import KINGS, c, ok, position, suit_run

QUEEN = c("Q", "moon")  # plays onto any King but the King of moon
F = {rank: c(rank, "fire") for rank in range(2, 11)}  # fillers that play nowhere


def test_nothing_reachable_is_lost_and_refuses_every_move_even_resign():
    state = position(tableau=KINGS, stock=[F[2], F[3], F[4], F[5]], waste=[F[6]])
    assert state.status == engine.LOST and engine.legal_moves(state) == []
    for intent in (DealIntent(), RecycleIntent(), MoveIntent("waste", "t1"), ResignIntent()):
        err = engine.decide(intent, state)
        assert isinstance(err, engine.RuleError) and err.code == "game_over"
    assert "stays lost" in engine.decide(ResignIntent(), state).message


def test_a_play_reachable_only_after_recycling_the_stock_is_not_a_loss():
    """Ruling: not lost while some sequence of deals and recycles brings a playable card on top."""
    # Drawing three at a time from here shows 7; after a recycle the first three are 3, 4, Queen.
    waste, stock = [F[3], F[4], QUEEN, F[5]], [F[6], F[7]]
    state = position(tableau=KINGS, waste=waste, stock=stock)
    assert state.status == engine.IN_PROGRESS
    state = ok(ok(ok(state, DealIntent()), RecycleIntent()), DealIntent())
    assert state.board.waste[-1] == QUEEN and MoveIntent("waste", "t1") in engine.legal_moves(state)


def test_the_same_position_without_a_recycle_left_is_lost():
    """Ruling: reachable means within the redeal limit."""
    waste, stock = [F[3], F[4], QUEEN, F[5]], [F[6], F[7]]
    assert position(tableau=KINGS, waste=waste, stock=stock, redeals=0).status == engine.LOST
    used = position(tableau=KINGS, waste=waste, stock=stock, redeals=2, redeals_used=2)
    assert used.status == engine.LOST
    assert position(tableau=KINGS, waste=waste, stock=stock, redeals=2, redeals_used=1).status == engine.IN_PROGRESS


def test_a_card_three_at_a_time_never_shows_is_lost_with_unlimited_recycles():
    """Cycling repeats the same groups of three forever: the search ends on repeated states."""
    state = position(tableau=KINGS, stock=[F[2], QUEEN, F[3], F[4], F[5], F[6]])
    assert state.status == engine.LOST


def test_a_play_reachable_only_through_a_cast_is_not_a_loss():
    """Ruling: casts count among the sequences that can bring a playable card on top."""
    stock = [F[3], F[4], c(5, "spells"), QUEEN, F[6], F[7]]
    state = position(tableau=KINGS, stock=stock, redeals=0)
    assert state.status == engine.IN_PROGRESS
    state = ok(ok(ok(state, DealIntent()), CastIntent()), DealIntent())
    assert state.board.waste[-1] == QUEEN
    plain = [F[3], F[4], F[5], QUEEN, F[6], F[7]]
    assert position(tableau=KINGS, stock=plain, redeals=0).status == engine.LOST


def test_a_play_reachable_only_through_a_luck_pick_is_not_a_loss():
    """Ruling: not lost while deals can open a luck pick (with a card to play)."""
    stock = [F[3], F[4], c(2, "luck"), F[5], F[6], c(3, "luck"), F[7], F[8], c(4, "luck"), F[9], QUEEN, F[10]]
    state = position(tableau=KINGS, stock=stock, redeals=0)
    assert state.status == engine.IN_PROGRESS
    for _ in range(3):
        state = ok(state, DealIntent())
    ok(state, LuckIntent(QUEEN.id, "t1"))
    no_luck = stock[:8] + [c(4, "ice")] + stock[9:]
    assert position(tableau=KINGS, stock=no_luck, redeals=0).status == engine.LOST


def test_a_luck_pick_with_nothing_to_place_is_no_play():
    """Choice (docs): an open luck chance whose stock holds nothing playable does not stave off a loss."""
    state = position(tableau=KINGS, stock=[F[2], F[3]], luck_open=True, redeals=0)
    assert state.status == engine.LOST
    playable = position(tableau=KINGS, stock=[F[2], QUEEN], luck_open=True, redeals=0)
    assert playable.status == engine.IN_PROGRESS


def test_an_open_cast_is_a_move_so_the_game_goes_on_until_it_is_used():
    """Ruling: no loss while a cast is open; once cast, nothing is reachable and the game is lost."""
    state = position(tableau=KINGS, stock=[F[2], F[3]], waste=[c(5, "spells")], cast_open=True)
    assert state.status == engine.IN_PROGRESS
    assert ok(state, CastIntent()).status == engine.LOST


def test_a_pointless_move_keeps_the_game_going():
    """Ruling: every move the rules allow is legal, even back and forth; no loss while one exists."""
    state = position(tableau=[[c(3, "fire")]], foundations=[suit_run("moon", 2)], stock=[F[4]])
    assert state.status == engine.IN_PROGRESS
    state = ok(ok(state, MoveIntent("f0", "t0")), MoveIntent("t0", "f0"))
    assert state.status == engine.IN_PROGRESS


def test_all_98_cards_on_the_foundations_win_and_a_won_game_takes_nothing_more():
    foundations = [suit_run(suit, 13) for suit in WIZARD_SUITS]
    foundations[6] = foundations[6][:-1]  # the King of luck still to play, from the waste
    state = position(foundations=foundations, waste=[c("K", "luck")])
    assert state.status == engine.IN_PROGRESS
    state = ok(state, MoveIntent("waste", "f6"))
    assert state.status == engine.WON and engine.hidden_cards(state) == frozenset()
    for intent in (MoveIntent("f6", "t0"), ResignIntent(), DealIntent()):
        err = engine.decide(intent, state)
        assert isinstance(err, engine.RuleError) and err.code == "game_over"
