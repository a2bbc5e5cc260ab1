"""The game service: games as event streams, decided by the engine. It knows no game rule.

Each game is one stream in the event store. Entry 1 is the service's ``game_created`` (what deals
the game and whose it is); every later entry is one engine event, so the protocol's version (moves
stored) is the stream version minus one. A move is: decide with the engine on the cached state,
append with the expected version (a stale version writes nothing), evolve. Retries of a move id
get the first answer: accepted moves through the store's move-id record (durable, every process),
rejected ones from a per-game memory.

The log holds everything that counts: ``game_created`` (deal, player, kind, links), ``game_shown``
(the first look by anyone: the clock's start, always before the first move), ``hint_given`` (a hint
a practice game took: services/games/hints.py) and the engine events with the server's times. A race game is the exception to "the first look starts
the clock": its race logs the look at the start signal (`show_at`), and until then nobody may open or
move it. Beside it the service keeps projections (services/games/projections.py): a
meta hash per game and a sorted set of each player's games, both rebuildable from the logs.

This file creates, loads and moves games; what the service shows (snapshots, the first look, summaries)
is in showing.py, and whom it tells about results and moves in hooks.py.
"""

from __future__ import annotations

import secrets
from typing import Any
from collections.abc import Callable

import msgspec

import engine
from engine import IN_PROGRESS, AnyIntent, RuleError
from engine.intents import ResignIntent

from . import codec
from .appender import Appender
from .entries import CASUAL, CASUAL_KINDS, PRACTICE, RACE, GameCreated, GameLinks, GameShown, Kind
from .hooks import AllResults, MoveHook, NoResults, ResultsHook, queue_ended, queue_opened  # noqa: F401  (AllResults re-exported)
from .in_play import in_play_members, queue_in_play
from .projections import queue_projections, rewrite_game_projections
from .record import BadLog, GameLog, read_log, settled, start_state, stopped_at
from .secrecy import DealSecrecy
from .live import LiveGame, LiveGames, MoveAnswer
from .showing import Showing, _text
from .view_delta import delta_between
from .model import (  # noqa: F401  (re-exported: the service's public shapes)
    ARCHIVED,
    BAD_LOG,
    GAME_ID,
    NO_SUCH_GAME,
    NOT_PUBLIC_YET,
    NOT_STARTED,
    NOT_YOUR_GAME,
    STALE_VERSION,
    GameSummary,
    MoveResult,
    Refusal,
    Snapshot,
    meta_key,
    now_ms,
    player_games_key,
    stream_of,
)
from ..store.keys import player_in_play_key
from ..redis.lean_commands import LeanCommands
from ..store import EventStore, VersionConflict
from .. import metrics
from ..runtime.faults import BEFORE_SUBMISSION, crash_point

RECENT_GAMES = 20  # how far back a new casual game looks for an unfinished one to abandon
# A casual game's deal number is short enough to read out and type (1 to a billion); dailies and races
# draw from the whole 64-bit range, as their seeds stay secret until the contest is over anyway.
CASUAL_DEALS = 10**9


