"""HTTP routes: guest identity, games (create, summary, mine), health and readiness. Thin: the
service does the work; these only check identity and shape bodies."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody
from litestar.datastructures import State
from msgspec import Meta, Struct

from engine import RuleError

from ..games.service import GameService, GameSummary
from ..identity import Identity
from ..logging import bind_ids
from ..metrics import redis_error
from .errors import ApiError, ErrorBody


class GuestCreated(Struct, frozen=True):
    player_id: str
    token: str


class CreateGame(Struct, frozen=True, forbid_unknown_fields=True):
    game: Annotated[str, Meta(min_length=1, max_length=64)]
    variant: dict[str, Any] | None = None
    seed: int | None = None  # None: the server picks one; the engine checks the range


class Health(Struct, frozen=True):
    status: str
    detail: str = ""


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


async def current_player(request: Request, identity: NamedDependency[Identity]) -> str:
    """The player the request's token names; 401 without a valid one."""
    player_id = identity.player_of(bearer_token(request))
    if player_id is None:
        raise ApiError(401, "unauthorized", "send `Authorization: Bearer <token>` (POST /api/players/guest)")
    bind_ids(player_id=player_id)
    return player_id


class PlayersController(Controller):
    path = "/api/players"
    tags = ["players"]

    @post("/guest", status_code=201)
    async def create_guest(self, identity: NamedDependency[Identity]) -> GuestCreated:
        player_id, token = identity.new_guest()
        return GuestCreated(player_id, token)


class GamesController(Controller):
    path = "/api/games"
    tags = ["games"]

    @post("/", status_code=201)
    async def create_game(
        self, data: JSONBody[CreateGame], service: NamedDependency[GameService], player_id: NamedDependency[str]
    ) -> GameSummary:
        created = await service.create_game(player_id, data.game, data.variant, data.seed)
        if isinstance(created, RuleError):
            raise ApiError(400, created.code, created.message)
        return created

    @get("/")
    async def my_games(
        self, service: NamedDependency[GameService], player_id: NamedDependency[str]
    ) -> list[GameSummary]:
        return await service.list_games(player_id)

    @get("/{game_id:str}")
    async def game_summary(
        self, game_id: FromPath[str], service: NamedDependency[GameService], player_id: NamedDependency[str]
    ) -> GameSummary:
        summary = await service.summary(game_id)
        if summary is None:
            raise ApiError(404, "no_such_game", f"there is no game {game_id!r}")
        return summary


@get("/health", tags=["health"])
async def health() -> Health:
    """The process answers."""
    return Health("ok")


@get("/ready", tags=["health"])
async def ready(state: State) -> Health:
    """Redis answers: the gateway can take moves."""
    try:
        await state.redis.ping()
    except Exception as exc:  # any failure means not ready; say which
        redis_error("ready")
        raise ApiError(503, "not_ready", f"redis does not answer: {exc}") from exc
    return Health("ready")


__all__ = ["ErrorBody", "GamesController", "PlayersController", "current_player", "health", "ready"]
