"""The tournaments service: daily challenges on their streams, attempts as games, the leaderboard.

Each challenge is a stream in the store's "daily" namespace (prepared, closed, revealed) and each
player's attempt one more (started, finished, verified or rejected); the version-0 append makes the
first attempt the only one, whichever gateway process takes the request. An attempt is a game of kind
"daily" linked to its challenge. A named account made before the challenge opened plays the ranked
deal (the committed seed); a guest, or an account made since, plays the guests' deal unranked, so no
throwaway identity sees the ranked deal before the reveal. The game service keeps either deal secret
until the challenge's reveal; practice on it opens only then. The leaderboard is a projection of the
attempt streams. Preparing and settling days is in days.py, what the service hears in results.py.
Knows no game rule: deals, moves and results come from the game service and the engine.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from engine import RuleError
from engine.errors import rule_error
from engine.intents import ResignIntent

from ..games.entries import DAILY, PRACTICE, GameLinks
from ..games.model import GameSummary
from ..games.service import GameService
from ..store import EventStore, VersionConflict
from ..store.keys import attempt_stream_id, daily_stream_id
from . import challenge as ch
from .accounts import AccountStore
from .catalogue import ChallengeRef, challenges_of, parse_challenge_key
from .days import ChallengeDays
from .events import AttemptStarted, from_stored, to_new_event
from .leaderboard import RedisLeaderboard
from .results import AttemptResults
from .stats_store import StoredStatistics

NO_ATTEMPT = "no_attempt"
NOT_REVEALED = "not_revealed"
GUEST, NEW_ACCOUNT = "guest", "new_account"  # why an attempt is unranked (AttemptStarted.unranked)


class TournamentService(AttemptResults, ChallengeDays):
    def __init__(self, redis: Any, games: GameService, *, secret: bytes, clock: Callable[[], int] | None = None,  # Any: a redis-py client (server or cluster)
                 daily_games: tuple[str, ...] = (), weak_check: bool = False) -> None:
        self.redis, self.games, self.secret = redis, games, secret
        self.daily_games = daily_games
        self.weak_check = weak_check  # ARENA_DAILY_WEAK_CHECK: a day the solver cannot prove falls back
        self.clock = clock or games.clock
        self.store = EventStore(redis, clock=self.clock, namespace="daily")
        self.board = RedisLeaderboard(redis)
        self._unprovable: set[str] = set()
        self._revealed: set[str] = set()  # challenges known revealed (grows by a key a day per game)
        self.accounts = AccountStore(redis, clock=self.clock)  # the server's clock: "made before it opened"
        self.statistics = StoredStatistics(redis, games)  # players' statistics, told of every end (wiring.py)
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

    def is_revealed(self, key: str) -> bool:
        """Whether this process knows the challenge's seed is revealed (the deal secrecy's question)."""
        return key in self._revealed

    async def learn_reveal(self, key: str) -> None:
        """Read the challenge's stream: a reveal made by another process becomes known here. Only
        reveals are kept: once revealed, a challenge stays revealed."""
        if (await self.challenge(key)).revealed is not None:
            self._revealed.add(key)

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

    async def _end_late_attempt(self, key: str, player_id: str) -> None:
        """An attempt still running after the grace: its game resigned (its end reaches us like any other)."""
        attempt, _ = await self._attempt(key, player_id)
        if attempt.started is not None and attempt.finished is None:
            game = await self.games.load(attempt.started.game_id)
            if game is not None:
                await self.games.submit(player_id, game.game_id, f"grace-{key}", game.version, ResignIntent())
            attempt, version = await self._attempt(key, player_id)
            if attempt.started is not None and attempt.finished is None:  # its game ended untold: end it here
                await self._record_end(key, player_id, attempt.started.game_id, "abandoned", 0, 0, self.clock())

    # Attempts --------------------------------------------------------------------------------

    async def start_attempt(self, player_id: str, key: str) -> GameSummary | RuleError:
        """The player's attempt at the challenge: made by the first request, the same game ever after.

        Race-free across requests and processes: the attempt is claimed first, by appending its
        AttemptStarted (naming a fresh game id) at version 0 of its stream; only then is the game
        created under that id, idempotently. Two first requests race for the claim, never for games:
        the loser reads the winner's claim and answers with the same game (creating it if the winner
        has not yet), so no second game on the deal exists and no other game can end the attempt."""
        ref = parse_challenge_key(key)
        if isinstance(ref, RuleError):
            return ref
        state = await self.challenge(ref.key)
        attempt, _ = await self._attempt(ref.key, player_id)
        if attempt.started is None:
            account = await self.accounts.by_player(player_id)
            ranked = account is not None and state.prepared is not None and \
                account.created_at_ms < state.prepared.opens_at_ms
            unranked = "" if ranked else (NEW_ACCOUNT if account is not None else GUEST)
            command = ch.StartAttempt(player_id, secrets.token_hex(8), ranked, self.clock(), unranked)
            events = ch.decide_attempt(command, attempt, state)
            if isinstance(events, RuleError):
                return events
            if await self._append(attempt_stream_id(ref.key, player_id), 0, events):
                attempt = ch.evolve_attempt(attempt, events[0])
            else:  # another request claimed it first: its game is the attempt
                attempt, _ = await self._attempt(ref.key, player_id)
        assert attempt.started is not None
        return await self._attempt_game(state, attempt.started)

    async def _attempt_game(self, state: ch.ChallengeState, started: AttemptStarted) -> GameSummary | RuleError:
        """The claimed attempt's game, created under its id if no request has yet (idempotent)."""
        summary = await self.games.summary(started.game_id)
        if summary is not None:
            return summary
        prepared = state.prepared
        assert prepared is not None
        seed = prepared.sealed.seed
        if started.on_guest_deal:  # a challenge prepared before guests' deals: a fresh one each
            seed = prepared.guest_seed if prepared.guest_seed is not None else secrets.randbits(64)
        game = await self.games.create_game(
            started.player, prepared.game, prepared.variant, seed, kind=DAILY,
            links=GameLinks(challenge=prepared.challenge), ranked=started.ranked, game_id=started.game_id,
        )
        if isinstance(game, RuleError):
            return game
        # On the board from "-" only: a second creator (the claim's loser, a retry) changes nothing.
        if not isinstance(await self.board.start(prepared.challenge, started.player, started.ranked), RuleError):
            await self._changed(prepared.challenge)
        return game

    async def start_practice(self, player_id: str, key: str) -> GameSummary | RuleError:
        """The challenge's deal again, unranked, once the challenge is revealed. Not before, even after
        the player's own attempt: practice (with its undo) would show every card of a deal others are
        still playing, to pass on to a second account or a friend."""
        ref = parse_challenge_key(key)
        if isinstance(ref, RuleError):
            return ref
        state = await self.challenge(ref.key)
        prepared = state.prepared
        if prepared is None:
            return rule_error(ch.NOT_PREPARED, "this challenge has not been prepared")
        if state.revealed is None:
            return rule_error(NOT_REVEALED, "practice on a daily's deal opens once the challenge is revealed")
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


def load_tournament_secret(given: str | None, data_dir: Any) -> bytes:  # Any: a Path, or what Path() takes
    """ARENA_TOURNAMENT_SECRET, else one generated once into the data folder (never the token secret)."""
    from ..identity.tokens import load_or_create_secret

    return load_or_create_secret(given, data_dir, name="tournament-secret")

