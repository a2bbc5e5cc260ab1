"""The validator's Redis side: submissions in a consumer group, verdicts written once, dead letters.

Delivery is at least once: a worker may die after writing a verdict and before acknowledging, and
another then gets the entry again (XAUTOCLAIM). So a verdict is written with HSETNX (the first one
stands; re-running the same log gives the same verdict anyway), counters move only with the write
that made it (one script does both: a worker killed between two commands would lose a count), and the sink (leaderboards) is told again on every delivery: promoting or removing an
entry twice is the same as once. An entry whose check keeps failing (Redis trouble, a bug) goes to
the dead-letter stream with its reason after `max_attempts`, so one poison entry cannot stall the rest.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import msgspec
from redis.exceptions import ResponseError

from ..games.entries import GameCreated
from ..runtime.logging import bound_ids
from ..metrics import VALIDATOR_CHECKED
from ..games.record import BadLog, read_log
from ..redis.lean_commands import LeanCommands
from ..store import EventStore
from ..store.keys import dead_letters_key, submissions_key, validator_counts_key, verdicts_key
from .review import ReviewRules, review_reasons
from .verdict import BAD_LOG, REJECTED, Claim, Verdict, check_log

GROUP = "validators"
NO_SUCH_GAME = "no_such_game"
log = logging.getLogger("arena.validator")


class Submission(msgspec.Struct, frozen=True):
    """A win to check, as the game service saw it at the winning move."""

    game_id: str
    player_id: str
    moves: int
    time_ms: int
    submitted_at_ms: int


class StoredVerdict(msgspec.Struct, frozen=True):
    verdict: Verdict
    decided_at_ms: int
    submitted_at_ms: int


class VerdictSink(Protocol):
    """Who hears verdicts (leaderboards, races). Must be idempotent: it may hear one twice."""

    async def __call__(self, created: GameCreated, verdict: Verdict) -> None: ...


# The seed a game must have been dealt from (a daily's, a race's); None when the log's own is the deal.
SeedAuthority = Callable[[GameCreated], Awaitable[int | None]]
# The solver's winning line's length for a game's deal (solver_lines.SolverLines); None: unknown.
LineLookup = Callable[[GameCreated], Awaitable[int | None]]


async def no_authority(created: GameCreated) -> int | None:
    return None


async def no_sink(created: GameCreated, verdict: Verdict) -> None:
    return None


async def no_lines(created: GameCreated) -> int | None:
    return None


def first_seed(*authorities: SeedAuthority) -> SeedAuthority:
    """One authority from several, each answering for its own kind of game (the tournaments for daily
    attempts, the races for race games): the first seed one names; None when none does."""

    async def seed_of(created: GameCreated) -> int | None:
        for authority in authorities:
            seed = await authority(created)
            if seed is not None:
                return seed
        return None

    return seed_of


def every_sink(*sinks: VerdictSink) -> VerdictSink:
    """One sink telling several in turn; each ignores the verdicts of games not its own."""

    async def tell(created: GameCreated, verdict: Verdict) -> None:
        for sink in sinks:
            await sink(created, verdict)

    return tell


# KEYS[1] verdicts hash, KEYS[2] counts hash (one slot: both carry the validator's hash tag).
# ARGV: game id, encoded verdict, outcome. Returns 1 when this call wrote the verdict.
_WRITE_ONCE_LUA = """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then
  redis.call('HINCRBY', KEYS[2], ARGV[3], 1)
  return 1
