"""`arena verify-daily DATE`: check a revealed day against the commitments published before it opened.

For each of the day's challenges (the checks are daily_proofs.py's, docs/daily-verification.md
spells them): the commitment is the one published before the day (a saved copy of the server's
answer from then, `--published FILE`; without one only the server's present answer and its record of
when it published), it is SHA-256 of (date, game, variant, seed, salt), the seed is the counter's
step of the revealed day key, every skipped counter is re-solved with the challenge's own check and
was refused, and the deal is printed. Reads the day from a server (GET /api/dailies/DATE) or from a
saved file of that answer. Exit status 1 on any mismatch or a day not revealed yet; 2 when an input
cannot be read (no server, not JSON, not the answer it should be).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import msgspec

from cli.daily_proofs import (
    Challenge, DayAnswer, Finding, HubAnswer, Published, commitment_findings, pick_findings, published_in,
    reveal_findings,
)
from cli.play_api import TIMEOUT_SECONDS, PlayError, normalize_server

DEFAULT_SERVER = "http://127.0.0.1:8000"


class BadInput(Exception):
    """An input that cannot be read as what it should be: said in one line, exit status 2."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("date", nargs="?", help="the UTC day, e.g. 2026-12-01 (with --server)")
    parser.add_argument("--server", default=DEFAULT_SERVER, help=f"the server's address (default {DEFAULT_SERVER})")
    parser.add_argument("--file", type=Path, help="a saved GET /api/dailies/DATE answer instead of a server")
    parser.add_argument("--published", type=Path, action="append", default=[], metavar="FILE",
                        help="a GET /api/dailies or /api/dailies/DATE answer saved before the day: its commitments "
                             "are the ones checked (may be given more than once)")


def _json(path: Path) -> Any:  # Any: any JSON
    try:
        return msgspec.json.decode(path.read_bytes())
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror or exc}") from None
    except msgspec.DecodeError as exc:
        raise BadInput(f"{path} is not JSON: {exc}") from None


def _fetch(url: str) -> Any:  # Any: any JSON
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_SECONDS) as response:
            return msgspec.json.decode(response.read())
    except urllib.error.HTTPError as exc:
        try:
            error = json.loads(exc.read())
            said = f"{error['message']} ({error['code']})"
        except Exception:  # noqa: BLE001  not our error body: say the status
            said = f"status {exc.code}"
        raise BadInput(f"the server answered {url} with {said}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise BadInput(f"cannot reach {url}: {getattr(exc, 'reason', exc)}") from None
    except msgspec.DecodeError as exc:
        raise BadInput(f"the server's answer to {url} is not JSON: {exc}") from None


def _convert(doc: Any, shape: type, source: str) -> Any:  # Any: JSON in, an instance of shape out
    try:
        return msgspec.convert(doc, shape)
    except msgspec.ValidationError as exc:
        what = "GET /api/dailies" if shape is HubAnswer else "GET /api/dailies/DATE"
        raise BadInput(f"{source} is not a {what} answer: {exc}") from None


def load_day(args: argparse.Namespace) -> DayAnswer:
    if args.file is not None:
        doc, source = _json(args.file), str(args.file)
    elif not args.date:
        raise BadInput("name the day (arena verify-daily 2026-12-01) or give --file")
    else:
        try:
            server = normalize_server(args.server)
        except PlayError as exc:
            raise BadInput(str(exc)) from None
        source = f"{server}/api/dailies/{args.date}"
        doc = _fetch(source)
    if isinstance(doc, dict) and "today" in doc:
        raise BadInput(f"{source} is a GET /api/dailies answer; give the day's own, GET /api/dailies/DATE")
    day: DayAnswer = _convert(doc, DayAnswer, source)
    if args.date and day.date != args.date:
        raise BadInput(f"{source} is the answer for {day.date}, not {args.date}")
    for card in day.challenges:
        for name in ("salt", "day_key"):
            value = getattr(card.challenge, name)
            try:
                bytes.fromhex(value or "")
            except ValueError:
                raise BadInput(f"{source}: {card.challenge.challenge}'s {name} {value!r} is not hex") from None
    return day


def load_published(paths: list[Path], date: str) -> dict[str, Published]:
    """The day's commitments in the saved copies; refused when two copies disagree on one, or when
    the copies list no challenge of the day at all (a copy of another day checks nothing)."""
    found: dict[str, Published] = {}
    for path in paths:
        doc = _json(path)
        shape = HubAnswer if isinstance(doc, dict) and "today" in doc else DayAnswer
        for key, published in published_in(_convert(doc, shape, str(path)), path.name).items():
            if not key.startswith(f"{date}/"):
                continue
            earlier = found.get(key)
            if earlier is not None and earlier.commitment != published.commitment:
                raise BadInput(f"{earlier.source} and {path} disagree on {key}'s commitment")
            found.setdefault(key, published)
    if paths and not found:
        raise BadInput(f"no saved copy lists a challenge of {date}: {', '.join(map(str, paths))}")
    return found


def _progress():
    """A progress bar on stderr where stderr is a terminal; elsewhere none (each counter's line says it)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    if not console.is_terminal:
        return None
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console, transient=True)


def check_challenge(info: Challenge, published: dict[str, Published], have_copies: bool, progress) -> bool:
    """Print the challenge's findings as they come; True when none failed."""
    print(info.challenge, flush=True)
    if info.seed is None or not info.salt or not info.day_key or info.counter is None:
        print(f"  not revealed yet (status {info.status})", flush=True)
        return False
    findings: list[Finding] = commitment_findings(info, published.get(info.challenge), have_copies)
    findings += reveal_findings(info)
    for finding in findings:
        print(f"  {finding.text}", flush=True)
    if not all(f.ok for f in findings):
        return False  # a deal the commitment does not bind: nothing to re-solve
    task = progress.add_task(f"re-solving {info.challenge}", total=info.counter + 1) if progress else None
    ok = True
    for finding in pick_findings(info, lambda c: progress and progress.update(task, completed=c)):
        print(f"  {finding.text}", flush=True)
        ok = ok and finding.ok
    if progress:
        progress.remove_task(task)
    print(f"  deal: {_deal_text(info)}", flush=True)
    return ok


def _deal_text(info: Challenge) -> str:
    from engine import RuleError
    from engine.reveal import revealed_view

    if info.seed is None:
        return "not revealed yet"
    view = revealed_view(info.game, info.variant, info.seed)
    if isinstance(view, RuleError):
        return f"does not deal: {view.message}"
    return " | ".join(" ".join(card.label() for card in pile.cards) for pile in view.piles if pile.cards)


def run(args: argparse.Namespace) -> int:
    try:
        day = load_day(args)
        published = load_published(args.published, day.date)
    except BadInput as exc:
        print(f"arena verify-daily: {exc}", file=sys.stderr)
        return 2
    if not day.challenges:
        print(f"arena verify-daily: no challenges for {day.date}")
        return 1
    failed = 0
    listed = {card.challenge.challenge for card in day.challenges}
    for key in sorted(set(published) - listed):
        print(f"{key}\n  mismatch: committed in {published[key].source}, absent from the day's answer")
        failed += 1
    progress = _progress()
    with progress or contextlib.nullcontext():
        for card in day.challenges:
            failed += not check_challenge(card.challenge, published, bool(args.published), progress)
    total = len(day.challenges) + len(set(published) - listed)
    where = "saved copies" if args.published else "the server's present answer only"
    print(f"{total - failed} of {total} challenges check out (commitments compared with {where})")
    return 1 if failed else 0
