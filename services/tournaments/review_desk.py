"""The operators' desk for the human-speed review: the wins under review, and clearing or rejecting one.

`arena review` runs it on REDIS_URL. Each decision is review_decider's on the attempt stream as it is
now, appended at the version read (another operator deciding the same entry meanwhile makes this one
fail, never both stand), then mirrored on the board: a clearance takes the `review` mark off, a
rejection takes the win off the board (its place goes to the next) as the verifier's rejection would.
Watchers are told through the board's version, as for any change of the board.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from msgspec import Struct

from engine.errors import RuleError, rule_error
from services.store.keys import account_name_key, attempt_stream_id

from . import review_decider as rd
from .accounts import PLAYER_ID, fold_name
from .leaderboard import BoardEntry

if TYPE_CHECKING:
    from .service import TournamentService

NO_SUCH_PLAYER, CHANGED_MEANWHILE = "no_such_player", "changed_meanwhile"


class UnderReview(Struct, frozen=True):
    challenge: str
    rank: int | None  # its place on the board (kept while under review)
    entry: BoardEntry


class ReviewDesk:
    def __init__(self, tournaments: TournamentService) -> None:
        self.tournaments = tournaments
        self.board = tournaments.board

    async def under_review(self, challenge: str) -> list[UnderReview]:
        """The challenge's entries marked `review`, best place first."""
        found = []
        for entry in await self.board.under_review(challenge):
            standing = await self.board.standing(challenge, entry.player)
            found.append(UnderReview(challenge, standing.rank, entry))
        return sorted(found, key=lambda item: (item.rank is None, item.rank or 0, item.entry.player))

    async def player_id(self, who: str) -> str | RuleError:
        """A player id as given, or the id of the account with that name."""
        if PLAYER_ID.fullmatch(who):
            return who
        owner = await self.tournaments.redis.get(account_name_key(fold_name(who)))
        if owner is None:
            return rule_error(NO_SUCH_PLAYER, f"no player id or account name {who!r}")
        return owner.decode() if isinstance(owner, bytes) else str(owner)

    async def clear(self, challenge: str, who: str, note: str = "") -> BoardEntry | RuleError:
        """Let the win stand: ReviewCleared, and the board's mark off."""
        return await self._decide(challenge, who, lambda now: rd.ClearReview(note, now))

    async def reject(self, challenge: str, who: str, note: str = "") -> BoardEntry | RuleError:
        """Take the win off the board (before the reveal): EntryRejected with reason review_rejected."""
        return await self._decide(challenge, who, lambda now: rd.RejectOnReview(note, now))

    async def _decide(self, challenge: str, who: str, command_at: Callable[[int], rd.ReviewCommand]
                      ) -> BoardEntry | RuleError:
        service = self.tournaments
        player = await self.player_id(who)
        if isinstance(player, RuleError):
            return player
        attempt, version = await service._attempt(challenge, player)
        if attempt.started is None:
            return rule_error(rd.NOT_UNDER_REVIEW, f"{who} has no attempt at {challenge}: nothing is under review")
        command = command_at(service.clock())
        events = rd.decide_review(command, attempt, await service.challenge(challenge))
        if isinstance(events, RuleError):
            return events
        if not await service._append(attempt_stream_id(challenge, player), version, events):
            return rule_error(CHANGED_MEANWHILE, f"{who}'s attempt at {challenge} changed meanwhile: look again")
        if isinstance(command, rd.RejectOnReview):
            removed = await self.board.remove(challenge, player)
            if isinstance(removed, RuleError):  # the stream has the rejection; the board went final meanwhile
                return removed
        await self.board.clear_review(challenge, player)
        await service._changed(challenge)
        entry = await self.board.entry(challenge, player)
        assert entry is not None
        return entry

