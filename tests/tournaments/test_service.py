"""The tournaments service on a real Redis with an injected clock: a day from commitment to reveal."""

from __future__ import annotations

import datetime as dt

import pytest

from engine.solver import solve
from services.games.service import AllResults, GameService
from services.store import EventStore
from services.tournaments.catalogue import challenges_of
from services.tournaments.derivation import verify_commitment
from services.tournaments.scheduler import DailyScheduler
from services.tournaments.service import TournamentService
from services.validator.review import ReviewRules
from services.validator.runtime import Validators
from tests.fixtures.redis import unique_id
from tests.services.conftest import Clock

pytestmark = pytest.mark.integration

DAY = dt.date(2031, 3, 4)  # far from other tests' days: a shared Redis keeps their challenges
OPENS = int(dt.datetime(2031, 3, 4, tzinfo=dt.UTC).timestamp() * 1000)
HOUR = 3600 * 1000


class Stack:
    def __init__(self, redis, clock) -> None:
        self.store = EventStore(redis, clock=clock)
        self.validators = Validators(redis, self.store, workers=0)
        self.games = GameService(self.store, redis)
        self.tournaments = TournamentService(redis, self.games, secret=b"test tournament secret 0123456789")
        self.validators.queue.seeds, self.validators.queue.sink = self.tournaments.seed_for, self.tournaments.verdict
        self.games.results = AllResults(self.validators.submitter, self.tournaments)
        self.scheduler = DailyScheduler(self.tournaments)

    async def validate(self) -> None:
        from services.validator.worker import ValidatorWorker

        worker = ValidatorWorker(self.validators.queue, consumer=unique_id("w"), block_ms=1)
        await self.validators.queue.ensure_group()
        while await worker.run_once(block=False):
            pass


@pytest.fixture
def clock():
    return Clock(OPENS - 8 * 24 * HOUR)


@pytest.fixture
async def stack(private_redis_client, clock):
    redis_client = private_redis_client
    return Stack(redis_client, clock)


def wish_ref():
    return next(ref for ref in challenges_of(DAY) if ref.daily.game == "wish")


async def win(stack: Stack, player: str, key: str, clock) -> str:
    game = await stack.tournaments.start_attempt(player, key)
    await stack.games.open_for(game.id, player)
    state = stack.games.live.get(game.id).state
    clock.now += 1_000
    for n, intent in enumerate(solve(state).line):
        clock.now += 500
        assert (await stack.games.submit(player, game.id, f"m{n}", n, intent)).answer.accepted
    return game.id


async def test_a_day_from_commitment_to_reveal(stack, clock):
    ref = wish_ref()
    prepared = await stack.tournaments.prepare(ref)
    info = prepared.prepared
    assert info.challenge == ref.key and info.check == "exact_solver"
    accounts = stack.tournaments.accounts  # made before the challenge opened: ranked
    alice = (await accounts.register(unique_id("Al")[:18], "correct horse battery")).player_id
    bob = (await accounts.register(unique_id("Bo")[:18], "correct horse battery")).player_id
    clock.now = OPENS + HOUR
    guest = "g_" + unique_id()[-16:]
    game_a = await win(stack, alice, ref.key, clock)
    again = await stack.tournaments.start_attempt(alice, ref.key)
    assert again.id == game_a  # a second attempt is never made: the first one comes back
    await win(stack, guest, ref.key, clock)
    game_b = await stack.tournaments.start_attempt(bob, ref.key)  # bob never finishes
    await stack.validate()
    board = await stack.tournaments.board.page(ref.key)
    assert [row.entry.player for row in board.rows] == [alice]  # the guest plays unranked
    assert (await stack.tournaments.board.standing(ref.key, guest)).rank is None
    # The close, then the grace: bob's attempt is ended as abandoned, the seed revealed, the board final.
    clock.now = OPENS + 24 * HOUR + 10
    state = await stack.tournaments.settle(ref)
    assert state.closed and state.revealed is None
    assert (await stack.games.summary(game_b.id)).seed is None  # still secret in the grace
    clock.now = OPENS + 25 * HOUR + 10
    state = await stack.tournaments.settle(ref)
    assert state.revealed is not None
    assert verify_commitment(info.commitment, ref.date, "wish", ref.daily.variant_text, state.revealed.seed,
                             bytes.fromhex(state.revealed.salt))
    assert (await stack.games.summary(game_b.id)).status == "abandoned"
    assert (await stack.tournaments.board.counts(ref.key)).final


