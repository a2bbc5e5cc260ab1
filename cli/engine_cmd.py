"""`arena engine`: the engine line protocol on stdin/stdout (docs/engine-protocol.md)."""

from __future__ import annotations

import argparse
import sys

from engine.adapters.line_protocol import serve_lines


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = 'example: echo \'{"cmd": "start", "game": "wish", "seed": 42}\' | arena engine'


def run(args: argparse.Namespace) -> int:
    stdout = sys.stdout.buffer

    def write(line: bytes) -> None:
        stdout.write(line)
        stdout.flush()

    serve_lines(sys.stdin.buffer.readline, write)
    return 0
