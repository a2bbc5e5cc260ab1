"""Patient Pairs: 52 cards, all face up, in 8 to 13 piles (variant ``piles``, default 13).

With fewer than 13 piles the cards go round as evenly as possible, the first piles taking the
extra cards (8 piles: 7, 7, 7, 7, 6, 6, 6, 6). See docs/rules/patient-pairs.md.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from ..cards import Card, standard_deck
from ..variants import preset
from .pairing import PairingRules


class PatientPairsVariant(Struct, frozen=True, forbid_unknown_fields=True):
    piles: Annotated[int, Meta(ge=8, le=13, title="Piles")] = 13


class PatientPairsRules(PairingRules[PatientPairsVariant]):
    game_id = "patient-pairs"
    title = "Patient Pairs"
    blurb = "52 cards face up. Remove pairs of equal rank from the tops of the piles."
    variant_type = PatientPairsVariant
    presets = tuple(preset(f"{piles} piles", PatientPairsVariant(piles)) for piles in range(13, 7, -1))
    has_solver = True
    daily_eligible = race_eligible = True

    def deck(self) -> tuple[Card, ...]:
        return standard_deck()

    def pile_sizes(self, variant: PatientPairsVariant) -> tuple[int, ...]:
        base, extra = divmod(52, variant.piles)
        return tuple(base + (1 if i < extra else 0) for i in range(variant.piles))


RULES = PatientPairsRules()
