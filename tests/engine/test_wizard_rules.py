"""Solitaire Wizard: one scripted test per rule of docs/rules/solitaire-wizard.md.

Positions are hand-made (tests/engine/test_wizard_positions.py); "ruling:" in a docstring quotes
the point of docs/rules/solitaire-wizard.md the test pins.
"""

from __future__ import annotations

import engine
from engine.cards import wizard_deck
from engine.intents import DealIntent, MoveIntent, PairIntent, RecycleIntent, UndoIntent
from engine.piles import deal_rows
from engine.shuffle import deal_key, shuffled
from tests.engine.test_wizard_positions import KINGS, c, draw_order, ok, position, refused, suit_run

FIRE = [c(rank, "fire") for rank in range(2, 11)]  # fillers that never play on the KINGS tableau


# Deal and variant ---------------------------------------------------------------------------

def test_deal_follows_the_text_seven_piles_of_one_to_seven_top_face_up_seventy_in_stock():
    """The text's row-by-row deal: row r gives pile r a face-up card and piles r+1..6 a face-down one."""
    state = engine.initial_state("wizard", None, 5)
    cards = shuffled(wizard_deck(), deal_key("wizard", "redeals=None", 5))
    rows = deal_rows(cards, (1, 2, 3, 4, 5, 6, 7))
    for i, pile in enumerate(state.board.tableau):
        assert list(pile.cards) == rows[i] and pile.down == i
    assert rows[1][0] == cards[1] and rows[1][1] == cards[7]  # pile 2: bottom in row 1, top in row 2
    assert draw_order(state) == list(cards[28:])  # the rest of the deck, its front drawn first
    assert all(not slot.cards for slot in state.board.foundations) and state.board.waste == ()


def test_bad_variants_are_refused():
    for bad in ({"redeals": -1}, {"redeals": "2"}, {"redeals": 1.5}, {"redeals": True}, {"redeal": 1}):
        err = engine.initial_state("wizard", bad, 1)
        assert isinstance(err, engine.RuleError) and err.code == "bad_variant", bad
    assert "redeals must be 0 or more" in engine.initial_state("wizard", {"redeals": -1}, 1).message


# Foundations --------------------------------------------------------------------------------

def test_any_wizard_starts_any_empty_foundation_slot():
    """Ruling: any Wizard may start an empty slot at any time."""
    state = position(tableau=[[c(5, "fire")]], waste=[c("W", "ice")], foundations=[[c("W", "moon")]])
    legal = engine.legal_moves(state)
    for slot in range(1, 7):
        assert MoveIntent("waste", f"f{slot}") in legal
    refused(state, MoveIntent("waste", "f0"), text="starts an empty foundation")
    state = ok(state, MoveIntent("waste", "f4"))
    assert state.board.foundations[4].cards == (c("W", "ice"),)


def test_a_slot_builds_up_in_its_wizards_suit_from_ace_to_king():
    state = position(
        tableau=[[c("A", "moon")], [c("A", "fire")], [c(2, "moon")]], foundations=[[c("W", "moon")]]
    )
    refused(state, MoveIntent("t1", "f0"), text="does not follow")  # wrong suit
    refused(state, MoveIntent("t2", "f0"), text="does not follow")  # skips the Ace
    refused(state, MoveIntent("t0", "f1"), text="does not follow")  # an empty slot takes only a Wizard
    state = ok(state, MoveIntent("t0", "f0"))
    state = ok(state, MoveIntent("t2", "f0"))
    assert [card.rank for card in state.board.foundations[0].cards] == [0, 1, 2]


def test_foundation_top_card_moves_back_to_the_tableau():
    """Ruling: the top card of a foundation (never the Wizard) may move back to the tableau."""
    state = position(tableau=[[c(3, "fire")], [c(3, "moon")]], foundations=[suit_run("moon", 2)])
    assert MoveIntent("f0", "t0") in engine.legal_moves(state)
    refused(state, MoveIntent("f0", "t1"), text="different suit")
    refused(state, MoveIntent("f0", "f1"), text="only go back to a tableau")
    state = ok(state, MoveIntent("f0", "t0"))
    assert state.board.tableau[0].cards == (c(3, "fire"), c(2, "moon"))
    assert state.board.foundations[0].cards == (c("W", "moon"), c("A", "moon"))


