"""Solitaire Wizard's board and the placement rules shared by the rules module and the loss search.

Pile names: ``t0``..``t6`` tableau, ``f0``..``f6`` foundations, ``waste``, ``stock``. Only the
tableau and the foundations ever receive a card; the stock only deals.
"""

from __future__ import annotations

from typing import Iterator

from msgspec import Struct

from ..cards import KING, WIZARD, Card
from ..intents import AnyIntent, CastIntent, LuckIntent, MoveIntent
from ..piles import Pile

TABLEAU_PILES = 7
FOUNDATIONS = 7
DECK_SIZE = 98
CAST_SUITS = frozenset({"spells", "potions"})  # a draw showing one of these opens a cast
LUCK_SUIT = "luck"

TABLEAU_NAMES = tuple(f"t{i}" for i in range(TABLEAU_PILES))
FOUNDATION_NAMES = tuple(f"f{i}" for i in range(FOUNDATIONS))
# Canonical pile names only ("t01" is not t1), so an accepted intent always equals a listed one.
PILE_NAMES: dict[str, tuple[str, int]] = {
    **{name: ("tableau", i) for i, name in enumerate(TABLEAU_NAMES)},
    **{name: ("foundation", i) for i, name in enumerate(FOUNDATION_NAMES)},
    "waste": ("waste", 0),
    "stock": ("stock", 0),
}


class WizardBoard(Struct, frozen=True):
    """The whole table. `stock[-1]` is the next card drawn; `waste[-1]` is the one card that plays.

    The flags belong to the stock cycle: `cast_open` (the last draw showed Spells or Potions and
    no cast was made yet), `cast_active` (a cast was made: the next draw turns one card),
    `luck_open` (a luck pick may be made), `luck_streak` (draws in a row that showed Luck since
    the streak last restarted) and `redeals_used` (recycles so far).
    """

    tableau: tuple[Pile, ...]
    foundations: tuple[Pile, ...]
    stock: tuple[Card, ...]
    waste: tuple[Card, ...] = ()
    cast_open: bool = False
    cast_active: bool = False
    luck_open: bool = False
    luck_streak: int = 0
    redeals_used: int = 0


def fits_tableau(head: Card, pile: Pile) -> bool:
    """Can a card (or a run headed by it) go onto this tableau pile? Wizards never go there."""
    if head.rank == WIZARD:
        return False
    top = pile.top
    if top is None:
        return head.rank == KING
    return top.rank == head.rank + 1 and top.suit != head.suit


def fits_foundation(card: Card, slot: Pile) -> bool:
    """A Wizard starts any empty slot; a slot then builds up in its Wizard's suit, Ace to King."""
    top = slot.top
    if top is None:
        return card.rank == WIZARD
    return top.suit == card.suit and top.rank == card.rank - 1


def is_run(cards: tuple[Card, ...]) -> bool:
    """Cards (bottom to top) built down by one in a different suit each step, no Wizard among them."""
    if any(card.rank == WIZARD for card in cards):
        return False
    return all(
        upper.rank == lower.rank - 1 and upper.suit != lower.suit for lower, upper in zip(cards, cards[1:])
    )


def can_play_somewhere(card: Card, board: WizardBoard) -> bool:
    """Could this single card be placed on some tableau pile or foundation as they lie now?"""
    return any(fits_foundation(card, slot) for slot in board.foundations) or any(
        fits_tableau(card, pile) for pile in board.tableau
    )


def destinations(card: Card, board: WizardBoard) -> Iterator[str]:
    """Every pile name a single card may go to: foundations first, then tableau piles."""
    for i, slot in enumerate(board.foundations):
        if fits_foundation(card, slot):
            yield FOUNDATION_NAMES[i]
    for i, pile in enumerate(board.tableau):
        if fits_tableau(card, pile):
            yield TABLEAU_NAMES[i]


def plays(board: WizardBoard) -> Iterator[AnyIntent]:
    """Every play now: card moves, luck picks and a cast (not draws and recycles), in a fixed order."""
    for s, pile in enumerate(board.tableau):
        face_up = pile.face_up
        for count in range(1, len(face_up) + 1):
            run = face_up[-count:]
            if not is_run(run):
                break  # a longer run contains this broken one
            head = run[0]
            if count == 1:
                for dst in destinations(head, board):
                    if dst != TABLEAU_NAMES[s]:
                        yield MoveIntent(TABLEAU_NAMES[s], dst, 1)
                continue
            for d, target in enumerate(board.tableau):
                if d != s and fits_tableau(head, target):
                    yield MoveIntent(TABLEAU_NAMES[s], TABLEAU_NAMES[d], count)
    if board.waste:
        for dst in destinations(board.waste[-1], board):
            yield MoveIntent("waste", dst, 1)
    for s, slot in enumerate(board.foundations):
        top = slot.top
        if top is not None and top.rank != WIZARD:
            for d, target in enumerate(board.tableau):
                if fits_tableau(top, target):
                    yield MoveIntent(FOUNDATION_NAMES[s], TABLEAU_NAMES[d], 1)
    if board.luck_open:
        for card in reversed(board.stock):  # next card to be drawn first
            for dst in destinations(card, board):
                yield LuckIntent(card.id, dst)
    if board.cast_open:
        yield CastIntent()


def draw_flags(luck_streak: int, top: Card) -> tuple[bool, bool, int]:
    """(cast_open, luck_open, luck_streak) after a draw showing `top`, given the streak before it."""
    cast_open = top.suit in CAST_SUITS
    if top.suit != LUCK_SUIT:
        return cast_open, False, 0
    streak = luck_streak + 1
    if streak == 3:
        return cast_open, True, 0
    return cast_open, False, streak
