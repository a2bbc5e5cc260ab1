"""The game service: games as event streams, decided by the engine. It knows no game rule.

Each game is one stream in the event store. Entry 1 is the service's ``game_created`` (what deals
the game and whose it is); every later entry is one engine event, so the protocol's version (moves
stored) is the stream version minus one. A move is: decide with the engine on the cached state,
append with the expected version (a stale version writes nothing), evolve. Retries of a move id
get the first answer: accepted moves through the store's move-id record (durable, every process),
rejected ones from a per-game memory.

Alongside the streams the service keeps, per game, a small hash (when the deal was first shown,
the status once the game ended) and, per player, a sorted set of their games by creation time.
"""

from __future__ import annotations

import secrets
from typing import Any, Callable

import msgspec

import engine
from engine import IN_PROGRESS, AnyIntent, RuleError
from engine.intents import ResignIntent
from engine.state import FINISHED

from . import codec
from .appender import Appender
from .live import LiveGame, LiveGames, MoveAnswer, ms_between
from .model import (  # noqa: F401  (re-exported: the service's public shapes)
    BAD_LOG,
    GAME_ID,
    NO_SUCH_GAME,
    NOT_YOUR_GAME,
    STALE_VERSION,
    GameSummary,
    MoveResult,
    Snapshot,
    meta_key,
    now_ms,
    player_games_key,
    stream_of,
)
from ..store import EventStore, StoredEvent, VersionConflict

