"""Guest identity: a player id signed with the server secret (HMAC-SHA256), no account needed.

A token is ``<player_id>.<signature>``; the server keeps no session table, so any gateway process
sharing the secret accepts it. The secret comes from ARENA_SECRET, else it is generated once and
kept in the data folder so tokens survive a restart.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path

PLAYER_PREFIX = "g_"


def load_or_create_secret(configured: str | None, data_dir: Path, name: str = "secret") -> bytes:
    """The configured secret, else the one in data_dir/<name>, made once (each use has its own name)."""
    if configured:
        return configured.encode()
    path = data_dir / name
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        # Written whole to a private file, then linked into place: the link fails if another process
        # starting together got there first (both then read its secret), and nobody ever reads a
        # half-written, empty secret.
        draft = data_dir / f".{name}-{secrets.token_hex(8)}"
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(32))
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    value = path.read_text().strip()
    if not value:
        raise ValueError(f"{path} is empty: delete it (a new secret is made) or set ARENA_SECRET")
    return value.encode()


class Identity:
    """Issues and checks guest tokens."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def _sign(self, player_id: str) -> str:
        digest = hmac.new(self._secret, player_id.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()

    def new_guest(self) -> tuple[str, str]:
        """A fresh player id and its token."""
        player_id = PLAYER_PREFIX + secrets.token_hex(8)
        return player_id, self.token_for(player_id)

    def token_for(self, player_id: str) -> str:
        return f"{player_id}.{self._sign(player_id)}"

    def player_of(self, token: str | None) -> str | None:
        """The player a token names, or None when it is missing, malformed or forged."""
        if not token or token.count(".") != 1:
            return None
        player_id, signature = token.split(".")
        if not player_id.startswith(PLAYER_PREFIX) or len(player_id) > 64:
            return None
        return player_id if hmac.compare_digest(signature, self._sign(player_id)) else None
