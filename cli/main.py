"""`arena`: the product's one console command. Each subcommand lives in its own module."""

from __future__ import annotations

import argparse
import importlib
import sys

# name -> (module, help). A module provides `add_arguments(parser)` and `run(args) -> int`.
SUBCOMMANDS = {
    "serve": ("cli.serve", "run the server (gateway, web client) on the embedded Redis or REDIS_URL"),
    "engine": ("cli.engine_cmd", "the engine line protocol: one JSON object a line on stdin/stdout"),
    "solve": ("cli.solve_cmd", "solve deals with full knowledge: winnable or not, and a winning line"),
    "play": ("cli.play", "play a game in the terminal against a running server"),
    "validate": ("cli.validate_cmd", "run replay validator workers on REDIS_URL: recheck every win from its log"),
    "review": ("cli.review_cmd", "the human-speed review on REDIS_URL: list flagged daily wins, clear or reject one"),
    "export": ("cli.export_cmd", "write a finished game's replay file, from a server"),
    "archive": ("cli.archive_cmd", "the archive tier on REDIS_URL: --status counts hot, archived and pending games"),
    "verify-daily": ("cli.verify_daily_cmd", "check a revealed day's seeds against its published commitments"),
    "verify": ("cli.verify_cmd", "check replay files offline with the engine: exit 1 if any fails"),
    "keys": ("cli.keys_cmd", "print the public keys replay files are signed with (of this machine, or --server's)"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="arena", description="Patience Arena: solitaire tournaments.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        module = importlib.import_module(module_name)
        module.add_arguments(sub.add_parser(name, help=help_text, description=help_text))
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    module = importlib.import_module(SUBCOMMANDS[args.command][0])
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
