"""When a game's deal may be shown whole, and who may watch it: the competitive layer's secrecy rules.

A casual or practice game on a deal of its own is public once play has stopped (won, abandoned, or
lost: even a loss an undo could leave), its seed and every card.
A game on a daily challenge's deal (the attempt, ranked or on the guests' deal) stays secret until
the challenge's reveal, for everyone, its own player included; nobody but the player may watch it
before then. A race game stays secret until its race has ended. A challenge's deal is public once
its seed is revealed (its stream's SeedRevealed, known to the tournaments service, which tells this
policy through `challenge_revealed`), and never before its reveal time (a pure function of its key,
the UTC date it opens), however late the reveal comes: a scheduler down for days delays it, and a
game of that challenge must not publish the seed the commitment hides before the commitment is
checkable. A race's end is known to the races service, which tells this policy through
`race_ended`. Hints follow the same line: none on a deal still secret.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable

from .entries import GameCreated

DAY_MS = 24 * 3600 * 1000
GRACE_MS = 3600 * 1000  # attempts still running an hour after the close are ended; then the reveal


def challenge_opens_ms(challenge_key: str) -> int | None:
    """00:00 UTC of the date a challenge key starts with ("2026-12-01/wish/mode=standard")."""
    try:
        day = dt.date.fromisoformat(challenge_key.split("/", 1)[0])
    except ValueError:
        return None
    return int(dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp() * 1000)


def challenge_reveal_ms(challenge_key: str) -> int | None:
    """When a challenge's seed, salt and every attempt become public: its close plus the grace."""
    opens = challenge_opens_ms(challenge_key)
    return None if opens is None else opens + DAY_MS + GRACE_MS


async def _nothing_to_learn(race_id: str) -> None:
    return None


class DealSecrecy:
    def __init__(
        self,
        race_ended: Callable[[str], bool] | None = None,
        race_learn: Callable[[str], Awaitable[None]] | None = None,
        challenge_revealed: Callable[[str], bool] | None = None,
        challenge_learn: Callable[[str], Awaitable[None]] | None = None,
    ) -> None:
        # `race_ended` answers from what this process knows; `race_learn` brings that knowledge up to
        # date (a race may have ended through another process). Not knowing keeps the deal secret.
        # The same for a challenge's reveal; without `challenge_revealed` (a game service alone, as in
        # unit tests) the reveal time alone decides.
        self.race_ended = race_ended or (lambda race_id: False)
        self.race_learn = race_learn or _nothing_to_learn
        self.challenge_revealed = challenge_revealed or (lambda key: True)
        self.challenge_learn = challenge_learn or _nothing_to_learn

    async def refresh(self, created: GameCreated, now_ms: int | None = None) -> None:
        """Bring what the policy knows about this game's contest up to date (before answering on it).
        A challenge is asked about only once its reveal time has passed: before, the answer is known."""
        links = created.links
        if links.race is not None and not self.race_ended(links.race):
            await self.race_learn(links.race)
        if links.challenge is not None and not self.challenge_revealed(links.challenge):
            reveal = challenge_reveal_ms(links.challenge)
            if reveal is not None and (now_ms is None or now_ms >= reveal):
                await self.challenge_learn(links.challenge)

    def deal_public(self, created: GameCreated, over: bool, now_ms: int) -> bool:
        """Whether the seed and the whole deal of this game may go to anyone now. `over`: play has
        stopped (won, abandoned, or lost); it decides only for a game on no contest's deal."""
        contest = self._contest_public(created, now_ms)
        return over if contest is None else contest

    def may_watch(self, created: GameCreated, viewer_id: str, now_ms: int) -> bool:
        """Whether `viewer_id` may open the game at all: its player always; others only once a
        daily's or race's deal is public (until then its progress goes out as counts, never cards)."""
        if viewer_id == created.player_id:
            return True
        contest = self._contest_public(created, now_ms)
        return contest is None or contest

    def may_hint(self, created: GameCreated, now_ms: int) -> bool:
        """Whether a hint may be computed for this game's deal now: a hint comes from a winning line
        found with every card known, so a daily's or race's deal gets none before it is public."""
        contest = self._contest_public(created, now_ms)
        return contest is None or contest

    def _contest_public(self, created: GameCreated, now_ms: int) -> bool | None:
        """For a game on a daily's or a race's deal: whether that deal is public; None for other games."""
        links = created.links
        if links.challenge is not None:
            reveal = challenge_reveal_ms(links.challenge)
            return reveal is not None and now_ms >= reveal and self.challenge_revealed(links.challenge)
        if links.race is not None:
            return self.race_ended(links.race)
        return None
