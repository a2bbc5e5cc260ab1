"""HTTP routes of replays that span several games: a finished race's racers side by side, and the
ghost a ghost race runs beside (with the route that starts one on a revealed daily's deal).

Thin: the race's public view says whether it has ended, the tournaments service whether a daily is
revealed, and every game served passes the one public_game check. No token is needed to watch a
race replay or read a ghost (both are public once served at all); starting a ghost race takes one.
"""

from __future__ import annotations

from litestar import Controller, MediaType, Response, get, post
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath

from engine import RuleError

from ...games.model import NO_SUCH_GAME, GameSummary, Refusal
from ...games.service import GameService
from ...races.service import RaceService
from ...tournaments.ghost import NO_VERIFIED_WIN, NOT_A_GHOST_RACE, GhostLine, ghost_line, start_ghost_race
from ...tournaments.service import TournamentService
from ...validator.race_replay import NO_RACE_GAMES, RACE_NOT_OVER, RaceReplay, public_race_replay
from ...validator.replay_views import UNAVAILABLE
from .api_docs import errors
from .daily_routes import _key, _refused
from ..errors import ApiError

STATUS = {NO_SUCH_GAME: 404, NOT_A_GHOST_RACE: 404, NO_VERIFIED_WIN: 404, NO_RACE_GAMES: 404, RACE_NOT_OVER: 409,
          UNAVAILABLE: 503}


def _raise(refusal: Refusal) -> ApiError:
    return ApiError(STATUS.get(refusal.code, 403), refusal.code, refusal.message)


class RaceReplayController(Controller):
    path = "/api/races"
    tags = ["replays"]

    @get("/{race_id:str}/replay",
         responses={200: ResponseSpec(RaceReplay, description="every racer's steps on the race's clock",
                                      generate_examples=False), **errors(400, 403, 404, 409)})
    async def race_replay(self, race_id: FromPath[str], races: NamedDependency[RaceService],
                          service: NamedDependency[GameService],
                          tournaments: NamedDependency[TournamentService]) -> Response[bytes]:
        """A finished race: every racer in finishing order with every step of their game, each step's
        time since the start signal. Before the race has ended: 409 race_not_over, no card."""
        view = await races.view(race_id)
        if view is None:
            raise ApiError(404, "no_such_race", f"there is no race {race_id!r}")

        async def name_of(player: str) -> str | None:
            account = await tournaments.accounts.by_player(player)
            return account.name if account else None

        found = await public_race_replay(service, view, name_of)
        if isinstance(found, Refusal):
            raise _raise(found)
        return Response(found, media_type=MediaType.JSON)


class GhostController(Controller):
    path = "/api"
    tags = ["dailies"]

    @post("/dailies/{date:str}/{game:str}/{variant:str}/ghost", status_code=201, responses=errors(400, 401, 404, 409))
    async def start(self, date: FromPath[str], game: FromPath[str], variant: FromPath[str],
                    tournaments: NamedDependency[TournamentService], player_id: NamedDependency[str]) -> GameSummary:
        """A ghost race: the challenge's deal as a new practice game (unranked), raced against the best
        verified replay. Only once the challenge is final (409 not_revealed before); 404 no_verified_win."""
        found = await start_ghost_race(tournaments, player_id, _key(date, game, variant))
        if isinstance(found, RuleError):
            if found.code == NO_VERIFIED_WIN:
                raise ApiError(404, found.code, found.message)
            raise _refused(found)
        return found

    @get("/games/{game_id:str}/ghost", responses=errors(400, 403, 404))
    async def ghost(self, game_id: FromPath[str], tournaments: NamedDependency[TournamentService],
                    service: NamedDependency[GameService]) -> GhostLine:
        """The ghost of a ghost race: the raced replay's progress (moves, cards home) at each step's time
        since its first look. Counts only, never a card."""
        found = await ghost_line(tournaments, service, game_id)
        if isinstance(found, Refusal):
            raise _raise(found)
        return found


__all__ = ["GhostController", "RaceReplayController"]
