"""Cards with identities, and the decks of the five games.

Every physical card has its own id (0..n-1 in the deck's documented order), so two copies of the
same rank and suit in a two-deck game are still different cards in a log or a replay.
"""

from __future__ import annotations

from functools import cache

from msgspec import Struct

SPADES, HEARTS, DIAMONDS, CLUBS = "spades", "hearts", "diamonds", "clubs"
FRENCH_SUITS = (SPADES, HEARTS, DIAMONDS, CLUBS)

# Solitaire Wizard's seven suits (docs/rules/solitaire-wizard.md); each suit is its own colour.
WIZARD_SUITS = ("moon", "stars", "fire", "ice", "potions", "spells", "luck")
WIZARD_COLOURS = {
    "moon": "silver",
    "stars": "gold",
    "fire": "red",
    "ice": "blue",
    "potions": "green",
    "spells": "purple",
    "luck": "orange",
}

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
WIZARD = 0  # the Wizard card of a Solitaire Wizard suit
RANK_NAMES = {0: "Wizard", 1: "A", 11: "J", 12: "Q", 13: "K"}


class Card(Struct, frozen=True, array_like=False, gc=False):
    """One physical card. `rank`: 0 Wizard, 1 Ace .. 13 King.

    `gc=False`: numbers and a string cannot make a cycle, and a tuple of cards can then be untracked by
    the collector's first look at it (engine/state.py says why that matters)."""

    id: int
    rank: int
    suit: str

    def label(self) -> str:
        return f"{RANK_NAMES.get(self.rank, str(self.rank))} of {self.suit}"


@cache  # a handful of decks, each built once: cards and their tuple are immutable, so every deal shares them
def build_deck(suits: tuple[str, ...], ranks: tuple[int, ...], copies: int = 1) -> tuple[Card, ...]:
    """Cards in deck order: for each copy, for each suit, each rank ascending. Ids follow that order."""
    cards: list[Card] = []
    for _ in range(copies):
        for suit in suits:
            for rank in ranks:
                cards.append(Card(len(cards), rank, suit))
    return tuple(cards)


FULL_RANKS = tuple(range(1, 14))


def standard_deck() -> tuple[Card, ...]:
    """52 cards: spades, hearts, diamonds, clubs; Ace..King."""
    return build_deck(FRENCH_SUITS, FULL_RANKS)


def wish_deck() -> tuple[Card, ...]:
    """32 cards: Ace and 7..King in the four suits (The Wish)."""
    return build_deck(FRENCH_SUITS, (ACE, 7, 8, 9, 10, JACK, QUEEN, KING))


def spider_deck(suits: int) -> tuple[Card, ...]:
    """104 cards: 1 suit = 8 x spades, 2 suits = 4 x (spades, hearts), 4 suits = 2 x all four."""
    chosen = {1: (SPADES,), 2: (SPADES, HEARTS), 4: FRENCH_SUITS}[suits]
    return build_deck(chosen, FULL_RANKS, copies=8 // len(chosen))


def wizard_deck() -> tuple[Card, ...]:
    """98 cards: seven suits, each Wizard (0), Ace (1) .. King (13)."""
    return build_deck(WIZARD_SUITS, tuple(range(0, 14)))
