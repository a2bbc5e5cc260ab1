"""The pairing games' board: the data of engine/games/pairing.py, apart from its rules.

They live in a module of their own because the rules are compiled with mypyc (setup.py) and these
are msgspec Structs: msgspec reads a Struct's field types from its class annotations, which a
compiled class body does not keep.
"""

from __future__ import annotations

from msgspec import Struct

from ..piles import Pile


class PairsBoard(Struct, frozen=True, gc=False):
    piles: tuple[Pile, ...]
