"""The tournaments' ears: the game service's results hook (a daily attempt opened, ended) and the
validator's verdict sink and seed authority, with the board-version bump that tells watchers.

A mixin of TournamentService (it reads and appends the attempt streams the service keeps); apart so the
service keeps to preparing days and handing out attempts. Every path here may run twice or in either
order (a verdict can come before the end is heard): each change is checked against the stream first.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from engine import RuleError

from ..games.entries import DAILY, GameCreated
from ..store.keys import attempt_stream_id, daily_board_version_key
from ..validator.verdict import Verdict
from . import challenge as ch
from .events import AttemptFinished, AttemptStarted
from .leaderboard import BoardEntry

if TYPE_CHECKING:
    from ..games.service import GameService
    from .accounts import AccountStore
    from .leaderboard import RedisLeaderboard


class AttemptResults:
    """What TournamentService hears from the games and the validator."""

    redis: Any  # Any: a redis-py client, one server's or a cluster's (they share no type)
    games: GameService
    accounts: AccountStore
    board: RedisLeaderboard
    clock: Callable[[], int]
    board_changed: Callable[[str, int], Awaitable[None]] | None

    if TYPE_CHECKING:  # provided by TournamentService; declared for the checker only, so none shadows it
        async def challenge(self, key: str) -> ch.ChallengeState: ...  # the service's (it reads the stream)

        async def _attempt(self, key: str, player_id: str) -> tuple[ch.AttemptState, int]: ...

        async def _append(self, stream: str, version: int, events: list) -> bool: ...

    async def opened(self, created: GameCreated, game_id: str, at_ms: int) -> None:
        return None

    async def ended(self, created: GameCreated, game_id: str, status: str, moves: int, time_ms: int,
                    at_ms: int) -> None:
        if created.kind != DAILY or created.links.challenge is None:
            return
        await self._record_end(created.links.challenge, created.player_id, game_id, status, moves, time_ms, at_ms)

    async def _record_end(self, key: str, player_id: str, game_id: str, status: str, moves: int, time_ms: int,
                          at_ms: int) -> None:
        """The end of the attempt's own game: the end of any other game of the player's on the same
        challenge (one made before attempts were claimed first, a practice game) changes nothing."""
        attempt, version = await self._attempt(key, player_id)
        state = await self.challenge(key)
        if attempt.started is None or attempt.finished is not None or attempt.started.game_id != game_id:
            return
        events = ch.decide_attempt(ch.FinishAttempt(status, moves, time_ms, at_ms), attempt, state)
        if isinstance(events, RuleError):  # too late: the grace is over; it ends abandoned
            events = ch.decide_attempt(ch.EndAttemptAtGrace(self.clock()), attempt, state)
        if isinstance(events, RuleError) or not events:  # none: the attempt had ended already
            return
        if not await self._append(attempt_stream_id(key, player_id), version, events):
            return
        finished = events[-1]
        assert isinstance(finished, AttemptFinished), finished  # both commands decide the attempt's end alone
        await self._put_on_board(key, player_id, attempt.started, finished)
        await self._changed(key)

    async def _put_on_board(self, key: str, player_id: str, started: AttemptStarted,
                            finished: AttemptFinished) -> None:
        """The attempt's end on the board. Idempotent: the board takes it only from "playing", so the
        verdict's path and the game's end may both call it, whichever comes first."""
        account = await self.accounts.by_player(player_id)
        entry = BoardEntry(player_id, started.game_id, finished.result, finished.moves, finished.time_ms,
                           finished.finished_at_ms, account.name if account else None)
        await self.board.finish(key, entry, started.ranked)

    async def _finished_attempt(self, key: str, player_id: str, game_id: str) -> tuple[ch.AttemptState, int]:
        """The attempt with its end recorded and on the board. The validator may answer before this
        service hears the game end (the submitter is told first, and a process killed between the two
        never tells it): the game's own end, from its log, is recorded here first."""
        attempt, version = await self._attempt(key, player_id)
        if attempt.started is not None and attempt.finished is None:
            summary = await self.games.summary(game_id)
            if summary is not None and summary.finished_at_ms is not None:
                await self._record_end(key, player_id, game_id, summary.status, summary.moves, summary.elapsed_ms or 0,
                                       summary.finished_at_ms)
                attempt, version = await self._attempt(key, player_id)
        if attempt.started is not None and attempt.finished is not None:
            await self._put_on_board(key, player_id, attempt.started, attempt.finished)
        return attempt, version

    async def verdict(self, created: GameCreated, verdict: Verdict) -> None:
        """The validator's sink: a ranked daily win goes on the board, or comes off it."""
        key = created.links.challenge
        if created.kind != DAILY or key is None or not created.ranked:
            return
        attempt, version = await self._attempt(key, created.player_id)
        if attempt.started is None or attempt.started.game_id != verdict.game_id:
            return  # not this player's attempt (a forged or stray submission): nothing to rank
        attempt, version = await self._finished_attempt(key, created.player_id, verdict.game_id)
        # A verdict from before the review had reasons was flagged by the median floor alone.
        review = verdict.review or (("fast_moves",) if verdict.flagged else ())
        events = ch.decide_attempt(ch.RecordVerdict(verdict.verified, verdict.reason, self.clock(), review), attempt,
                                   await self.challenge(key))
        if isinstance(events, RuleError):
            return
        if events and await self._append(attempt_stream_id(key, created.player_id), version, events):
            for event in events:
                attempt = ch.evolve_attempt(attempt, event)
        elif events:  # another process recorded it meanwhile: its events stand
            attempt, _ = await self._attempt(key, created.player_id)
        if verdict.verified:
            if attempt.under_review and attempt.flagged is not None:  # from the stream: a cleared win stays so
                await self.board.flag(key, created.player_id, tuple(attempt.flagged.reasons))
            await self.board.promote(key, created.player_id)
        else:
            await self.board.remove(key, created.player_id)
        await self._changed(key)

    async def _changed(self, key: str) -> None:
        version = int(await self.redis.incr(daily_board_version_key(key)))
        if self.board_changed is not None:
            await self.board_changed(key, version)

    async def board_version(self, key: str) -> int:
        return int(await self.redis.get(daily_board_version_key(key)) or 0)

    async def seed_for(self, created: GameCreated) -> int | None:
        """The validator's seed authority: a ranked daily attempt must be dealt from its challenge's seed.
        An unranked one (a guest's, a new account's: the guests' deal) counts for nothing: its own."""
        key = created.links.challenge
        if created.kind != DAILY or key is None or not created.ranked:
            return None
        prepared = (await self.challenge(key)).prepared
        if prepared is None:
            raise LookupError(f"no challenge {key!r}")
        return prepared.sealed.seed
