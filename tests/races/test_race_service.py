"""A whole race through the service on real Redis: lobby, countdown, start signal, play, the end,
the validator's verdicts, final results, ratings and a rematch; and the lobby's cheats refused."""

from __future__ import annotations

import msgspec
import pytest

from engine import intents as it
from services.games import codec
from services.games.entries import GameLinks, GameShown
from services.store.envelope import ENTRY_FIELD, decode_event, encode_event, log_key
from services.games.model import NOT_PUBLIC_YET, NOT_STARTED
from services.races.commands import check_settings
from services.races.deal import choose_deal
from services.races.ratings import board_of, fresh, rated_race_of, rebuild_ratings
from tests.races.conftest import players

pytestmark = pytest.mark.integration

WISH = check_settings("wish", {"mode": "standard"}, 4, 60_000)


async def started_race(stack, racers):
    host, *others = racers
    view = await stack.races.create(host, WISH)
    for player in others:
        joined = await stack.races.join(player, await stack.races.race_of_code(view.code.lower()))
        assert joined.status == "lobby"
    for player in racers:
        view = await stack.races.ready(player, view.race_id)
    assert view.status == "countdown" and all(r.game_id is None for r in view.racers)
    state = await stack.races.load(view.race_id)
    assert set(state.games) == set(racers)  # dealt during the countdown, but no id has left the server
    for player, game_id in state.games.items():
        early = await stack.games.submit(player, game_id, "early", 0, it.ResignIntent())
        assert early.answer.code == NOT_STARTED  # no move before the start signal
    stack.clock.now = view.start_at_ms + 120  # the timer fires a little late
    state = await stack.races.advance(view.race_id)
    assert state.status == "started" and state.started_at_ms == view.start_at_ms
    for game_id in state.games.values():
        assert (await stack.games.refresh(game_id)).shown_at_ms == view.start_at_ms  # every clock from the signal
    return state


async def test_a_race_from_lobby_to_final_results_ratings_and_a_rematch(stack, private_redis_client):
    racers = players(3)
    a, b, c = racers
    state = await started_race(stack, racers)
    race_id, games = state.race_id, state.games
    assert (await stack.games.open_for(games[b], a)).code == NOT_PUBLIC_YET  # a rival's cards: refused
    await stack.win(a, games[a])
    await stack.games.submit(b, games[b], "gives-up", 0, it.ResignIntent())
    view = await stack.races.view(race_id)
    assert [r.result for r in view.racers] == ["won", "abandoned", None] and view.seed is None
    stack.clock.now = view.deadline_ms + 5
    view = await stack.races.view(race_id)  # c still plays at the limit: the race ends, c's game is resigned
    assert view.status == "ended" and view.end_reason == "time_limit" and view.seed is not None
    assert (await stack.games.refresh(games[c])).state.status == "abandoned"
    assert [(s.player, s.place, s.result) for s in view.standings] == [(a, 1, "won"), (b, 2, "abandoned"), (c, 3, "timed_out")]
    assert not view.final  # a's win waits for the replay validator
    await stack.drain()
    view = await stack.races.view(race_id)
    assert view.final and view.racers[0].verified is True
    board = board_of("wish", {"mode": "standard"})
    rows = await stack.races.ratings.leaderboard(board, limit=10_000)
    mine = {row.player: row for row in rows if row.player in racers}
    assert mine[a].rating > mine[b].rating > mine[c].rating and all(row.provisional for row in mine.values())
    assert mine[a].races == 1 and mine[a].sigma < 25 / 3
    # What the race changed, per racer in the order of the standings (the results page shows it).
    changed = await stack.races.ratings.race_ratings(rated_race_of(await stack.races.load(race_id)))
    assert changed.rated and [ch.player for ch in changed.changes] == [a, b, c]
    assert all(ch.first_race and ch.before == fresh().ordinal and ch.after == mine[ch.player].rating for ch in changed.changes)
    assert changed.changes[0].after > changed.changes[0].before > changed.changes[2].after
    # Ratings are a projection of the race logs: rebuilt from nothing, the same numbers.
    before = {p: (r.mu, r.sigma, r.races) for p, r in mine.items()}
    await rebuild_ratings(stack.races.store, stack.races.ratings)
    after = {r.player: (r.mu, r.sigma, r.races) for r in await stack.races.ratings.leaderboard(board, 10_000) if r.player in racers}
    assert after == before
    assert await stack.races.ratings.race_ratings(rated_race_of(await stack.races.load(race_id))) == changed
    # Secrets: no frame sent during the race carried the seed (it went out only with the end).
    seed = str((await stack.races.load(race_id)).created.sealed.seed)
    ended_at = next(i for i, f in enumerate(stack.feed.frames) if b'"status":"ended"' in f)
    assert not any(seed.encode() in frame for frame in stack.feed.frames[:ended_at])
    # A rematch: the same seats, a new deal, made once whoever clicks.
    again = await stack.races.rematch(b, race_id)
    assert again.rematch_of == race_id and [r.player for r in again.racers] == [b, a, c] and again.status == "lobby"
    assert (await stack.races.rematch(c, race_id)).race_id == again.race_id
    assert (await stack.races.load(again.race_id)).created.sealed.seed != int(seed)