class GameService:
    def __init__(
        self,
        store: EventStore,
        redis: Any,
        *,
        cache_games: int = 10_000,
        clock: Callable[[], int] = now_ms,
        appender: Appender | None = None,
    ) -> None:
        self.store = store
        self.redis = redis
        self.clock = clock
        self.live = LiveGames(cache_games)
        self.appender = appender or Appender(store)

    # Creating ---------------------------------------------------------------------------------

    async def create_game(
        self, player_id: str, game: str, variant: dict[str, Any] | None, seed: int | None = None
    ) -> GameSummary | RuleError:
        if seed is None:
            seed = secrets.randbits(64)
        state = engine.initial_state(game, variant, seed)
        if isinstance(state, RuleError):
            return state
        await self._abandon_unfinished(player_id)
        game_id = secrets.token_hex(8)
        created = codec.GameCreated(
            game=game,
            variant=msgspec.structs.asdict(state.variant),
            seed=seed,
            player_id=player_id,
            created_at_ms=self.clock(),
        )
        await self.store.append(stream_of(game_id), 0, [codec.created_entry(created)])
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(meta_key(game_id), mapping={"player_id": player_id, "status": state.status})
        pipe.zadd(player_games_key(player_id), {game_id: created.created_at_ms})
        await pipe.execute()
        live = LiveGame(game_id, created, state, 0)
        self.live.put(live)
        return self._summary(live)

    async def _abandon_unfinished(self, player_id: str) -> None:
        """DECISIONS.md: starting a new game abandons the player's unfinished one."""
        latest = await self.redis.zrevrange(player_games_key(player_id), 0, 0)
        if not latest:
            return
        game_id = _text(latest[0])
        status = await self.redis.hget(meta_key(game_id), "status")
        if status is not None and _text(status) == IN_PROGRESS:
            live = await self.refresh(game_id)  # fresh: another process may have moved it since
            if live is not None and live.state.status == IN_PROGRESS:
                await self.submit(player_id, game_id, f"abandon-{secrets.token_hex(6)}", live.version,
                                  ResignIntent())

    # Loading ----------------------------------------------------------------------------------

    async def load(self, game_id: str) -> LiveGame | None:
        """The live game from the cache, else rebuilt from the log (None when there is no such game)."""
        live = self.live.get(game_id)
        return live if live is not None else await self.rebuild(game_id)

    async def refresh(self, game_id: str) -> LiveGame | None:
        """The live game, rebuilt when the log has moved on (another gateway process wrote to it)."""
        live = self.live.get(game_id)
        if live is not None and await self.store.version(stream_of(game_id)) == live.version + 1:
            return live
        return await self.rebuild(game_id)

    async def rebuild(self, game_id: str, *, verify: bool = False) -> LiveGame | None:
        """Fold the log into a fresh live game. `verify` re-decides every event (tamper check)."""
        if not GAME_ID.fullmatch(game_id):
            return None  # not an id this service ever made
        entries = await self.store.read(stream_of(game_id))
        if not entries or entries[0].type != codec.GAME_CREATED:
            return None
        created = codec.decode_created(entries[0].data)
        start = engine.initial_state(created.game, created.variant, created.seed)
        if isinstance(start, RuleError):
            raise ValueError(f"game {game_id}: its creation no longer deals: {start.message}")
        events = [codec.decode_event(entry.data) for entry in entries[1:]]
        if verify:
            result = engine.replay_events(start, events)
            if not result.ok:
                raise ValueError(f"game {game_id}: {BAD_LOG}: {result.error.message}")
            state = result.state
        else:
            state = engine.fold(start, events)
        live = LiveGame(game_id, created, state, len(events))
        await self._load_times(live, entries)
        previous = self.live.get(game_id)
        if previous is not None:
            live.answers = previous.answers
        self.live.put(live)
        return live

    async def _load_times(self, live: LiveGame, entries: list[StoredEvent]) -> None:
        shown = await self.redis.hget(meta_key(live.game_id), "shown_at_ms")
        live.shown_at_ms = int(shown) if shown is not None else None
        if live.state.status in FINISHED and len(entries) > 1:
            live.finished_at_ms = entries[-1].ts_ms

    # Moving -----------------------------------------------------------------------------------

    async def submit(
        self, player_id: str, game_id: str, move_id: str, expected_version: int, intent: AnyIntent
    ) -> MoveResult:
        live = await self.load(game_id)
        if live is not None and expected_version > live.version:
            # The client saw moves this process did not make: catch up from the log before judging.
            live = await self.refresh(game_id)
        if live is None:
            return _rejected(move_id, 0, NO_SUCH_GAME, f"there is no game {game_id!r}")
        if player_id != live.owner:
            return _rejected(move_id, live.version, NOT_YOUR_GAME, "only the game's player may move")
        async with live.lock:
            known = live.answers.get(move_id)
            if known is not None:
                return MoveResult(known, self.snapshot_of(live) if known.accepted else None)
            if expected_version != live.version:
                return await self._stale(live, move_id, expected_version)
            decided = engine.decide(intent, live.state)
            if isinstance(decided, RuleError):
                answer = MoveAnswer(move_id, False, live.version, decided.code, decided.message)
                live.remember(answer)
                return MoveResult(answer)
            entries = [codec.event_entry(event) for event in decided]
            try:
                result = await self.appender.append(stream_of(game_id), live.version + 1, entries, move_id)
            except VersionConflict:
                # Another process wrote this game: our state is stale. Rebuild and answer from the log.
                return await self._stale(live, move_id, expected_version)
            if result.duplicate:
                return await self._stale(live, move_id, expected_version)
            state = live.state
            for event in decided:
                state = engine.evolve(state, event)
            status_before = live.state.status
            live.state, live.version = state, result.version - 1
            if state.status != status_before:
                await self._record_status(live)
            answer = MoveAnswer(move_id, True, live.version)
            live.remember(answer)
            return MoveResult(answer, self.snapshot_of(live))

    async def _stale(self, live: LiveGame, move_id: str, expected_version: int) -> MoveResult:
        """The client's version is not ours: a retry of a stored move, another process's write, or stale."""
        prior = await self.store.move_result(stream_of(live.game_id), move_id)
        fresh = await self.rebuild(live.game_id) or live
        if prior is not None:
            answer = MoveAnswer(move_id, True, prior - 1)  # prior: the stream version it made
            fresh.remember(answer)
            return MoveResult(answer, self.snapshot_of(fresh))
        message = f"the game is at version {fresh.version}, the move was made at version {expected_version}"
        return _rejected(move_id, fresh.version, STALE_VERSION, message)

    async def _record_status(self, live: LiveGame) -> None:
        if live.state.status in FINISHED:
            live.finished_at_ms = self.clock()
        await self.redis.hset(meta_key(live.game_id), "status", live.state.status)

    # Showing ----------------------------------------------------------------------------------

    async def open_for(self, game_id: str, viewer_id: str) -> tuple[Snapshot, bool] | None:
        """The snapshot a socket gets on connect, and whether the viewer is the player.

        The player's first look starts the clock (DECISIONS.md: time runs from the deal first shown).
        The log is checked for moves made through other processes: a (re)connect is never stale.
        """
        live = await self.refresh(game_id)
        if live is None:
            return None
        is_player = viewer_id == live.owner
        if is_player and live.shown_at_ms is None:
            await self.redis.hsetnx(meta_key(game_id), "shown_at_ms", self.clock())
            live.shown_at_ms = int(await self.redis.hget(meta_key(game_id), "shown_at_ms"))
        return self.snapshot_of(live), is_player

    async def snapshot(self, game_id: str) -> Snapshot | None:
        live = await self.load(game_id)
        return None if live is None else self.snapshot_of(live)

    def snapshot_of(self, live: LiveGame) -> Snapshot:
        ended = live.state.status in FINISHED
        deal = None
        if ended:
            deal = engine.revealed_view(live.created.game, live.created.variant, live.created.seed)
            assert not isinstance(deal, RuleError), deal  # the game dealt when it was created
        return Snapshot(
            game_id=live.game_id,
            version=live.version,
            view=engine.player_view(live.state),
            elapsed_ms=self._elapsed(live),
            seed=live.created.seed if ended else None,
            deal=deal,
        )

    def _elapsed(self, live: LiveGame) -> int | None:
        if live.shown_at_ms is None:
            return None
        if live.finished_at_ms is not None:
            return ms_between(live.shown_at_ms, live.finished_at_ms)
        return ms_between(live.shown_at_ms, self.clock())

    # Summaries --------------------------------------------------------------------------------

    async def summary(self, game_id: str) -> GameSummary | None:
        live = await self.refresh(game_id)  # fresh: another process may have moved since
        return None if live is None else self._summary(live)

    def _summary(self, live: LiveGame) -> GameSummary:
        created, state = live.created, live.state
        ended = state.status in FINISHED
        return GameSummary(
            id=live.game_id,
            game=created.game,
            variant=created.variant,
            player_id=created.player_id,
            status=state.status,
            version=live.version,
            moves=state.moves,
            created_at_ms=created.created_at_ms,
            seed=created.seed if ended else None,
            elapsed_ms=self._elapsed(live),
        )

    async def list_games(self, player_id: str, limit: int = 50) -> list[GameSummary]:
        """The player's games, newest first."""
        ids = await self.redis.zrevrange(player_games_key(player_id), 0, max(0, limit - 1))
        summaries = []
        for raw in ids:
            summary = await self.summary(_text(raw))
            if summary is not None:
                summaries.append(summary)
        return summaries


def _rejected(move_id: str, version: int, code: str, message: str) -> MoveResult:
    return MoveResult(MoveAnswer(move_id, False, version, code, message))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
