"""A snapshot as a change against the one before it: what an update frame carries after a move.

A move changes a pile or two, the legal list and the counters; the rest of a view (the other piles,
usually the buttons and notes) stays as it was. A delta names its `base`, the version it applies to, and
carries:
- each pile that changed as a cut: how many face-down cards it has, how many of its face-up cards stay
  (`keep`, from the bottom) and the face-up cards that follow them (a move's run lands as just the run);
- the legal list whole, each intent either the index of the same intent in the base's list or the intent
  itself when it is new (most of a legal list survives a move);
- the counters always, and the info, buttons and notes only when they changed.
It shows nothing the snapshot it stands for does not: every card and intent in it is one of that
snapshot's, and an index names an intent of the base, which the client was shown already.

A delta is made only when the snapshot's other parts cannot have changed: a whole snapshot goes instead
when the game's status changes (an end reveals the deal), the deal or its number shows, the piles are
not the same piles, or every FULL_EVERY versions (so a client that applied something wrong heals).
This module knows no game rule and no wire format: it compares the engine's views.
"""

from __future__ import annotations

from typing import Any, Protocol, Union

import msgspec
from msgspec import Struct

from engine import AnyIntent, PlayerView
from engine.cards import Card
from engine.state import ActionView, PileView

FULL_EVERY = 32  # a whole snapshot at every version divisible by this, even when a delta would do


class Shown(Protocol):
    """What a delta is made from: the model's Snapshot (which carries deltas, so this module names it not)."""

    @property
    def game_id(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def view(self) -> PlayerView: ...
    @property
    def elapsed_ms(self) -> int | None: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def deal(self) -> PlayerView | None: ...
    @property
    def deal_number(self) -> int | None: ...


class Baseline(Struct, frozen=True):
    """What a client held before a move: the version and view, and the deal number it was shown."""

    version: int
    view: PlayerView
    deal_number: int | None


class PileCut(Struct, frozen=True, gc=False):
    """A pile that changed: `down` face-down cards, the first `keep` face-up cards it had, then `cards`."""

    id: str
    down: int
    keep: int
    cards: tuple[Card, ...]


LegalEntry = Union[int, AnyIntent]  # an index into the base's legal list, or a new intent


class SnapshotDelta(Struct, frozen=True, omit_defaults=True):
    """The snapshot at `version`, as a change to the one at `base`. None info/actions/notes: unchanged."""

    game_id: str
    base: int
    version: int
    status: str
    moves: int
    undos: int
    elapsed_ms: int | None
    piles: tuple[PileCut, ...]  # the piles that changed; any other pile is as it was
    legal: tuple[LegalEntry, ...]
    info: dict[str, Any] | None = None  # Any: the game's own JSON counters
    actions: tuple[ActionView, ...] | None = None
    notes: tuple[str, ...] | None = None


def delta_between(before: Baseline | None, after: Shown) -> SnapshotDelta | None:
    """`after` as a change to `before`, or None when only the whole snapshot will do."""
    if before is None or after.version % FULL_EVERY == 0 or after.version <= before.version:
        return None
    old, new = before.view, after.view
    if after.seed is not None or after.deal is not None or after.deal_number != before.deal_number:
        return None
    if new.status != old.status or len(new.piles) != len(old.piles):
        return None
    cuts = []
    for was, now in zip(old.piles, new.piles):
        if was.id != now.id or was.kind != now.kind:
            return None  # not the same piles in the same order: a delta would misplace them
        if was != now:
            cuts.append(_cut(was, now))
    index = {intent: i for i, intent in enumerate(old.legal)}
    return SnapshotDelta(
        game_id=after.game_id,
        base=before.version,
        version=after.version,
        status=new.status,
        moves=new.moves,
        undos=new.undos,
        elapsed_ms=after.elapsed_ms,
        piles=tuple(cuts),
        legal=tuple(index.get(intent, intent) for intent in new.legal),
        info=None if new.info == old.info else new.info,
        actions=None if new.actions == old.actions else new.actions,
        notes=None if new.notes == old.notes else new.notes,
    )


def _cut(was: PileView, now: PileView) -> PileCut:
    keep, most = 0, min(len(was.cards), len(now.cards))
    while keep < most and was.cards[keep] == now.cards[keep]:
        keep += 1
    return PileCut(now.id, now.down, keep, now.cards[keep:])


def applied(before: PlayerView, delta: SnapshotDelta) -> PlayerView:
    """The view `delta` stands for, made from the one at its base (the tests' and the bench's check)."""
    cuts = {cut.id: cut for cut in delta.piles}
    piles = []
    for pile in before.piles:
        cut = cuts.get(pile.id)
        piles.append(pile if cut is None else PileView(pile.id, pile.kind, cut.down, pile.cards[: cut.keep] + cut.cards))
    return msgspec.structs.replace(
        before,
        status=delta.status,
        moves=delta.moves,
        undos=delta.undos,
        piles=tuple(piles),
        legal=tuple(before.legal[entry] if isinstance(entry, int) else entry for entry in delta.legal),
        info=before.info if delta.info is None else delta.info,
        actions=before.actions if delta.actions is None else delta.actions,
        notes=before.notes if delta.notes is None else delta.notes,
    )


JSON = dict[str, Any]  # Any: JSON


def applied_json(snapshot: JSON, delta: JSON) -> JSON | None:
    """A decoded snapshot with a decoded delta applied, as a client does it; None when the delta does not
    follow the snapshot (its base is another version): the client asks for the whole with c2s.sync."""
    if delta["base"] != snapshot["version"]:
        return None
    view = dict(snapshot["view"])
    cuts = {cut["id"]: cut for cut in delta["piles"]}
    view["piles"] = [
        pile if (cut := cuts.get(pile["id"])) is None
        else {**pile, "down": cut["down"], "cards": pile["cards"][: cut["keep"]] + cut["cards"]}
        for pile in view["piles"]
    ]
    old_legal = view["legal"]
    view["legal"] = [old_legal[entry] if isinstance(entry, int) else entry for entry in delta["legal"]]
    for field in ("status", "moves", "undos"):
        view[field] = delta[field]
    for field in ("info", "actions", "notes"):
        if field in delta:
            view[field] = delta[field]
    return {**snapshot, "version": delta["version"], "elapsed_ms": delta["elapsed_ms"], "view": view}
