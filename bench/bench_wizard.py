"""Solitaire Wizard engine speed: random legal play, and what the loss check costs.

Figures per variant (unlimited recycles, none, two):
- moves/s: one move of random legal play (legal_moves, then play of the seeded player's choice),
  against legal_moves alone as the baseline (move/legal);
- outcome/s: RULES.outcome on the recorded boards, as evolve calls it after every move; "search%"
  is the share of those boards with no play now, where the stock-cycle search has to run;
- search us: the uncached search alone (memo bypassed) on those no-play boards, mean and worst.
Then the worst case the search can meet: a lost table with 70 dead cards in the stock cycle, so
every stock-cycling state is visited, for unlimited and limited recycles.
The line is chosen by a seeded random.Random (only here; the engine never uses random). Nothing
here asserts anything about time.

    python -m bench wizard [--quick]      or      python -m bench.bench_wizard [--quick]
"""

from __future__ import annotations

import random
import sys
import time

import engine
from bench.bench_engine import forward_moves, random_player_move
from bench.timing import per_second
from engine.cards import WIZARD_SUITS, wizard_deck
from engine.games.wizard import RULES, WizardVariant
from engine.games.wizard_moves import WizardBoard, plays
from engine.games.wizard_search import _cycle_key, _search, search_args
from engine.piles import Pile

VARIANTS = ({}, {"redeals": 0}, {"redeals": 2})
MAX_GAME = 400  # moves per random game: random play rarely ends a game by itself
Step = tuple[engine.GameState, engine.AnyIntent]


def random_steps(rng: random.Random, variant: dict, moves: int, max_game: int = MAX_GAME) -> tuple[list[Step], dict]:
    """About `moves` steps of random legal play over fresh seeded deals, and how the games ended."""
    steps: list[Step] = []
    endings: dict[str, int] = {}
    while len(steps) < moves:
        state = engine.initial_state("wizard", variant, rng.getrandbits(64))
        for _ in range(max_game):
            options = forward_moves(state)
            if not options:
                break
            intent = rng.choice(options)
            steps.append((state, intent))
            state, _ = engine.play(intent, state)
        endings[state.status] = endings.get(state.status, 0) + 1
    return steps, endings


def mean_and_worst_us(action, items: list, rounds: int) -> tuple[float, float]:
    """Mean and worst microseconds of `action` per item, each item's best of `rounds` runs."""
    if not items:
        return float("nan"), float("nan")
    best = []
    for item in items:
        runs = []
        for _ in range(rounds):
            started = time.perf_counter()
            action(item)
            runs.append(time.perf_counter() - started)
        best.append(min(runs))
    return 1e6 * sum(best) / len(best), 1e6 * max(best)


def dead_table(rng: random.Random) -> WizardBoard:
    """Seven Kings on the tableau, empty foundations, and 70 of the 77 Ace..Jack cards in the stock:
    no card can ever play, so the search must visit every stock-cycling state before it says lost."""
    deck = wizard_deck()
    kings = tuple(Pile((deck[i * 14 + 13],)) for i in range(len(WIZARD_SUITS)))
    dead = [card for card in deck if 1 <= card.rank <= 11]
    rng.shuffle(dead)
    return WizardBoard(kings, (Pile(),) * 7, tuple(dead[:70]))


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    moves, budget, rounds = (1500, 0.3, 3) if quick else (12000, 2.0, 7)
    rng = random.Random(20261130)
    print(f"{'variant':<16}{'moves/s':>9}{'legal/s':>9}{'move/legal':>11}{'outcome/s':>11}"
          f"{'search%':>9}{'search us':>11}{'worst us':>10}  games (status when over, or after {MAX_GAME} moves)")
    for raw in VARIANTS:
        variant = WizardVariant(**raw)
        steps, endings = random_steps(rng, raw, moves)
        boards = [state.board for state, _ in steps]
        moves_rate, legal_rate, outcome_rate = per_second(
            steps, budget, random_player_move, lambda step: engine.legal_moves(step[0]),
            lambda step: RULES.outcome(step[0].board, variant),
        )
        no_play = [board for board in boards if next(plays(board), None) is None]
        args = [a for a in (search_args(board, variant.redeals) for board in no_play) if a is not None]
        mean_us, worst_us = mean_and_worst_us(lambda a: _search.__wrapped__(*a), args, rounds)
        ended = ", ".join(f"{status} {count}" for status, count in sorted(endings.items()))
        print(f"{str(raw):<16}{moves_rate:>9.0f}{legal_rate:>9.0f}{moves_rate and legal_rate / moves_rate:>11.2f}"
              f"{outcome_rate:>11.0f}{100 * len(no_play) / len(boards):>8.1f}%{mean_us:>11.1f}{worst_us:>10.1f}"
              f"  {ended}")
    print("\nworst case: 70 dead cards in the stock cycle, the search visits every stock-cycling state")
    for redeals in (None, 0, 2):
        board = dead_table(rng)
        full = full_search_args(board, redeals)
        mean_us, _ = mean_and_worst_us(lambda a: _search.__wrapped__(*a), [full], rounds)
        quick_us, _ = mean_and_worst_us(lambda b: RULES.outcome(b, WizardVariant(redeals)), [board], rounds)
        print(f"  redeals={str(redeals):<5} full search {mean_us:9.1f} us"
              f"   (outcome() there: {quick_us:.1f} us, as no card of the cycle could play anywhere)")
    return 0


def full_search_args(board: WizardBoard, redeals: int | None) -> tuple:
    """Search inputs for the dead table with one card marked playable where no cycling state ever
    shows it (found by trying each position), so the search runs to the end and answers False."""
    assert search_args(board, redeals) is None  # really dead: outcome() needs no search at all
    key = _cycle_key(board.waste + tuple(reversed(board.stock)))
    for index in range(len(key)):
        args = (key, 1 << index, 0, 0, False, False, False, redeals)
        if not _search.__wrapped__(*args):
            return args
    raise AssertionError("every position of this cycle shows on top: no full search to time")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
