"""HTTP routes of the daily challenges: the days, my attempt, practice, leaderboards, my statistics.

Thin: the tournaments service decides; these check identity and shape bodies. A challenge is named
by its key's three parts, `/api/dailies/<date>/<game>/<variant text>` (e.g. `2026-12-01/spider/suits=2`).
No response carries a seed, salt or unseen card before the challenge's reveal: challenge bodies come
from `public_info` and games from the game service, which keeps a daily's deal secret until then.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from litestar import Controller, Request, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, Parameter
from msgspec import Struct

from engine import RuleError

from .api_docs import errors
from ...games.model import GameSummary
from ...identity.tokens import TokenRefused
from ...identity.sessions import Sessions
from ...tournaments.catalogue import BAD_CHALLENGE_KEY, parse_challenge_key, utc_date_of
from ...tournaments.challenge import ChallengeInfo, public_info
from ...tournaments.leaderboard import BoardCounts, BoardPage, Standing
from ...tournaments.service import TournamentService
from ...tournaments.stats_view import PlayerStatsView, player_stats
from ..errors import ApiError
from ..guards.auth import bearer_token

AHEAD_DAYS = 7


class Mine(Struct, frozen=True):
    """The asking player's part in a challenge (none without a token)."""

    game_id: str | None
    status: str | None  # playing, pending, verified, rejected, lost, abandoned, guest_playing, guest_done
    rank: int | None
    ranked: bool
    unranked: str = ""  # why not ranked: "guest", or "new_account" (made after the challenge opened)


class ChallengeCard(Struct, frozen=True):
    challenge: ChallengeInfo
    counts: BoardCounts
    mine: Mine | None = None


class Day(Struct, frozen=True):
    date: str
    now_ms: int
    challenges: list[ChallengeCard]


class Dailies(Struct, frozen=True):
    today: Day
    yesterday: Day
    upcoming: list[ChallengeInfo]  # commitments published ahead, days after today


class Leaderboard(Struct, frozen=True):
    challenge: ChallengeInfo
    page: BoardPage
    counts: BoardCounts
    mine: Standing | None = None


async def _player(request: Request, sessions: Sessions) -> str | None:
    """The asking player when the request carries a good token; anyone may read without one."""
    checked = await sessions.check(bearer_token(request))
    return None if isinstance(checked, TokenRefused) else checked.player_id


def _key(date: str, game: str, variant: str) -> str:
    return f"{date}/{game}/{variant}"


def _refused(error: RuleError) -> ApiError:
    status = 404 if error.code in ("not_prepared", "bad_challenge", BAD_CHALLENGE_KEY, "unknown_game") else 409
    return ApiError(status, error.code, error.message)


async def _card(t: TournamentService, key: str, player: str | None, now: int) -> ChallengeCard | None:
    info = public_info(await t.challenge(key), now)
    if isinstance(info, RuleError):
        return None
    mine = None
    if player is not None:
        attempt = await t.attempt_of(player, key)
        standing = await t.board.standing(key, player)
        started = attempt.started
        mine = Mine(started.game_id if started else None, standing.status, standing.rank,
                    bool(started and started.ranked), started.unranked if started else "")
    return ChallengeCard(info, await t.board.counts(key), mine)


async def _day(t: TournamentService, day: dt.date, player: str | None) -> Day:
    now = t.clock()
    cards = [await _card(t, ref.key, player, now) for ref in t.challenges_of(day)]
    return Day(day.isoformat(), now, [card for card in cards if card is not None])


