"""`arena verify FILE...`: replay files checked offline, with the engine alone (no server).

Each file is read by the strict reader (services/validator/replay_reader.py), then re-run exactly
as the validator re-runs a stored log: every entry re-decided from the deal, the header, links,
result, every time stamp and the digest checked, and a revealed daily's commitment checked to bind
the file's own deal to its challenge. With the server's keys (`--keys FILE` saved by `arena keys`,
or `--server URL` to fetch them) the signature is checked too: then the times and the player are
the server's word, not only what the file says. The table says which parts each file proved.

A file that fails never stops the others: each gets one line with a code and a reason. A progress
bar while it works, a summary table at the end, exit status 1 if any file fails (or, with
`--require-signature`, is not proven signed).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from cli.keys_cmd import fetch_keys

if TYPE_CHECKING:
    from services.validator.replay_signing import Keyring

FILE_CHARS, ID_CHARS, DETAIL_CHARS = 40, 20, 160  # the table stays narrow whatever a file holds


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", type=Path, help="replay files (arena export, GET /api/games/ID/replay)")
    keys = parser.add_mutually_exclusive_group()
    keys.add_argument("--keys", type=Path, help="the server's public keys, as `arena keys -o FILE` saved them")
    keys.add_argument("--server", help="fetch the public keys from this server (GET /api/replay-keys)")
    parser.add_argument("--require-signature", action="store_true",
                        help="fail a file whose signature is not checked valid (unsigned, or no keys given)")


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import track
    from rich.table import Table

    from services.validator.replay_signing import Keyring

    keyring = None
    try:
        if args.keys is not None:
            keyring = Keyring.from_document(args.keys.read_bytes())
        elif args.server is not None:
            keyring = Keyring.from_document(fetch_keys(args.server))
    except (OSError, ValueError) as exc:
        print(f"arena verify: cannot read the keys: {exc}", file=sys.stderr)
        return 2
    rows, failed = [], 0
    for path in track(args.files, description="verifying", console=Console(stderr=True), transient=True):
        row = _verify_one(path, keyring, args.require_signature)
        failed += row[2] != "verified"
        rows.append(row)
    table = Table(title=f"{len(rows) - failed} verified, {failed} failed")
    for column in ("file", "game", "verdict", "proved", "detail"):
        table.add_column(column, overflow="fold")
    for path_text, game_id, outcome, proved, detail in rows:
        style = "green" if outcome == "verified" else "red"
        table.add_row(_cut(path_text, FILE_CHARS), _cut(game_id, ID_CHARS), f"[{style}]{outcome}[/{style}]",
                      proved, _cut(detail, DETAIL_CHARS))
    Console(stderr=False).print(table)
    return 1 if failed else 0


def _verify_one(path: Path, keyring: Keyring | None, require_signature: bool) -> tuple[str, str, str, str, str]:
    """(file, game, verdict, proved, detail) of one file; never raises."""
    from services.validator.replay_file import verify_replay
    from services.validator.replay_format import MAX_BYTES
    from services.validator.replay_reader import TOO_LARGE, FileRefusal, read_replay

    try:
        if path.stat().st_size > MAX_BYTES:  # refused unread, however large
            return str(path), "-", "rejected", "-", f"{TOO_LARGE}: {path.stat().st_size:,} bytes, above {MAX_BYTES:,}"
        replay = read_replay(path.read_bytes())
    except OSError as exc:
        return str(path), "-", "unreadable", "-", str(exc.strerror or exc)
    if isinstance(replay, FileRefusal):
        return str(path), "-", "rejected", "-", f"{replay.code}: {replay.message}"
    try:
        found = verify_replay(replay, keyring)
    except Exception as exc:  # noqa: BLE001  a defect of ours must not cost the other files their verdicts
        return str(path), replay.game_id, "rejected", "-", f"internal_error: {type(exc).__name__}: {exc}"
    verdict = found.verdict
    if not verdict.verified:
        where = f" (entry {verdict.bad_entry})" if verdict.bad_entry is not None else ""
        return str(path), replay.game_id, "rejected", "-", f"{verdict.reason}: {verdict.message}{where}"
    proved = "rules, result" + (", time, player" if found.signature == "valid" else "")
    detail = f"{replay.game} won in {verdict.moves} moves, {verdict.time_ms / 1000:.1f} s"
    if replay.commitment is not None:
        detail += f"; the commitment binds its deal to {replay.challenge}"
    detail += {"valid": f"; signed by key {found.key_id}",
               "unchecked": f"; signed by key {found.key_id}, not checked (give --keys or --server)",
               "unsigned": "; unsigned (format 1): its times and player are not attested"}[found.signature]
    if require_signature and found.signature != "valid":
        return str(path), replay.game_id, "rejected", proved, "signature_required: " + detail
    return str(path), replay.game_id, "verified", proved, detail


def _cut(text: str, chars: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= chars else text[: chars - 1] + "…"
