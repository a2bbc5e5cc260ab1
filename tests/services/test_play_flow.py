"""The flow of play on a real Redis: the clock stops at a loss, a lost game stays lost, practice undo,
Finish as ordinary logged moves, "Play this deal again" and its refusal, casual deal numbers."""

from __future__ import annotations

import secrets

import pytest

import engine
from engine import intents as it
from services.games.again import play_again
from services.games.entries import GameLinks
from services.games.model import NOT_PUBLIC_YET, NOT_YOUR_GAME, Refusal, meta_key
from services.games.record import read_log
from services.games.service import CASUAL_DEALS, GameService
from services.store import EventStore
from services.validator.replay_file import build_replay, verify_replay

pytestmark = pytest.mark.integration

ALICE, BOB = f"g_alice_{secrets.token_hex(4)}", f"g_bob_{secrets.token_hex(4)}"  # games of this run only
WISH = {"mode": "standard"}
CHALLENGE = "2026-12-01/wish/mode=standard"


def losing_line(seed_range=range(1, 500)) -> tuple[int, list]:
    """A Wish deal and a line of first-listed pairs that ends lost after two moves or more."""
    for seed in seed_range:
        state = engine.initial_state("wish", WISH, seed)
        line = []
        while state.status == engine.IN_PROGRESS:
            intent = engine.legal_moves(state)[0]
            state, _ = engine.play(intent, state)
            line.append(intent)
        if state.status == engine.LOST and len(line) >= 2:
            return seed, line
    raise LookupError("no losing line")


async def play(service: GameService, game_id: str, intents, clock, step_ms: int = 1000, player: str = ALICE):
    for intent in intents:
        version = service.live.get(game_id).version
        clock.now += step_ms
        result = await service.submit(player, game_id, f"m{version}-{clock.now}", version, intent)
        assert result.answer.accepted, result.answer
    return result


async def test_the_clock_stops_at_a_loss_and_a_rebuild_reads_the_same_time(service, clock, redis):
    seed, line = losing_line()
    game = await service.create_game(ALICE, "wish", WISH, seed)
    await play(service, game.id, line, clock)
    stopped = (len(line) - 1) * 1000  # the first move is the first look: the clock starts there
    clock.now += 600_000  # ten minutes later, "My games" still says the time of the loss
    summary = next(g for g in await service.list_games(ALICE) if g.id == game.id)  # as "My games" lists it
    assert (summary.status, summary.elapsed_ms) == ("lost", stopped)
    assert summary.finished_at_ms == clock.now - 600_000
    cold = GameService(service.store, redis, clock=clock)  # another process, from the log alone
    assert (await cold.summary(game.id)).elapsed_ms == stopped
    assert int(await redis.hget(meta_key(game.id), "finished_at_ms")) == summary.finished_at_ms


async def test_an_undo_out_of_a_loss_runs_the_clock_again(service, clock):
    seed, line = losing_line()
    game = await service.create_game(ALICE, "wish", WISH, seed)
    await play(service, game.id, line, clock)
    clock.now += 5000
    await play(service, game.id, [it.UndoIntent()], clock)
    summary = await service.summary(game.id)
    assert summary.status == "in_progress" and summary.finished_at_ms is None
    assert summary.elapsed_ms == len(line) * 1000 + 5000, "the time spent lost is not free thinking time"


async def test_a_deal_lost_as_dealt_shows_no_time_at_all(service, clock):
    seed = next(s for s in range(1, 3000) if engine.initial_state("wish", WISH, s).status == engine.LOST)
    game = await service.create_game(ALICE, "wish", WISH, seed)
    await service.open_for(game.id, ALICE)
    clock.now += 60_000
    summary = await service.summary(game.id)
    assert (summary.status, summary.elapsed_ms) == ("lost", 0)


async def test_a_lost_game_stays_lost_resign_is_refused_with_game_over(service, clock):
    seed, line = losing_line()
    game = await service.create_game(ALICE, "wish", WISH, seed, kind="daily", links=GameLinks(challenge=CHALLENGE))
    await play(service, game.id, line, clock)
    version = service.live.get(game.id).version
    refused = await service.submit(ALICE, game.id, "resign", version, it.ResignIntent())
    assert not refused.answer.accepted and refused.answer.code == "game_over"
    assert "stays lost" in refused.answer.message
    summary = await service.summary(game.id)
    assert (summary.status, summary.version) == ("lost", version)
    resign = [a for a in engine.player_view(service.live.get(game.id).state).actions if a.type == "resign"][0]
    assert not resign.available and resign.code == "game_over", "the button's reason is the same refusal"


async def test_practice_undo_in_a_casual_wish_marks_it_assisted_and_replays(service, clock, redis):
    seed, line = losing_line()
    game = await service.create_game(ALICE, "wish", WISH)  # casual
    assert not game.assisted and game.practice_undo
    game = await service.create_game(ALICE, "wish", WISH, seed)  # practice on a chosen deal
    await play(service, game.id, line[:1] + [it.UndoIntent()] + line, clock)
    summary = await service.summary(game.id)
    assert summary.assisted and summary.moves == len(line) and summary.status == "lost"
    assert await redis.hget(meta_key(game.id), "assisted") == b"1"
    entries = await service.store.read(game.id)
    assert [e.type for e in entries].count("move_undone") == 1, "the undo is an event of its own"
    replay = build_replay(game.id, entries)
    assert replay.result.status == "lost" and verify_replay(replay).verdict.reason == "not_won", "replayed to its end"
    cold = GameService(service.store, redis, clock=clock)
    assert (await cold.summary(game.id)).assisted


