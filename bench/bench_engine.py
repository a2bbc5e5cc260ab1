"""Whole-engine speed: every registered game and its main variants, in one table.

For each (game, variant): random legal games are played from seeded deals and recorded, then
timed: moves/s is one move of random legal play (engine.legal_moves, then engine.play of the move
the seeded random player chose), and each recorded game is replayed whole, both validated
(engine.replay: re-decide every event from the deal) and trusted (engine.initial_state +
engine.fold: evolve without deciding). The baseline, timed in the same
process on the same states, is engine.legal_moves alone: move/legal is the cost of one whole move
over one legal_moves call. replay/fold is what validating a stored game costs over trusting it;
both replays deal first, and deals/s (engine.initial_state alone) shows that share, which
dominates games of a few moves. Games not yet registered are skipped; games without an entry in
MAIN_VARIANTS run with their default variant. Nothing here asserts anything about time.

    python -m bench engine [--quick]      or      python -m bench.bench_engine [--quick] [--game ID]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

import msgspec

import engine
from bench.timing import per_second
from engine.compiled import describe
from engine.intents import ResignIntent, UndoIntent

MAIN_VARIANTS: dict[str, list[dict[str, Any]]] = {
    "wish": [{"mode": "standard"}, {"mode": "open"}],
    "patient-pairs": [{"piles": 13}, {"piles": 8}],
    "spider": [{"suits": 1}, {"suits": 2}, {"suits": 4}],
    "wizard": [{}, {"redeals": 0}],
    "wading-pool": [{}],
}


class Recorded(msgspec.Struct):
    """One random game: its deal, the states moved from, its events and where it ended."""

    seed: int
    steps: list[tuple[engine.GameState, engine.AnyIntent]]
    events: list[engine.AnyEvent]
    final: engine.GameState


def forward_moves(state: engine.GameState) -> list[engine.AnyIntent]:
    """What the random player picks from: the listed moves but undo and resign (a listed resign
    would end most games at its first move; undo is each benchmark's own choice)."""
    return [i for i in engine.legal_moves(state) if not isinstance(i, (UndoIntent, ResignIntent))]


def cases(only: list[str]) -> list[tuple[str, dict[str, Any]]]:
    games = [game for game in engine.game_ids() if not only or game in only]
    return [(game, variant) for game in games for variant in MAIN_VARIANTS.get(game, [{}])]


def play_games(
    rng: random.Random, game: str, variant: dict[str, Any], budget: float, max_moves: int
) -> list[Recorded]:
    """Random legal games from seeded deals for about `budget` seconds (at least one game)."""
    recorded: list[Recorded] = []
    started = time.perf_counter()
    while time.perf_counter() - started < budget or not recorded:
        seed = rng.getrandbits(64)
        state = engine.initial_state(game, variant, seed)
        assert isinstance(state, engine.GameState), state
        steps, events = [], []
        while state.status == engine.IN_PROGRESS and len(steps) < max_moves:
            intent = rng.choice(forward_moves(state))
            steps.append((state, intent))
            state, step_events = engine.play(intent, state)
            events.extend(step_events)
        recorded.append(Recorded(seed, steps, events, state))
    return recorded


def legal_moves_of_step(step: tuple[engine.GameState, engine.AnyIntent]) -> None:
    engine.legal_moves(step[0])


def random_player_move(step: tuple[engine.GameState, engine.AnyIntent]) -> None:
    """What one move of random legal play costs: list the moves, then play the chosen one."""
    state, intent = step
    engine.legal_moves(state)
    engine.play(intent, state)


def check_replays(game: str, variant: dict[str, Any], games: list[Recorded]) -> str:
    """'ok', or why a recorded game does not replay to its live end (a bench run is also a check)."""
    for rec in games:
        result = engine.replay(game, variant, rec.seed, rec.events)
        if not result.ok or result.state != rec.final:
            return f"REPLAY MISMATCH at seed {rec.seed}: {result.error}"
        if engine.fold(engine.initial_state(game, variant, rec.seed), rec.events) != rec.final:
            return f"FOLD MISMATCH at seed {rec.seed}"
    return "ok"


def bench_case(game: str, variant: dict[str, Any], rng: random.Random, budget: float, max_moves: int) -> dict:
    # Record about a fifth of the budget of play, so the figures below get several passes over it.
    games = play_games(rng, game, variant, budget / 5, max_moves)
    steps = [step for rec in games for step in rec.steps]
    events = sum(len(rec.events) for rec in games)
    moves_rate, legal_rate = per_second(steps, 2 * budget, random_player_move, legal_moves_of_step)
    deal_rate, replay_rate, fold_rate = per_second(
        games,
        3 * budget,
        lambda rec: engine.initial_state(game, variant, rec.seed),
        lambda rec: engine.replay(game, variant, rec.seed, rec.events),
        lambda rec: engine.fold(engine.initial_state(game, variant, rec.seed), rec.events),
    )
    per_game = events / len(games)
    return {
        "deals_s": deal_rate,
        "moves_s": moves_rate,
        "legal_s": legal_rate,
        "games": len(games),
        "events_per_game": per_game,
        "replays_s": replay_rate,
        "folds_s": fold_rate,
        "check": check_replays(game, variant, games),
    }


HEADER = (
    f"{'game':<14}{'variant':<20}{'deals/s':>9}{'moves/s':>9}{'legal/s':>10}{'move/legal':>11}"
    f"{'games':>7}{'ev/game':>8}{'replays/s':>10}{'folds/s':>9}{'replay/fold':>12}  check"
)


def row(game: str, variant: dict[str, Any], f: dict) -> str:
    text = msgspec.json.encode(variant).decode()
    return (
        f"{game:<14}{text:<20}{f['deals_s']:>9,.0f}{f['moves_s']:>9,.0f}{f['legal_s']:>10,.0f}"
        f"{f['legal_s'] / f['moves_s']:>10.2f}x{f['games']:>7}{f['events_per_game']:>8.1f}"
        f"{f['replays_s']:>10,.0f}{f['folds_s']:>9,.0f}{f['folds_s'] / f['replays_s']:>11.2f}x  {f['check']}"
    )


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_engine", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="about 0.1 s per figure instead of 1 s")
    parser.add_argument("--game", action="append", default=[], help="only this game id (repeatable)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the bench's random choices")
    args = parser.parse_args(argv)
    budget, max_moves = (0.1, 100) if args.quick else (1.0, 300)
    rng = random.Random(args.seed)
    print(f"engine, random legal play (seed {args.seed}), games capped at {max_moves} moves, "
          f"about {budget:g} s per figure; ratios are against engine.legal_moves in this process")
    print(describe())
    print(HEADER)
    for game, variant in cases(args.game):
        print(row(game, variant, bench_case(game, variant, rng, budget, max_moves)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
