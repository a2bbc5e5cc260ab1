"""HTTP routes of live races (the race service itself is wired in services/gateway/wiring.py).

Thin: the race service decides; these check identity, turn bodies into validated settings and map
refusals to statuses (404 no such race or code, 403 not the host, 409 a lobby rule, 400 bad settings,
503 busy). Every answer about a race is its public view: never the seed before the end, never a game
id before the start signal.
"""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, get, post
from litestar.response import Redirect
from litestar.di import NamedDependency
from litestar.params import FromPath, FromQuery, JSONBody
from msgspec import Meta, Struct

from ...races.commands import DEFAULT_TIME_LIMIT_MS, MAX_SEATS, MAX_TIME_LIMIT_MS, MIN_SEATS, MIN_TIME_LIMIT_MS
from ...races.commands import RaceError, check_settings
from ...races.ratings import RaceRatings, RatingRow, board_of, rated_race_of
from ...races.service import RaceService
from ...races.view import RaceView
from ...tournaments.catalogue import CATALOGUE
from .api_docs import READY_SCHEMA, create_race_schema, errors, json_body
from ..errors import ApiError

STATUS = {
    "no_such_race": 404, "no_such_code": 404, "not_host": 403, "not_seated": 403, "race_full": 409,
    "race_started": 409, "in_another_race": 409, "too_few_racers": 409, "race_not_over": 409,
    "bad_race_settings": 400, "not_a_race_game": 400, "busy": 503, "no_winnable_deal": 503,
}


class CreateRace(Struct, frozen=True, forbid_unknown_fields=True):
    game: Annotated[str, Meta(min_length=1, max_length=64)]
    variant: dict[str, Any] | None = None  # Any: a variant's JSON values (the engine checks them)
    seats: int = 4
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS


class ReadyBody(Struct, frozen=True, forbid_unknown_fields=True):
    ready: bool = True


class RaceGame(Struct, frozen=True):
    game: str
    variant: dict[str, Any]  # every field given, as a race is created with it
    variant_text: str  # canonical, as the ratings board names it
    title: str


class RaceCatalogue(Struct, frozen=True):
    """What a race may be run on, and the lobby's bounds: a create form's menu."""

    games: list[RaceGame]
    min_seats: int
    max_seats: int
    min_time_limit_ms: int
    max_time_limit_ms: int
    default_time_limit_ms: int


RACE_CATALOGUE = RaceCatalogue(
    [RaceGame(d.game, d.variant, d.variant_text, d.title) for d in CATALOGUE],
    MIN_SEATS, MAX_SEATS, MIN_TIME_LIMIT_MS, MAX_TIME_LIMIT_MS, DEFAULT_TIME_LIMIT_MS,
)

LOBBY_ERRORS = errors(400, 401, 403, 404, 409)  # what STATUS maps a race's refusals to


def _answer(done: RaceView | RaceError) -> RaceView:
    if isinstance(done, RaceError):
        raise ApiError(STATUS.get(done.code, 409), done.code, done.message)
    return done


