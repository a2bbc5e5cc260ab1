"""Every game the engine plays, by id, in the order menus list them.

The list is written out here, once: this module imports the game modules and registers each one's
rules. Game modules import only engine.rules (the base class), never this module, so there is no
import cycle and no game is registered as a side effect of importing something else.
`register` stays public so a test, or a module named at a server's start-up, can add a game.
"""

from __future__ import annotations

import importlib

from .errors import UNKNOWN_GAME, RuleError, rule_error
from .games import patient_pairs, spider, wading_pool, wish, wizard
from .rules import AnyRules, GameRules

_REGISTRY: dict[str, AnyRules] = {}


def register(rules: AnyRules) -> AnyRules:
    """Add a game, or replace the one with the same id. Its presets must all be valid variants,
    and its default variant one of them: a menu may offer nothing the engine would refuse."""
    presets = []
    for preset in rules.presets:
        parsed = rules.parse_variant(preset.variant)
        if isinstance(parsed, RuleError):
            raise ValueError(f"{rules.game_id}: preset {preset.title!r} is refused: {parsed.message}")
        presets.append(parsed)
    if rules.variant_type() not in presets:
        raise ValueError(f"{rules.game_id}: the default variant is none of the presets")
    _REGISTRY[rules.game_id] = rules
    return rules


def unregister(game_id: str) -> None:
    """Take a game out again (a test's extra game, when the test is done)."""
    _REGISTRY.pop(game_id, None)


def game_ids() -> list[str]:
    return list(_REGISTRY)


def all_rules() -> list[AnyRules]:
    return list(_REGISTRY.values())


def rules_for(game_id: str) -> AnyRules | RuleError:
    rules = _REGISTRY.get(game_id) if isinstance(game_id, str) else None  # a list id is unhashable
    if rules is None:
        known = ", ".join(sorted(_REGISTRY))
        return rule_error(UNKNOWN_GAME, f"unknown game {game_id!r}; known games: {known}")
    return rules


def load_game_module(name: str) -> AnyRules:
    """Import a module by dotted name and register its RULES (how `arena serve` adds a game that
    is not in the list below, from ARENA_GAME_MODULES)."""
    module = importlib.import_module(name)
    rules = getattr(module, "RULES", None)
    if not isinstance(rules, GameRules):
        raise ValueError(f"game module {name} has no RULES (a GameRules instance)")
    return register(rules)


for _game in (wish, patient_pairs, spider, wizard, wading_pool):
    register(_game.RULES)
