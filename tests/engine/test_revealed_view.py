"""engine.revealed_view: the deal as dealt, every card face up, in the player view's own shape."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings

import engine
from engine.intents import DealIntent
from tests.strategies import registered_variants, seeds

CASES = registered_variants()
IDS = [f"{game}-{msgspec.json.encode(variant).decode()}" for game, variant in CASES]
DECK_SIZES = {"wish": 32, "patient-pairs": 52, "spider": 104, "wizard": 98, "wading-pool": 52}


@pytest.mark.parametrize(("game", "variant"), CASES, ids=IDS)
@settings(max_examples=25)
@given(seed=seeds)
def test_the_revealed_view_hides_nothing_and_holds_the_dealt_cards(game, variant, seed):
    start = engine.initial_state(game, variant, seed)
    shown = engine.player_view(start)
    revealed = engine.revealed_view(game, variant, seed)
    assert isinstance(revealed, engine.PlayerView)
    assert all(pile.down == 0 for pile in revealed.piles)
    ids = [card.id for pile in revealed.piles for card in pile.cards]
    assert sorted(ids) == list(range(DECK_SIZES[game])), "every card of the deck, each once"
    assert engine.hidden_cards(start) <= set(ids)
    # Pile for pile the player's own view of the deal, its hidden cards turned up.
    assert [(p.id, p.kind) for p in revealed.piles] == [(p.id, p.kind) for p in shown.piles]
    for seen, full in zip(shown.piles, revealed.piles):
        assert len(full.cards) == seen.down + len(seen.cards), seen.id
        if seen.kind != "stock":  # a stock shows no card face up; the others show their top cards
            assert full.cards[len(full.cards) - len(seen.cards) :] == seen.cards, seen.id
    assert (revealed.game, revealed.variant, revealed.moves, revealed.undos) == (
        shown.game, shown.variant, 0, 0)
    assert revealed.legal == () and revealed.status == start.status and revealed.info == shown.info
    assert engine.revealed_view(game, variant, seed) == revealed  # a pure function of the deal


@pytest.mark.parametrize("game", ["wish", "patient-pairs", "wading-pool"])
def test_the_pairing_and_open_games_reveal_the_board_as_dealt(game):
    start = engine.initial_state(game, None, 11)
    revealed = engine.revealed_view(game, None, 11)
    assert [pile.cards for pile in revealed.piles] == [pile.cards for pile in start.board.piles]


def test_a_spider_stock_is_revealed_bottom_to_top_the_next_card_dealt_last():
    start = engine.initial_state("spider", {"suits": 2}, 9)
    revealed = {pile.id: pile for pile in engine.revealed_view("spider", {"suits": 2}, 9).piles}
    assert [revealed[f"t{i}"].cards for i in range(10)] == [column.cards for column in start.board.columns]
    stock = revealed["stock"].cards
    dealt, _ = engine.play(DealIntent(), start)
    assert [dealt.board.columns[i].cards[-1] for i in range(10)] == list(reversed(stock[-10:]))


def test_a_wizard_stock_is_revealed_bottom_to_top_the_next_card_drawn_last():
    start = engine.initial_state("wizard", None, 4)
    revealed = {pile.id: pile for pile in engine.revealed_view("wizard", None, 4).piles}
    assert [revealed[f"t{i}"].cards for i in range(7)] == [pile.cards for pile in start.board.tableau]
    stock = revealed["stock"].cards
    drawn, _ = engine.play(DealIntent(), start)
    assert drawn.board.waste == tuple(reversed(stock[-3:]))  # three drawn, the first off lies lowest


def test_an_unknown_game_or_bad_variant_or_seed_is_a_clear_error():
    for game, variant, seed, code in [("chess", None, 1, "unknown_game"), ("spider", {"suits": 3}, 1, "bad_variant"),
                                      ("wish", None, -1, "bad_seed")]:
        error = engine.revealed_view(game, variant, seed)
        assert isinstance(error, engine.RuleError) and error.code == code and error.message
