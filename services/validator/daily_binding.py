"""A replay file's daily binding: the salt and commitment it carries bind its own deal to its challenge.

A revealed daily's replay file (docs/replay-format.md) carries the challenge's salt and the
commitment published before the day. With them the file alone shows its deal was fixed before anyone
played: the commitment must be SHA-256 of (the challenge's date, the file's game, variant, seed, and
the salt), exactly as docs/daily-verification.md spells it. A file whose commitment binds another
seed, another day or another salt is refused; one without them (not a daily, or on the guests' deal,
which no commitment binds) has nothing to check here.
"""

from __future__ import annotations

from engine import RuleError
from engine.rules import variant_key

from ..tournaments.catalogue import parse_challenge_key
from ..tournaments.derivation import verify_commitment

COMMITMENT_MISMATCH = "commitment_mismatch"


def binding_problem(challenge: str | None, game: str, variant: dict, seed: int,
                    salt: str | None, commitment: str | None) -> str | None:
    """Why the file's salt and commitment do not bind its deal to its challenge; None when they do,
    or when the file carries neither."""
    if salt is None and commitment is None:
        return None
    if salt is None or commitment is None:
        return "the file carries a salt without a commitment, or a commitment without a salt"
    if challenge is None:
        return "the file carries a salt and commitment but names no daily challenge"
    ref = parse_challenge_key(challenge)
    if isinstance(ref, RuleError):
        return f"the challenge key does not read: {ref.message}"
    variant_text = variant_key(variant)
    if (ref.daily.game, ref.daily.variant_text) != (game, variant_text):
        return f"the challenge {challenge} is not a daily of {game} {variant_text}"
    try:
        salt_bytes = bytes.fromhex(salt)
    except ValueError:
        return f"the salt {salt!r} is not hex"
    if not verify_commitment(commitment, ref.date, game, variant_text, seed, salt_bytes):
        return (f"the commitment does not bind seed {seed} and this salt to {challenge}: "
                "it is not SHA-256 of the day's date, game, variant, seed and salt")
    return None
