"""The catalogue: every registered game as plain data, for menus, tools and capability checks.

A pure function of the registry. The gateway serves it at GET /api/catalog, the line protocol
answers it to `catalog`, and the web client and `arena play` build their menus and titles from it,
so a game added to the registry shows up everywhere with no list edited anywhere else.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Struct

from .registry import all_rules
from .rules import AnyRules
from .variants import Preset, VariantField, variant_fields


class GameEntry(Struct, frozen=True):
    id: str
    title: str
    blurb: str
    variant_fields: tuple[VariantField, ...]  # from the game's variant Struct
    default_variant: dict[str, Any]  # what an empty or missing variant means
    presets: tuple[Preset, ...]  # named variants, each complete (every field given)
    actions: tuple[str, ...]  # argument-free intents a client shows as buttons; "undo" when has_undo
    has_undo: bool
    has_solver: bool
    daily_eligible: bool
    race_eligible: bool


class Catalog(Struct, frozen=True):
    games: tuple[GameEntry, ...]  # in menu order


def entry(rules: AnyRules) -> GameEntry:
    default = msgspec.structs.asdict(rules.variant_type())
    presets = tuple(
        Preset(p.id, p.title, msgspec.structs.asdict(rules.parse_variant(p.variant))) for p in rules.presets
    )
    return GameEntry(
        id=rules.game_id,
        title=rules.title,
        blurb=rules.blurb,
        variant_fields=variant_fields(rules.variant_type),
        default_variant=default,
        presets=presets,
        actions=rules.actions + (("undo",) if rules.has_undo else ()),
        has_undo=rules.has_undo,
        has_solver=rules.has_solver,
        daily_eligible=rules.daily_eligible,
        race_eligible=rules.race_eligible,
    )


def catalog() -> Catalog:
    return Catalog(tuple(entry(rules) for rules in all_rules()))
