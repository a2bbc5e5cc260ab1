"""Hand-made Solitaire Wizard positions for the scripted tests: the board struct built directly.

Imported by the other test_wizard_* modules; the tests at the end pin what the builder means.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Sequence

import engine
from engine.cards import WIZARD_SUITS, Card, wizard_deck
from engine.games.wizard import RULES, WizardVariant
from engine.games.wizard_moves import WizardBoard
from engine.piles import Pile

DECK = wizard_deck()
NAMES = {"W": 0, "A": 1, "J": 11, "Q": 12, "K": 13}


def c(rank: int | str, suit: str) -> Card:
    """The card of that rank ("W", "A", 2..10, "J", "Q", "K") and suit (full suit name)."""
    value = NAMES[rank] if isinstance(rank, str) else rank
    return DECK[WIZARD_SUITS.index(suit) * 14 + value]


def suit_run(suit: str, top: int) -> list[Card]:
    """A foundation built from the Wizard up to rank `top` of `suit`."""
    return [c(rank, suit) for rank in range(0, top + 1)]


# Seven face-up Kings, one per suit: no tableau move, and a stock card can only play if it is a
# Queen (onto a King of another suit) or a Wizard (onto an empty foundation).
KINGS = [[c("K", suit)] for suit in WIZARD_SUITS]


def position(
    tableau: Sequence[Sequence[Card]] = (),
    foundations: Sequence[Sequence[Card]] = (),
    stock: Sequence[Card] = (),
    waste: Sequence[Card] = (),
    down: Sequence[int] = (),
    redeals: int | None = None,
    **flags: Any,
) -> engine.GameState:
    """A game state on a hand-made board. `stock` is given in draw order (first drawn first).

    Missing tableau piles and foundations are empty; `down` gives face-down counts per pile;
    `flags` set the board's cast/luck/redeal fields. The status is computed as after a move.
    """
    piles = [Pile(tuple(cards), down[i] if i < len(down) else 0) for i, cards in enumerate(tableau)]
    piles += [Pile()] * (7 - len(piles))
    slots = [Pile(tuple(cards)) for cards in foundations] + [Pile()] * (7 - len(foundations))
    board = WizardBoard(tuple(piles), tuple(slots), tuple(reversed(stock)), tuple(waste), **flags)
    variant = WizardVariant(redeals=redeals)
    return engine.GameState("wizard", variant, 0, board, status=RULES.outcome(board, variant))


def draw_order(state: engine.GameState) -> list[Card]:
    return list(reversed(state.board.stock))


def ok(state: engine.GameState, intent) -> engine.GameState:
    """Play an intent that must be legal; also check legal_moves lists it."""
    assert intent in engine.legal_moves(state), (intent, engine.legal_moves(state))
    result = engine.play(intent, state)
    assert not isinstance(result, engine.RuleError), result
    return result[0]


def refused(state: engine.GameState, intent, code: str = "illegal_move", text: str = "") -> engine.RuleError:
    """Play an intent that must be refused with `code` (and a message containing `text`)."""
    assert intent not in engine.legal_moves(state)
    result = engine.play(intent, state)
    assert isinstance(result, engine.RuleError), (intent, result)
    assert result.code == code, result
    assert text in result.message, result.message
    return result


# The builder is shared by the other wizard test modules; these tests pin what it means.

def test_position_takes_the_stock_in_draw_order_and_pads_the_piles():
    state = position(tableau=[[c(5, "fire")]], stock=[c(2, "moon"), c(3, "moon")])
    assert draw_order(state) == [c(2, "moon"), c(3, "moon")]
    assert state.board.stock[-1] == c(2, "moon")  # the board keeps the next card on top
    assert len(state.board.tableau) == 7 and len(state.board.foundations) == 7


def test_card_lookup_names_rank_and_suit():
    assert c("W", "luck").rank == 0 and c("W", "luck").suit == "luck"
    assert c("Q", "ice").rank == 12 and c(7, "stars").label() == "7 of stars"
