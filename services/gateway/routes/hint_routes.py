"""HTTP route of hints in practice games: POST /api/games/{id}/hint. Thin: services/games/hints.py
decides whether a hint may be given, computes it off the event loop and logs it; this only shapes
the body and maps each refusal to its status (docs/protocol.md)."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, Request, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import FromPath
from msgspec import Meta, Struct, json

from ...games import hints as h
from ...games.hints import HintAnswer
from ...games.model import NO_SUCH_GAME, NOT_YOUR_GAME, STALE_VERSION, Refusal
from .bodies import decode_body
from .api_docs import errors, json_body
from ..errors import ApiError


class HintC2S(Struct, frozen=True, forbid_unknown_fields=True):
    version: Annotated[int, Meta(ge=0)] | None = None  # the version the client shows; None: the current one


_hint_body = json.Decoder(HintC2S)
HINT_BODY = {"type": "object", "properties": {"version": {"type": ["integer", "null"], "minimum": 0}},
             "additionalProperties": False}

STATUS = {
    NO_SUCH_GAME: 404,
    NOT_YOUR_GAME: 403,
    h.HINTS_PRACTICE_ONLY: 403,
    h.HINTS_AFTER_REVEAL: 403,
    STALE_VERSION: 409,
    h.GAME_OVER: 409,
    h.NO_SOLVER: 409,
    h.UNAVAILABLE: 503,
}


class HintsController(Controller):
    path = "/api/games"
    tags = ["games"]

    @post("/{game_id:str}/hint", status_code=200, responses=errors(400, 401, 403, 404, 409),
          operation_class=json_body(HINT_BODY, "the version the client shows (null or no body: the current one)",
                                    required=False))
    async def hint(self, game_id: FromPath[str], request: Request, state: State,
                   player_id: NamedDependency[str]) -> HintAnswer:
        """Body: `{"version": <int> | null}` (may be empty). The next move of a winning line, or
        "unwinnable" when none is left; the game is marked assisted. Practice games only."""
        body = await request.body()
        data = decode_body(body, _hint_body) if body.strip() else HintC2S()
        answer = await state.hints.hint(player_id, game_id, data.version)
        if isinstance(answer, Refusal):
            raise ApiError(STATUS.get(answer.code, 409), answer.code, answer.message)
        return answer