class RacesController(Controller):
    path = "/api/races"
    tags = ["races"]

    @post("/", status_code=201, responses=errors(400, 401, 409),
          operation_class=json_body(create_race_schema(), "a game and variant of the daily catalogue, seats, time limit"))
    async def create_race(self, data: JSONBody[CreateRace], races: NamedDependency[RaceService],
                          player_id: NamedDependency[str]) -> RaceView:
        """A new race on a game and variant of the daily catalogue; you are its host and first seat."""
        settings = check_settings(data.game, data.variant, data.seats, data.time_limit_ms)
        if isinstance(settings, RaceError):
            raise ApiError(400, settings.code, settings.message)
        return _answer(await races.create(player_id, settings))

    @get("/catalogue", sync_to_thread=False)
    def catalogue(self) -> RaceCatalogue:
        """The games and variants races are run on (the daily catalogue's), the seats and time limits."""
        return RACE_CATALOGUE

    @get("/{race_id:str}", responses=errors(400, 401, 404))
    async def race(self, race_id: FromPath[str], races: NamedDependency[RaceService],
                   player_id: NamedDependency[str]) -> RaceView:
        """The race as anyone may see it (the seed from the end on, game ids from the start on)."""
        view = await races.view(race_id)
        if view is None:
            raise ApiError(404, "no_such_race", f"there is no race {race_id!r}")
        return view

    @get("/{race_id:str}/ratings", responses=errors(400, 401, 404))
    async def race_ratings(self, race_id: FromPath[str], races: NamedDependency[RaceService],
                           player_id: NamedDependency[str]) -> RaceRatings:
        """What the race changed on its rating board, per racer in the order of the standings: the
        conservative rating (mu - 3 sigma) before and after, and whether it was their first race on the
        board. `rated` is false, and the list empty, until the final results were rated (a moment after
        `final`)."""
        state = await races.load(race_id)
        if state is None or state.created is None:
            raise ApiError(404, "no_such_race", f"there is no race {race_id!r}")
        if state.final is None or races.ratings is None:
            return RaceRatings(race_id, board_of(state.created.game, state.created.variant), False, [])
        return await races.ratings.race_ratings(rated_race_of(state))

    @post("/join/{code:str}", status_code=200, responses=LOBBY_ERRORS)
    async def join_by_code(self, code: FromPath[str], races: NamedDependency[RaceService],
                           player_id: NamedDependency[str]) -> RaceView:
        """Take a seat in the race a join code names (the code from a join link, any case)."""
        race_id = await races.race_of_code(code)
        if race_id is None:
            raise ApiError(404, "no_such_code", f"no race has the code {code!r}")
        return _answer(await races.join(player_id, race_id))

    @post("/{race_id:str}/join", status_code=200, responses=LOBBY_ERRORS)
    async def join(self, race_id: FromPath[str], races: NamedDependency[RaceService],
                   player_id: NamedDependency[str]) -> RaceView:
        return _answer(await races.join(player_id, race_id))

    @post("/{race_id:str}/leave", status_code=200, responses=LOBBY_ERRORS)
    async def leave(self, race_id: FromPath[str], races: NamedDependency[RaceService],
                    player_id: NamedDependency[str]) -> RaceView:
        """Give your seat back (in the lobby only; once the race runs, resign your game instead)."""
        return _answer(await races.leave(player_id, race_id))

    @post("/{race_id:str}/ready", status_code=200, responses=LOBBY_ERRORS,
          operation_class=json_body(READY_SCHEMA, "ready or not (no body: ready)", required=False))
    async def ready(self, race_id: FromPath[str], races: NamedDependency[RaceService],
                    player_id: NamedDependency[str], data: JSONBody[ReadyBody | None] = None) -> RaceView:
        """Ready (or not: {"ready": false}). When every seat is ready, at least two, the countdown starts."""
        return _answer(await races.ready(player_id, race_id, True if data is None else data.ready))

    @post("/{race_id:str}/start", status_code=200, responses=LOBBY_ERRORS)
    async def start(self, race_id: FromPath[str], races: NamedDependency[RaceService],
                    player_id: NamedDependency[str]) -> RaceView:
        """The host starts the countdown with at least two seated, ready or not."""
        return _answer(await races.start(player_id, race_id))

    @post("/{race_id:str}/rematch", status_code=201, responses=LOBBY_ERRORS)
    async def rematch(self, race_id: FromPath[str], races: NamedDependency[RaceService],
                      player_id: NamedDependency[str]) -> RaceView:
        """After the end: a new race with the same seats and a new deal (one, whoever asks first)."""
        return _answer(await races.rematch(player_id, race_id))


class RatingsController(Controller):
    path = "/api/ratings"
    tags = ["races"]

    @get("/{game:str}", responses=errors(400, 404))
    async def leaderboard(self, game: FromPath[str], races: NamedDependency[RaceService],
                          variant: FromQuery[str | None] = None, limit: FromQuery[int] = 50) -> list[RatingRow]:
        """A game and variant's race ratings, best first: mu, its uncertainty sigma, the conservative
        rating mu - 3 sigma the board sorts by, and whether the player is still provisional (fewer than
        10 races). `variant` is the canonical text (e.g. suits=2); none: the catalogue's first entry."""
        entries = [d for d in CATALOGUE if d.game == game and (variant is None or d.variant_text == variant)]
        if not entries:
            raise ApiError(404, "no_such_board", f"no race board for {game} {variant or ''}".strip())
        assert races.ratings is not None
        return await races.ratings.leaderboard(board_of(game, entries[0].variant), max(1, min(limit, 200)))


@get("/race/{code:str}", include_in_schema=False, sync_to_thread=False)
def join_link(code: FromPath[str]) -> Redirect:
    """A race's join link (its view's join_path) opens the web client's race page on that code."""
    code = "".join(c for c in code if c.isalnum())[:16]  # a code is letters: nothing else reaches the URL
    return Redirect(f"/race.html#/join/{code}", status_code=302)


__all__ = ["RacesController", "RatingsController", "join_link"]
