"""Solitaire Wizard's powers: casting spells / using potions, and the magical power of Luck.

Every position keeps a move that can always be made (the 2 of moon back and forth between its
foundation and the 3 of fire), so no test ends in a loss by accident.
"""

from __future__ import annotations

import pytest

import engine
from engine.events import LuckPicked
from engine.intents import CastIntent, DealIntent, LuckIntent, MoveIntent, RecycleIntent
from tests.engine.test_wizard_positions import c, draw_order, ok, position, refused, suit_run

ICE = {rank: c(rank, "ice") for rank in range(4, 11)}  # fillers: they play nowhere below
LUCK = {rank: c(rank, "luck") for rank in range(4, 11)}


def live(stock, waste=(), extra=(), **flags) -> engine.GameState:
    """t0 = 3 of fire, t1 = King of ice, then `extra` piles; f0 = moon Wizard..2; never lost."""
    tableau = [[c(3, "fire")], [c("K", "ice")], *extra]
    return position(tableau=tableau, foundations=[suit_run("moon", 2)], stock=stock, waste=waste, **flags)


def info(state: engine.GameState) -> dict:
    return engine.player_view(state).info


# Casting spells and using potions ---------------------------------------------------------

@pytest.mark.parametrize("opener", [c(6, "spells"), c(6, "potions"), c("W", "spells"), c("W", "potions")])
def test_a_draw_showing_spells_or_potions_opens_a_cast(opener):
    """Ruling: a Spells or Potions card on top opens a cast; their Wizards belong to their suit."""
    state = ok(live([ICE[4], ICE[5], opener, ICE[6]]), DealIntent())
    assert info(state)["cast_open"] and CastIntent() in engine.legal_moves(state)


def test_no_cast_without_spells_or_potions_on_top():
    state = ok(live([c(6, "spells"), ICE[5], ICE[4], ICE[6]]), DealIntent())  # spells not on top
    assert not info(state)["cast_open"]
    refused(state, CastIntent(), text="no cast is open")


def test_a_cast_makes_the_next_draw_turn_one_card_then_draws_are_three_again():
    stock = [ICE[4], ICE[5], c(6, "spells"), ICE[6], ICE[7], ICE[8], ICE[9], ICE[10]]
    state = ok(ok(live(stock), DealIntent()), CastIntent())
    assert info(state)["cast_active"] and not info(state)["cast_open"]
    refused(state, CastIntent(), text="no cast is open")  # one cast per chance
    state, events = engine.play(DealIntent(), state)
    assert events[0].cards == (ICE[6].id,) and not info(state)["cast_active"]
    state, events = engine.play(DealIntent(), state)
    assert events[0].cards == (ICE[7].id, ICE[8].id, ICE[9].id)


def test_an_unused_cast_lapses_at_the_next_draw():
    """Ruling: the chance lapses at the next deal."""
    stock = [ICE[4], ICE[5], c(6, "spells"), ICE[6], ICE[7], ICE[8]]
    state = ok(ok(live(stock), DealIntent()), DealIntent())
    assert not info(state)["cast_open"]
    refused(state, CastIntent(), text="no cast is open")


def test_an_open_cast_survives_plays_and_a_recycle_even_when_its_card_is_played_away():
    """Ruling: an open cast survives plays and a recycle, even if the card that opened it is played away."""
    state = ok(live([ICE[4], ICE[5], c(6, "spells")], extra=[[c(7, "fire")]]), DealIntent())
    state = ok(state, MoveIntent("waste", "t2"))  # the 6 of spells goes onto the 7 of fire
    state = ok(state, MoveIntent("f0", "t0"))  # another play
    state = ok(state, RecycleIntent())
    assert info(state)["cast_open"]
    state = ok(ok(state, CastIntent()), DealIntent())
    assert state.board.waste == (ICE[4],)  # one card: the cast took effect after the recycle


def test_an_active_cast_survives_a_recycle():
    state = ok(ok(live([ICE[4], ICE[5], c(6, "spells")]), DealIntent()), CastIntent())
    state = ok(state, RecycleIntent())
    assert info(state)["cast_active"]
    state = ok(state, DealIntent())
    assert state.board.waste == (ICE[4],)


# The magical power of Luck ----------------------------------------------------------------

LUCK_STOCK = [
    ICE[4], ICE[5], c(6, "spells"),  # draw 1: opens a cast, which is taken
    LUCK[4],  # draw 2 turns one card: Luck (streak 1)
    ICE[8], ICE[9], c("W", "luck"),  # draw 3: the Luck Wizard counts as Luck (streak 2)
    ICE[10], ICE[6], LUCK[7],  # draw 4: Luck a third time -> luck pick opens
    c("Q", "moon"), ICE[7],
]


