"""`arena keys`: the public keys replay files are signed with, to check files against (`arena verify --keys`).

With `--server URL` it asks a server (GET /api/replay-keys: every key the deployment has signed
with, a rotated-out one included); without, it prints this machine's current key, derived from the
same secret `arena serve` uses (ARENA_REPLAY_SIGNING_SECRET, else data/replay-signing-secret). The
output is the keys document either way; `-o FILE` saves it.
"""

from __future__ import annotations

import argparse
import sys
import urllib.error
import urllib.request
from pathlib import Path

from cli.play_api import TIMEOUT_SECONDS, PlayError, normalize_server


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--server", help="ask this server for every key it has signed with")
    parser.add_argument("-o", "--output", type=Path, help="write the keys document here (default: print it)")


def fetch_keys(server: str) -> bytes:
    """The keys document of a server; OSError or ValueError when it cannot be had."""
    try:
        url = f"{normalize_server(server)}/api/replay-keys"
    except PlayError as exc:
        raise ValueError(str(exc)) from None
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_SECONDS) as answer:
            return answer.read()
    except urllib.error.HTTPError as exc:
        raise ValueError(f"{server} answered {exc.code} for /api/replay-keys") from None
    except urllib.error.URLError as exc:
        raise OSError(f"cannot reach {server}: {exc.reason}") from None


def run(args: argparse.Namespace) -> int:
    import msgspec

    from services.runtime.settings import settings_from_environment
    from services.validator.replay_signing import SECRET_NAME, KeyList, signer_from

    if args.server:
        try:
            document = fetch_keys(args.server)
        except (OSError, ValueError) as exc:
            print(f"arena keys: {exc}", file=sys.stderr)
            return 1
    else:
        settings = settings_from_environment()
        made = settings.data_dir / SECRET_NAME
        if settings.replay_signing_secret is None and not made.exists():  # never make one here: the server does
            print(f"arena keys: no signing key yet ({made} is made by the server's first start; or set "
                  "ARENA_REPLAY_SIGNING_SECRET, or ask a server with --server URL)", file=sys.stderr)
            return 1
        signer = signer_from(settings.replay_signing_secret, settings.data_dir)
        document = msgspec.json.encode(KeyList(signer.key_id, [signer.public]))
    document = msgspec.json.format(document, indent=1)
    if args.output is None:
        sys.stdout.write(document.decode() + "\n")
    else:
        args.output.write_bytes(document)
        print(f"wrote {args.output}")
    return 0
