"""The game service on a real Redis: create, move, retry, stale versions, rebuild, views, time."""

from __future__ import annotations

import pytest

import engine
from engine import intents as it
from services.games.model import meta_key
from services.games.service import NOT_YOUR_GAME, STALE_VERSION, GameService
from services.store import EventStore
from tests.support.play import IN_PLAY_WISH
from tests.support.round_trips import RoundTrips
from tests.strategies import forward_moves

pytestmark = pytest.mark.integration

ALICE, BOB = "g_alice", "g_bob"


async def new_wish(service: GameService, seed: int = 7, player: str = ALICE):
    summary = await service.create_game(player, "wish", {"mode": "standard"}, seed)
    assert not isinstance(summary, engine.RuleError), summary
    return summary


def first_legal(service: GameService, game_id: str):
    return service.live.get(game_id).state and engine.legal_moves(service.live.get(game_id).state)[0]


async def test_create_hides_seed_and_starts_at_version_zero(service):
    summary = await new_wish(service)
    assert (summary.version, summary.moves, summary.status, summary.seed) == (0, 0, "in_progress", None)
    assert summary.variant == {"mode": "standard"}
    entries = await service.store.read(summary.id)
    assert [entry.type for entry in entries] == ["game_created"]


async def test_bad_game_or_variant_is_a_rule_error_and_writes_nothing(service, redis):
    before = await redis.dbsize()
    assert (await service.create_game(ALICE, "chess", None)).code == "unknown_game"
    assert (await service.create_game(ALICE, "wish", {"mode": "blind"})).code == "bad_variant"
    assert await redis.dbsize() == before


async def test_server_chosen_seed_deals_differently(service):
    a = await service.create_game(ALICE, "wish", None)
    b = await service.create_game(BOB, "wish", None)
    assert service.live.get(a.id).created.seed != service.live.get(b.id).created.seed


async def test_accepted_move_is_stored_once_and_retry_returns_first_answer(service):
    game = await new_wish(service)
    move = first_legal(service, game.id)
    first = await service.submit(ALICE, game.id, "m1", 0, move)
    assert first.answer.accepted and first.answer.version == 1
    again = await service.submit(ALICE, game.id, "m1", 0, move)
    assert again.answer == first.answer
    assert [e.type for e in await service.store.read(game.id)] == ["game_created", "game_shown", "pair_removed"]
    # A second process (cold cache) hears the same answer from the store's move record.
    other = GameService(service.store, service.redis)
    cold = await other.submit(ALICE, game.id, "m1", 0, move)
    assert cold.answer.accepted and cold.answer.version == 1
    assert len(await service.store.read(game.id)) == 3


async def test_stale_version_is_rejected_and_changes_nothing(service):
    game = await new_wish(service)
    await service.submit(ALICE, game.id, "m1", 0, first_legal(service, game.id))
    before = service.live.get(game.id).state
    stale = await service.submit(ALICE, game.id, "m2", 0, first_legal(service, game.id))
    assert not stale.answer.accepted and stale.answer.code == STALE_VERSION and stale.answer.version == 1
    assert service.live.get(game.id).state == before
    assert len(await service.store.read(game.id)) == 3


async def test_illegal_move_and_stranger_are_rejected_without_writing(service):
    game = await new_wish(service)
    illegal = await service.submit(ALICE, game.id, "m1", 0, it.PairIntent(0, 0))
    assert not illegal.answer.accepted and illegal.answer.code == "illegal_move"
    stranger = await service.submit(BOB, game.id, "m2", 0, first_legal(service, game.id))
    assert stranger.answer.code == NOT_YOUR_GAME
    assert len(await service.store.read(game.id)) == 1


async def test_two_processes_one_game_conflict_then_rebuild(redis):
    store = EventStore(redis)
    a, b = GameService(store, redis), GameService(store, redis)
    game = await new_wish(a)
    await b.load(game.id)  # b caches version 0
    move = engine.legal_moves(a.live.get(game.id).state)[0]
    assert (await a.submit(ALICE, game.id, "a1", 0, move)).answer.accepted
    # b believes version 0: the client also says 0, so b appends and the store refuses.
    lost = await b.submit(ALICE, game.id, "b1", 0, move)
    assert lost.answer.code == STALE_VERSION and lost.answer.version == 1
    assert b.live.get(game.id).version == 1  # b rebuilt from the log
    move2 = engine.legal_moves(b.live.get(game.id).state)[0]
    assert (await b.submit(ALICE, game.id, "b2", 1, move2)).answer.accepted


