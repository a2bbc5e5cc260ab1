"""`arena export GAME_ID`: a finished game's replay file, from a server.

It asks a server for a finished game's replay (public once the game is over; a daily attempt
only after the challenge's reveal) and writes it as JSON (docs/replay-format.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from cli.play_api import TIMEOUT_SECONDS, PlayError, normalize_server

DEFAULT_SERVER = "http://127.0.0.1:8000"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game_id", help="the finished game's id")
    parser.add_argument("--server", default=DEFAULT_SERVER, help=f"the server's address (default {DEFAULT_SERVER})")
    parser.add_argument("-o", "--output", type=Path, help="file to write (default GAME_ID.replay.json; - for stdout)")


def run(args: argparse.Namespace) -> int:
    try:
        server = normalize_server(args.server)
        url = f"{server}/api/games/{urllib.parse.quote(args.game_id, safe='')}/replay"
        with urllib.request.urlopen(url, timeout=TIMEOUT_SECONDS) as response:
            body = response.read()
    except urllib.error.HTTPError as exc:
        print(f"arena export: {_error_text(exc)}", file=sys.stderr)
        return 1
    except (urllib.error.URLError, OSError) as exc:
        print(f"arena export: cannot reach {args.server}: {getattr(exc, 'reason', exc)}", file=sys.stderr)
        return 1
    except PlayError as exc:
        print(f"arena export: {exc}", file=sys.stderr)
        return 2
    if str(args.output) == "-":
        sys.stdout.write(body.decode() + "\n")
        return 0
    target = args.output or Path(f"{args.game_id}.replay.json")
    target.write_bytes(body)
    print(f"wrote {target} ({len(body):,} bytes)")
    return 0


def _error_text(exc: urllib.error.HTTPError) -> str:
    try:
        error = json.loads(exc.read())
        return f"{error['message']} ({error['code']})"
    except Exception:  # noqa: BLE001  not our error body: say the status
        return f"the server answered {exc.code}"
