"""Solitaire Wizard's board and the placement rules shared by the rules module and the loss search.

Pile names: ``t0``..``t6`` tableau, ``f0``..``f6`` foundations, ``waste``, ``stock``. Only the
tableau and the foundations ever receive a card; the stock only deals.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator


from ..cards import KING, WIZARD, Card
from ..intents import AnyIntent, CastIntent, LuckIntent, MoveIntent
from ..piles import Pile
from .wizard_board import WizardBoard as WizardBoard  # re-exported: the solver and the rules import it from here

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
    """Cards (bottom to top) that move together: one card, or a run built down by one in a
    different suit each step with no Wizard in it (a Wizard on an Ace would be "one lower")."""
    if len(cards) > 1 and any(card.rank == WIZARD for card in cards):
        return False
    return all(
        upper.rank == lower.rank - 1 and upper.suit != lower.suit for lower, upper in zip(cards, cards[1:])
    )


def run_length(face_up: tuple[Card, ...]) -> int:
    """How many cards at the top of these face-up cards form a run that moves as a unit (0 if none).
    The pairs `is_run` checks, read in place (the solvers call this at every node): a card lies on
    the next lower one when it is one rank lower and of another suit; a Wizard (rank 0) is never
    in a run of two, and only a top card can be one (nothing is one rank lower)."""
    count = len(face_up)
    if count < 2:
        return count
    upper = face_up[-1]
    if upper.rank == WIZARD:
        return 1
    index = count - 2
    while index >= 0:
        lower = face_up[index]
        if upper.rank != lower.rank - 1 or upper.suit == lower.suit:
            break
        upper = lower
        index -= 1
    return count - 1 - index


def can_play_somewhere(card: Card, board: WizardBoard) -> bool:
    """Could this single card be placed on some tableau pile or foundation as they lie now?"""
    return any(fits_foundation(card, slot) for slot in board.foundations) or any(
        fits_tableau(card, pile) for pile in board.tableau
    )


def playable_cards(board: WizardBoard) -> Callable[[Card], bool]:
    """A fast test equal to `can_play_somewhere(card, board)`, for checking many cards at once:
    the foundations want their next cards (and any Wizard while a slot is empty), each tableau top
    wants one lower in another suit, and an empty pile wants a King."""
    wanted: set[tuple[int, str]] = set()
    empty_slot = False
    for slot in board.foundations:
        top = slot.top
        if top is None:
            empty_slot = True
        elif top.rank < KING:
            wanted.add((top.rank + 1, top.suit))
    below: dict[int, set[str]] = {}  # rank wanted on the tableau -> suits of the tops wanting it
    empty_pile = False
    for pile in board.tableau:
        top = pile.top
        if top is None:
            empty_pile = True
        elif top.rank > 1:
            below.setdefault(top.rank - 1, set()).add(top.suit)

    def playable(card: Card) -> bool:
        if card.rank == WIZARD:
            return empty_slot
        if (card.rank, card.suit) in wanted or (card.rank == KING and empty_pile):
            return True
        suits = below.get(card.rank)
        return suits is not None and (len(suits) > 1 or card.suit not in suits)

    return playable


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
        if not face_up:
            continue
        for dst in destinations(face_up[-1], board):
            if dst != TABLEAU_NAMES[s]:
                yield MoveIntent(TABLEAU_NAMES[s], dst, 1)
        # Longer runs: the ranks of a run rise by one per card from the top down, so each target
        # pile can take at most one of its heads, the one a rank below the target's top (or a King
        # for an empty pile): one check per target instead of one per head and target.
        run = run_length(face_up)
        top_rank = face_up[-1].rank
        for d, target in enumerate(board.tableau):
            if d == s:
                continue
            wanted = KING if not target.cards else target.cards[-1].rank - 1
            count = wanted - top_rank + 1
            if 2 <= count <= run and fits_tableau(face_up[-count], target):
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
