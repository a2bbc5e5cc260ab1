"""The human-speed review on a real Redis: a scripted daily win verified, ranked and marked `review` with
its reasons from the attempt stream; an operator clears or rejects it at the desk, once."""

from __future__ import annotations

import datetime as dt

import pytest

from engine.solver import solve
from services.tournaments.catalogue import challenges_of
from services.tournaments.events import from_stored
from services.tournaments.review_desk import NO_SUCH_PLAYER, ReviewDesk
from services.tournaments.review_decider import NOT_UNDER_REVIEW
from services.validator.review import ReviewRules
from tests.fixtures.redis import unique_id
from tests.tournaments.test_service import HOUR, Stack

pytestmark = pytest.mark.integration

DAY = dt.date(2031, 5, 9)  # this file's own days on the shared Redis
SCRIPT = [180, 166, 161, 170, 163, 168, 159, 167, 164, 171, 160, 166, 162, 169, 165, 157]  # the audit's 2,648 ms
PERSON = [2300, 1200, 3400, 1800, 2600, 1100, 3900, 1500, 2200, 1300, 2900, 1700, 3100, 1000, 2400, 1600]


@pytest.fixture
def clock():
    from tests.services.conftest import Clock

    return Clock()


@pytest.fixture
async def stack(private_redis_client, clock):
    stack = Stack(private_redis_client, clock)
    stack.validators.queue.review = ReviewRules()  # the defaults, as `arena serve` runs them
    return stack


async def wish_day(stack: Stack, clock, days: int) -> tuple[str, list[str]]:
    """The day's Wish challenge, open, and two accounts named before it opened (so both are ranked)."""
    ref = next(ref for ref in challenges_of(DAY + dt.timedelta(days=days)) if ref.daily.game == "wish")
    clock.now = ref.opens_at_ms - 8 * 24 * HOUR
    await stack.tournaments.prepare(ref)
    accounts = stack.tournaments.accounts
    players = [(await accounts.register(unique_id("Rv")[:18], "correct horse battery")).player_id for _ in "ab"]
    clock.now = ref.opens_at_ms + HOUR
    return ref.key, players


async def play(stack: Stack, key: str, clock, player: str, gaps: list[int]) -> str:
    """The player's attempt won along the solver's line, move k `gaps[k]` ms after the one before."""
    game = await stack.tournaments.start_attempt(player, key)
    await stack.games.open_for(game.id, player)
    line = solve(stack.games.live.get(game.id).state).line
    for n, (intent, gap) in enumerate(zip(line, gaps, strict=True)):
        clock.now += gap
        assert (await stack.games.submit(player, game.id, f"m{n}", n, intent)).answer.accepted
    await stack.validate()
    return game.id


async def stream_types(stack: Stack, key: str, player: str) -> list[str]:
    return [e.type for e in await stack.tournaments.store.read(f"attempt-{key}-{player}")]


async def test_a_scripted_win_is_ranked_marked_review_and_cleared_once(stack, clock):
    key, (bot, person) = await wish_day(stack, clock, 0)
    game_id = await play(stack, key, clock, bot, SCRIPT)
    await play(stack, key, clock, person, PERSON)
    rows = {row.entry.player: row for row in (await stack.tournaments.board.page(key)).rows}
    assert rows[bot].rank == 1  # 16 moves, the shorter time: its place is kept while under review
    assert rows[bot].entry.review and rows[bot].entry.review_reasons == ("fast_first_move", "even_tempo", "fast_total")
    assert not rows[person].entry.review and not rows[person].entry.flagged
    assert await stream_types(stack, key, bot) == ["attempt_started", "attempt_finished", "entry_verified",
                                                  "review_flagged"]
    desk = ReviewDesk(stack.tournaments)
    [listed] = await desk.under_review(key)
    assert listed.entry.player == bot and listed.rank == 1

    wrong = await desk.clear(key, person)
    assert wrong.code == NOT_UNDER_REVIEW and "never flagged" in wrong.message
    assert (await desk.clear(key, "nobody-by-that-name")).code == NO_SUCH_PLAYER
    cleared = await desk.clear(key, bot, "checked the replay")
    assert not cleared.review and cleared.flagged  # the mark goes; the record of the flag stays
    assert (await stack.tournaments.board.standing(key, bot)).rank == 1
    assert await desk.under_review(key) == []
    assert (await stream_types(stack, key, bot))[-1] == "review_cleared"
    again = await desk.clear(key, bot)
    assert again.code == NOT_UNDER_REVIEW and "cleared" in again.message

    # The verdict heard again (a redelivery) never brings the mark back: the stream says it was cleared.
    stored = await stack.validators.queue.verdict_of(game_id)
    created = stack.games.live.get(game_id).created
    await stack.tournaments.verdict(created, stored.verdict)
    assert not (await stack.tournaments.board.entry(key, bot)).review


async def test_an_operator_rejects_a_scripted_win_off_the_board(stack, clock):
    key, (bot, person) = await wish_day(stack, clock, 1)
    await play(stack, key, clock, bot, SCRIPT)
    await play(stack, key, clock, person, PERSON)
    desk = ReviewDesk(stack.tournaments)
    name = (await stack.tournaments.accounts.by_player(bot)).name
    entry = await desk.reject(key, name.upper(), "same timings as three other accounts")  # by name, any case
    assert entry.player == bot and not entry.review
    page = await stack.tournaments.board.page(key)
    assert [(row.rank, row.entry.player) for row in page.rows] == [(1, person)]
    assert (await stack.tournaments.board.counts(key)).rejected == 1
    [rejected] = [from_stored(e) for e in await stack.tournaments.store.read(f"attempt-{key}-{bot}")
                  if e.type == "entry_rejected"]
    assert rejected.reason == "review_rejected: same timings as three other accounts"
    assert (await desk.clear(key, bot)).code == NOT_UNDER_REVIEW
