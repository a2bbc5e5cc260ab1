"""Wading Pool engine speed: moves applied per second under random legal play.

Two workloads, because random play from a deal jams within a few moves (about a third of deals
are lost before the first move): "deals" plays from real deals, starting a new deal whenever a
game ends; "open boards" plays long lines on boards with empty piles, where a move always exists.
The moves are recorded, then timed: one move is engine.legal_moves + engine.play (decide and
evolve) of the move a seeded random player chose. The baseline, timed in the same process on the
same states, is engine.legal_moves alone; move/legal says how much a whole move costs over listing
the moves. Timing is best-per-chunk over interleaved passes (bench.bench_engine.per_second).
Nothing here asserts anything about time.

    python -m bench wading_pool [--quick]      or      python -m bench.bench_wading_pool [--quick]
"""

from __future__ import annotations

import argparse
import random
import sys

import engine
from bench.bench_engine import forward_moves, legal_moves_of_step, random_player_move
from bench.timing import per_second
from engine.cards import standard_deck
from engine.games.wading_pool import RULES, WadingPoolVariant, board_of

GAME = "wading-pool"
Step = tuple[engine.GameState, engine.AnyIntent]


def deal_steps(rng: random.Random, moves: int) -> tuple[list[Step], list[int]]:
    """Random play from deals, a new deal whenever a game ends: (the moves, the seeds dealt)."""
    steps: list[Step] = []
    seeds: list[int] = []
    state = None
    while len(steps) < moves:
        if state is None or state.status != engine.IN_PROGRESS:
            seeds.append(rng.getrandbits(64))
            state = engine.initial_state(GAME, None, seeds[-1])
            continue
        intent = rng.choice(forward_moves(state))
        steps.append((state, intent))
        state, _ = engine.play(intent, state)
    return steps, seeds


def open_board(rng: random.Random, empty: int = 2) -> engine.GameState:
    """The 52 cards in a seeded random order cut into 8 - `empty` piles; the last piles empty."""
    cards = list(standard_deck())
    rng.shuffle(cards)
    used = 8 - empty
    rows = [cards[i::used] for i in range(used)] + [[] for _ in range(empty)]
    board, variant = board_of(rows), WadingPoolVariant()
    return engine.GameState(GAME, variant, 0, board, status=RULES.outcome(board, variant))


def open_steps(rng: random.Random, moves: int, line: int = 500) -> list[Step]:
    """Random play on open boards, a fresh board every `line` moves."""
    steps: list[Step] = []
    state = open_board(rng)
    while len(steps) < moves:
        if state.status != engine.IN_PROGRESS or len(steps) % line == 0:
            state = open_board(rng)
        intent = rng.choice(forward_moves(state))
        steps.append((state, intent))
        state, _ = engine.play(intent, state)
    return steps


def report(name: str, steps: list[Step], budget: float) -> None:
    moves_rate, legal_rate = per_second(steps, 2 * budget, random_player_move, legal_moves_of_step)
    avg_legal = sum(len(engine.legal_moves(state)) for state, _ in steps) / len(steps)
    ratio = legal_rate / moves_rate
    print(f"{name:<14}{moves_rate:>12,.0f}{legal_rate:>16,.0f}{ratio:>11.2f}x{avg_legal:>11.1f}")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_wading_pool", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (a few thousand moves)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the bench's random choices")
    args = parser.parse_args(argv)
    moves, budget = (2_000, 0.3) if args.quick else (20_000, 2.0)
    rng = random.Random(args.seed)
    print(f"wading-pool, {moves:,} random legal moves per workload (seed {args.seed}), "
          f"about {budget:g} s per figure")
    print(f"{'workload':<14}{'moves/s':>12}{'legal_moves/s':>16}{'move/legal':>12}{'avg legal':>11}")
    steps, seeds = deal_steps(rng, moves)
    report("deals", steps, budget)
    report("open boards", open_steps(rng, moves), budget)
    (deal_rate,) = per_second(seeds, budget, lambda seed: engine.initial_state(GAME, None, seed))
    print(f"deals: {deal_rate:,.0f} deals/s; random play made {moves / len(seeds):.2f} moves per deal "
          f"before the game ended ({len(seeds):,} deals)")


if __name__ == "__main__":
    main(sys.argv[1:])
