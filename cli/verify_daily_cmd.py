"""`arena verify-daily DATE`: check a revealed day against the commitments published before it opened.

For each of the day's challenges: the commitment is SHA-256 of (date, game, variant, seed, salt) as
docs/daily-verification.md spells it, the seed is the counter's step of the revealed day key, and the
deal it gives is printed. Reads the day from a server (GET /api/dailies/DATE) or from a saved JSON
file of that response. Exit status 1 on any mismatch or on a day not revealed yet.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request
from pathlib import Path

from cli.play_api import TIMEOUT_SECONDS, PlayError, normalize_server

DEFAULT_SERVER = "http://127.0.0.1:8000"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("date", nargs="?", help="the UTC day, e.g. 2026-12-01 (with --server)")
    parser.add_argument("--server", default=DEFAULT_SERVER, help=f"the server's address (default {DEFAULT_SERVER})")
    parser.add_argument("--file", type=Path, help="a saved GET /api/dailies/DATE response instead of a server")


def _load(args: argparse.Namespace) -> dict:
    if args.file is not None:
        return json.loads(args.file.read_text())
    if not args.date:
        raise PlayError("name the day (arena verify-daily 2026-12-01) or give --file")
    url = f"{normalize_server(args.server)}/api/dailies/{args.date}"
    with urllib.request.urlopen(url, timeout=TIMEOUT_SECONDS) as response:
        return json.loads(response.read())


def check_challenge(info: dict) -> tuple[bool, str]:
    """(ok, what to print) for one challenge of the day's response."""
    from engine import RuleError, initial_state
    from engine.rules import variant_key
    from services.tournaments.derivation import seed_from_day_key, verify_commitment

    name = info["challenge"]
    if info.get("seed") is None or not info.get("salt") or not info.get("day_key"):
        return False, f"{name}: not revealed yet (status {info.get('status')})"
    seed, salt, counter = info["seed"], bytes.fromhex(info["salt"]), info["counter"]
    text = variant_key(info["variant"])
    if not verify_commitment(info["commitment"], info["date"], info["game"], text, seed, salt):
        return False, f"{name}: mismatch: the commitment does not bind this seed and salt"
    if seed_from_day_key(bytes.fromhex(info["day_key"]), counter) != seed:
        return False, f"{name}: mismatch: the seed is not counter {counter}'s step of the day key"
    deal = initial_state(info["game"], info["variant"], seed)
    if isinstance(deal, RuleError):
        return False, f"{name}: mismatch: the seed does not deal: {deal.message}"
    from engine.reveal import revealed_view

    piles = revealed_view(info["game"], info["variant"], seed).piles
    shown = " | ".join(" ".join(card.label() for card in pile.cards) for pile in piles if pile.cards)
    return True, f"{name}: ok (seed {seed}, counter {counter})\n    deal: {shown}"


def run(args: argparse.Namespace) -> int:
    try:
        day = _load(args)
    except (PlayError, OSError, urllib.error.URLError, json.JSONDecodeError) as exc:
        print(f"arena verify-daily: {getattr(exc, 'reason', exc)}", file=sys.stderr)
        return 2
    challenges = [card["challenge"] for card in day.get("challenges", [])]
    if not challenges:
        print(f"arena verify-daily: no challenges for {day.get('date', args.date)}")
        return 1
    failed = 0
    for info in challenges:
        ok, text = check_challenge(info)
        failed += not ok
        print(text)
    print(f"{len(challenges) - failed} of {len(challenges)} challenges check out")
    return 1 if failed else 0
