"""Player identity: a token is a JWT (PyJWT, HS256) naming a player, signed with the server secret.

Claims: `sub` the player id, `iat` and `exp` (a token lives `ttl_seconds`, 30 days by default; a
client refreshes it before then), `gen` the player's token generation when it was issued (signing out
raises the generation in Redis and so ends every earlier token: services/identity/sessions.py). Signature and
expiry need no lookup, so any gateway process sharing the secret checks them. The secret comes from
ARENA_SECRET, else it is generated once and kept in the data folder so tokens survive a restart.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import time
from pathlib import Path
from collections.abc import Callable

import jwt
from msgspec import Struct

PLAYER_PREFIX = "g_"
DEFAULT_TTL_SECONDS = 30 * 86_400
ALGORITHM = "HS256"
REQUIRED_CLAIMS = ["sub", "iat", "exp", "gen"]
# Tokens whose signature was checked, kept so the next request of the same player skips PyJWT (about a tenth
# of a game's creation request): a token never changes, so its claims are as good as at the first check, and
# only its expiry must be seen to again. Each entry is some 300 bytes.
VERIFIED_KEPT = 4_096


class IssuedToken(Struct, frozen=True):
    player_id: str
    token: str
    issued_at_ms: int
    expires_at_ms: int


class TokenClaims(Struct, frozen=True):
    """A token whose signature and expiry were checked (not yet whether it was signed out)."""

    player_id: str
    generation: int
    expires_at: int  # seconds since the epoch


class TokenRefused(Struct, frozen=True):
    """Why a token (or a socket ticket) was refused: `code` for programs, `message` for people."""

    code: str
    message: str


NO_TOKEN = TokenRefused("unauthorized", "send `Authorization: Bearer <token>` (POST /api/players/guest makes one)")
EXPIRED = TokenRefused("token_expired", "the token has expired: refresh tokens before they do, or start anew")


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


def signing_key(secret: bytes) -> bytes:
    """A key for tokens alone, derived from the secret: always 32 bytes (HS256 wants no shorter), and
    a later use of the same secret cannot be confused with a token."""
    return hmac.new(secret, b"patience-arena player token v1", hashlib.sha256).digest()


class Identity:
    """Issues and checks player tokens. `clock` (seconds) is the issuing time; PyJWT checks expiry."""

    def __init__(
        self, secret: bytes, ttl_seconds: int = DEFAULT_TTL_SECONDS, clock: Callable[[], float] = time.time
    ) -> None:
        if ttl_seconds < 1:
            raise ValueError(f"a token lifetime of {ttl_seconds} s is not one")
        self._key = signing_key(secret)
        self.ttl_seconds = ttl_seconds
        self._clock = clock
        self._verified: dict[str, TokenClaims] = {}  # token -> its claims, oldest first
        self._now = time.time  # expiry is judged on the wall clock, as PyJWT judges it

    def new_guest(self) -> IssuedToken:
        """A fresh player id and its token."""
        return self.token_for(PLAYER_PREFIX + secrets.token_hex(8))

    def token_for(self, player_id: str, generation: int = 0) -> IssuedToken:
        now = int(self._clock())
        # jti: two tokens issued in the same second still differ
        claims = {"sub": player_id, "iat": now, "exp": now + self.ttl_seconds, "gen": generation,
                  "jti": secrets.token_hex(8)}
        token = jwt.encode(claims, self._key, algorithm=ALGORITHM)
        return IssuedToken(player_id, token, now * 1000, (now + self.ttl_seconds) * 1000)

    def check(self, token: str | None) -> TokenClaims | TokenRefused:
        """The claims of a token this server signed and that has not expired, or why not."""
        if not token:
            return NO_TOKEN
        known = self._verified.get(token)
        if known is not None:
            if known.expires_at <= self._now():  # PyJWT's own test: expired at its `exp` second
                del self._verified[token]
                return EXPIRED
            return known
        checked = self._check_signed(token)
        if isinstance(checked, TokenClaims):
            if len(self._verified) >= VERIFIED_KEPT:
                del self._verified[next(iter(self._verified))]
            self._verified[token] = checked
        return checked

    def _check_signed(self, token: str) -> TokenClaims | TokenRefused:
        try:
            claims = jwt.decode(token, self._key, algorithms=[ALGORITHM], options={"require": REQUIRED_CLAIMS})
        except jwt.ExpiredSignatureError:
            return EXPIRED
        except jwt.InvalidTokenError as exc:
            return TokenRefused("bad_token", f"not a token this server signed ({exc}): POST /api/players/guest")
        generation, player_id = claims["gen"], claims["sub"]
        if not isinstance(generation, int) or generation < 0 or not isinstance(player_id, str) or not player_id:
            return TokenRefused("bad_token", "the token's claims are malformed")
        return TokenClaims(player_id, generation, int(claims["exp"]))
