"""Tiny Pairs: a made-up sixth game of four cards (two Aces, two Twos), for the registry's tests.

It exists to show that a game needs nothing beyond its rules and one `register` call: the engine,
the line protocol, the HTTP catalogue, the web client's menus and the shared property suites all
take it from the registry. Variant `piles`: 4 (one card each, face up: always won in two pairs) or
2 (two cards each, the lower one face down: lost at the deal when a pile holds both of a rank).
`arena serve` adds it with ARENA_GAME_MODULES=tests.support.tiny_pairs (the repo on PYTHONPATH).
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct

from engine.cards import ACE, HEARTS, SPADES, build_deck
from engine.games.pairing import PairingRules
from engine.variants import preset


class TinyPairsVariant(Struct, frozen=True, forbid_unknown_fields=True):
    piles: Annotated[Literal[2, 4], Meta(title="Piles")] = 4


class TinyPairsRules(PairingRules[TinyPairsVariant]):
    game_id = "tiny-pairs"
    title = "Tiny Pairs"
    blurb = "Four cards, two pairs: a game for testing that every part knows a new game."
    variant_type = TinyPairsVariant
    presets = (preset("4 piles", TinyPairsVariant(4)), preset("2 piles", TinyPairsVariant(2)))
    has_solver = True  # a pairing board: the pairing solver plays it as it plays The Wish

    def deck(self):
        return build_deck((SPADES, HEARTS), (ACE, 2))

    def pile_sizes(self, variant: TinyPairsVariant) -> tuple[int, ...]:
        return (4 // variant.piles,) * variant.piles

    def face_down(self, variant: TinyPairsVariant) -> bool:
        return variant.piles == 2


RULES = TinyPairsRules()
