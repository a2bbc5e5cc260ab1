"""The Wish: 32 cards (A, 7..K) in 8 piles of 4, three face down under one face up.

Variant ``mode``: ``standard`` (the text's rules) or ``open`` (every card dealt face up, the
text's optional variant). See docs/rules/the-wish.md.
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct

from ..cards import wish_deck
from ..rules import register
from .pairing import PairingRules


class WishVariant(Struct, frozen=True, forbid_unknown_fields=True):
    mode: Literal["standard", "open"] = "standard"


class WishRules(PairingRules):
    game_id = "wish"
    title = "The Wish"
    variant_type = WishVariant

    def deck(self):
        return wish_deck()

    def pile_sizes(self, variant: WishVariant) -> tuple[int, ...]:
        return (4,) * 8

    def face_down(self, variant: WishVariant) -> bool:
        return variant.mode == "standard"


RULES = register(WishRules())
