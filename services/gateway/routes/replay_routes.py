"""HTTP routes of the replay validator: a finished game's replay file, and the validator's figures."""

from __future__ import annotations

from litestar import Controller, MediaType, Response, get
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath

from .api_docs import errors
from ...games.model import NO_SUCH_GAME, Refusal
from ...games.service import GameService
from ...tournaments.service import TournamentService
from ...validator.public import ValidatorStatus, public_replay, validator_status
from ...validator.replay_file import ReplayFile
from ...validator.replay_signing import KeyList
from ...validator.replay_views import UNAVAILABLE, ReplayViews, public_views
from ...validator.verdict import Verdict
from ..errors import ApiError


class ReplaysController(Controller):
    path = "/api"
    tags = ["replays"]

    @get("/games/{game_id:str}/replay", responses=errors(400, 403, 404))
    async def replay(self, game_id: FromPath[str], service: NamedDependency[GameService],
                     tournaments: NamedDependency[TournamentService], state: State) -> ReplayFile:
        """The game's replay file (docs/replay-format.md), signed by the server, once its deal may be
        public: a casual game once over, a daily attempt after the challenge's reveal (with its salt and
        commitment), a race game after its race. Anyone may ask."""
        found = await public_replay(service, game_id, state.replay_keys, tournaments.challenge)
        if isinstance(found, Refusal):
            raise ApiError(404 if found.code == NO_SUCH_GAME else 403, found.code, found.message)
        return found

    @get("/games/{game_id:str}/replay/views",
         responses={200: ResponseSpec(ReplayViews, description="the replay's steps and the solver's review",
                                 generate_examples=False), **errors(400, 403, 404)})
    async def replay_views(self, game_id: FromPath[str], service: NamedDependency[GameService]) -> Response[bytes]:
        """What the replay page shows: the deal and the position after every move, every card face up,
        each move with its server time, and the solver's review. Public exactly when the replay file is."""
        found = await public_views(service, game_id)
        if isinstance(found, Refusal):
            status = {NO_SUCH_GAME: 404, UNAVAILABLE: 503}.get(found.code, 403)
            raise ApiError(status, found.code, found.message)
        return Response(found, media_type=MediaType.JSON)

    @get("/games/{game_id:str}/verdict", responses=errors(400, 404))
    async def verdict(self, game_id: FromPath[str], state: State) -> Verdict:
        """The validator's verdict on a won game (moves and time only, never a card); 404 until there is one."""
        stored = await state.validators.queue.verdict_of(game_id)
        if stored is None:
            raise ApiError(404, "no_verdict", f"no verdict on {game_id!r} (not won, or not checked yet)")
        return stored.verdict

    @get("/replay-keys", responses=errors())
    async def replay_keys(self, state: State) -> KeyList:
        """Every public key this deployment has signed replay files with (`current`: the one in use);
        a key rotated out stays listed, so every file signed with it still checks (`arena verify --keys`)."""
        return await state.replay_keys.listed()

    @get("/validator/status", responses=errors())
    async def status(self, state: State) -> ValidatorStatus:
        """Submissions waiting (lag), being checked (pending), and verdicts so far."""
        return await validator_status(state.redis)
