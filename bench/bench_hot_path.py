"""The engine's hot path compiled (setup.py, mypyc) against its own Python source, in one process.

A move on the server runs the decider three ways: decide the intent, evolve the state by its events,
build the player's view (the legal list, the buttons, the piles). For each game this times those on
states of seeded random play, twice over: with the installed engine (compiled where a C compiler
was found) and with a copy of its source loaded beside it under another package name, so both run
interleaved chunk by chunk on the same states (bench.timing.per_second) and the ratio is fair on a
shared machine. Nothing here asserts anything about time.

    python -m bench hot_path [--quick]      or      python -m bench.bench_hot_path [--quick] [--game ID]
"""

from __future__ import annotations

import argparse
import importlib
import random
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import engine
from bench.bench_engine import MAIN_VARIANTS
from bench.timing import per_second
from engine.compiled import describe_set, HOT_PATH_MODULES
from engine.intents import ResignIntent, UndoIntent

SOURCE_NAME = "engine_as_source"  # the copy's package name: its imports are all relative


def source_engine(folder: Path) -> ModuleType:
    """The engine's source, without its extensions, imported as SOURCE_NAME."""
    root = Path(engine.__file__).parent
    shutil.copytree(root, folder / SOURCE_NAME, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    sys.path.insert(0, str(folder))
    return importlib.import_module(SOURCE_NAME)


def seeded_intents(game: str, variant: dict[str, Any], games: int, limit: int) -> list[tuple[int, list[Any]]]:
    """(seed, the intents played) of random legal games, undo and resign left out."""
    played = []
    for seed in range(games):
        rng, state, line = random.Random(seed), engine.initial_state(game, variant, seed), []
        assert not isinstance(state, engine.RuleError), state
        for _ in range(limit):
            options = [i for i in engine.legal_moves(state) if not isinstance(i, (UndoIntent, ResignIntent))]
            if not options:
                break
            line.append(rng.choice(options))
            result = engine.play(line[-1], state)
            assert not isinstance(result, engine.RuleError), result
            state = result[0]
        played.append((seed, line))
    return played


def states_of(module: ModuleType, game: str, variant: dict[str, Any], played: list) -> list[tuple[Any, Any]]:
    """The same (state, intent) steps, made by `module`'s own engine (its own Struct types)."""
    steps = []
    for seed, line in played:
        state = module.initial_state(game, variant, seed)
        for intent in line:
            own = module.intents.__dict__[type(intent).__name__](*(getattr(intent, f) for f in intent.__struct_fields__))
            steps.append((state, own))
            state = module.play(own, state)[0]
    return steps


def move_action(module: ModuleType, side: int):
    """One move of a step pair, by `module`'s engine on its side (0: installed, 1: source) of the pair."""
    decide, evolve, view = module.decide, module.evolve, module.player_view

    def one_move(pair: tuple[tuple[Any, Any], tuple[Any, Any]]) -> None:
        state, intent = pair[side]
        for event in decide(intent, state):
            evolve(state, event)
        view(state)
    return one_move


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="about 0.3 s per game instead of 2 s")
    parser.add_argument("--game", action="append", default=[], help="only this game id (repeatable)")
    args = parser.parse_args(argv)
    budget, games = (0.3, 8) if args.quick else (2.0, 30)
    print(f"{describe_set('installed engine hot path', HOT_PATH_MODULES)}; the baseline is its source, in this process")
    print("per move: decide + evolve + the player's view, on the states of seeded random games (us)")
    print(f"{'game':<14}{'variant':<20}{'moves':>7}{'source us':>11}{'installed us':>14}{'ratio':>8}")
    with tempfile.TemporaryDirectory(prefix="arena-hot-path-") as folder:
        source = source_engine(Path(folder))
        for game in [g for g in engine.game_ids() if not args.game or g in args.game]:
            variant = MAIN_VARIANTS.get(game, [{}])[0]
            played = seeded_intents(game, variant, games, 150)
            installed, baseline = states_of(engine, game, variant, played), states_of(source, game, variant, played)
            pairs = list(zip(installed, baseline))
            rates = per_second(pairs, budget, move_action(source, 1), move_action(engine, 0))
            slow, fast = (1e6 / rate for rate in rates)
            print(f"{game:<14}{str(variant):<20}{len(installed):>7}{slow:>11.1f}{fast:>14.1f}{fast / slow:>7.2f}x",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
