"""Patient Pairs: 52 cards, all face up, in 8 to 13 piles (variant ``piles``, default 13).

With fewer than 13 piles the cards go round as evenly as possible, the first piles taking the
extra cards (8 piles: 7, 7, 7, 7, 6, 6, 6, 6). See docs/rules/patient-pairs.md.
"""

from __future__ import annotations

from msgspec import Struct

from ..cards import standard_deck
from ..rules import register
from .pairing import PairingRules


class PatientPairsVariant(Struct, frozen=True, forbid_unknown_fields=True):
    piles: int = 13


class PatientPairsRules(PairingRules):
    game_id = "patient-pairs"
    title = "Patient Pairs"
    variant_type = PatientPairsVariant

    def check_variant(self, variant: PatientPairsVariant) -> str | None:
        return None if 8 <= variant.piles <= 13 else f"piles must be 8 to 13, not {variant.piles}"

    def deck(self):
        return standard_deck()

    def pile_sizes(self, variant: PatientPairsVariant) -> tuple[int, ...]:
        base, extra = divmod(52, variant.piles)
        return tuple(base + (1 if i < extra else 0) for i in range(variant.piles))


RULES = register(PatientPairsRules())
