"""The daily challenge's events: the storage schema of a challenge stream and of its attempt streams.

Two kinds of stream, so one challenge never folds 100,000 players' attempts into one state:
- the challenge stream: ChallengePrepared, ChallengeClosed, SeedRevealed;
- one attempt stream per (challenge, player): AttemptStarted, AttemptFinished, EntryVerified or
  EntryRejected, and for a win the human-speed review flagged, ReviewFlagged, then ReviewCleared or
  an operator's EntryRejected. The store's expected-version check on this stream is what makes "one attempt per
  player" hold across processes: two first requests race for version 0 and only one wins.

Stored forever (golden bytes in tests/tournaments pin them): a field may be added only with a
default, a tag is never reused, and the envelope's schema number says which layout a payload has.
`ChallengePrepared.sealed` holds the seed and salt: it is server-side only until SeedRevealed, and no
view or response may copy it before then (see challenge.public_info).
"""

from __future__ import annotations

from typing import Any, Union

import msgspec
from msgspec import Struct

from services.store import NewEvent, StoredEvent

SCHEMA = 1


class ChallengeEvent(Struct, frozen=True, tag_field="type"):
    """Base of every challenge and attempt event."""


class SealedDeal(Struct, frozen=True):
    """What the commitment hides, kept on the server until the reveal. Bytes as lowercase hex."""

    seed: int
    salt: str
    counter: int
    day_key: str


class ChallengePrepared(ChallengeEvent, tag="challenge_prepared", omit_defaults=True, frozen=True):
    challenge: str  # the key, e.g. 2026-12-01/spider/suits=2
    date: str
    game: str
    variant: dict[str, Any]  # Any: a variant's JSON values (the engine checks them)
    opens_at_ms: int
    closes_at_ms: int
    grace_ms: int
    commitment: str
    check: str  # how the deal was chosen: exact_solver; weak (winnable.WEAK_CHECK) only where a setting allows it
    prepared_at_ms: int
    sealed: SealedDeal
    # The guests' deal (derivation.GUEST_KEY_LABEL), as secret as `sealed` until the reveal; None on a
    # challenge prepared before guests had a deal of their own (its guests get a fresh random deal).
    guest_seed: int | None = None


class ChallengeClosed(ChallengeEvent, tag="challenge_closed", frozen=True):
    closed_at_ms: int  # the official close (opens + 24 h), not the moment a process noticed


class SeedRevealed(ChallengeEvent, tag="seed_revealed", frozen=True):
    seed: int
    salt: str
    counter: int
    day_key: str
    revealed_at_ms: int


class AttemptStarted(ChallengeEvent, tag="attempt_started", omit_defaults=True, frozen=True):
    """The attempt claimed: written before its game exists (the game is then created under
    `game_id`, idempotently), so two first requests race for this stream's version 0, not for games."""

    challenge: str
    player: str
    game_id: str
    ranked: bool  # False for a guest: played and counted in their statistics, never ranked
    started_at_ms: int
    # Why an attempt is unranked: "guest" (no account), "new_account" (named after the challenge
    # opened); either plays the guests' deal. "" on a ranked attempt, and on an old guest attempt,
    # which was dealt the ranked deal.
    unranked: str = ""

    @property
    def on_guest_deal(self) -> bool:
        return not self.ranked and self.unranked != ""


class AttemptFinished(ChallengeEvent, tag="attempt_finished", frozen=True):
    player: str
    result: str  # won, lost or abandoned
    moves: int
    time_ms: int  # server-measured, from the first look at the deal to the end
    finished_at_ms: int
    ended_by: str = "game"  # "game" (won, lost or resigned), or "grace": still running at the end of the grace


class EntryVerified(ChallengeEvent, tag="entry_verified", frozen=True):
    player: str
    verified_at_ms: int


class EntryRejected(ChallengeEvent, tag="entry_rejected", frozen=True):
    player: str
    reason: str
    rejected_at_ms: int


class ReviewFlagged(ChallengeEvent, tag="review_flagged", frozen=True):
    """The human-speed review's reasons on a verified win (services/validator/review.py codes), appended
    with its EntryVerified: the win keeps its place, marked `review` until an operator clears it."""

    player: str
    reasons: list[str]
    flagged_at_ms: int


class ReviewCleared(ChallengeEvent, tag="review_cleared", frozen=True):
    """An operator looked at a flagged win and let it stand (`arena review clear`): the mark goes."""

    player: str
    operator_note: str
    cleared_at_ms: int


AnyChallengeEvent = Union[
    ChallengePrepared, ChallengeClosed, SeedRevealed, AttemptStarted, AttemptFinished, EntryVerified, EntryRejected,
    ReviewFlagged, ReviewCleared,
]

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(AnyChallengeEvent)


def event_tag(event: ChallengeEvent) -> str:
    return type(event).__struct_config__.tag  # type: ignore[return-value]  # a tagged Struct's tag: a str here, which the checker types str | int | None


def encode_event(event: ChallengeEvent) -> bytes:
    return _encoder.encode(event)


def decode_event(data: bytes) -> AnyChallengeEvent:
    return _decoder.decode(data)


def to_new_event(event: ChallengeEvent) -> NewEvent:
    """The store's envelope: the tag as its type, the whole tagged struct as its payload."""
    return NewEvent(event_tag(event), encode_event(event), SCHEMA)


def from_stored(stored: StoredEvent) -> AnyChallengeEvent:
    if stored.schema != SCHEMA:
        raise ValueError(f"challenge event {stored.type!r} has schema {stored.schema}; this code reads {SCHEMA}")
    return decode_event(stored.data)
