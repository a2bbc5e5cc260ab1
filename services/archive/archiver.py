"""The archiver: finished games leave Valkey for the object store, one at a time, never half-done.

A results hook (it hears games end: each joins the `due` index at its end plus the window) and a
background task in every server process. A game is archived when all of these hold, read from its
log at that moment:
- it ended: won, abandoned, or lost (a loss a practice undo could reopen waits `lost_after_ms`, a
  longer window, since an undo after archiving is refused);
- the window since its end has passed (replays, ghosts and "again" read the newest games: hot);
- a win has its verdict (the validator and the review read the hot log first);
- its deal is public (services/games/secrecy.py): a daily attempt stays hot until its challenge's
  reveal, a race game until its race has ended.
A game not eligible yet goes back into the index for a later look; one played again (an undo) leaves
it and joins again when it ends again.

Archiving one game is write, read back, then delete: the replay file object is put under a key made of
the game's id and its log's digest (idempotent: a second put writes the same bytes), read back and
checked against that digest, and only then does one Lua script delete the log and the move records
and leave the pointer (services/archive/pointer.py), if the log is still the one archived. A kill -9
at any point leaves the game hot or archived.

Each game is claimed first (SET NX PX in its slot), so processes share the index without archiving
one game twice at once. When the store fails (down, slow past its timeout, a read-back that does not
match) the pass stops, the game stays hot and due, and the task pauses: 1 s, doubling to a minute,
until a pass succeeds. Nothing a player does waits on the archive.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from msgspec import Struct
from redis.exceptions import RedisError

import engine
from engine import IN_PROGRESS, LOST, WON, GameState

from ..runtime.faults import crash_point
from ..games.entries import CASUAL_KINDS, GameCreated
from ..games.hooks import WritesOnly
from ..games.projections import final_state
from ..games.live import ms_between
from ..games.model import GameSummary
from ..games.record import BadLog, GameLog, read_log, stopped_at
from ..store import EventStore, StoreError
from ..store.keys import archive_claim_key, archive_counts_key, archive_due_key, verdicts_key
from . import metrics
from .archived_game import Unreadable, object_key, pack, unpack
from .objects import ObjectFault, ObjectStore
from .pointer import SWAPPED, swap

AFTER_PUT, AFTER_READ_BACK, AFTER_SWAP = "archive-after-put", "archive-after-read-back", "archive-after-swap"
BATCH = 200
CLAIM_CALLS = 3  # a claim outlasts the calls one archive makes (a put, a get) and a margin; a killed
# process's claim then keeps its game from the others only that long
LATER_MS = 10 * 60_000  # a game not eligible yet (no verdict, deal still secret) is looked at again then
MIN_PAUSE_S, MAX_PAUSE_S = 1.0, 60.0
RELEASE_LUA = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"
log = logging.getLogger("arena.archive")

# Whether a game's deal may be public now (the game service's DealSecrecy, brought up to date first).
DealPublic = Callable[[GameCreated, int], Awaitable[bool]]


class Outcome(Struct, frozen=True):
    code: str  # archived | later | moved_on | gone | failed
    message: str = ""
    size: int = 0


class Pass(Struct, frozen=True):
    archived: int
    looked_at: int
    failure: str | None  # why the pass stopped early (the store failed), or None


async def _always_public(created: GameCreated, now_ms: int) -> bool:
    return True


def final_summary(game_id: str, game_log: GameLog, state: GameState) -> GameSummary:
    """The summary GET /api/games/{id} shows of a game that is over and public, from its log alone
    (the same the service's Showing._summary gives: the pointer answers it once the log is gone)."""
    created = game_log.created
    shown = game_log.shown.at_ms if game_log.shown is not None else None
    finished = stopped_at(game_log, state)
    return GameSummary(
        id=game_id, game=created.game, variant=created.variant, player_id=created.player_id, status=state.status,
        version=game_log.version, moves=state.moves, created_at_ms=created.created_at_ms, seed=created.seed,
        elapsed_ms=ms_between(shown, finished), kind=created.kind, chosen_deal=created.chosen_deal,
        finished_at_ms=finished, challenge=created.links.challenge, ranked=created.ranked,
        assisted=game_log.assisted or engine.undo_assisted(state), ghost=created.links.ghost,
        deal_number=created.seed, practice_undo=state.practice_undo,
    )


class Archiver(WritesOnly):
    def __init__(self, redis: Any, objects: ObjectStore, *, clock: Callable[[], int], after_ms: int,  # Any: a redis-py client
                 lost_after_ms: int, deal_public: DealPublic = _always_public) -> None:
        self.redis, self.objects, self.clock = redis, objects, clock
        self.hot = EventStore(redis)  # the logs as Valkey holds them, never read through
        self.after_ms, self.lost_after_ms = after_ms, lost_after_ms
        self.deal_public = deal_public
        self.owner = secrets.token_hex(8)
        self.pause_s = 0.0
        self.claim_ms = max(1_000, int(CLAIM_CALLS * getattr(objects, "timeout_s", 10.0) * 1000))

    # The results hook (WritesOnly: the game service runs this in the game's own pipeline) ---------

    def queue_ended(self, pipe: Any, created: GameCreated, game_id: str, status: str, at_ms: int) -> bool:
        reopenable = status == LOST and created.kind in CASUAL_KINDS  # a practice undo may take it back
        pipe.zadd(archive_due_key(), {game_id: at_ms + (self.lost_after_ms if reopenable else self.after_ms)})
        return True

    # Archiving ----------------------------------------------------------------------------------

    async def archive_once(self, batch: int = BATCH) -> Pass:
        """One pass over the games due now; stops at the first store failure."""
        now = self.clock()
        due = await self.redis.zrangebyscore(archive_due_key(), "-inf", now, start=0, num=batch)
        archived = looked = 0
        for raw in due:
            game_id = raw.decode() if isinstance(raw, bytes) else raw
            claim = archive_claim_key(game_id)
            if not await self.redis.set(claim, self.owner, nx=True, px=self.claim_ms):
                continue  # another process has it now
            try:
                outcome = await self.archive_game(game_id)
            finally:  # only our own claim: one that ran out meanwhile may be another process's now
                await self.redis.eval(RELEASE_LUA, 1, claim, self.owner)
            looked += 1
            if outcome.code == "archived":
                archived += 1
                continue
            metrics.looked_at(outcome.code)
            if outcome.code == "failed":
                return Pass(archived, looked, outcome.message)
        return Pass(archived, looked, None)

    async def archive_game(self, game_id: str) -> Outcome:
        started = time.perf_counter()
        entries = await self.hot.read(game_id)
        if not entries:
            await self.redis.zrem(archive_due_key(), game_id)  # archived already, or trimmed
            return Outcome("gone")
        try:
            game_log = read_log(entries)
            state = final_state(game_log)
        except (BadLog, ValueError) as exc:
            await self.redis.zrem(archive_due_key(), game_id)
            log.error("archive: game %s is not a log this server can read, left hot: %s", game_id, exc)
            return Outcome("gone", str(exc))
        if state.status == IN_PROGRESS:  # an undo out of a loss: it joins again when it ends again
            await self.redis.zrem(archive_due_key(), game_id)
            return Outcome("moved_on")
        now = self.clock()
        ended_at = stopped_at(game_log, state) or now
        window = self.after_ms if engine.is_over(state) else self.lost_after_ms
        if now < ended_at + window:
            return await self._later(game_id, ended_at + window, "its window has not passed")
        if state.status == WON and not await self.redis.hexists(verdicts_key(), game_id):
            return await self._later(game_id, now + LATER_MS, "its win has no verdict yet")
        if not await self.deal_public(game_log.created, now):
            return await self._later(game_id, now + LATER_MS, "its deal is not public yet")
        data, digest = pack(game_id, entries)
        key = object_key(game_id, digest)
        fault = await self.objects.put(key, data)
        if fault is not None:
            return Outcome("failed", fault.message)
        crash_point(AFTER_PUT)
        back = await self.objects.get(key)
        if isinstance(back, ObjectFault):
            return Outcome("failed", back.message)
        checked = unpack(game_id, back, digest)
        if isinstance(checked, Unreadable) or checked != entries:
            return Outcome("failed", f"game {game_id}: the object read back is not the log written")
        crash_point(AFTER_READ_BACK)
        swapped = await swap(self.redis, final_summary(game_id, game_log, state), len(entries), digest)
        if swapped != SWAPPED:  # a move came in between (an undo): the object stays, unused; next end, again
            return Outcome("moved_on", f"the log is at {swapped} entries now")
        crash_point(AFTER_SWAP)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(archive_due_key(), game_id)
        pipe.hincrby(archive_counts_key(), "archived", 1)
        pipe.hincrby(archive_counts_key(), "bytes", len(data))
        await pipe.execute()
        metrics.archived(len(data), time.perf_counter() - started)
        return Outcome("archived", size=len(data))

    async def _later(self, game_id: str, at_ms: int, why: str) -> Outcome:
        await self.redis.zadd(archive_due_key(), {game_id: at_ms}, xx=True)
        return Outcome("later", why)

    # The task -----------------------------------------------------------------------------------

    async def run(self, stop: asyncio.Event, every_s: float = 5.0) -> None:
        """Passes until `stop`: a full batch goes on at once, an empty one waits `every_s`, a failure
        pauses 1 s, doubling up to a minute, until a pass goes through."""
        while not stop.is_set():
            wait = every_s
            try:
                done = await self.archive_once()
            except (RedisError, StoreError) as exc:
                done = Pass(0, 0, f"redis: {exc}")
            if done.failure is not None:
                self.pause_s = min(MAX_PAUSE_S, max(MIN_PAUSE_S, self.pause_s * 2))
                wait = self.pause_s
                log.warning("archive: %s; games stay hot, next try in %.0f s", done.failure, wait)
            else:
                self.pause_s = 0.0
                if done.looked_at >= BATCH:
                    wait = 0.0
            metrics.backoff(self.pause_s)
            try:
                await asyncio.wait_for(stop.wait(), wait)
            except TimeoutError:
                pass
