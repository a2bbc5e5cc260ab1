"""Spider's board and variant: the data of engine/games/spider.py, apart from its rules.

They live in a module of their own because the rules module is compiled with mypyc (setup.py)
and these are msgspec Structs: msgspec reads a Struct's field types from its class annotations,
which a compiled class body does not keep, so a Struct must be defined in a module run as source.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct

from ..cards import ACE, KING, Card
from ..piles import Pile

RUN_LENGTH = KING - ACE + 1  # 13 cards, King down to Ace


class SpiderVariant(Struct, frozen=True, forbid_unknown_fields=True):
    suits: Annotated[Literal[1, 2, 4], Meta(title="Suits")] = 1


class SpiderBoard(Struct, frozen=True, gc=False):
    """`stock` is in dealing order: stock[:10] is the next deal, stock[0] goes onto t0.

    `cleared` holds the cleared runs one after another, each as it lay (King first, Ace last).
    """

    columns: tuple[Pile, ...]
    stock: tuple[Card, ...] = ()
    cleared: tuple[Card, ...] = ()

    @property
    def cleared_runs(self) -> int:
        return len(self.cleared) // RUN_LENGTH
