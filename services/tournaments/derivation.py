"""A daily's seed and its commitment: keyed derivation, winnable pick, SHA-256 commitment. Pure.

Version 1 of these texts is published (docs/daily-verification.md) and never changes; a change is a v2
with its own labels. Each message is UTF-8 text, its parts joined by "/" (no part may contain one):

1. Day key: ``HMAC-SHA256(tournament secret, "patience-arena/daily-key/v1/<date>/<game>/<variant>")``,
   32 bytes. The tournament secret is its own secret, never the one that signs player tokens.
2. Seed of a counter: the first 8 bytes, big-endian, of
   ``HMAC-SHA256(day key, "patience-arena/daily-seed/v1/<counter>")``, counter written in decimal.
3. The pick: counter 0, 1, 2, ... until the game's winnability check accepts the deal.
4. Commitment: ``SHA-256("patience-arena/daily-commitment/v1/<date>/<game>/<variant>/<seed>/<salt>")``
   as lowercase hex, the seed in decimal and the salt (16 random bytes) in lowercase hex.

<variant> is the deal key's canonical variant text (``suits=2``). Why two HMAC steps: at the close
the day key is revealed with the seed, salt and counter, so anyone can redo the last step and see that
every counter before the chosen one gave a deal the check refused; the day key tells nothing about
other days (each is its own HMAC of the secret) and the secret itself is never revealed.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Any

from msgspec import Struct

from engine.errors import RuleError, rule_error
from engine.rules import variant_key

from .winnable import WinnableFn

DAY_KEY_LABEL = "patience-arena/daily-key/v1"
# The guests' deal of a challenge (guests and accounts made after it opened play that one, unranked, so a
# throwaway identity learns nothing of the ranked deal): the same steps under its own label. Never
# committed to nor needed to check a ranked result; its day key is a different HMAC of the secret.
GUEST_KEY_LABEL = "patience-arena/daily-guest-key/v1"
SEED_LABEL = "patience-arena/daily-seed/v1"
COMMITMENT_LABEL = "patience-arena/daily-commitment/v1"
SALT_BYTES = 16
MIN_SECRET_BYTES = 16
DEFAULT_MAX_COUNTER = 1000  # The Wish, the hardest so far, is winnable in about 6 deals of 10
NO_WINNABLE_DEAL = "no_winnable_deal"

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_GAME = re.compile(r"[a-z0-9-]+")


class SeedPick(Struct, frozen=True):
    seed: int
    counter: int
    day_key: bytes


def _part(text: str, what: str) -> str:
    if not isinstance(text, str) or "/" in text or not text.isprintable():
        raise ValueError(f"{what} {text!r} cannot be part of a derivation message")
    return text


def _message(label: str, date: str, game: str, variant_text: str, *rest: str) -> bytes:
    if not isinstance(date, str) or not _DATE.fullmatch(date):
        raise ValueError(f"date must be written YYYY-MM-DD, not {date!r}")
    if not isinstance(game, str) or not _GAME.fullmatch(game):
        raise ValueError(f"game id {game!r} cannot be part of a derivation message")
    parts = [label, date, game, _part(variant_text, "variant text"), *rest]
    return "/".join(parts).encode("utf-8")


def _check_secret(secret: bytes) -> bytes:
    if not isinstance(secret, bytes) or len(secret) < MIN_SECRET_BYTES:
        raise ValueError(f"the tournament secret must be at least {MIN_SECRET_BYTES} bytes")
    return secret


def day_key(secret: bytes, date: str, game: str, variant_text: str, label: str = DAY_KEY_LABEL) -> bytes:
    message = _message(label, date, game, variant_text)
    return hmac.new(_check_secret(secret), message, hashlib.sha256).digest()


def seed_from_day_key(key: bytes, counter: int) -> int:
    if not isinstance(counter, int) or isinstance(counter, bool) or counter < 0:
        raise ValueError(f"counter must be a whole number of at least 0, not {counter!r}")
    digest = hmac.new(key, f"{SEED_LABEL}/{counter}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def derive_seed(secret: bytes, date: str, game: str, variant_text: str, counter: int) -> int:
    """The 64-bit seed for (date, game, variant, counter)."""
    return seed_from_day_key(day_key(secret, date, game, variant_text), counter)


def pick_seed(
    secret: bytes,
    date: str,
    game: str,
    variant: dict[str, Any],  # Any: a variant's JSON values (the engine checks them)
    is_winnable: WinnableFn,
    *,
    max_counter: int = DEFAULT_MAX_COUNTER,
    label: str = DAY_KEY_LABEL,
) -> SeedPick | RuleError:
    """The first counter's seed whose deal `is_winnable(game, variant, seed)` accepts; counters
    0 to max_counter - 1 are tried, then no_winnable_deal. `variant` has every field given.
    `label`: the day key's (the ranked deal's by default, GUEST_KEY_LABEL for the guests' deal)."""
    key = day_key(secret, date, game, variant_key(variant), label)
    for counter in range(max_counter):
        seed = seed_from_day_key(key, counter)
        if is_winnable(game, variant, seed):
            return SeedPick(seed, counter, key)
    return rule_error(
        NO_WINNABLE_DEAL,
        f"no deal of {game} {variant_key(variant)} for {date} passed the check in {max_counter} tries",
    )


def new_salt() -> bytes:
    """16 random bytes. The one impure function here: the caller stores the salt it was given."""
    return secrets.token_bytes(SALT_BYTES)


def commitment_message(date: str, game: str, variant_text: str, seed: int, salt: bytes) -> bytes:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an integer from 0 to 2**64-1, not {seed!r}")
    if not isinstance(salt, bytes) or not salt:
        raise ValueError("the salt must be non-empty bytes")
    return _message(COMMITMENT_LABEL, date, game, variant_text, str(seed), salt.hex())


def commitment(date: str, game: str, variant_text: str, seed: int, salt: bytes) -> str:
    """The SHA-256 commitment (lowercase hex) published before the challenge opens."""
    return hashlib.sha256(commitment_message(date, game, variant_text, seed, salt)).hexdigest()


def verify_commitment(published: str, date: str, game: str, variant_text: str, seed: int, salt: bytes) -> bool:
    """True when the revealed seed and salt are the ones the published commitment bound."""
    try:
        expected = commitment(date, game, variant_text, seed, salt)
    except ValueError:
        return False
    if not isinstance(published, str) or not published.isascii():
        return False
    return hmac.compare_digest(published.lower(), expected)
