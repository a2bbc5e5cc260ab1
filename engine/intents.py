"""What a player asks for: unvalidated intents.

An intent only has the right shape; whether it is legal is decided by the game's rules against the
current state. A legal intent becomes one or more events (engine.events), which are the validated
facts. Pile names: ``t0``.. tableau, ``f0``.. foundations, ``waste``; pairing games use indices.
"""

from __future__ import annotations

from typing import Union

from msgspec import Struct


class Intent(Struct, frozen=True, gc=False, tag_field="type", forbid_unknown_fields=True):
    """Base of every intent; the ``type`` tag names the kind of action."""


class PairIntent(Intent, frozen=True, tag="pair"):
    """Remove the top cards of tableau piles `a` and `b` (The Wish, Patient Pairs)."""

    a: int
    b: int


class MoveIntent(Intent, frozen=True, tag="move"):
    """Move the top `count` cards of pile `src` onto pile `dst`."""

    src: str
    dst: str
    count: int = 1


class DealIntent(Intent, frozen=True, tag="deal"):
    """Deal from the stock (a Spider deal, a Solitaire Wizard draw)."""


class RecycleIntent(Intent, frozen=True, tag="recycle"):
    """Turn the waste over to form the stock again (Solitaire Wizard)."""


class CastIntent(Intent, frozen=True, tag="cast"):
    """Cast a spell or use a potion: the next draw turns one card (Solitaire Wizard)."""


class LuckIntent(Intent, frozen=True, tag="luck"):
    """Play card `card` out of the stock onto `dst` while a luck pick is open (Solitaire Wizard)."""

    card: int
    dst: str


class UndoIntent(Intent, frozen=True, tag="undo"):
    """Take back the last move (Spider; any game in casual or practice play)."""


class FinishIntent(Intent, frozen=True, tag="finish"):
    """Play the rest of the game in one go, once it needs no choice (each move decided and logged as
    if asked for one by one; the game's rules say when the rest needs no choice)."""


class ResignIntent(Intent, frozen=True, tag="resign"):
    """Give the game up; it ends as abandoned."""


AnyIntent = Union[
    PairIntent, MoveIntent, DealIntent, RecycleIntent, CastIntent, LuckIntent, UndoIntent, ResignIntent,
    FinishIntent,
]