class GameService(Showing):
    def __init__(
        self,
        store: EventStore,
        redis: Any,  # Any: a redis-py client, one server's or a cluster's (they share no type)
        *,
        cache_games: int = 10_000,
        clock: Callable[[], int] | None = None,
        appender: Appender | None = None,
        results: ResultsHook | None = None,
        secrecy: DealSecrecy | None = None,
        lean: LeanCommands | None = None,
    ) -> None:
        self.store = store
        self.redis = redis
        # The lifecycle's small commands (the meta hash, the indexes, the first look): over the lean link
        # where the process has one (wiring.py), else through `redis` (services/redis/lean_commands.py).
        self.lean = lean or LeanCommands(redis, None)
        # One clock for the service and its store: the time a move is stamped with in the log is the
        # time the service measures with, so a rebuild from the log gives the same times.
        self.clock = clock or store.clock
        self.live = LiveGames(cache_games)
        self.appender = appender or Appender(store)
        self.results: ResultsHook = results or NoResults()
        self.secrecy = secrecy or DealSecrecy()
        self.move_hook: MoveHook | None = None

    # Creating ---------------------------------------------------------------------------------

    async def create_game(
        self,
        player_id: str,
        game: str,
        variant: dict[str, Any] | None,  # Any: a variant's JSON values (the engine checks them)
        seed: int | None = None,
        *,
        kind: Kind | None = None,
        links: GameLinks = GameLinks(),  # noqa: B008  a frozen Struct: one shared empty value is safe
        ranked: bool = False,
        chosen_deal: bool | None = None,
        game_id: str | None = None,
        unasked: bool = False,
    ) -> GameSummary | RuleError:
        """A new game. A seed the caller names makes a practice game on a chosen deal, never ranked;
        kinds other than casual/practice (dailies, races) are made by their own services.

        `game_id`: an id the caller reserved first (a daily attempt's stream names its game before the
        game exists; a socket's new game, new_game_id(), so that asking again makes no second one).
        Creating it is then idempotent: when the id's stream is already there (another process created
        the same game, or an earlier ask whose answer was lost), that game's summary is the answer, and
        nothing is written but a casual or practice game's own projections, again, from its log, while it
        is in play (the ask that made it may have failed before they were written). `unasked`: the reserved id was never
        asked for before, so there is no stream to look for."""
        chosen = seed is not None and kind is None  # a daily's or race's seed is the server's, not chosen
        if chosen_deal is not None:
            chosen = chosen_deal
        if seed is None:
            seed = secrets.randbelow(CASUAL_DEALS) + 1 if kind is None else secrets.randbits(64)
        kind = kind or (PRACTICE if chosen else CASUAL)
        state = engine.initial_state(game, variant, seed, practice_undo=kind in CASUAL_KINDS)
        if isinstance(state, RuleError):
            return state
        reserved = game_id is not None
        if game_id is None:
            game_id = self.new_game_id()
        elif not GAME_ID.fullmatch(game_id):
            raise ValueError(f"{game_id!r} is not a game id this service makes")
        if reserved and not unasked and await self.store.exists(stream_of(game_id)):  # (read through: archived, it is there)
            existing = await self.summary(game_id)
            if existing is not None:
                # Its creation may have stopped after the log (it abandoned the player's others before that). Only
                # a game in play: an ended one's end wrote its projections, and an archived one's meta hash is
                # its pointer, never to be written from a log again.
                if existing.kind in CASUAL_KINDS and existing.status == IN_PROGRESS:
                    await rewrite_game_projections(self.store, self.lean, self.results, game_id)
                return existing
        gone: list[str] = []  # games the in-play index still listed, found not in play: taken out below
        if kind in CASUAL_KINDS:
            gone = await self._abandon_unfinished(player_id, keep=game_id)
        created = GameCreated(
            game=game,
            variant=msgspec.structs.asdict(state.variant),
            seed=seed,
            player_id=player_id,
            created_at_ms=self.clock(),
            kind=kind,
            chosen_deal=chosen,
            ranked=ranked and not chosen,
            links=links,
        )
        try:
            await self.store.append(stream_of(game_id), 0, [codec.new_entry(created)])
        except VersionConflict:
            existing = await self.summary(game_id)
            assert existing is not None, game_id
            return existing
        log = GameLog(created, None, (), 1)
        pipe = self.lean.pipeline()  # the meta hash, the player's index, the hooks' writes
        queue_projections(pipe, game_id, log, state)
        queue_in_play(pipe, created, game_id, state.status, scanned=kind in CASUAL_KINDS)
        if gone:
            pipe.zrem(player_in_play_key(player_id), *gone)
        told = queue_opened(self.results, pipe, created, game_id, created.created_at_ms)
        await pipe.execute()
        for hook in told:
            await hook.opened(created, game_id, created.created_at_ms)
        metrics.game_created(created)
        live = LiveGame(game_id, created, state, 0, 1)
        self.live.put(live)
        return self._summary(live)

    @staticmethod
    def new_game_id() -> str:
        """An id for a game not made yet: one a caller may reserve before creating it (create_game's game_id)."""
        return secrets.token_hex(8)

    async def _abandon_unfinished(self, player_id: str, keep: str) -> list[str]:
        """A new casual or practice game abandons the player's unfinished casual or practice games;
        daily attempts and race games are never abandoned by other games. The candidates are the player's
        in-play index (in_play.py), or their recent games where it is not kept; each is checked against
        its meta hash and its log before it is resigned. The answer: index entries found not in play."""
        indexed = in_play_members(await self.lean.zrange(player_in_play_key(player_id), 0, -1))
        if indexed is None:  # no index kept (the player's first new game since it was, or it lapsed)
            latest = [_text(raw) for raw in await self.lean.zrevrange(player_games_key(player_id), 0, RECENT_GAMES - 1)]
        else:
            latest = indexed
        # A game this process holds over (won, abandoned, lost with no undo: the engine's is_over) stays so on
        # every process: its meta hash need not be read. Any other (in play, or lost with an undo) is read.
        gone = [game_id for game_id in latest if self._final_here(game_id)]
        # `keep`, the id this creation is for, is never resigned by it: a request asked twice at once (a
        # double click with one request key) may find the other ask's game already indexed.
        latest = [game_id for game_id in latest if not self._final_here(game_id) and game_id != keep]
        if not latest:
            return gone if indexed is not None else []
        # One round trip for all their meta hashes (each in its game's slot: no transaction), not one each:
        # a player with a history would otherwise wait for twenty before every new game.
        pipe = self.lean.pipeline()
        for game_id in latest:
            pipe.hmget(meta_key(game_id), ["kind", "status"])
        for game_id, (kind, status) in zip(latest, await pipe.execute()):
            if status is None or _text(status) != IN_PROGRESS or _text(kind or CASUAL) not in CASUAL_KINDS:
                gone.append(game_id)
                continue
            live = await self.refresh(game_id)  # fresh: another process may have moved it since
            if live is not None and live.state.status == IN_PROGRESS:
                await self.submit(player_id, game_id, f"abandon-{secrets.token_hex(6)}", live.version,
                                  ResignIntent())
        return gone if indexed is not None else []

    def _final_here(self, game_id: str) -> bool:
        live = self.live.get(game_id)
        return live is not None and engine.is_over(live.state)

    # Loading ----------------------------------------------------------------------------------

    async def load(self, game_id: str) -> LiveGame | None:
        """The live game from the cache, else rebuilt from the log (None when there is no such game)."""
        live = self.live.get(game_id)
        return live if live is not None else await self.rebuild(game_id)

    async def refresh(self, game_id: str) -> LiveGame | None:
        """The live game, rebuilt when the log has moved on (another gateway process wrote to it)."""
        live = self.live.get(game_id)
        if live is None or await self.store.version(stream_of(game_id)) != live.stream_version:
            live = await self.rebuild(game_id)
        if live is not None:
            await self.secrecy.refresh(live.created, self.clock())  # a race ended, a day revealed elsewhere
        return live

    async def rebuild(self, game_id: str, *, verify: bool = False) -> LiveGame | None:
        """Fold the log into a fresh live game. `verify` re-decides every event (tamper check)."""
        if not GAME_ID.fullmatch(game_id):
            return None  # not an id this service ever made
        entries = await self.store.read(stream_of(game_id))
        if not entries:
            return None
        try:
            log = read_log(entries)
        except BadLog as exc:
            raise ValueError(f"game {game_id}: {BAD_LOG}: {exc}") from exc
        created = log.created
        start = start_state(created)
        if isinstance(start, RuleError):
            raise ValueError(f"game {game_id}: its creation no longer deals: {start.message}")
        events = log.engine_events()
        if verify:
            result = engine.replay_events(start, events)
            if result.error is not None or result.state is None:
                why = result.error.message if result.error is not None else "no position"
                raise ValueError(f"game {game_id}: {BAD_LOG}: {why}")
            state = result.state
        else:
            state = engine.fold(start, events)
        live = LiveGame(game_id, created, state, log.version, log.stream_version)
        live.shown_at_ms = log.shown.at_ms if log.shown is not None else None
        live.hint_versions = list(log.hint_versions)
        live.last_hint = log.hints[-1] if log.hints else None
        live.finished_at_ms = stopped_at(log, state)
        previous = self.live.get(game_id)
        if previous is not None:
            live.answers = previous.answers
        self.live.put(live)
        return live

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
            if live.shown_at_ms is None and live.created.kind == RACE:
                return _rejected(move_id, live.version, NOT_STARTED, "the race has not started yet")
            entries = [codec.new_entry(event) for event in decided]
            # A move is a look: the log shows the deal before any move. Unlogged yet, the look goes in the
            # move's own append, just before it (one round trip, not two; a conflict writes neither).
            look = None
            if live.shown_at_ms is None:
                look = GameShown(at_ms=self.clock(), viewer_id=player_id)
                entries.insert(0, codec.new_entry(look))
            try:
                result = await self.appender.append(stream_of(game_id), live.stream_version, entries, move_id)
            except VersionConflict:
                # Another process wrote this game: our state is stale. Rebuild and answer from the log.
                return await self._stale(live, move_id, expected_version)
            if result.duplicate:
                return await self._stale(live, move_id, expected_version)
            before = self.baseline(live)  # the view the mover (and every watcher) holds
            state = live.state
            for event in decided:
                state = engine.evolve(state, event)
            status_before, assisted_before = live.state.status, engine.undo_assisted(live.state)
            live.state, live.version = state, live.version + len(decided)
            live.stream_version = result.version
            fields: dict[str, Any] = {}  # Any: JSON  (meta fields this move changes beside the status)
            if look is not None:
                live.shown_at_ms = fields["shown_at_ms"] = look.at_ms
            if state.status != status_before:
                await self._record_status(live, result.ts_ms, fields)
            else:
                if engine.undo_assisted(state) and not assisted_before:  # the first undo beyond the rules
                    fields["assisted"] = 1
                if fields:
                    await self.lean.hset(meta_key(game_id), mapping=fields)
            answer = MoveAnswer(move_id, True, live.version)
            live.remember(answer)
            snapshot = self.snapshot_of(live)
            if self.move_hook is not None:
                self.move_hook.moved(live, snapshot)
            return MoveResult(answer, snapshot, delta_between(before, snapshot), result.watchers)

    async def _stale(self, live: LiveGame, move_id: str, expected_version: int) -> MoveResult:
        """The client's version is not ours: a retry of a stored move, another process's write, or stale."""
        prior = await self.store.move_result(stream_of(live.game_id), move_id)
        fresh = await self.rebuild(live.game_id) or live
        if prior is not None:
            # prior: the stream version the move made; the service's own entries are not moves.
            answer = MoveAnswer(move_id, True, fresh.version_at(prior))
            fresh.remember(answer)
            return MoveResult(answer, self.snapshot_of(fresh))
        if await _archived(self.store, live.game_id):  # its log is in the archive: read-only for good
            return _rejected(move_id, fresh.version, ARCHIVED, "this game is finished and archived: it takes no more moves")
        message = f"the game is at version {fresh.version}, the move was made at version {expected_version}"
        return _rejected(move_id, fresh.version, STALE_VERSION, message)

    async def _record_status(self, live: LiveGame, ts_ms: int, more: dict[str, Any] | None = None) -> None:  # Any: JSON
        # The clock stops at the entry that ends play (won, lost, abandoned) and runs again after an
        # undo out of a loss: the entry's logged time, as a rebuild reads it (record.stopped_at).
        live.finished_at_ms = None if live.state.status == IN_PROGRESS else ts_ms
        fields: dict[str, Any] = {**(more or {}), "status": live.state.status}  # Any: JSON
        if engine.undo_assisted(live.state):
            fields["assisted"] = 1
        key = meta_key(live.game_id)
        if live.finished_at_ms is not None:
            fields["finished_at_ms"] = live.finished_at_ms
        # One round trip: the meta hash and, at an end, the writes of the hooks that queue theirs (no
        # transaction: other slots). The others (a win's submission first) are told after it, in turn.
        pipe = self.lean.pipeline()
        pipe.hset(key, mapping=fields)
        if live.finished_at_ms is None:
            pipe.hdel(key, "finished_at_ms")
        queue_in_play(pipe, live.created, live.game_id, live.state.status)
        ended = settled(live.state)
        told = queue_ended(self.results, pipe, live.created, live.game_id, live.state.status, ts_ms) if ended else []
        await pipe.execute()
        if ended:
            crash_point(BEFORE_SUBMISSION)
            metrics.game_ended(live.created, live.state.status)
            elapsed = self._elapsed(live) or 0
            for hook in told:
                await hook.ended(live.created, live.game_id, live.state.status, live.state.moves, elapsed, ts_ms)


async def _archived(store: EventStore, game_id: str) -> bool:
    is_archived = getattr(store, "is_archived", None)  # a ReadThroughStore's (services/archive/read_through.py)
    return is_archived is not None and await is_archived(stream_of(game_id))


def _rejected(move_id: str, version: int, code: str, message: str) -> MoveResult:
    return MoveResult(MoveAnswer(move_id, False, version, code, message))
