"""The service's in-process memory is bounded: the live-game LRU and each game's remembered answers."""

from __future__ import annotations

import pytest

import engine
from engine import intents as it
from services.games.entries import GameCreated
from services.games.live import ANSWERS_KEPT, LiveGame, LiveGames, MoveAnswer


def live_game(game_id: str) -> LiveGame:
    created = GameCreated("wish", {"mode": "standard"}, 1, "g_x", 0)
    return LiveGame(game_id, created, engine.initial_state("wish", None, 1), 0, 1)


def test_live_games_keep_at_most_the_limit_and_drop_the_least_recently_used():
    games = LiveGames(3)
    for name in "abc":
        games.put(live_game(name))
    assert games.get("a") is not None  # touched: now the most recent
    games.put(live_game("d"))
    assert len(games) == 3
    assert games.get("b") is None and all(games.get(name) is not None for name in "acd")


def test_a_game_remembers_at_most_its_last_answers():
    live = live_game("a")
    for n in range(ANSWERS_KEPT * 3):
        live.remember(MoveAnswer(f"m{n}", False, 0, "illegal_move", "no"))
    assert len(live.answers) == ANSWERS_KEPT
    assert "m0" not in live.answers and f"m{ANSWERS_KEPT * 3 - 1}" in live.answers


@pytest.mark.integration
async def test_rejected_move_ids_are_answered_again_but_never_pile_up(service):
    game = await service.create_game("g_rejecter", "wish", {"mode": "standard"}, 7)
    for n in range(ANSWERS_KEPT + 10):
        answer = (await service.submit("g_rejecter", game.id, f"bad{n}", 0, it.PairIntent(0, 0))).answer
        assert answer.code == "illegal_move"
    live = service.live.get(game.id)
    assert len(live.answers) == ANSWERS_KEPT
    # A retry of a remembered rejection gets the same answer, even sent as a legal move now.
    legal = engine.legal_moves(live.state)[0]
    retry = await service.submit("g_rejecter", game.id, f"bad{ANSWERS_KEPT + 9}", 0, legal)
    assert retry.answer.code == "illegal_move" and live.version == 0
    # A spectator's refusals are never remembered: they cannot push the player's answers out.
    await service.submit("g_stranger", game.id, "spam", 0, legal)
    assert "spam" not in live.answers
    assert len(await service.store.read(game.id)) == 1
