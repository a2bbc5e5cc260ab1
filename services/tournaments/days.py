"""A challenge's days: preparing it (its deals and commitment), then settling it (close, late
attempts ended, reveal), and the index of challenges still to reveal.

A mixin of TournamentService (it reads and appends the challenge streams the service keeps); the
scheduler calls these, and each is safe to run twice or on two processes at once: every append is at
an expected version, so a second process's is refused and changes nothing.

Preparing picks two deals with the tournament secret: the ranked deal, bound by the commitment, and
the guests' deal, for guests and accounts made after the challenge opened (so a throwaway identity
sees nothing of the ranked deal). Both must be proven winnable by the game's solver; when it cannot
prove one in PROOF_COUNTERS tries the day is not prepared, unless ARENA_DAILY_WEAK_CHECK allows the
weaker "not lost as dealt", which the challenge then records and shows as `check: weak`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine import RuleError

from ..runtime.solver_pool import in_solver_worker
from ..store.keys import daily_status_key, daily_stream_id, daily_stream_pattern, daily_unrevealed_key
from . import challenge as ch
from .catalogue import ChallengeRef, parse_challenge_key
from .derivation import DAY_KEY_LABEL, GUEST_KEY_LABEL, SeedPick, new_salt, pick_seed
from .winnable import PROOF_COUNTERS, WEAK_CHECK, check_for

if TYPE_CHECKING:
    import datetime as dt

log = logging.getLogger("arena.tournaments")


class ChallengeDays:
    """What TournamentService does for the scheduler."""

    redis: Any  # Any: a redis-py client, one server's or a cluster's (they share no type)
    secret: bytes
    clock: Callable[[], int]
    weak_check: bool
    board: Any  # Any: the challenge's board, as the leaderboard module builds it
    _unprovable: set[str]  # keys this process found no deal to commit to (logged once, not retried)

    if TYPE_CHECKING:  # provided by TournamentService; declared for the checker only, so none shadows it
        async def challenge(self, key: str) -> ch.ChallengeState: ...

        async def _challenge(self, key: str) -> tuple[ch.ChallengeState, int]: ...

        async def _append(self, stream: str, version: int, events: list) -> bool: ...

        def challenges_of(self, day: dt.date) -> list[ChallengeRef]: ...

        async def _end_late_attempt(self, key: str, player_id: str) -> None: ...

        async def _changed(self, key: str) -> None: ...

    # Preparing ----------------------------------------------------------------------------------

    async def prepare(self, ref: ChallengeRef) -> ch.ChallengeState:
        """The challenge prepared (its state unchanged when it cannot be: no proven deal, too late)."""
        state = await self.challenge(ref.key)
        if state.prepared is not None:
            if state.revealed is None:
                await self.redis.sadd(daily_unrevealed_key(), ref.key)  # an index lost or made before it
            return state
        if ref.key in self._unprovable:
            return state  # the same secret picks the same deals: trying again would fail again
        picks = await self._pick_deals(ref)
        if picks is None:
            self._unprovable.add(ref.key)
            return state
        (ranked, guest), check = picks
        command = ch.PrepareChallenge(ref, ranked, new_salt(), check, self.clock(), guest.seed)
        events = ch.decide_challenge(command, state)
        if isinstance(events, RuleError):
            log.warning("daily %s not prepared: %s", ref.key, events.message)
            return state
        # Indexed before the append: a process dying between the two leaves a key the settling skips
        # (nothing prepared), never a prepared challenge nobody settles.
        await self.redis.sadd(daily_unrevealed_key(), ref.key)
        await self._append(daily_stream_id(ref.key), 0, events)
        return await self.challenge(ref.key)

    async def _pick_deals(self, ref: ChallengeRef) -> tuple[tuple[SeedPick, SeedPick], str] | None:
        """(ranked deal, guests' deal) and the check's name, or None when no deal may be committed."""
        daily = ref.daily
        check = check_for(daily.game)
        picks: list[SeedPick] = []
        if check.proves:
            for label in (DAY_KEY_LABEL, GUEST_KEY_LABEL):
                # Seconds of solver work: in a worker process, so this process's sockets are served meanwhile.
                pick = await in_solver_worker(_pick, self.secret, ref.date, daily.game, daily.variant, label)
                if isinstance(pick, RuleError):
                    break
                picks.append(pick)
            if len(picks) == 2:
                return (picks[0], picks[1]), check.name
        if not self.weak_check:
            why = "has no solver" if not check.proves else f"had no deal proven winnable in {PROOF_COUNTERS} tries"
            log.error("daily %s not prepared: %s %s (ARENA_DAILY_WEAK_CHECK=1 allows a weak check)",
                      ref.key, daily.game, why)
            return None
        weak = [pick_seed(self.secret, ref.date, daily.game, daily.variant, WEAK_CHECK, label=label)
                for label in (DAY_KEY_LABEL, GUEST_KEY_LABEL)]
        if isinstance(weak[0], RuleError) or isinstance(weak[1], RuleError):
            log.error("daily %s not prepared: no deal of it is even playable", ref.key)
            return None
        log.warning("daily %s prepared on the weak check (not lost as dealt)", ref.key)
        return (weak[0], weak[1]), WEAK_CHECK.name

    async def prepare_days(self, first: dt.date, days: int) -> int:
        import datetime as dt

        prepared = 0
        for offset in range(days):
            for ref in self.challenges_of(first + dt.timedelta(days=offset)):
                if (await self.challenge(ref.key)).prepared is None:
                    prepared += (await self.prepare(ref)).prepared is not None
        return prepared

    # Settling -----------------------------------------------------------------------------------

    async def unrevealed(self) -> list[str]:
        """Keys of every prepared challenge not yet revealed, oldest day first."""
        keys = [k.decode() if isinstance(k, bytes) else k for k in await self.redis.smembers(daily_unrevealed_key())]
        return sorted(keys)

    async def rebuild_unrevealed(self) -> int:
        """The index again from the challenge streams themselves (it is a projection of them)."""
        found = 0
        prefix = daily_stream_pattern().split("*", 1)[0]
        async for raw in self.redis.scan_iter(match=daily_stream_pattern(), count=1000):
            name = raw.decode() if isinstance(raw, bytes) else raw
            key = name[len(prefix):-len("}:log")]
            if isinstance(parse_challenge_key(key), RuleError):
                continue
            state = await self.challenge(key)
            if state.prepared is not None and state.revealed is None:
                await self.redis.sadd(daily_unrevealed_key(), key)
                found += 1
        return found

    async def settle(self, ref: ChallengeRef) -> ch.ChallengeState:
        """Close, end late attempts, and once every win is verified reveal the seed and make the board final."""
        now = self.clock()
        stream = daily_stream_id(ref.key)
        state, version = await self._challenge(ref.key)
        if state.prepared is None:
            return state
        if state.revealed is not None:
            await self.redis.srem(daily_unrevealed_key(), ref.key)
            return state
        if not state.closed and now >= state.prepared.closes_at_ms:
            events = ch.decide_challenge(ch.CloseChallenge(now), state)
            if not isinstance(events, RuleError):
                await self._append(stream, version, events)  # refused when another process closed it first
            state, version = await self._challenge(ref.key)
        if now < state.final_at_ms or state.revealed is not None:
            return state
        raw = await self.redis.hgetall(daily_status_key(ref.key))
        for player, status in raw.items():
            if status.decode() in ("playing", "guest_playing"):
                await self._end_late_attempt(ref.key, player.decode())
        counts = await self.board.counts(ref.key)
        events = ch.decide_challenge(ch.RevealSeed(now, counts.playing, counts.pending), state)
        if isinstance(events, RuleError):
            return state  # wins still await the validator: the next round reveals
        await self._append(stream, version, events)
        await self.board.finalize(ref.key, now)
        await self.redis.srem(daily_unrevealed_key(), ref.key)
        await self._changed(ref.key)
        return await self.challenge(ref.key)


def _pick(secret: bytes, date: str, game: str, variant: dict, label: str):
    """pick_seed in the worker process, with that process's check for the game."""
    return pick_seed(secret, date, game, variant, check_for(game), max_counter=PROOF_COUNTERS, label=label)