async def test_two_schedulers_close_a_day_once(stack, private_redis_client, clock):
    other = Stack(private_redis_client, clock)
    ref = next(ref for ref in challenges_of(DAY + dt.timedelta(days=1)) if ref.daily.game == "wish")
    await stack.tournaments.prepare(ref)
    await other.tournaments.prepare(ref)  # the second process finds it prepared: one commitment
    clock.now = ref.final_at_ms + 1
    import asyncio

    await asyncio.gather(stack.tournaments.settle(ref), other.tournaments.settle(ref))
    await asyncio.gather(stack.tournaments.settle(ref), other.tournaments.settle(ref))
    types = [e.type for e in await stack.tournaments.store.read(f"daily-{ref.key}")]
    assert types == ["challenge_prepared", "challenge_closed", "seed_revealed"]


async def test_a_win_faster_than_the_review_floor_is_ranked_and_shown_flagged(stack, clock):
    ref = next(ref for ref in challenges_of(DAY + dt.timedelta(days=2)) if ref.daily.game == "wish")
    await stack.tournaments.prepare(ref)
    player = (await stack.tournaments.accounts.register(unique_id("Fa")[:18], "correct horse battery")).player_id
    clock.now = ref.opens_at_ms + HOUR
    # The test's player moves every 500 ms: under a 10 s floor (the other rules off)
    stack.validators.queue.review = ReviewRules(first_move_ms=0, move_floor_ms=10_000, even_spread=0, total_move_ms=0)
    await win(stack, player, ref.key, clock)
    await stack.validate()
    [row] = (await stack.tournaments.board.page(ref.key)).rows
    assert row.entry.player == player and row.entry.flagged and row.rank == 1
    assert row.entry.review and row.entry.review_reasons == ("fast_moves",)  # marked until an operator clears it


@pytest.mark.parametrize("told_late", [True, False], ids=["end-heard-after-the-verdict", "end-never-heard"])
async def test_a_verdict_before_the_game_end_reaches_the_board_still_ranks_the_win(stack, clock, told_late):
    """The submitter hears a game end before the tournaments do, so a quick validator can answer first
    (and a process killed between the two hooks never tells the tournaments at all). The win is ranked
    from the game's own end either way, and the end heard late changes nothing."""
    day = DAY + dt.timedelta(days=3 if told_late else 4)
    ref = next(ref for ref in challenges_of(day) if ref.daily.game == "wish")
    await stack.tournaments.prepare(ref)
    player = (await stack.tournaments.accounts.register(unique_id("Qu")[:18], "correct horse battery")).player_id
    clock.now = ref.opens_at_ms + HOUR
    heard = []

    class Later:  # holds the tournaments' end until the validator has answered
        async def opened(self, *args) -> None:
            await stack.tournaments.opened(*args)

        async def ended(self, *args) -> None:
            heard.append(args)

    stack.games.results = AllResults(stack.validators.submitter, Later())
    game_id = await win(stack, player, ref.key, clock)
    assert (await stack.tournaments.board.standing(ref.key, player)).status == "playing"
    await stack.validate()
    summary = await stack.games.summary(game_id)
    [row] = (await stack.tournaments.board.page(ref.key)).rows
    assert (row.rank, row.entry.player, row.entry.game_id) == (1, player, game_id)
    assert (row.entry.moves, row.entry.time_ms, row.entry.finished_at_ms) == (
        summary.moves, summary.elapsed_ms, summary.finished_at_ms)
    if told_late:
        [args] = heard
        await stack.tournaments.ended(*args)
    standing = await stack.tournaments.board.standing(ref.key, player)
    assert (standing.status, standing.rank) == ("verified", 1)
    attempt = await stack.tournaments.attempt_of(player, ref.key)
    assert attempt.verdict == "verified" and attempt.finished.result == "won"
