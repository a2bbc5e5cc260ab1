"""The registry and the catalogue: one explicit list of games, no import cycle, menus that cannot
offer what the engine refuses, and variant errors worded from the variant Structs."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

import engine
from engine.registry import register, rules_for
from engine.rules import GameRules
from engine.variants import Preset, VariantField, variant_fields
from tests.support.tiny_pairs import TinyPairsRules


FIVE = ("wish", "patient-pairs", "spider", "wizard", "wading-pool")  # the registry's own list, in its order


def test_the_catalogue_lists_every_registered_game_in_registry_order():
    assert tuple(engine.game_ids()[:5]) == FIVE
    entries = engine.catalog().games
    assert [entry.id for entry in entries] == engine.game_ids()
    assert len(entries) >= 5
    for entry in entries:
        rules = rules_for(entry.id)
        assert entry.title == rules.title and entry.blurb and "\n" not in entry.blurb
        assert entry.has_undo == rules.has_undo and (("undo" in entry.actions) == entry.has_undo)


def test_every_preset_deals_and_the_default_variant_is_one_of_them():
    for entry in engine.catalog().games:
        assert entry.presets and len({p.id for p in entry.presets}) == len(entry.presets), entry.id
        assert entry.default_variant in [p.variant for p in entry.presets], entry.id
        for preset in entry.presets:
            assert set(preset.variant) == {field.name for field in entry.variant_fields}, (entry.id, preset)
            state = engine.initial_state(entry.id, preset.variant, 1)
            assert isinstance(state, engine.GameState), (entry.id, preset, state)


def test_capabilities_as_the_rules_define_them():
    by_id = {entry.id: entry for entry in engine.catalog().games}
    wading = by_id["wading-pool"]
    assert not wading.daily_eligible and not wading.race_eligible  # no winnable deal as written
    for game in ("wish", "patient-pairs", "spider", "wizard"):
        assert by_id[game].daily_eligible and by_id[game].race_eligible, game
    assert [g for g in FIVE if by_id[g].has_solver] == list(FIVE)  # every game has a full-knowledge solver
    assert by_id["spider"].actions == ("deal", "undo") and by_id["wizard"].actions == ("deal", "recycle", "cast")
    assert [p.title for p in by_id["spider"].presets] == ["1 suit", "2 suits", "4 suits"]
    assert [p.id for p in by_id["wish"].presets] == ["standard", "open"]


def test_variant_fields_come_from_the_structs_types_and_constraints():
    fields = {entry.id: entry.variant_fields for entry in engine.catalog().games}
    assert fields["spider"] == (VariantField("suits", "Suits", "int", 1, choices=(1, 2, 4)),)
    assert fields["patient-pairs"] == (VariantField("piles", "Piles", "int", 13, minimum=8, maximum=13),)
    (redeals,) = fields["wizard"]
    assert (redeals.type, redeals.default, redeals.nullable) == ("int", None, True)
    assert (redeals.minimum, redeals.maximum, redeals.choices) == (0, None, None)
    assert fields["wish"][0].choices == ("open", "standard") and fields["wading-pool"] == ()


@pytest.mark.parametrize(
    ("game", "variant", "message"),
    [
        ("spider", {"suits": 3}, "suits must be 1, 2 or 4, not 3"),
        ("patient-pairs", {"piles": "13"}, 'piles must be 8 to 13, not "13"'),
        ("wizard", {"redeals": -1}, "redeals must be 0 or more, or null, not -1"),
        ("wish", {"mode": "blind"}, 'mode must be "open" or "standard", not "blind"'),
        ("spider", {"suits": True}, "suits must be 1, 2 or 4, not true"),
        ("wading-pool", {"piles": 8}, "unknown field `piles`"),
        ("wish", [1], "Expected `object`"),
    ],
)
def test_a_refused_variant_says_what_is_allowed(game, variant, message):
    error = engine.initial_state(game, variant, 1)
    assert isinstance(error, engine.RuleError) and error.code == "bad_variant"
    assert message in error.message and game in error.message


def test_the_catalogue_is_plain_data_that_round_trips():
    encoded = msgspec.json.encode(engine.catalog())
    assert msgspec.json.decode(encoded, type=engine.Catalog) == engine.catalog()


def test_register_refuses_a_game_whose_menu_would_offer_a_refused_variant():
    class BadPreset(TinyPairsRules):
        game_id = "bad-preset"
        presets = (Preset("three", "3 piles", {"piles": 3}),)

    class NoDefault(TinyPairsRules):
        game_id = "no-default"
        presets = (Preset("two", "2 piles", {"piles": 2}),)

    with pytest.raises(ValueError, match="preset '3 piles' is refused: .*piles must be 2 or 4"):
        register(BadPreset())
    with pytest.raises(ValueError, match="default variant is none of the presets"):
        register(NoDefault())
    assert "bad-preset" not in engine.game_ids() and "no-default" not in engine.game_ids()


def test_register_and_unregister_a_game_in_process():
    rules = TinyPairsRules()
    already = rules.game_id in engine.game_ids()  # ARENA_GAME_MODULES may have added it for the run
    engine.register(rules)
    try:
        assert engine.game_ids()[-1] == rules.game_id or already
        assert engine.rules_for(rules.game_id) is rules
    finally:
        if not already:
            engine.unregister(rules.game_id)
    assert already or isinstance(engine.rules_for(rules.game_id), engine.RuleError)


@pytest.mark.parametrize("first", ["engine.rules", "engine.games.spider", "engine.games.wish", "engine.registry"])
def test_no_import_cycle_whichever_module_is_imported_first(first):
    program = f"import importlib; importlib.import_module({first!r}); import engine; print(len(engine.game_ids()))"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) >= 5


def _imports(path: Path) -> set[str]:
    """Modules a file imports, relative ones as written ("..rules", ".pairing")."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            found.update({base} if node.module else {base + alias.name for alias in node.names})
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


_UPSTREAM = ("registry", "decider", "catalog", "replay", "solver")


def test_the_base_class_and_the_games_never_import_the_registry():
    """The registry imports the games, the games import the base class: no module may point back."""
    engine_dir = Path(engine.__file__).parent
    assert not {".registry", ".games", ".decider", ".catalog"} & _imports(engine_dir / "rules.py")
    assert not any("registry" in name or "decider" in name for name in _imports(engine_dir / "variants.py"))
    for module in (engine_dir / "games").glob("*.py"):
        back = [name for name in _imports(module) if name in ("engine", "..") or name.endswith(_UPSTREAM)]
        assert not back, f"{module.name} imports {back}"
        assert not re.search(r"\bregister\(", module.read_text()), f"{module.name} registers itself"
    assert not hasattr(__import__("engine.rules").rules, "register")
    assert issubclass(TinyPairsRules, GameRules)
    assert variant_fields(TinyPairsRules.variant_type)[0].choices == (2, 4)
