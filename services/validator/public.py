"""The replay of a game for anyone who asks, once its deal may be public; the validator's figures."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from msgspec import Struct

from ..games.live import LiveGame
from ..games.model import NO_SUCH_GAME, NOT_PUBLIC_YET, Refusal
from ..games.service import GameService
from ..store.keys import dead_letters_key, submissions_key, validator_counts_key
from .queue import GROUP
from .replay_file import ReplayFile, build_replay
from .replay_keyring import ReplayKeys


async def public_game(service: GameService, game_id: str) -> LiveGame | Refusal:
    """The live game if its replay may go to anyone now; else why not: no such game, or not public
    yet (a daily before its reveal, a race before its end, a game still in play). Every route that
    serves a replay's cards asks this first: no card leaves before then."""
    live = await service.refresh(game_id)
    if live is None:
        return Refusal(NO_SUCH_GAME, f"there is no game {game_id!r}")
    if not service.deal_public(live):
        return Refusal(NOT_PUBLIC_YET, "this game's replay is public once the game is over and its deal may be shown")
    return live


# A challenge's state by its key (TournamentService.challenge): read for the salt and commitment.
ChallengeLookup = Callable[[str], Awaitable[Any]]  # Any: a ChallengeState: the validator imports no tournament


async def public_replay(service: GameService, game_id: str, keys: ReplayKeys,
                        challenges: ChallengeLookup | None = None) -> ReplayFile | Refusal:
    """The game's replay file, signed by the server, or why not (public_game). A game on a daily's
    committed deal carries the challenge's salt and commitment once revealed, so the file alone
    proves the deal was fixed; the signature makes its times and player the server's word."""
    live = await public_game(service, game_id)
    if isinstance(live, Refusal):
        return live
    salt, bound = await _daily_binding(live, challenges)
    return await keys.sign(build_replay(game_id, await service.store.read(game_id), salt=salt, commitment=bound))


async def _daily_binding(live: LiveGame, challenges: ChallengeLookup | None) -> tuple[str | None, str | None]:
    """(salt, commitment) of the game's challenge when revealed and the game is on the committed seed.
    Not on the guests' deal: that seed is not the one the commitment binds. Never before the reveal
    (public_game already refuses such a game; this asks the challenge's own stream once more)."""
    created = live.created
    key = created.links.challenge
    if key is None or challenges is None:
        return None, None
    state = await challenges(key)
    revealed, prepared = state.revealed, state.prepared
    if revealed is None or prepared is None or revealed.seed != created.seed:
        return None, None
    return revealed.salt, prepared.commitment


class ValidatorStatus(Struct, frozen=True):
    pending: int  # delivered to a worker, not yet acknowledged
    lag: int  # submitted, not yet delivered to any worker
    verified: int
    rejected: int
    dead: int  # submissions that kept failing, set aside with their reason
    submitted: int  # entries in the submission stream


async def validator_status(redis: Any) -> ValidatorStatus:  # Any: a redis-py client
    counts = {k.decode() if isinstance(k, bytes) else k: int(v) for k, v in (await redis.hgetall(validator_counts_key())).items()}
    submitted = int(await redis.xlen(submissions_key()))
    pending = lag = 0
    try:
        for group in await redis.xinfo_groups(submissions_key()):
            if _text(group.get("name")) == GROUP:
                pending = int(group.get("pending") or 0)
                lag = _lag(group, submitted)
    except Exception:  # noqa: BLE001  no stream or group yet: nothing pending
        pass
    dead = max(counts.get("dead", 0), int(await redis.xlen(dead_letters_key())))
    return ValidatorStatus(pending, lag, counts.get("verified", 0), counts.get("rejected", 0), dead, submitted)


def _lag(group: dict, submitted: int) -> int:
    lag = group.get("lag")  # Redis 7+: entries not yet delivered to the group
    if lag is not None:
        return int(lag)
    read = group.get("entries-read")
    return max(0, submitted - int(read)) if read is not None else 0


def _text(value: Any) -> str:  # Any: any value, as its caller has it
    return value.decode() if isinstance(value, bytes) else str(value)
