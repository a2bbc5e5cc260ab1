"""Hints in practice games: the next move of a winning line from the current position, or "no
winning line from here" when the solver proves it, within a fixed budget of search nodes.

A hint is computed with every card known (engine.solver.advice.hint), so it tells the player
something about cards they have not seen. Hence the rules: only the game's player may ask, only in a
practice game, never on a daily's or race's deal before that deal is public (a finished player could
pass the line on), and every hint given is logged as a ``hint_given`` entry in the game's stream: the
game is "assisted" for good, and the log alone proves it. An answer the search could not settle
("unknown": the budget ran out) tells nothing, is not logged and marks nothing.

The solver is CPU work: it runs on one worker thread beside the event loop (the GIL allows no more
in one process), with at most `max_waiting` positions queued or running; beyond that a request is
told `unavailable` to come back shortly. Two requests for the same game at the same version share
one search, and a position already hinted is answered from the log's last hint without a search; the
search is deterministic (a node budget, never time), so a position it could not settle is remembered
for a while and not searched again.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

from msgspec import Struct

from engine import IN_PROGRESS, AnyIntent, RuleError
from engine.solver.advice import Hint, hint
from engine.solver.search import UNKNOWN

from . import codec
from ..store import VersionConflict
from .entries import PRACTICE, HintGiven
from .live import LiveGame
from .model import NO_SUCH_GAME, NOT_YOUR_GAME, STALE_VERSION, Refusal, meta_key, stream_of
from .service import GameService

HINTS_PRACTICE_ONLY = "hints_practice_only"
HINTS_AFTER_REVEAL = "hints_after_reveal"
GAME_OVER = "game_over"
NO_SOLVER = "no_solver"
UNAVAILABLE = "unavailable"

HINT_NODES = 50_000  # per hint: a few seconds at most for 4-suit Spider on one core, far less elsewhere
MAX_WAITING = 4  # positions searched or queued in this process before a request is told to come back
UNSETTLED_KEPT = 1024  # (game, version) pairs the search could not settle, remembered in this process


class HintAnswer(Struct, frozen=True):
    """A hint for the position at `version`: `result` winnable (with `move`, the next move of a
    winning line), unwinnable (proven: no winning line from here) or unknown (not settled within
    the budget). `assisted`: the game is marked assisted (after this hint, or an earlier one)."""

    game_id: str
    version: int
    result: str
    move: AnyIntent | None
    nodes: int
    assisted: bool


class Hints:
    def __init__(self, service: GameService, *, budget: int = HINT_NODES, max_waiting: int = MAX_WAITING,
                 executor: ThreadPoolExecutor | None = None) -> None:
        self.service = service
        self.budget = budget
        self.max_waiting = max_waiting
        self._executor = executor or ThreadPoolExecutor(max_workers=1, thread_name_prefix="hints")
        self._searches: dict[tuple[str, int], asyncio.Future[Hint | RuleError]] = {}
        self._unsettled: OrderedDict[tuple[str, int], int] = OrderedDict()  # -> nodes searched

    @property
    def waiting(self) -> int:
        """Searches running or queued in this process."""
        return len(self._searches)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)

    async def hint(self, player_id: str, game_id: str, version: int | None = None) -> HintAnswer | Refusal:
        """A hint for the player's game at its current version (`version`: the one the client shows;
        another one is stale); a Refusal says why not."""
        live = await self.service.refresh(game_id)
        refusal = self._refusal(live, player_id, game_id, version)
        if refusal is not None:
            return refusal
        assert live is not None
        known = live.last_hint
        if known is not None and known.version == live.version:
            return self._answer(live, known.result, known.move, 0)  # already given (and logged) here
        unsettled = self._unsettled.get((game_id, live.version))
        if unsettled is not None:  # the same search would end the same way: spare the worker
            return HintAnswer(game_id, live.version, UNKNOWN, None, unsettled, live.assisted)
        async with live.lock:  # a hint shows the board: the deal is looked at first, as a move does
            live = await self.service.show(live, player_id)
        at = live.version
        found = await self._search(live)
        if isinstance(found, Refusal):
            return found
        if found.result == UNKNOWN:
            self._unsettled[(game_id, at)] = found.nodes
            while len(self._unsettled) > UNSETTLED_KEPT:
                self._unsettled.popitem(last=False)
            return HintAnswer(game_id, at, found.result, None, found.nodes, live.assisted)
        return await self._log(game_id, at, found)

    def _refusal(self, live: LiveGame | None, player_id: str, game_id: str, version: int | None) -> Refusal | None:
        if live is None:
            return Refusal(NO_SUCH_GAME, f"there is no game {game_id!r}")
        if player_id != live.owner:
            return Refusal(NOT_YOUR_GAME, "only the game's player may ask for a hint")
        if live.created.kind != PRACTICE:
            return Refusal(HINTS_PRACTICE_ONLY,
                           f"hints exist only in practice games (a game on a deal you chose); this one is {live.created.kind}")
        if not self.service.secrecy.may_hint(live.created, self.service.clock()):
            return Refusal(HINTS_AFTER_REVEAL, "no hints on a daily's or race's deal before it is revealed: "
                                               "a hint comes from the cards nobody has been shown yet")
        if version is not None and version != live.version:
            return Refusal(STALE_VERSION, f"the game is at version {live.version}, the hint was asked at {version}")
        if live.state.status != IN_PROGRESS:
            return Refusal(GAME_OVER, "the game is over: there is no next move to hint")
        return None

    async def _search(self, live: LiveGame) -> Hint | Refusal:
        key = (live.game_id, live.version)
        search = self._searches.get(key)
        if search is None:
            if self.waiting >= self.max_waiting:
                return Refusal(UNAVAILABLE, "the server is busy with other hints: try again in a few seconds")
            # The state is immutable: the loop moves on to new states while the worker reads this one.
            search = asyncio.get_running_loop().run_in_executor(self._executor, hint, live.state, self.budget)
            self._searches[key] = search
            search.add_done_callback(lambda _: self._searches.pop(key, None))
        found = await asyncio.shield(search)  # a request that goes away leaves the search to the others
        if isinstance(found, RuleError):
            return Refusal(NO_SOLVER, f"no hints for this game: {found.message}")
        return found

    async def _log(self, game_id: str, at: int, found: Hint) -> HintAnswer | Refusal:
        """Log the hint for the position at version `at`, unless the game moved on meanwhile."""
        moved = Refusal(STALE_VERSION, "the game moved on while the hint was computed: ask again")
        live = await self.service.refresh(game_id)
        if live is None or live.version != at:
            return moved
        async with live.lock:
            known = live.last_hint
            if known is not None and known.version == at:  # a request beside this one logged it first
                return self._answer(live, known.result, known.move, found.nodes)
            if live.version != at:
                return moved
            given = HintGiven(at_ms=self.service.clock(), version=at, result=found.result, move=found.move)
            try:
                result = await self.service.store.append(stream_of(game_id), live.stream_version,
                                                         [codec.new_entry(given)])
            except VersionConflict:  # another process wrote first: its log is the truth
                await self.service.rebuild(game_id)
                return moved
            live.stream_version = result.version
            live.hint_versions.append(result.version)
            live.last_hint = given
        await self.service.redis.hset(meta_key(game_id), "assisted", 1)
        return self._answer(live, given.result, given.move, found.nodes)

    @staticmethod
    def _answer(live: LiveGame, result: str, move: AnyIntent | None, nodes: int) -> HintAnswer:
        return HintAnswer(live.game_id, live.version, result, move, nodes, live.assisted)