def test_wizard_never_leaves_a_foundation():
    """Ruling: Wizards never leave a foundation."""
    state = position(tableau=[[c(3, "fire")], [], [c(2, "ice")]], foundations=[[c("W", "moon")]])
    for dst in ("t0", "t1", "f1"):
        refused(state, MoveIntent("f0", dst), text="never leaves")


def test_wizard_never_goes_to_the_tableau():
    """Ruling: Wizards never go to the tableau, not even onto an Ace (one lower, other suit)."""
    state = position(tableau=[[c("A", "fire")], []], waste=[c("W", "moon")])
    refused(state, MoveIntent("waste", "t0"), text="never goes to the tableau")
    refused(state, MoveIntent("waste", "t1"), text="never goes to the tableau")


# Tableau ------------------------------------------------------------------------------------

def test_tableau_builds_down_by_one_in_a_different_suit():
    state = position(tableau=[[c(9, "fire")], [c(8, "fire")], [c(7, "ice")], [c(8, "ice")]])
    refused(state, MoveIntent("t1", "t0"), text="different suit")  # same suit
    refused(state, MoveIntent("t2", "t0"), text="one lower")  # two lower
    state = ok(state, MoveIntent("t3", "t0"))
    assert [card.id for card in state.board.tableau[0].cards] == [c(9, "fire").id, c(8, "ice").id]


def test_a_run_moves_as_a_unit_and_the_card_beneath_flips():
    run = [c(9, "moon"), c(8, "fire"), c(7, "ice")]
    state = position(tableau=[[c(2, "luck")] + run, [c(10, "stars")]], down=[1])
    refused(state, MoveIntent("t0", "t1", 2), text="does not go on")
    refused(state, MoveIntent("t0", "t1", 4), text="face-up card(s), not 4")
    state = ok(state, MoveIntent("t0", "t1", 3))
    assert state.board.tableau[1].cards == (c(10, "stars"), *run)
    assert state.board.tableau[0].down == 0 and state.board.tableau[0].cards == (c(2, "luck"),)


def test_a_broken_run_does_not_move_as_a_unit():
    state = position(tableau=[[c(9, "moon"), c(8, "moon"), c(7, "ice")], [c(10, "stars")], [c(6, "fire")]])
    refused(state, MoveIntent("t0", "t1", 3), text="not a run")


def test_only_a_king_or_a_run_headed_by_a_king_fills_an_empty_pile():
    """Ruling: only a King, or a run headed by a King, may fill an empty pile."""
    state = position(
        tableau=[[c(3, "moon"), c("K", "fire"), c("Q", "ice")], [c("Q", "moon")], []], down=[1]
    )
    refused(state, MoveIntent("t1", "t2"), text="only a King")
    refused(state, MoveIntent("t0", "t2", 1), text="only a King")
    state = ok(state, MoveIntent("t0", "t2", 2))
    assert state.board.tableau[2].cards == (c("K", "fire"), c("Q", "ice"))
    assert state.board.tableau[0].down == 0  # the 3 of moon turned face up


# Waste and stock ----------------------------------------------------------------------------

def test_a_draw_turns_three_cards_and_only_the_top_of_the_waste_plays():
    stock = [c(2, "moon"), c(3, "moon"), c("Q", "moon"), c(4, "moon")]
    state = position(tableau=KINGS, stock=stock)
    state, events = engine.play(DealIntent(), state)
    assert events == [engine.events.StockDealt(cards=tuple(card.id for card in stock[:3]))]
    assert state.board.waste == tuple(stock[:3]) and draw_order(state) == stock[3:]
    assert MoveIntent("waste", "t1") in engine.legal_moves(state)  # the Queen on top plays
    refused(state, MoveIntent("waste", "t0"), text="different suit")  # the King of moon
    refused(state, MoveIntent("waste", "t1", 2), text="moves as a unit")
    state = ok(state, MoveIntent("waste", "t1"))
    refused(state, MoveIntent("waste", "t1"), text="does not go on")  # now the 3 is on top
    state = ok(state, DealIntent())  # fewer than three remain: one card
    assert state.board.waste[-1] == c(4, "moon") and state.board.stock == ()
    refused(state, DealIntent(), text="stock is empty")