async def test_rebuild_with_verify_matches_the_cached_state(service):
    game = await new_wish(service, seed=11)
    for n in range(6):
        state = service.live.get(game.id).state
        moves = forward_moves(state)
        if not moves:
            break
        assert (await service.submit(ALICE, game.id, f"m{n}", n, moves[-1])).answer.accepted
    assert service.live.get(game.id).state.moves == 6  # resign, listed last, is never the move taken
    cached = service.live.get(game.id).state
    rebuilt = await service.rebuild(game.id, verify=True)
    assert rebuilt.state == cached


async def test_view_hides_face_down_cards_and_seed_until_the_end(service, clock):
    game = await new_wish(service)
    snapshot, is_player = await service.open_for(game.id, ALICE)
    assert is_player and snapshot.seed is None and snapshot.deal is None
    shown = {card.id for pile in snapshot.view.piles for card in pile.cards}
    assert shown and not shown & engine.hidden_cards(service.live.get(game.id).state)
    clock.now += 5_000
    result = await service.submit(ALICE, game.id, "r", 0, it.ResignIntent())
    assert result.snapshot.seed == 7
    assert result.snapshot.deal == engine.revealed_view("wish", {"mode": "standard"}, 7)  # every card face up
    assert result.snapshot.elapsed_ms == 5_000
    summary = await service.summary(game.id)
    assert summary.status == "abandoned" and summary.seed == 7


async def test_time_runs_from_first_look_to_the_winning_move(service, clock):
    game = await service.create_game(ALICE, "wish", {"mode": "open"}, 3)
    clock.now += 60_000  # created long before the player looks: not counted
    await service.open_for(game.id, ALICE)
    clock.now += 500
    await service.open_for(game.id, BOB)  # a later look by a spectator moves nothing
    clock.now += 734
    snapshot = await service.snapshot(game.id)
    assert snapshot.elapsed_ms == 1_234
    assert (await service.rebuild(game.id)).shown_at_ms == clock.now - 1_234


async def test_a_spectator_looking_first_starts_the_clock_and_the_log_says_who(service, clock):
    """A player could open their own game from a second identity and study the deal off the clock."""
    game = await service.create_game(ALICE, "wish", {"mode": "open"}, 3)
    clock.now += 10_000
    snapshot, is_player = await service.open_for(game.id, "g_second_identity")
    assert not is_player and snapshot.elapsed_ms == 0
    clock.now += 90_000
    await service.open_for(game.id, ALICE)
    assert (await service.snapshot(game.id)).elapsed_ms == 90_000
    entries = await service.store.read(game.id)
    assert [e.type for e in entries] == ["game_created", "game_shown"]  # one first look, never two
    cold = await GameService(service.store, service.redis).rebuild(game.id)
    assert cold.shown_at_ms == clock.now - 90_000


async def test_a_move_before_any_look_logs_the_look_first(service, clock):
    game = await new_wish(service)
    assert (await service.submit(ALICE, game.id, "m0", 0, it.PairIntent(0, 0))).answer.code == "illegal_move"
    assert [e.type for e in await service.store.read(game.id)] == ["game_created"]  # a refused move writes nothing
    assert (await service.submit(ALICE, game.id, "m1", 0, first_legal(service, game.id))).answer.accepted
    assert [e.type for e in await service.store.read(game.id)] == ["game_created", "game_shown", "pair_removed"]


async def test_a_first_move_and_its_look_are_one_append_and_a_conflict_writes_neither(service, clock):
    game = await new_wish(service)
    appends = []
    real_append, real_store_append = service.appender.append, service.store.append

    async def counted(stream_id, expected, entries, *args, **kwargs):
        appends.append([entry.type for entry in entries])
        return await real_append(stream_id, expected, entries, *args, **kwargs)

    async def not_alone(*args, **kwargs):
        raise AssertionError("the look was appended on its own")

    service.appender.append, service.store.append = counted, not_alone
    clock.now += 500
    assert (await service.submit(ALICE, game.id, "m1", 0, first_legal(service, game.id))).answer.accepted
    assert appends == [["game_shown", "pair_removed"]]
    live = service.live.get(game.id)
    assert live.shown_at_ms == clock.now and live.stream_version == 3
    assert await service.redis.hget(meta_key(game.id), "shown_at_ms") == str(clock.now).encode()
    service.store.append = real_store_append
    # Another process looks first: this one's move (look and all) conflicts, writes nothing, answers stale.
    other = await new_wish(service, seed=9)
    await GameService(service.store, service.redis).open_for(other.id, BOB)
    assert service.live.get(other.id).shown_at_ms is None  # (this process has not seen that look)
    answer = (await service.submit(ALICE, other.id, "m2", 0, first_legal(service, other.id))).answer
    assert answer.code == "stale_version"
    assert [e.type for e in await service.store.read(other.id)] == ["game_created", "game_shown"]
    # A first move that ends the game writes its look's time with the status.
    third = await new_wish(service, seed=10)
    assert (await service.submit(ALICE, third.id, "m3", 0, it.ResignIntent())).answer.accepted
    meta = await service.redis.hgetall(meta_key(third.id))
    assert meta[b"status"] == b"abandoned" and meta[b"shown_at_ms"] == str(clock.now).encode()


