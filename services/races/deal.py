"""A race's deal: a fresh secret seed per race that the game's solver proves winnable (where the
engine has a solver; else the engine's not-lost-at-the-deal check), and its commitment.

The seed comes from `secrets`, never from anything a racer knows, and stays on the server until the
race has ended. The commitment, published at creation, binds it:
``SHA-256("patience-arena/race-commitment/v1/<race id>/<seed>/<salt>")`` in lowercase hex, the seed in
decimal and the salt (16 random bytes) in lowercase hex, so after the end anyone can check that the
revealed seed is the one the race had from its start.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from msgspec import Struct

from ..tournaments.winnable import check_for
from .commands import RaceError

COMMITMENT_LABEL = "patience-arena/race-commitment/v1"
MAX_TRIES = 200
NO_WINNABLE_DEAL = "no_winnable_deal"


class ChosenDeal(Struct, frozen=True):
    seed: int
    salt: str  # hex
    check: str  # the winnability check's name: exact_solver or not_lost_at_deal
    tries: int


def choose_deal(game: str, variant: dict[str, Any], *, max_tries: int = MAX_TRIES) -> ChosenDeal | RaceError:  # Any: a variant's JSON values
    """Random seeds until the game's check accepts one. Slow for a solver: run it off the event loop."""
    check = check_for(game)
    for tries in range(1, max_tries + 1):
        seed = secrets.randbits(64)
        if check(game, variant, seed):
            return ChosenDeal(seed, secrets.token_hex(16), check.name, tries)
    return RaceError(NO_WINNABLE_DEAL, f"no deal of {game} passed the {check.name} check in {max_tries} tries")


def commitment(race_id: str, seed: int, salt: str) -> str:
    if "/" in race_id or not race_id.isprintable():
        raise ValueError(f"race id {race_id!r} cannot be part of a commitment")
    message = f"{COMMITMENT_LABEL}/{race_id}/{seed}/{salt}".encode()
    return hashlib.sha256(message).hexdigest()


def verify_commitment(published: str, race_id: str, seed: int, salt: str) -> bool:
    try:
        expected = commitment(race_id, seed, salt)
    except ValueError:
        return False
    return isinstance(published, str) and published.isascii() and hmac.compare_digest(published.lower(), expected)
