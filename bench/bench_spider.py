"""Spider engine speed: random legal play per suit count, and replay of a long game with undos.

Figures per suit count:
- random play: actions per second for legal_moves + choose + play (what a bot or fuzzer pays);
- play only: the same line played again from its intents (decide + evolve, no move listing);
- replay: validating a 500+ action log with undos (engine.replay re-decides every event), against
  the trusted fold of the same log (engine.fold, evolve only) as the baseline ratio.
The line is chosen by a seeded random.Random (only here; the engine never uses random).
"""

from __future__ import annotations

import random
import statistics
import sys
import time

import engine
from bench.bench_engine import forward_moves
from engine.intents import DealIntent, UndoIntent

SUIT_COUNTS = (1, 2, 4)


def random_line(suits: int, actions: int, rng: random.Random):
    """Play `actions` random legal actions (about 1 in 10 an undo, deals favoured when possible)."""
    start = engine.initial_state("spider", {"suits": suits}, rng.randrange(2**64))
    state, intents, events = start, [], []
    while len(intents) < actions and state.status in (engine.IN_PROGRESS, engine.LOST):
        options = forward_moves(state)
        if state.history and (rng.random() < 0.1 or not options):
            options = [UndoIntent()]
        elif DealIntent() in options and rng.random() < 0.05:
            options = [DealIntent()]
        if not options:
            break
        intent = rng.choice(options)
        state, step = engine.play(intent, state)
        intents.append(intent)
        events.extend(step)
    return start, intents, events, state


def timed(fn, repeat: int) -> float:
    """Median seconds of `repeat` runs."""
    runs = []
    for _ in range(repeat):
        began = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - began)
    return statistics.median(runs)


def replay_all(start, intents):
    state = start
    for intent in intents:
        state, _ = engine.play(intent, state)
    return state


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    actions, repeat = (600, 3) if quick else (3000, 5)
    long_game = 600 if quick else 1500
    print(f"   spider: {actions} random actions per suit count, replay of a {long_game}-action log")
    baseline_rate = None
    random_line(1, 100, random.Random(0))  # warm up imports and caches before the first figure
    for suits in SUIT_COUNTS:
        rng = random.Random(20261130 + suits)
        began = time.perf_counter()
        start, intents, events, final = random_line(suits, actions, rng)
        random_rate = len(intents) / (time.perf_counter() - began)
        play_seconds = timed(lambda: replay_all(start, intents), repeat)
        play_rate = len(intents) / play_seconds
        baseline_rate = baseline_rate or play_rate

        start, intents, events, final = random_line(suits, long_game, random.Random(7 + suits))
        undos = sum(isinstance(intent, UndoIntent) for intent in intents)
        result = engine.replay("spider", {"suits": suits}, start.seed, events)
        assert result.ok and result.state == final, result.error
        replay_seconds = timed(lambda: engine.replay("spider", {"suits": suits}, start.seed, events), repeat)
        fold_seconds = timed(lambda: engine.fold(start, events), repeat)
        print(
            f"   suits={suits}: random play {random_rate:8.0f} actions/s | play only {play_rate:8.0f} moves/s"
            f" ({play_rate / baseline_rate:4.2f}x suits=1)"
        )
        print(
            f"            replay {len(events)} events ({undos} undos, {final.board.cleared_runs} runs cleared,"
            f" {final.status}): {replay_seconds * 1000:7.1f} ms"
            f" = {replay_seconds / fold_seconds:4.1f}x trusted fold ({fold_seconds * 1000:.1f} ms)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
