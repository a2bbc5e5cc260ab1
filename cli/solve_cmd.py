"""`arena solve`: is a deal winnable with full knowledge, and how; or the winnable share over seeds."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import engine
from engine.adapters.codec import to_builtins
from engine.errors import RuleError
from engine.solver import solvable_games, solve


def _seed_range(text: str) -> range:
    first, _, last = text.partition("..")
    try:
        seeds = range(int(first), int(last or first) + 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected SEED or FIRST..LAST, not {text!r}") from None
    if not seeds:
        raise argparse.ArgumentTypeError(f"the range {text!r} is empty: FIRST must not be above LAST")
    return seeds


def add_arguments(parser: argparse.ArgumentParser) -> None:
    solvable = solvable_games()
    parser.add_argument("--game", default=solvable[0], choices=solvable, help="game id (default %(default)s)")
    parser.add_argument("--variant", default="{}", help='variant as JSON, e.g. \'{"piles": 8}\'')
    parser.add_argument("--seed", "--seeds", dest="seeds", type=_seed_range, default=range(1, 2),
                        help="a seed, or a range FIRST..LAST (default 1)")
    parser.add_argument("--stats", action="store_true", help="print the winnable share and solve times")
    parser.add_argument("--json", action="store_true", help="one JSON object per seed")


def run(args: argparse.Namespace) -> int:
    try:
        variant = json.loads(args.variant)
    except json.JSONDecodeError as exc:
        print(f"arena solve: --variant is not JSON: {exc}", file=sys.stderr)
        return 2
    times: list[float] = []
    wins = 0
    for done, seed in enumerate(args.seeds, 1):
        state = engine.initial_state(args.game, variant, seed)
        started = time.perf_counter()
        solution = state if isinstance(state, RuleError) else solve(state)
        times.append(time.perf_counter() - started)
        if isinstance(solution, RuleError):
            print(f"arena solve: {solution.message}", file=sys.stderr)
            return 2
        wins += solution.winnable
        if args.json:
            print(json.dumps({"seed": seed, "winnable": solution.winnable, "line": to_builtins(solution.line)}))
        elif not args.stats:
            line = " ".join(f"{m.a}-{m.b}" for m in solution.line)
            print(f"seed {seed}: {'winnable: ' + line if solution.winnable else 'not winnable'}")
        elif done % 250 == 0 or done == len(args.seeds):
            print(f"  {done}/{len(args.seeds)} deals solved", file=sys.stderr, flush=True)
    if args.stats:
        total = len(args.seeds)
        print(f"{args.game} {json.dumps(variant)} seeds {args.seeds.start}..{args.seeds.stop - 1}: "
              f"{wins}/{total} winnable ({100 * wins / total:.1f}%)")
        print(f"solve time per deal: median {1000 * statistics.median(times):.2f} ms, "
              f"mean {1000 * statistics.fmean(times):.2f} ms, max {1000 * max(times):.2f} ms")
    return 0