async def test_a_daily_wish_has_no_undo(service, clock):
    seed, line = losing_line()
    game = await service.create_game(ALICE, "wish", WISH, seed, kind="daily", links=GameLinks(challenge=CHALLENGE))
    await play(service, game.id, line[:1], clock)
    refused = await service.submit(ALICE, game.id, "undo", 1, it.UndoIntent())
    assert not refused.answer.accepted and refused.answer.code == "not_supported"
    assert "undo" not in [a.type for a in engine.player_view(service.live.get(game.id).state).actions]


async def test_finish_logs_every_move_of_the_line_and_the_validator_replays_it(service, clock):
    variant = {"mode": "open"}
    seed, prefix = next(
        (s, line) for s in range(1, 400) for line in [_line_to_finish("wish", variant, s)] if line is not None
    )
    game = await service.create_game(ALICE, "wish", variant, seed)
    await play(service, game.id, prefix, clock)
    before = service.live.get(game.id).version
    result = await play(service, game.id, [it.FinishIntent()], clock)
    assert result.snapshot.view.status == "won"
    entries = await service.store.read(game.id)
    moves = [e for e in entries if e.type == "pair_removed"]
    assert result.answer.version == len(moves) and len(moves) - len(prefix) >= 2, "one entry per move"
    assert result.answer.version > before + 1
    log = read_log(entries)
    assert engine.replay(log.created.game, log.created.variant, seed, log.engine_events()).ok
    assert verify_replay(build_replay(game.id, entries)).verdict.verified


def _line_to_finish(game: str, variant: dict, seed: int) -> list | None:
    state = engine.initial_state(game, variant, seed)
    line = []
    while state.status == engine.IN_PROGRESS:
        finish = next(a for a in engine.actions(state) if a.type == "finish")
        if finish.available:
            return line if len(engine.decide(it.FinishIntent(), state)) >= 2 else None
        intent = engine.legal_moves(state)[0]
        state, _ = engine.play(intent, state)
        line.append(intent)
    return None


async def test_play_again_deals_the_same_deal_as_practice(service, clock):
    seed, line = losing_line()
    game = await service.create_game(ALICE, "wish", WISH, seed)
    await play(service, game.id, line, clock)
    again = await play_again(service, ALICE, game.id)
    assert not isinstance(again, Refusal), again
    assert (again.kind, again.chosen_deal, again.deal_number, again.status) == ("practice", True, seed, "in_progress")
    assert service.live.get(again.id).created.seed == seed
    assert (await play_again(service, BOB, game.id)).code == NOT_YOUR_GAME
    assert await play_again(service, ALICE, "nosuchgame") is None


async def test_play_again_is_refused_for_a_daily_before_its_reveal(service, clock):
    seed, line = losing_line()
    daily = await service.create_game(ALICE, "wish", WISH, seed, kind="daily", links=GameLinks(challenge=CHALLENGE))
    await play(service, daily.id, line, clock)  # over, but the challenge is not
    games = len(await service.list_games(ALICE))
    refused = await play_again(service, ALICE, daily.id)
    assert isinstance(refused, Refusal) and refused.code == NOT_PUBLIC_YET
    assert daily.deal_number is None and (await service.summary(daily.id)).deal_number is None
    assert len(await service.list_games(ALICE)) == games, "nothing was created"
    clock.now = 1_900_000_000_000  # long after the challenge's reveal: its deal may be played again
    again = await play_again(service, ALICE, daily.id)
    assert not isinstance(again, Refusal) and again.kind == "practice" and again.challenge == CHALLENGE


async def test_casual_deals_have_short_numbers_shown_at_once(service):
    for _ in range(5):  # each new casual game abandons the one before: look at each as it is made
        game = await service.create_game(ALICE, "wish", None)
        live = service.live.get(game.id)
        seed = live.created.seed
        assert 1 <= seed <= CASUAL_DEALS and game.deal_number == seed
        # The seed itself only once play has stopped: about one Wish deal in 200 is lost at the deal.
        assert game.seed == (seed if live.state.status != engine.IN_PROGRESS else None)
        assert service.snapshot_of(live).deal_number == seed


async def test_a_casual_deal_lost_at_the_deal_shows_its_seed_at_once(service, monkeypatch):
    from services.games import service as service_module

    lost_at_the_deal = 992_917_510  # a Wish deal with no pair to take: over before any move
    monkeypatch.setattr(service_module.secrets, "randbelow", lambda _: lost_at_the_deal - 1)
    game = await service.create_game(ALICE, "wish", None)
    assert service.live.get(game.id).state.status == engine.LOST
    assert game.deal_number == lost_at_the_deal and game.seed == lost_at_the_deal


class Ends:
    def __init__(self) -> None:
        self.heard: list[str] = []

    async def opened(self, created, game_id, at_ms) -> None:
        return None

    async def ended(self, created, game_id, status, moves, time_ms, at_ms) -> None:
        self.heard.append(status)


async def test_a_casual_loss_is_told_as_an_end_and_the_next_end_after_an_undo_too(redis, clock):
    ends = Ends()
    service = GameService(EventStore(redis, clock=clock), redis, results=ends)
    seed, line = losing_line()
    player = f"g_ends_{secrets.token_hex(4)}"
    game = await service.create_game(player, "wish", WISH, seed)
    await play(service, game.id, line, clock, player=player)
    assert ends.heard == ["lost"], "retention and the validator hear a casual loss (an undo could reopen it)"
    await play(service, game.id, [it.UndoIntent(), it.ResignIntent()], clock, player=player)
    assert ends.heard == ["lost", "abandoned"]
