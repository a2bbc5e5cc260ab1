"""Piles shared by every game: a stack of cards, the bottom `down` of them face down."""

from __future__ import annotations

from functools import cache

from msgspec import Struct

from .cards import Card


class Pile(Struct, frozen=True, gc=False):
    """cards[0] is the bottom, cards[-1] the top (the playable end); cards[:down] are face down."""

    cards: tuple[Card, ...] = ()
    down: int = 0

    @property
    def top(self) -> Card | None:
        return self.cards[-1] if self.cards else None

    @property
    def face_up(self) -> tuple[Card, ...]:
        return self.cards[self.down :]

    def __len__(self) -> int:
        return len(self.cards)

    def take(self, count: int = 1) -> tuple[Pile, tuple[Card, ...]]:
        """Remove the top `count` cards; the new top card flips face up if it was face down."""
        rest = self.cards[:-count]
        return Pile(rest, min(self.down, max(len(rest) - 1, 0))), self.cards[-count:]

    def put(self, cards: tuple[Card, ...]) -> Pile:
        return Pile(self.cards + cards, self.down)


def suit_run(pile: Pile) -> int:
    """How many face-up cards at the top form one suit in descending order, each one rank below
    the card under it (0 when no card is face up). Spider and Wading Pool move such runs as a unit."""
    cards = pile.cards
    if len(cards) <= pile.down:
        return 0
    length = 1
    lowest = len(cards) - 1
    while lowest - length >= pile.down:
        above, below = cards[lowest - length + 1], cards[lowest - length]
        if below.suit != above.suit or below.rank != above.rank + 1:
            break
        length += 1
    return length


def deal_rows(cards: tuple[Card, ...], sizes: tuple[int, ...]) -> list[list[Card]]:
    """Deal like a person: one card to each pile in turn (left to right), skipping full piles.

    With sizes (7, 7, 6) the first round gives piles 0, 1, 2 their bottom cards, and so on; the
    cards are taken from the front of `cards`. Every game's documented deal goes through here.
    """
    piles: list[list[Card]] = [[] for _ in sizes]
    for card, index in zip(cards, _dealing_order(sizes)):
        piles[index].append(card)
    return piles


@cache  # a game has a few pile layouts; every deal of one goes round its piles in the same order
def _dealing_order(sizes: tuple[int, ...]) -> tuple[int, ...]:
    """The pile each card in turn goes to (see deal_rows)."""
    return tuple(index for layer in range(max(sizes, default=0)) for index, size in enumerate(sizes) if layer < size)


def replace(piles: tuple[Pile, ...], changes: dict[int, Pile]) -> tuple[Pile, ...]:
    return tuple(changes.get(i, pile) for i, pile in enumerate(piles))
