"""A daily's or race's deal stays secret until its reveal, for everyone, its own player included."""

from __future__ import annotations

import pytest

from engine import intents as it
from services.games.entries import GameLinks
from services.games.secrecy import DealSecrecy, challenge_reveal_ms
from tests.support.play import IN_PLAY_WISH

pytestmark = pytest.mark.integration

DAY = "2026-12-01"
CHALLENGE = f"{DAY}/wish/mode=standard"


def test_the_reveal_is_the_close_plus_the_grace():
    assert challenge_reveal_ms(CHALLENGE) == 1_796_083_200_000 + 25 * 3600 * 1000  # 2026-12-02 01:00 UTC
    assert challenge_reveal_ms("not-a-date/wish") is None


async def test_an_ended_daily_attempt_shows_no_seed_or_deal_to_anyone_before_the_reveal(service, clock):
    clock.now = challenge_reveal_ms(CHALLENGE) - 30 * 3600 * 1000  # during the day
    game = await service.create_game("a_player", "wish", None, IN_PLAY_WISH, kind="daily", links=GameLinks(challenge=CHALLENGE))
    snapshot, _ = await service.open_for(game.id, "a_player")
    ended = await service.submit("a_player", game.id, "r", 0, it.ResignIntent())
    assert ended.answer.accepted and ended.snapshot.view.status == "abandoned"
    assert ended.snapshot.seed is None and ended.snapshot.deal is None
    assert (await service.summary(game.id)).seed is None
    refused = await service.open_for(game.id, "a_friend")
    assert refused.code == "not_public_yet"  # not even a spectator's look before the reveal
    clock.now = challenge_reveal_ms(CHALLENGE)
    assert (await service.summary(game.id)).seed is not None
    snapshot, is_player = await service.open_for(game.id, "a_friend")
    assert not is_player and snapshot.seed is not None and snapshot.deal is not None


async def test_practice_on_a_daily_deal_is_as_secret_as_the_attempt(service, clock):
    clock.now = challenge_reveal_ms(CHALLENGE) - 3 * 3600 * 1000
    game = await service.create_game("a_player", "wish", None, IN_PLAY_WISH, kind="practice", links=GameLinks(challenge=CHALLENGE))
    await service.open_for(game.id, "a_player")
    ended = await service.submit("a_player", game.id, "r", 0, it.ResignIntent())
    assert ended.snapshot.seed is None and ended.snapshot.deal is None


async def test_a_race_game_is_secret_until_its_race_has_ended(service, clock):
    ended_races: set[str] = set()
    service.secrecy = DealSecrecy(race_ended=ended_races.__contains__)
    game = await service.create_game("a_racer", "wish", None, IN_PLAY_WISH, kind="race", links=GameLinks(race="r_1"))
    await service.show_at(game.id, clock.now, "race-r_1")  # the race shows its games at the start signal
    done = await service.submit("a_racer", game.id, "r", 0, it.ResignIntent())
    assert done.snapshot.seed is None
    assert (await service.open_for(game.id, "a_rival")).code == "not_public_yet"
    ended_races.add("r_1")
    assert (await service.summary(game.id)).seed is not None