class DailiesController(Controller):
    path = "/api/dailies"
    tags = ["dailies"]

    @get("/", responses=errors())
    async def dailies(self, request: Request, tournaments: NamedDependency[TournamentService],
                      sessions: NamedDependency[Sessions]) -> Dailies:
        """Today's challenges with their commitments and my status, yesterday's, and the commitments ahead."""
        player, now = await _player(request, sessions), tournaments.clock()
        today = dt.date.fromisoformat(utc_date_of(now))
        upcoming = []
        for offset in range(1, AHEAD_DAYS + 1):
            for ref in tournaments.challenges_of(today + dt.timedelta(days=offset)):
                info = public_info(await tournaments.challenge(ref.key), now)
                if not isinstance(info, RuleError):
                    upcoming.append(info)
        yesterday = await _day(tournaments, today - dt.timedelta(days=1), player)
        return Dailies(await _day(tournaments, today, player), yesterday, upcoming)

    @get("/{date:str}", responses=errors(400))
    async def day(self, date: Annotated[str, Parameter(description="a day, e.g. 2026-12-01",
                                                     schema_extra={"format": "date"})], request: Request, tournaments: NamedDependency[TournamentService],
                  sessions: NamedDependency[Sessions]) -> Day:
        """One day's challenges: seed, salt, counter and day key once the day is final."""
        try:
            day = dt.date.fromisoformat(date)
        except ValueError:
            raise ApiError(400, "bad_date", f"a day is a date like 2026-12-01, not {date!r}") from None
        return await _day(tournaments, day, await _player(request, sessions))

    @post("/{date:str}/{game:str}/{variant:str}/attempt", status_code=200, responses=errors(400, 401, 404, 409))
    async def attempt(self, date: FromPath[str], game: FromPath[str], variant: FromPath[str],
                      tournaments: NamedDependency[TournamentService], player_id: NamedDependency[str]) -> GameSummary:
        """My attempt at the challenge: the first request makes it, every later one returns the same game.
        Ranked for a named account, unranked for a guest."""
        found = await tournaments.start_attempt(player_id, _key(date, game, variant))
        if isinstance(found, RuleError):
            raise _refused(found)
        return found

    @post("/{date:str}/{game:str}/{variant:str}/practice", status_code=201, responses=errors(400, 401, 404, 409))
    async def practice(self, date: FromPath[str], game: FromPath[str], variant: FromPath[str],
                       tournaments: NamedDependency[TournamentService], player_id: NamedDependency[str]) -> GameSummary:
        """The challenge's deal again as practice, unranked, once my attempt is over (as secret until the reveal)."""
        found = await tournaments.start_practice(player_id, _key(date, game, variant))
        if isinstance(found, RuleError):
            raise _refused(found)
        return found

    @get("/{date:str}/{game:str}/{variant:str}/leaderboard", responses=errors(400, 404, 409))
    async def leaderboard(
        self, date: FromPath[str], game: FromPath[str], variant: FromPath[str], request: Request,
        tournaments: NamedDependency[TournamentService], sessions: NamedDependency[Sessions],
        offset: Annotated[int, Parameter(ge=0, le=2**31)] = 0,
        limit: Annotated[int, Parameter(ge=1, le=100)] = 50,
    ) -> Leaderboard:
        """Verified wins: fewer moves, then shorter server time, then earlier finish; my standing."""
        key = _key(date, game, variant)
        named = parse_challenge_key(key)  # before any read: a key no challenge has is no stream to read
        if isinstance(named, RuleError):
            raise _refused(named)
        info = public_info(await tournaments.challenge(key), tournaments.clock())
        if isinstance(info, RuleError):
            raise _refused(info)
        page = await tournaments.board.page(key, offset, limit)
        if isinstance(page, RuleError):
            raise ApiError(400, page.code, page.message)
        player = await _player(request, sessions)
        mine = await tournaments.board.standing(key, player) if player else None
        return Leaderboard(info, page, await tournaments.board.counts(key), mine)


class StatsController(Controller):
    path = "/api/players/me"
    tags = ["players"]

    @get("/stats", responses=errors(401))
    async def stats(self, player_id: NamedDependency[str], tournaments: NamedDependency[TournamentService]) -> PlayerStatsView:
        """My statistics per game and variant, and my daily streak: a projection of my games' logs,
        stored and updated by each game that ends."""
        return await player_stats(tournaments.statistics, player_id, tournaments.clock())