async def test_new_game_abandons_the_unfinished_one_and_lists_newest_first(service, clock):
    player = "g_lister"
    first = await new_wish(service, player=player)
    clock.now += 1
    second = await new_wish(service, seed=8, player=player)
    listed = await service.list_games(player)
    assert [s.id for s in listed] == [second.id, first.id]
    assert listed[1].status == "abandoned" and listed[0].status == "in_progress"


async def test_a_new_game_reads_the_players_history_in_one_round_trip(redis, clock):
    """The check for an unfinished casual game to abandon reads the meta of the player's recent games
    together: a new game costs as many round trips after three finished games as after fifteen."""
    trips = RoundTrips(redis)
    service = GameService(EventStore(redis, clock=clock), trips)
    player, costs = "g_history", {}
    for made in range(1, 17):
        clock.now += 1
        before = trips.count
        game = await new_wish(service, seed=100 + made, player=player)
        costs[made] = trips.count - before
        await service.submit(player, game.id, f"resign-{made}", 0, it.ResignIntent())  # finished: nothing to abandon
    assert costs[4] == costs[16], costs
    assert {s.status for s in await service.list_games(player)} == {"abandoned"}


async def test_games_this_process_saw_finished_need_no_meta_read(redis, clock):
    """Won or abandoned is for good: with no index of games in play to go by (lost, here), a new game reads
    no meta hash for the player's games this process holds finished; one it does not hold (another
    process's, or after a restart) is read."""
    from services.store.keys import player_in_play_key

    trips = RoundTrips(redis)
    service = GameService(EventStore(redis, clock=clock), trips)
    player = "g_finished_here"
    game = await new_wish(service, seed=201, player=player)
    await service.submit(player, game.id, "resign-1", 0, it.ResignIntent())
    await redis.delete(player_in_play_key(player))
    before = trips.count
    second = await new_wish(service, seed=202, player=player)
    held = trips.count - before
    await service.submit(player, second.id, "resign-2", 0, it.ResignIntent())
    await redis.delete(player_in_play_key(player))
    elsewhere = GameService(EventStore(redis, clock=clock), trips)  # a fresh process: nothing held
    before = trips.count
    await new_wish(elsewhere, seed=203, player=player)
    # The same creation, and one round trip more: the pipeline of the two finished games' meta hashes.
    assert trips.count - before == held + 1


async def test_unknown_or_malformed_game_id(service):
    assert await service.summary("0123456789abcdef") is None
    assert await service.summary("{bad}") is None
    assert (await service.submit(ALICE, "nope", "m", 0, it.ResignIntent())).answer.code == "no_such_game"


async def test_service_on_a_redis_cluster(redis_cluster):
    from services.redis.client import open_redis

    client = await open_redis(redis_cluster.url)
    try:
        service = GameService(EventStore(client), client)
        game = await new_wish(service, player="g_cluster")
        move = first_legal(service, game.id)
        assert (await service.submit("g_cluster", game.id, "c1", 0, move)).answer.accepted
        cold = GameService(EventStore(client), client)
        assert (await cold.summary(game.id)).version == 1
        assert [s.id for s in await cold.list_games("g_cluster")] == [game.id]
        # A second game reads the first's meta (another slot) in one pipeline, and abandons it.
        second = await new_wish(cold, seed=8, player="g_cluster")
        assert [s.status for s in await cold.list_games("g_cluster")] == ["in_progress", "abandoned"]
        assert (await service.summary(second.id)).status == "in_progress"
    finally:
        await client.aclose()


