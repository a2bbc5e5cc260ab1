"""Solitaire Wizard's board and variant: the data of its rules (engine/games/wizard*.py), apart from them.

They live in a module of their own because the rules are compiled with mypyc (setup.py) and these
are msgspec Structs: msgspec reads a Struct's field types from its class annotations, which a
compiled class body does not keep.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from ..cards import Card
from ..piles import Pile


class WizardVariant(Struct, frozen=True, forbid_unknown_fields=True):
    redeals: Annotated[
        Annotated[int, Meta(ge=0)] | None,
        Meta(title="Redeals", description="recycles of the waste allowed; null = unlimited, 0 = none"),
    ] = None


class WizardBoard(Struct, frozen=True, gc=False):
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
