"""HTTP routes of the replay validator: a finished game's replay file, and the validator's figures."""

from __future__ import annotations

from litestar import Controller, get
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import FromPath

from ..games.model import NO_SUCH_GAME, Refusal
from ..games.service import GameService
from ..validator.public import ValidatorStatus, public_replay, validator_status
from ..validator.replay_file import ReplayFile
from ..validator.verdict import Verdict
from .errors import ApiError


class ReplaysController(Controller):
    path = "/api"
    tags = ["replays"]

    @get("/games/{game_id:str}/replay")
    async def replay(self, game_id: FromPath[str], service: NamedDependency[GameService]) -> ReplayFile:
        """The game's replay file (docs/replay-format.md) once its deal may be public: a casual game once
        over, a daily attempt after the challenge's reveal, a race game after its race. Anyone may ask."""
        found = await public_replay(service, game_id)
        if isinstance(found, Refusal):
            raise ApiError(404 if found.code == NO_SUCH_GAME else 403, found.code, found.message)
        return found

    @get("/games/{game_id:str}/verdict")
    async def verdict(self, game_id: FromPath[str], state: State) -> Verdict:
        """The validator's verdict on a won game (moves and time only, never a card); 404 until there is one."""
        stored = await state.validators.queue.verdict_of(game_id)
        if stored is None:
            raise ApiError(404, "no_verdict", f"no verdict on {game_id!r} (not won, or not checked yet)")
        return stored.verdict

    @get("/validator/status")
    async def status(self, state: State) -> ValidatorStatus:
        """Submissions waiting (lag), being checked (pending), and verdicts so far."""
        return await validator_status(state.redis)
