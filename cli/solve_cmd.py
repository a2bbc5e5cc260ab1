"""`arena solve`: is a deal winnable with full knowledge, and how; or the winnable share over seeds."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from contextlib import nullcontext

from engine.adapters.codec import to_builtins
from engine.errors import RuleError
from engine.solver import UNKNOWN, UNWINNABLE, WINNABLE, solvable_games
from engine.compiled import describe
from engine.solver.figures import HEADER, measure
from services.runtime.solver_pool import collector_paused


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
    parser.add_argument("--variant", default="{}", help='variant as JSON, e.g. \'{"suits": 4}\'')
    parser.add_argument("--seed", "--seeds", dest="seeds", type=_seed_range, default=range(1, 2),
                        help="a seed, or a range FIRST..LAST (default 1)")
    parser.add_argument("--budget", type=int, default=None,
                        help="search nodes per deal before answering unknown (default: the game's own)")
    parser.add_argument("--stats", action="store_true",
                        help="print the winnable share (95%% interval), unknowns and solve times")
    parser.add_argument("--json", action="store_true", help="one JSON object per seed")


def _text(intent) -> str:
    fields = to_builtins(intent)
    kind = fields.pop("type")
    if kind == "pair":
        return f"{fields['a']}-{fields['b']}"
    if kind == "move":
        return f"{fields['src']}>{fields['dst']}" + (f"x{fields['count']}" if fields["count"] != 1 else "")
    return kind if not fields else f"{kind}({','.join(str(v) for v in fields.values())})"


def _progress_bar():
    """A progress bar on stderr with the counts so far, where stderr is a terminal (a long --stats run takes
    minutes); elsewhere None, and a line every 100 deals instead (logs, pipes)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    console = Console(stderr=True)
    if not console.is_terminal:
        return None
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TimeRemainingColumn(), console=console, transient=True)


def run(args: argparse.Namespace) -> int:
    try:
        variant = json.loads(args.variant)
    except json.JSONDecodeError as exc:
        print(f"arena solve: --variant is not JSON: {exc}", file=sys.stderr)
        return 2
    if args.budget is not None and args.budget < 1:
        print("arena solve: --budget must be at least 1", file=sys.stderr)
        return 2
    total = len(args.seeds)
    counts: Counter[str] = Counter()
    bar = _progress_bar() if args.stats else None
    task = bar.add_task("solving", total=total) if bar is not None else None

    def on_deal(seed, state, verdict, seconds) -> None:
        if args.json:
            print(json.dumps({"seed": seed, "result": verdict.result, "nodes": verdict.nodes,
                              "line": to_builtins(verdict.line)}), flush=True)
        elif not args.stats:
            line = f": {' '.join(_text(m) for m in verdict.line)}" if verdict.line else ""
            print(f"seed {seed}: {verdict.result} ({verdict.nodes} nodes){line}", flush=True)
        counts[verdict.result] += 1
        done = seed - args.seeds.start + 1
        so_far = ", ".join(f"{counts[result]} {result}" for result in (WINNABLE, UNWINNABLE, UNKNOWN))
        if bar is not None and task is not None:
            bar.update(task, completed=done, description=so_far)
        elif args.stats and (done % 100 == 0 or done == total):
            print(f"  {done}/{total} deals solved ({so_far})", file=sys.stderr, flush=True)

    with collector_paused(), (bar or nullcontext()):  # this process only solves (services/runtime/solver_pool.py)
        figures = measure(args.game, variant, args.seeds, args.budget, on_deal)
    if isinstance(figures, RuleError):
        print(f"arena solve: {figures.message}", file=sys.stderr)
        return 2
    if args.stats:
        print(describe())
        print(HEADER)
        print(figures.row())
    return 0
