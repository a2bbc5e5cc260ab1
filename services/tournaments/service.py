"""The tournaments service: daily challenges on their streams, attempts as games, the leaderboard.

Each challenge is a stream in the store's "daily" namespace (prepared, closed, revealed) and each
player's attempt one more (started, finished, verified or rejected); the version-0 append makes the
first attempt the only one, whichever gateway process takes the request. An attempt is a game of kind
"daily" linked to its challenge and dealt from the challenge's seed; the game service keeps its deal
secret until the challenge's reveal. The leaderboard is a projection of the attempt streams.
Knows no game rule: deals, moves and results come from the game service and the engine.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable
from typing import Any

from engine import RuleError
from engine.errors import rule_error
from engine.intents import ResignIntent

from ..games.entries import DAILY, PRACTICE, GameLinks
from ..games.model import GameSummary
from ..games.service import GameService
from ..solver_pool import in_solver_worker
from ..store import EventStore, VersionConflict
from ..store.keys import attempt_stream_id, daily_stream_id
from . import challenge as ch
from .accounts import AccountStore
from .catalogue import ChallengeRef, challenges_of, parse_challenge_key
from .derivation import new_salt, pick_seed
from .events import from_stored, to_new_event
from .leaderboard import RedisLeaderboard
from .results import AttemptResults
from .winnable import FALLBACK_CHECK, check_for

PROOF_COUNTERS = 16  # deals a solver may fail to prove before a day falls back to "not lost at the deal"
NO_ATTEMPT = "no_attempt"
ATTEMPT_NOT_OVER = "attempt_not_over"


class TournamentService(AttemptResults):
    def __init__(self, redis: Any, games: GameService, *, secret: bytes, clock: Callable[[], int] | None = None,
                 daily_games: tuple[str, ...] = ()) -> None:
        self.redis, self.games, self.secret = redis, games, secret
        self.daily_games = daily_games
        self.clock = clock or games.clock
        self.store = EventStore(redis, clock=self.clock, namespace="daily")
        self.board = RedisLeaderboard(redis)
        self.accounts = AccountStore(redis)
        # Told of every leaderboard change with its new version (the gateway pushes it to watchers).
        self.board_changed: Callable[[str, int], Awaitable[None]] | None = None

    def challenges_of(self, day: dt.date) -> list[ChallengeRef]:
        """The day's challenges this deployment runs: the catalogue, or the games ARENA_DAILY_GAMES names."""
        refs = challenges_of(day)
        return [r for r in refs if r.daily.game in self.daily_games] if self.daily_games else refs

    # Reading streams --------------------------------------------------------------------------

    async def challenge(self, key: str) -> ch.ChallengeState:
        return (await self._challenge(key))[0]

    async def _challenge(self, key: str) -> tuple[ch.ChallengeState, int]:
        """The challenge's state and the stream version it was read at (to append after it)."""
        state, version = ch.ChallengeState(), 0
        for stored in await self.store.read(daily_stream_id(key)):
            state, version = ch.evolve_challenge(state, from_stored(stored)), stored.version
        return state, version

    async def _attempt(self, key: str, player_id: str) -> tuple[ch.AttemptState, int]:
        state, version = ch.AttemptState(), 0
        for stored in await self.store.read(attempt_stream_id(key, player_id)):
            state, version = ch.evolve_attempt(state, from_stored(stored)), stored.version
        return state, version

    async def _append(self, stream: str, version: int, events: list) -> bool:
        """Append at `version`; False when another process got there first (its events stand)."""
        if not events:
            return True
        try:
            await self.store.append(stream, version, [to_new_event(e) for e in events])
        except VersionConflict:
            return False
        return True

    # Preparing, closing, revealing (the scheduler calls these; each is safe to run twice) ------

    async def prepare(self, ref: ChallengeRef) -> ch.ChallengeState:
        state = await self.challenge(ref.key)
        if state.prepared is not None:
            return state
        daily = ref.daily
        check = check_for(daily.game)
        # The solver is seconds of CPU work: in a worker process, so this process's sockets (and its GIL)
        # keep being served meanwhile.
        pick = await in_solver_worker(_pick, self.secret, ref.date, daily.game, daily.variant, daily.game,
                                      PROOF_COUNTERS)
        if isinstance(pick, RuleError):  # no proof within the budget: the weaker check, recorded as such
            check = FALLBACK_CHECK
            pick = pick_seed(self.secret, ref.date, daily.game, daily.variant, check)
        assert not isinstance(pick, RuleError), pick
        command = ch.PrepareChallenge(ref, pick, new_salt(), check.name, self.clock())
        events = ch.decide_challenge(command, state)
        if not isinstance(events, RuleError):
            await self._append(daily_stream_id(ref.key), 0, events)
        return await self.challenge(ref.key)

    async def prepare_days(self, first: dt.date, days: int) -> int:
        prepared = 0
        for offset in range(days):
            for ref in self.challenges_of(first + dt.timedelta(days=offset)):
                if (await self.challenge(ref.key)).prepared is None:
                    await self.prepare(ref)
                    prepared += 1
        return prepared

    async def settle(self, ref: ChallengeRef) -> ch.ChallengeState:
        """Close, end late attempts, and once every win is verified reveal the seed and make the board final."""
        now = self.clock()
        stream = daily_stream_id(ref.key)
        state, version = await self._challenge(ref.key)
        if state.prepared is None or state.revealed is not None:
            return state
        if not state.closed and now >= state.prepared.closes_at_ms:
            events = ch.decide_challenge(ch.CloseChallenge(now), state)
            if not isinstance(events, RuleError):
                await self._append(stream, version, events)  # refused when another process closed it first
            state, version = await self._challenge(ref.key)
        if now < state.final_at_ms or state.revealed is not None:
            return state
        await self._end_late_attempts(ref.key)
        counts = await self.board.counts(ref.key)
        events = ch.decide_challenge(ch.RevealSeed(now, counts.playing, counts.pending), state)
        if isinstance(events, RuleError):
            return state  # wins still await the validator: the next round reveals
        await self._append(stream, version, events)
        await self.board.finalize(ref.key, now)
        await self._changed(ref.key)
        return await self.challenge(ref.key)

    async def _end_late_attempts(self, key: str) -> None:
        for player_id in await self._players_with_status(key, ("playing", "guest_playing")):
            attempt, _ = await self._attempt(key, player_id)
            if attempt.started is not None and attempt.finished is None:
                game = await self.games.load(attempt.started.game_id)
                if game is not None:  # resigned through the game: its end reaches us like any other
                    await self.games.submit(player_id, game.game_id, f"grace-{key}", game.version, ResignIntent())
                attempt, version = await self._attempt(key, player_id)
                if attempt.finished is None:  # the game had ended without telling us: end the attempt here
                    await self._record_end(key, player_id, "abandoned", 0, 0, self.clock())

    async def _players_with_status(self, key: str, statuses: tuple[str, ...]) -> list[str]:
        from ..store.keys import daily_status_key

        raw = await self.redis.hgetall(daily_status_key(key))
        return [p.decode() for p, s in raw.items() if s.decode() in statuses]

    # Attempts --------------------------------------------------------------------------------

    async def start_attempt(self, player_id: str, key: str) -> GameSummary | RuleError:
        """The player's attempt at the challenge: made by the first request, the same game ever after."""
        ref = parse_challenge_key(key)
        if isinstance(ref, RuleError):
            return ref
        state = await self.challenge(ref.key)
        attempt, _ = await self._attempt(ref.key, player_id)
        if attempt.started is not None:
            return await self._summary(attempt.started.game_id)
        ranked = await self.accounts.by_player(player_id) is not None
        probe = ch.decide_attempt(ch.StartAttempt(player_id, "-", ranked, self.clock()), attempt, state)
        if isinstance(probe, RuleError):
            return probe
        assert state.prepared is not None
        prepared = state.prepared
        game = await self.games.create_game(
            player_id, prepared.game, prepared.variant, prepared.sealed.seed,
            kind=DAILY, links=GameLinks(challenge=ref.key), ranked=ranked,
        )
        assert not isinstance(game, RuleError), game
        events = ch.decide_attempt(ch.StartAttempt(player_id, game.id, ranked, self.clock()), attempt, state)
        assert not isinstance(events, RuleError), events
        if not await self._append(attempt_stream_id(ref.key, player_id), 0, events):
            # Two first requests raced: the other one's game is the attempt. Ours is never handed out;
            # resigned, so no one can ever play a second attempt on this deal.
            await self.games.submit(player_id, game.id, "second-attempt", 0, ResignIntent())
            attempt, _ = await self._attempt(ref.key, player_id)
            assert attempt.started is not None
            return await self._summary(attempt.started.game_id)
        await self.board.start(ref.key, player_id, ranked)
        await self._changed(ref.key)
        return game

    async def start_practice(self, player_id: str, key: str) -> GameSummary | RuleError:
        """The challenge's deal again, unranked, once the player's attempt is over; as secret as the attempt."""
        ref = parse_challenge_key(key)
        if isinstance(ref, RuleError):
            return ref
        attempt, _ = await self._attempt(ref.key, player_id)
        state = await self.challenge(ref.key)
        if attempt.finished is None and state.revealed is None:
            return rule_error(ATTEMPT_NOT_OVER, "practice on a daily's deal opens once your attempt is over")
        prepared = state.prepared
        if prepared is None:
            return rule_error(ch.NOT_PREPARED, "this challenge has not been prepared")
        return await self.games.create_game(
            player_id, prepared.game, prepared.variant, prepared.sealed.seed,
            kind=PRACTICE, links=GameLinks(challenge=ref.key),
        )

    async def _summary(self, game_id: str) -> GameSummary:
        summary = await self.games.summary(game_id)
        assert summary is not None, game_id
        return summary

    async def attempt_of(self, player_id: str, key: str) -> ch.AttemptState:
        return (await self._attempt(key, player_id))[0]


def _pick(secret: bytes, date: str, game: str, variant: dict, check_game: str, counters: int):
    """pick_seed in the worker process, with that process's check for the game."""
    return pick_seed(secret, date, game, variant, check_for(check_game), max_counter=counters)


def load_tournament_secret(given: str | None, data_dir: Any) -> bytes:
    """ARENA_TOURNAMENT_SECRET, else one generated once into the data folder (never the token secret)."""
    from ..identity import load_or_create_secret

    return load_or_create_secret(given, data_dir, name="tournament-secret")

