"""`arena verify FILE...`: replay files checked offline, with the engine alone (no server).

Each file is re-run exactly as the validator re-runs a stored log: every entry re-decided from the
deal, the header, result, times and digest checked, and a revealed daily's commitment checked to
bind the file's own deal (date, game, variant, seed, salt) to its challenge. A progress bar while it
works, a summary table at the end, exit status 1 if any file fails.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", type=Path, help="replay files (arena export, GET /api/games/ID/replay)")


def run(args: argparse.Namespace) -> int:
    import msgspec
    from rich.console import Console
    from rich.progress import track
    from rich.table import Table

    from services.validator.replay_file import decode_replay, verify_replay

    console = Console(stderr=False)
    rows, failed = [], 0
    for path in track(args.files, description="verifying", console=Console(stderr=True), transient=True):
        try:
            replay = decode_replay(path.read_bytes())
        except OSError as exc:
            rows.append((str(path), "-", "unreadable", str(exc.strerror or exc)))
            failed += 1
            continue
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            rows.append((str(path), "-", "rejected", f"not a replay file: {exc}"))
            failed += 1
            continue
        verdict = verify_replay(replay)
        if verdict.verified:
            detail = f"{replay.game} won in {verdict.moves} moves, {verdict.time_ms / 1000:.1f} s"
            if replay.commitment is not None:  # checked by verify_replay: the deal is the one committed to
                detail += f"; the commitment binds its deal to {replay.challenge}"
            rows.append((str(path), replay.game_id, "verified", detail))
        else:
            where = f" (entry {verdict.bad_entry})" if verdict.bad_entry is not None else ""
            rows.append((str(path), replay.game_id, "rejected", f"{verdict.reason}: {verdict.message}{where}"))
            failed += 1
    table = Table(title=f"{len(rows) - failed} verified, {failed} failed")
    for column in ("file", "game", "verdict", "detail"):
        table.add_column(column, overflow="fold")
    for path, game_id, outcome, detail in rows:
        style = "green" if outcome == "verified" else "red"
        table.add_row(path, game_id, f"[{style}]{outcome}[/{style}]", detail)
    console.print(table)
    return 1 if failed else 0