def _luck_opened() -> engine.GameState:
    state = ok(ok(live(LUCK_STOCK), DealIntent()), CastIntent())
    for streak in (1, 2):
        state = ok(state, DealIntent())
        assert info(state)["luck_streak"] == streak and not info(state)["luck_open"]
    return ok(state, DealIntent())


def test_luck_opens_after_three_draws_in_a_row_show_luck_and_the_count_restarts():
    """Ruling: three deals in a row with Luck on top (Luck Wizard included) open a pick; count restarts."""
    state = _luck_opened()
    assert info(state)["luck_open"] and info(state)["luck_streak"] == 0


def test_while_luck_is_open_the_view_shows_the_stock_and_nothing_of_it_is_hidden():
    """Ruling: while the chance is open the player's view shows the stock."""
    state = _luck_opened()
    stock_view = next(p for p in engine.player_view(state).piles if p.id == "stock")
    assert stock_view.down == 0 and stock_view.cards == (ICE[7], c("Q", "moon"))
    assert not engine.hidden_cards(state) & {ICE[7].id, c("Q", "moon").id}
    closed = next(p for p in engine.player_view(live(LUCK_STOCK)).piles if p.id == "stock")
    assert closed.down == len(LUCK_STOCK) and closed.cards == ()


def test_a_luck_pick_plays_any_stock_card_to_a_legal_place():
    state = _luck_opened()
    assert LuckIntent(c("Q", "moon").id, "t1") in engine.legal_moves(state)
    refused(state, LuckIntent(ICE[7].id, "t1"), text="does not go on")
    refused(state, LuckIntent(ICE[4].id, "t1"), text="not in the stock")
    refused(state, LuckIntent(c("Q", "moon").id, "waste"), text="tableau pile or a foundation")
    state, events = engine.play(LuckIntent(c("Q", "moon").id, "t1"), state)
    assert events == [LuckPicked(card=c("Q", "moon").id, dst="t1")]
    assert state.board.tableau[1].cards[-1] == c("Q", "moon") and draw_order(state) == [ICE[7]]
    assert not info(state)["luck_open"]
    assert ICE[7].id in engine.hidden_cards(state)  # the stock is hidden again


def test_an_unused_luck_pick_lapses_at_the_next_draw():
    """Ruling: the luck chance lapses at the next deal."""
    state = ok(_luck_opened(), DealIntent())
    assert not info(state)["luck_open"]
    refused(state, LuckIntent(ICE[7].id, "t1"), text="no luck pick is open")


def test_a_non_luck_draw_breaks_the_streak():
    """Ruling: only a deal whose top card is not Luck breaks a streak."""
    stock = [ICE[4], ICE[5], LUCK[4], ICE[6], ICE[7], LUCK[5], ICE[8], ICE[9], ICE[10], LUCK[6]]
    state = ok(ok(live(stock), DealIntent()), DealIntent())
    assert info(state)["luck_streak"] == 2
    state = ok(state, DealIntent())
    assert info(state)["luck_streak"] == 0
    state = ok(state, DealIntent())
    assert info(state)["luck_streak"] == 1 and not info(state)["luck_open"]


def test_plays_and_recycles_do_not_break_a_luck_streak():
    """Ruling: plays, casts and recycles do not break a streak (casts: see _luck_opened)."""
    state = ok(live([ICE[4], LUCK[4], LUCK[9]], extra=[[c(10, "stars")]]), DealIntent())
    state = ok(state, MoveIntent("waste", "t2"))  # play the 9 of luck away: Luck 4 now on top
    state = ok(ok(state, RecycleIntent()), DealIntent())
    assert info(state)["luck_streak"] == 2
    state = ok(ok(state, RecycleIntent()), DealIntent())
    assert info(state)["luck_open"]


def test_a_cast_does_not_break_a_luck_streak():
    """Ruling: casts do not break a streak (hand-made: a cast chance open with two Luck draws counted)."""
    state = live([LUCK[4], ICE[5], ICE[6]], waste=[c(6, "spells")], cast_open=True, luck_streak=2)
    state = ok(state, CastIntent())
    assert info(state)["luck_streak"] == 2
    state = ok(state, DealIntent())  # one card, the 4 of luck: the third Luck draw in a row
    assert state.board.waste[-1] == LUCK[4] and info(state)["luck_open"]


def test_an_open_luck_pick_survives_a_recycle_and_then_picks_from_the_new_stock():
    """Ruling: an open luck chance survives plays and a recycle."""
    state = position(
        tableau=[[c(3, "fire")], [c("K", "ice")]], foundations=[suit_run("moon", 2)],
        waste=[ICE[4], c("Q", "moon"), ICE[5]], luck_open=True,
    )
    state = ok(state, MoveIntent("f0", "t0"))
    state = ok(state, RecycleIntent())
    assert info(state)["luck_open"]
    ok(state, LuckIntent(c("Q", "moon").id, "t1"))
