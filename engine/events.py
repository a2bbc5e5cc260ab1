"""Validated facts: the events a legal intent becomes. They are the storage schema.

Versioning rule: events are stored forever. A field may be added only with a default, a tag is
never reused, and a removed event type keeps its class. Automatic consequences (a flip, a cleared
run) are not events of their own: `evolve` derives them, so they are part of the move.
"""

from __future__ import annotations

from typing import Union

from msgspec import Struct


class Event(Struct, frozen=True, gc=False, tag_field="type"):
    """Base of every engine event."""


class PairRemoved(Event, frozen=True, tag="pair_removed"):
    piles: tuple[int, int]
    cards: tuple[int, int]


class CardsMoved(Event, frozen=True, tag="cards_moved"):
    src: str
    dst: str
    cards: tuple[int, ...]


class StockDealt(Event, frozen=True, tag="stock_dealt"):
    """Cards turned from the stock: ten onto the Spider columns, or up to three onto the waste."""

    cards: tuple[int, ...]


class WasteRecycled(Event, frozen=True, tag="waste_recycled"):
    pass


class SpellCast(Event, frozen=True, tag="spell_cast"):
    pass


class LuckPicked(Event, frozen=True, tag="luck_picked"):
    card: int
    dst: str


class MoveUndone(Event, frozen=True, tag="move_undone"):
    pass


class GameResigned(Event, frozen=True, tag="game_resigned"):
    pass


AnyEvent = Union[
    PairRemoved, CardsMoved, StockDealt, WasteRecycled, SpellCast, LuckPicked, MoveUndone, GameResigned
]