async def test_new_game_through_another_process_abandons_the_unfinished_one(redis):
    """The process that starts the new game may hold an old copy of the unfinished one."""
    store = EventStore(redis)
    a, b = GameService(store, redis), GameService(store, redis)
    player = "g_two_processes"
    first = await new_wish(a, player=player)
    await b.load(first.id)  # b caches version 0
    assert (await a.submit(player, first.id, "a1", 0, first_legal(a, first.id))).answer.accepted
    await new_wish(b, seed=8, player=player)
    assert (await a.summary(first.id)).status == "abandoned"


async def test_a_client_ahead_of_this_process_cache_is_not_called_stale(redis):
    """The client saw a move made through another process; this process's copy is older, not the client."""
    store = EventStore(redis)
    a, b = GameService(store, redis), GameService(store, redis)
    game = await new_wish(a, player="g_ahead")
    await b.load(game.id)  # b caches version 0
    assert (await a.submit("g_ahead", game.id, "a1", 0, first_legal(a, game.id))).answer.accepted
    move = first_legal(a, game.id)
    answer = (await b.submit("g_ahead", game.id, "b1", 1, move)).answer
    assert answer.accepted and answer.version == 2


async def _projections(redis, game_ids: list[str], players: list[str]) -> tuple[dict, dict]:
    from services.store.keys import meta_key, player_games_key, player_in_play_key

    metas = {g: await redis.hgetall(meta_key(g)) for g in game_ids}
    indexes = {p: await redis.zrange(player_games_key(p), 0, -1, withscores=True) for p in players}
    in_play = {p: await redis.zrange(player_in_play_key(p), 0, -1, withscores=True) for p in players}
    return metas, indexes, in_play


async def test_projections_rebuilt_from_the_logs_alone_equal_what_the_service_wrote(service, redis, clock):
    from services.games.projections import rebuild_projections
    from services.store.keys import meta_key, player_games_key, player_in_play_key

    players = ["g_proj_a", "g_proj_b"]
    ids = []
    for n, player in enumerate(players * 2):
        clock.now += 10
        game = await service.create_game(player, "wish", {"mode": "open"}, 20 + n)
        ids.append(game.id)
    await service.open_for(ids[2], players[0])  # shown, in progress
    clock.now += 70
    state = service.live.get(ids[3]).state
    while engine.legal_moves(state):  # played to its end
        version = service.live.get(ids[3]).version
        assert (await service.submit(players[1], ids[3], f"p{version}", version, engine.legal_moves(state)[0])).answer.accepted
        clock.now += 3
        state = service.live.get(ids[3]).state
    before = await _projections(redis, ids, players)
    assert before[0][ids[0]][b"status"] == b"abandoned" and before[0][ids[3]][b"status"] in (b"won", b"lost")
    assert b"finished_at_ms" in before[0][ids[3]] and b"shown_at_ms" in before[0][ids[2]]
    in_play = (ids[2].encode(), float(service.live.get(ids[2]).created.created_at_ms))
    assert before[2][players[0]] == [(b"kept", 0.0), in_play]
    assert before[2][players[1]] == [(b"kept", 0.0)]  # one abandoned, one played to its end
    await redis.delete(*[meta_key(g) for g in ids], *[player_games_key(p) for p in players],
                       *[player_in_play_key(p) for p in players])
    rebuilt = await rebuild_projections(service.store, redis)
    assert rebuilt.games >= len(ids)
    assert await _projections(redis, ids, players) == before


async def test_a_casual_game_never_abandons_a_daily_attempt_or_a_race_game(service, clock):
    from services.games.entries import GameLinks

    player = "g_kinds"
    daily = await service.create_game(player, "wish", None, IN_PLAY_WISH, kind="daily",
                                      links=GameLinks(challenge="2026-12-01/wish"))
    race = await service.create_game(player, "wish", None, IN_PLAY_WISH, kind="race", links=GameLinks(race="r_1"))
    clock.now += 1
    casual = await service.create_game(player, "wish", None, IN_PLAY_WISH, kind="casual")
    clock.now += 1
    await service.create_game(player, "wish", None)
    statuses = {g: (await service.summary(g)).status for g in (daily.id, race.id, casual.id)}
    assert statuses == {daily.id: "in_progress", race.id: "in_progress", casual.id: "abandoned"}
    assert (await service.summary(daily.id)).kind == "daily" and casual.kind == "casual"
