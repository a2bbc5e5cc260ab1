"""A race game: dealt before the start, opened and moved only after its race logs the look at the start
signal, timed from that signal; every accepted move reaches the move hook."""

from __future__ import annotations

import pytest

import engine
from engine import intents as it
from services.games.entries import GameLinks
from services.games.service import NOT_STARTED
from services.validator.verdict import Claim, check_log
from services.games.record import read_log

pytestmark = pytest.mark.integration


class Heard:
    def __init__(self) -> None:
        self.moves: list[tuple[str, int]] = []

    def moved(self, live, snapshot) -> None:
        self.moves.append((live.game_id, snapshot.version))


async def race_game(service, player="a_racer", race="r_games"):
    created = await service.create_game(player, "wish", None, 11, kind="race", links=GameLinks(race=race))
    assert not isinstance(created, engine.RuleError) and not created.chosen_deal  # the race's deal, not the player's
    return created


async def test_no_look_and_no_move_before_the_start_signal(service, clock):
    game = await race_game(service)
    move = engine.legal_moves(service.live.get(game.id).state)[0]
    refused = await service.submit("a_racer", game.id, "early", 0, move)
    assert not refused.answer.accepted and refused.answer.code == NOT_STARTED
    assert (await service.open_for(game.id, "a_racer")).code == NOT_STARTED
    assert [e.type for e in await service.store.read(game.id)] == ["game_created"]  # nothing logged


async def test_the_clock_runs_from_the_start_signal_and_the_log_proves_the_win_time(service, clock):
    game = await race_game(service)
    start = clock.now + 5_000
    with pytest.raises(ValueError):
        await service.show_at(game.id, start, "race")  # the start is still in the future
    clock.now = start + 40  # the race's timer fires a little late: the look is still logged at the signal
    live = await service.show_at(game.id, start, "race")
    assert live.shown_at_ms == start
    assert (await service.show_at(game.id, start + 99, "race")).shown_at_ms == start  # once only
    clock.now = start + 1_000
    snapshot, is_player = await service.open_for(game.id, "a_racer")
    assert is_player and snapshot.elapsed_ms == 1_000
    done = await service.submit("a_racer", game.id, "r", 0, it.ResignIntent())
    assert done.answer.accepted
    log = read_log(await service.store.read(game.id))
    assert log.shown.at_ms == start
    verdict = check_log(log, Claim(game.id, "a_racer", 0, 1_000))
    assert verdict.reason == "not_won"  # the time checks pass: only the result is not a win


async def test_a_look_before_the_game_existed_is_logged_at_its_creation(service, clock):
    game = await race_game(service)
    created_at = service.live.get(game.id).created.created_at_ms
    live = await service.show_at(game.id, created_at - 500, "race")
    assert live.shown_at_ms == created_at


async def test_every_accepted_move_reaches_the_move_hook(service, clock):
    heard = Heard()
    service.move_hook = heard
    game = await race_game(service)
    await service.show_at(game.id, clock.now, "race")
    state = service.live.get(game.id).state
    first = await service.submit("a_racer", game.id, "m1", 0, engine.legal_moves(state)[0])
    await service.submit("a_racer", game.id, "m1", 0, engine.legal_moves(state)[0])  # a retry: no new move
    assert first.answer.accepted and heard.moves == [(game.id, 1)]