end
return 0
"""

_encoder = msgspec.msgpack.Encoder()
_submission = msgspec.msgpack.Decoder(Submission)
_stored = msgspec.msgpack.Decoder(StoredVerdict)


class ValidatorQueue:
    def __init__(
        self,
        redis: Any,  # Any: a redis-py client, one server's or a cluster's (they share no type)
        store: EventStore,
        *,
        seeds: SeedAuthority = no_authority,
        sink: VerdictSink = no_sink,
        review: ReviewRules | None = None,
        lines: LineLookup = no_lines,
        max_attempts: int = 5,
    ) -> None:
        self.redis, self.store = redis, store
        self.seeds, self.sink = seeds, sink
        self.review, self.lines = review, lines  # the human-speed review (None: none)
        self.max_attempts = max_attempts
        self._write_once = redis.register_script(_WRITE_ONCE_LUA)
        # A check's reads and writes (the verdict, its write-once script, the acknowledgement: each safe to
        # send twice) over the store's lean link where it has one, through `redis` otherwise; a submission's
        # XADD (not safe twice) and the blocking reads of the worker stay on redis-py.
        self.lean = LeanCommands(redis, getattr(getattr(store, "lean", None), "link", None))

    async def ensure_group(self) -> None:
        try:
            await self.redis.xgroup_create(submissions_key(), GROUP, id="0", mkstream=True)
        except ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise

    async def submit(self, submission: Submission) -> None:
        await self.redis.xadd(submissions_key(), {"s": _encoder.encode(submission)})

    async def verdict_of(self, game_id: str) -> StoredVerdict | None:
        raw = await self.lean.one("HGET", verdicts_key(), game_id)
        return None if raw is None else _stored.decode(raw)

    # Checking -----------------------------------------------------------------------------------

    async def judge(self, submission: Submission) -> tuple[GameCreated | None, Verdict]:
        """The verdict from the game's log (never from anything beside it)."""
        entries = await self.store.read(submission.game_id)
        claim = Claim(submission.game_id, submission.player_id, submission.moves, submission.time_ms)
        if not entries:
            return None, Verdict(submission.game_id, REJECTED, NO_SUCH_GAME, "there is no such game log")
        try:
            game_log = read_log(entries)
        except BadLog as exc:
            return None, Verdict(submission.game_id, REJECTED, BAD_LOG, str(exc), exc.version)
        try:
            seed = await self.seeds(game_log.created)
        except LookupError as exc:
            return game_log.created, Verdict(submission.game_id, REJECTED, "wrong_seed", str(exc), 1)
        claim = msgspec.structs.replace(claim, seed=seed)
        verdict = check_log(game_log, claim, review=self.review)
        if verdict.verified and self.review is not None and self.review.total_move_ms > 0:
            # The solve only for a proven win (a forged log costs none), once per deal (SolverLines).
            line_moves = await self.lines(game_log.created)
            if line_moves is not None:
                reasons = review_reasons(verdict.stats, self.review, line_moves)
                verdict = msgspec.structs.replace(verdict, review=reasons, flagged=bool(reasons))
        return game_log.created, verdict

    async def handle(self, entry_id: bytes | str, fields: dict, *, now_ms: int) -> StoredVerdict | None:
        """Check one delivered submission, write its verdict once, tell the sink, acknowledge."""
        submission = _submission.decode(fields[b"s"])
        with bound_ids(game_id=submission.game_id, player_id=submission.player_id):  # on every line meanwhile
            return await self._handle(entry_id, submission, now_ms)

    async def _handle(self, entry_id: bytes | str, submission: Submission, now_ms: int) -> StoredVerdict | None:
        stored = await self.verdict_of(submission.game_id)
        created: GameCreated | None = None
        if stored is None:
            created, verdict = await self.judge(submission)
            candidate = StoredVerdict(verdict, now_ms, submission.submitted_at_ms)
            keys = [verdicts_key(), validator_counts_key()]
            if await self.lean.script(self._write_once, keys, [submission.game_id, _encoder.encode(candidate), verdict.outcome]):
                VALIDATOR_CHECKED.labels(verdict.outcome).inc()
                log.info("validator: verdict %s (%s)", verdict.outcome, verdict.reason or "no reason given")
                stored = candidate
            else:  # another worker wrote it meanwhile: theirs stands
                stored = await self.verdict_of(submission.game_id)
        if stored is not None:
            if created is None:
                created = await self._created(submission.game_id)
            if created is not None:
                await self.sink(created, stored.verdict)
        await self.lean.one("XACK", submissions_key(), GROUP, entry_id)
        return stored

    async def _created(self, game_id: str) -> GameCreated | None:
        try:
            return read_log(await self.store.read(game_id)).created
        except BadLog:
            return None

    async def dead_letter(self, entry_id: bytes | str, fields: dict, reason: str) -> None:
        pipe = self.redis.pipeline(transaction=True)
        pipe.xadd(dead_letters_key(), {"s": fields.get(b"s", b""), "entry": entry_id, "reason": reason})
        pipe.hincrby(validator_counts_key(), "dead", 1)
        pipe.xack(submissions_key(), GROUP, entry_id)
        await pipe.execute()
        VALIDATOR_CHECKED.labels("dead").inc()
        log.warning("validator: submission %s dead-lettered: %s", entry_id, reason)
