"""Wading Pool engine speed: moves applied per second under random legal play.

Two workloads, because random play from a deal jams within a few moves (about a third of deals
are lost before the first move): "deals" plays from real deals, starting a new deal whenever a
game ends; "open boards" plays long lines on boards with empty piles, where a move always exists.
Each move is legal_moves + a seeded random choice + engine.play (decide and evolve). The baseline,
timed in the same process on the same states, is engine.legal_moves alone; the ratio says how much
a whole move costs over listing the moves. Nothing here asserts anything about time.

    python -m bench wading_pool [--quick]      or      python -m bench.bench_wading_pool [--quick]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import engine
from engine.cards import standard_deck
from engine.games.wading_pool import RULES, WadingPoolVariant, board_of

GAME = "wading-pool"


def deal_play(rng: random.Random, moves: int) -> tuple[list[engine.GameState], float, int, float]:
    """Random play from deals until `moves` moves: (states moved from, move seconds, deals, deal seconds)."""
    states: list[engine.GameState] = []
    move_time = deal_time = 0.0
    deals = 0
    state = None
    while len(states) < moves:
        if state is None or state.status != engine.IN_PROGRESS:
            started = time.perf_counter()
            state = engine.initial_state(GAME, None, rng.getrandbits(64))
            deal_time += time.perf_counter() - started
            deals += 1
            continue
        states.append(state)
        started = time.perf_counter()
        state, _ = engine.play(rng.choice(engine.legal_moves(state)), state)
        move_time += time.perf_counter() - started
    return states, move_time, deals, deal_time


def open_board(rng: random.Random, empty: int = 2) -> engine.GameState:
    """The 52 cards in a seeded random order cut into 8 - `empty` piles; the last piles empty."""
    cards = list(standard_deck())
    rng.shuffle(cards)
    used = 8 - empty
    rows = [cards[i::used] for i in range(used)] + [[] for _ in range(empty)]
    board = board_of(rows)
    return engine.GameState(GAME, WadingPoolVariant(), 0, board, status=RULES.outcome(board, WadingPoolVariant()))


def open_play(rng: random.Random, moves: int, line: int = 500) -> tuple[list[engine.GameState], float]:
    """Random play on open boards, a fresh board every `line` moves: (states moved from, seconds)."""
    states: list[engine.GameState] = []
    elapsed = 0.0
    state = open_board(rng)
    while len(states) < moves:
        if state.status != engine.IN_PROGRESS or len(states) % line == 0:
            state = open_board(rng)
        states.append(state)
        started = time.perf_counter()
        state, _ = engine.play(rng.choice(engine.legal_moves(state)), state)
        elapsed += time.perf_counter() - started
    return states, elapsed


def legal_moves_time(states: list[engine.GameState]) -> float:
    started = time.perf_counter()
    for state in states:
        engine.legal_moves(state)
    return time.perf_counter() - started


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_wading_pool", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (a few thousand moves)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the bench's random choices")
    args = parser.parse_args(argv)
    moves = 3_000 if args.quick else 30_000
    rng = random.Random(args.seed)

    states, move_s, deals, deal_s = deal_play(rng, moves)
    base_s = legal_moves_time(states)
    avg_legal = sum(len(engine.legal_moves(s)) for s in states[:1000]) / min(len(states), 1000)
    print(f"wading-pool, {moves} random legal moves per workload (seed {args.seed})")
    print(f"{'workload':<14}{'moves/s':>12}{'legal_moves/s':>16}{'move/legal':>12}{'avg legal':>11}")
    print(f"{'deals':<14}{moves / move_s:>12,.0f}{moves / base_s:>16,.0f}{move_s / base_s:>11.2f}x"
          f"{avg_legal:>11.1f}")

    states, open_s = open_play(rng, moves)
    base_s = legal_moves_time(states)
    avg_legal = sum(len(engine.legal_moves(s)) for s in states[:1000]) / min(len(states), 1000)
    print(f"{'open boards':<14}{moves / open_s:>12,.0f}{moves / base_s:>16,.0f}{open_s / base_s:>11.2f}x"
          f"{avg_legal:>11.1f}")
    print(f"deals: {deals / deal_s:,.0f} deals/s ({deals} deals, {moves / deals:.2f} moves per deal "
          "before the game ended)")


if __name__ == "__main__":
    main(sys.argv[1:])
