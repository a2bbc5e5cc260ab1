"""Wading Pool's board and variant: the data of engine/games/wading_pool.py, apart from its rules.

They live in a module of their own because the rules are compiled with mypyc (setup.py) and these
are msgspec Structs: msgspec reads a Struct's field types from its class annotations, which a
compiled class body does not keep.
"""

from __future__ import annotations

from msgspec import Struct

from ..piles import Pile


class WadingPoolVariant(Struct, frozen=True, forbid_unknown_fields=True):
    """No options: the game has a single form. Unknown fields are a bad_variant error."""


class WadingPoolBoard(Struct, frozen=True, gc=False):
    piles: tuple[Pile, ...]
