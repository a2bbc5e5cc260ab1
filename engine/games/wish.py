"""The Wish: 32 cards (A, 7..K) in 8 piles of 4, three face down under one face up.

Variant ``mode``: ``standard`` (the text's rules) or ``open`` (every card dealt face up, the
text's optional variant). See docs/rules/the-wish.md.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct

from ..cards import Card, wish_deck
from ..variants import preset
from .pairing import PairingRules


class WishVariant(Struct, frozen=True, forbid_unknown_fields=True):
    mode: Annotated[
        Literal["standard", "open"], Meta(title="Mode", description="open: every card is dealt face up")
    ] = "standard"


class WishRules(PairingRules[WishVariant]):
    game_id = "wish"
    title = "The Wish"
    blurb = "32 cards in 8 piles. Pair off top cards of equal rank until every pile is gone."
    variant_type = WishVariant
    presets = (
        preset("Standard (3 face down)", WishVariant("standard"), id="standard"),
        preset("Open (all face up)", WishVariant("open"), id="open"),
    )
    has_solver = True
    daily_eligible = race_eligible = True

    def deck(self) -> tuple[Card, ...]:
        return wish_deck()

    def pile_sizes(self, variant: WishVariant) -> tuple[int, ...]:
        return (4,) * 8

    def face_down(self, variant: WishVariant) -> bool:
        return variant.mode == "standard"


RULES = WishRules()