def test_the_stock_is_not_a_source_and_unknown_piles_are_named():
    state = position(tableau=KINGS, stock=[c("Q", "moon")], luck_open=True)
    refused(state, MoveIntent("stock", "t0"), text="only deals")
    refused(state, MoveIntent("t0", "waste"), text="only onto tableau piles and foundations")
    refused(state, MoveIntent("t9", "t0"), code="no_such_pile", text="'t9'")
    refused(state, MoveIntent("t01", "t0"), code="no_such_pile")
    refused(state, MoveIntent("t0", "t1", 0), text="count must be 1 or more")
    refused(state, PairIntent(0, 1), code="not_supported")
    refused(state, UndoIntent(), code="not_supported")


def test_recycle_turns_the_waste_over_so_the_stock_replays_in_the_same_order():
    stock = [c(rank, "fire") for rank in range(2, 7)] + [c("Q", "moon")]
    state = position(tableau=KINGS, stock=stock)
    refused(state, RecycleIntent(), text="still has cards")
    state = ok(ok(state, DealIntent()), DealIntent())
    state = ok(state, RecycleIntent())
    assert draw_order(state) == stock and state.board.waste == ()
    assert engine.player_view(state).info["redeals_used"] == 1
    refused(state, RecycleIntent(), text="still has cards")


def test_redeal_limit_counts_recycles_and_zero_means_none():
    stock = [c(2, "fire"), c("Q", "moon")]
    state = ok(position(tableau=KINGS, stock=stock, redeals=1), DealIntent())
    assert engine.player_view(state).info["redeals_left"] == 1
    state = ok(ok(state, RecycleIntent()), DealIntent())
    assert engine.player_view(state).info["redeals_left"] == 0
    refused(state, RecycleIntent(), text="no recycle left")
    none = ok(position(tableau=KINGS, stock=stock, redeals=0), DealIntent())
    refused(none, RecycleIntent(), text="this game allows 0")
    unlimited = position(tableau=KINGS, waste=stock)
    assert engine.player_view(unlimited).info["redeals_left"] is None


def test_recycle_with_an_empty_waste_is_refused():
    state = position(tableau=[[c(3, "fire")], [c(2, "ice")]])
    refused(state, RecycleIntent(), text="nothing to recycle")


def test_a_wizard_dealt_to_the_tableau_moves_to_a_foundation_and_the_card_beneath_flips():
    """Ruling: any Wizard may start an empty slot at any time, wherever it lies."""
    state = position(tableau=[[c(5, "fire"), c("W", "stars")], [c("A", "stars")]], down=[1])
    assert MoveIntent("t0", "f0") in engine.legal_moves(state)
    refused(state, MoveIntent("t0", "t1"), text="never goes to the tableau")
    state = ok(state, MoveIntent("t0", "f2"))
    assert state.board.foundations[2].cards == (c("W", "stars"),) and state.board.tableau[0].down == 0
    state = ok(state, MoveIntent("t1", "f2"))


def test_a_wizard_is_never_part_of_a_moving_run():
    """A Wizard on an Ace is "one lower, other suit", but Wizards never go to the tableau."""
    state = position(tableau=[[c(2, "moon"), c("A", "fire"), c("W", "ice")], [c(3, "stars")], [c(2, "ice")]])
    refused(state, MoveIntent("t0", "t1", 3), text="not a run")
    refused(state, MoveIntent("t0", "t2", 2), text="not a run")
    assert not [m for m in engine.legal_moves(state) if isinstance(m, MoveIntent) and m.count > 1]