async def test_one_race_at_a_time(stack):
    a, b = players(2)
    first = await stack.races.create(a, WISH)
    refused = await stack.races.create(a, WISH)
    assert refused.code == "in_another_race"
    other = await stack.races.create(b, WISH)
    assert (await stack.races.join(a, other.race_id)).code == "in_another_race"
    await stack.races.leave(a, first.race_id)  # leaving gives the seat back
    assert (await stack.races.join(a, other.race_id)).status == "lobby"


async def test_joining_a_full_or_started_race_and_a_ninth_racer_are_refused(stack):
    eight = players(9)
    view = await stack.races.create(eight[0], check_settings("wish", None, 8, 60_000))
    for player in eight[1:8]:
        assert (await stack.races.join(player, view.race_id)).status == "lobby"
    refused = await stack.races.join(eight[8], view.race_id)
    assert refused.code == "race_full"
    assert await stack.races.store.seat_of(eight[8]) is None  # the refusal took no seat
    assert (await stack.races.start(eight[0], view.race_id)).status == "countdown"
    late = players(1)[0]
    assert (await stack.races.join(late, view.race_id)).code == "race_started"


async def test_a_forged_result_is_rejected_and_ranks_after_every_verified_win(stack, private_redis_client):
    a, b = players(2)
    state = await started_race(stack, [a, b])
    await stack.win(a, state.games[a])
    await stack.win(b, state.games[b])  # b finishes later: second, until b forges a faster time
    entries = [decode_event(f[ENTRY_FIELD]) for _, f in await private_redis_client.xrange(log_key(state.games[b]))]
    shown = codec.decode(entries[1])
    forged = codec.new_entry(GameShown(shown.at_ms + 30_000, shown.viewer_id))  # "I started 30 s later"
    entries[1] = msgspec.structs.replace(entries[1], data=forged.data)
    await private_redis_client.delete(log_key(state.games[b]))
    for stored in entries:
        await private_redis_client.xadd(log_key(state.games[b]), {ENTRY_FIELD: encode_event(stored)}, id=f"0-{stored.version}")
    # A game of the same racer the race did not deal is not its result, whatever it says.
    easy = choose_deal("wish", {"mode": "standard"}).seed
    stray = await stack.games.create_game(b, "wish", None, easy, kind="race", links=GameLinks(race=state.race_id))
    await stack.games.show_at(stray.id, stack.clock.now, "forger")
    await stack.win(b, stray.id)
    await stack.drain()
    view = await stack.races.view(state.race_id)
    assert view.final
    assert [(s.player, s.place, s.result) for s in view.standings] == [(a, 1, "won"), (b, 2, "rejected")]
    assert (await stack.queue.verdict_of(state.games[b])).verdict.reason in ("wrong_time", "time_backwards")
    assert (await stack.queue.verdict_of(stray.id)).verdict.reason == "wrong_seed"  # not the race's deal


async def test_a_validator_without_a_race_service_checks_a_race_game_against_the_race_seed(stack, private_redis_client):
    from services.races.wiring import race_seeds

    a, b = players(2)
    state = await started_race(stack, [a, b])
    seeds = race_seeds(stack.races.store)
    created = (await stack.games.refresh(state.games[a])).created
    assert await seeds(created) == state.created.sealed.seed
    stray = msgspec.structs.replace(created, links=GameLinks(race="no-such-race"))
    with pytest.raises(LookupError):
        await seeds(stray)
    assert await seeds(msgspec.structs.replace(created, kind="casual", links=GameLinks())) is None
