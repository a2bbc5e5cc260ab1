"""HTTP routes: games (create, summary, mine), health and readiness. Thin: the service does the work;
these only shape bodies (the player comes from auth.current_player, identity routes are in
session_routes.py)."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, Response, get, post, route
from litestar.enums import HttpMethod
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter
from litestar.datastructures import State
from msgspec import Meta, Struct, json, structs

from engine import RuleError

from .api_docs import create_game_schema, errors, json_body
from ...games.again import play_again
from ...games.model import NOT_YOUR_GAME, Refusal
from ...games.request_keys import BAD_REQUEST_KEY, REQUEST_KEY_PATTERN, bad_request_key, reserved_game_id
from ...games.service import GameService, GameSummary
from .bodies import decode_body, whole_numbers
from ...metrics import redis_error
from ..errors import ApiError, ErrorBody
from ..guards.limits import rate_limited
from ..guards.overload import UNAVAILABLE_ERRORS, warnings
from ...identity.sessions import Sessions
from ...identity.tokens import TokenClaims


class CreateGame(Struct, frozen=True, forbid_unknown_fields=True):
    game: Annotated[str, Meta(min_length=1, max_length=64)]
    variant: dict[str, Any] | None = None  # Any: a variant's JSON values (the engine checks them)
    seed: int | None = None  # None: the server picks one; the engine checks the range (7.0 is 7: bodies.py)


_create_game = json.Decoder(CreateGame)


class NewGame(GameSummary, frozen=True):
    """A new game's summary and a one-use ticket for its first socket: the client opens the game without
    a POST /api/tickets of its own (one request and its token check fewer for every game)."""

    ticket: str | None = None  # None: the ticket could not be stored (Redis busy): ask /api/tickets
    ticket_expires_in_ms: int | None = None


class Health(Struct, frozen=True):
    status: str
    detail: str = ""


class GamesController(Controller):
    path = "/api/games"
    tags = ["games"]

    # First: Litestar 2 makes a path's automatic OPTIONS answer from the first handler registered on it, so
    # it listed POST alone here (litestar-org/litestar#4169, fixed in 3.0); this one names both.
    @route("/", http_method=HttpMethod.OPTIONS, include_in_schema=False, status_code=204)
    async def allowed_methods(self) -> Response[None]:
        return Response(None, status_code=204, headers={"Allow": "GET, OPTIONS, POST"})

    @post("/", status_code=201, opt=rate_limited("games"), responses=errors(400, 401, 429),
          operation_class=json_body(create_game_schema(), "the game, its variant (null: the default) and a chosen seed"))
    async def create_game(
        self, request: Request, state: State, player_id: NamedDependency[str],
        sessions: NamedDependency[Sessions], claims: NamedDependency[TokenClaims],
        idempotency_key: Annotated[str | None, HeaderParameter(
            name="Idempotency-Key", required=False, schema_extra={"pattern": REQUEST_KEY_PATTERN},
            description="a request key (1-64 letters, digits, '-', '_'): the same key again gets the same game")] = None,
    ) -> NewGame:
        """Body: `{"game": "wish", "variant": {...} | null, "seed": <int> | null}` (see docs/protocol.md).
        The answer is the game's summary with a socket ticket for it. An `Idempotency-Key` header makes the
        request safe to send again: the same key gets the game the first made, as it is now."""
        # The service from the state, not a dependency: beside `sessions` it would be a second one with none
        # of its own, and Litestar resolves such a batch in an anyio task group, a task each (every game's
        # creation request). This way the dependencies are one chain: sessions, claims, player_id.
        service: GameService = state.service
        data = decode_body(await request.body(), _create_game)
        variant = whole_numbers(data.variant)  # {"piles": 11.0} is 11 piles; 11.5 stays, for the engine to refuse
        game_id, first = None, False
        if idempotency_key is not None:  # the same request sent again gets the game the first made (request_keys.py)
            why = bad_request_key(idempotency_key)
            if why is not None:
                raise ApiError(400, BAD_REQUEST_KEY, why)
            game_id, first = await reserved_game_id(service.redis, player_id, idempotency_key, service.new_game_id())
        created = await service.create_game(player_id, data.game, variant, data.seed, game_id=game_id, unasked=first)
        if isinstance(created, RuleError):
            raise ApiError(400, created.code, created.message)
        try:
            ticket = await sessions.new_ticket(claims)
        except UNAVAILABLE_ERRORS as exc:  # the game is made: it is answered, without a ticket
            warnings.warn("a new game's ticket", exc)
            return NewGame(**structs.asdict(created))
        return NewGame(**structs.asdict(created), ticket=ticket.ticket, ticket_expires_in_ms=ticket.expires_in_ms)

    @get("/", responses=errors(401))
    async def my_games(
        self, service: NamedDependency[GameService], player_id: NamedDependency[str]
    ) -> list[GameSummary]:
        return await service.list_games(player_id)

    @get("/{game_id:str}", responses=errors(400, 401, 404))
    async def game_summary(
        self, game_id: FromPath[str], service: NamedDependency[GameService], player_id: NamedDependency[str]
    ) -> GameSummary:
        summary = await service.summary(game_id)
        if summary is None:
            raise ApiError(404, "no_such_game", f"there is no game {game_id!r}")
        return summary


    @post("/{game_id:str}/again", status_code=201, opt=rate_limited("games"), responses=errors(400, 401, 403, 404, 409, 429))
    async def play_deal_again(
        self, game_id: FromPath[str], service: NamedDependency[GameService], player_id: NamedDependency[str]
    ) -> GameSummary:
        """"Play this deal again": a new practice game on the deal of one of my games. Refused with 409
        `not_public_yet` for a daily's or race's deal before it is public; 403 `not_your_game`."""
        again = await play_again(service, player_id, game_id)
        if again is None:
            raise ApiError(404, "no_such_game", f"there is no game {game_id!r}")
        if isinstance(again, Refusal):
            raise ApiError(403 if again.code == NOT_YOUR_GAME else 409, again.code, again.message)
        return again


@get("/health", tags=["health"])  # no error: it reads nothing
async def health() -> Health:
    """The process answers."""
    return Health("ok")


@get("/ready", tags=["health"], responses=errors())
async def ready(state: State) -> Health:
    """Redis answers: the gateway can take moves."""
    try:
        await state.redis.ping()
    except Exception as exc:  # any failure means not ready; say which
        redis_error("ready")
        raise ApiError(503, "not_ready", f"redis does not answer: {exc}") from exc
    return Health("ready")


__all__ = ["ErrorBody", "GamesController", "health", "ready"]
