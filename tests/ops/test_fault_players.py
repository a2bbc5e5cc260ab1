"""The fault run's rule for when a player may stop: only once it has moved since its last interruption. A
player interrupted near the end of the run (its race set up again, its game found over on reopening) used to
stop at the end without moving again, and the table then counted it as not resumed although nothing was
wrong; one that truly cannot move again must be reported stuck, not quietly dropped."""

from __future__ import annotations

import asyncio

import pytest

from bench import fault_players
from bench.fault_players import Session, Stuck, run_over
from bench.fault_system import Journal


def _session(journal: Journal, name: str = "casual-0-0") -> Session:
    return Session(name, ["http://a", "http://b"], 0, journal)


def test_a_player_goes_on_only_after_a_move_later_than_its_last_interruption():
    journal = Journal()
    assert journal.went_on("p")  # never interrupted
    journal.ack("p", "g", 1, "m1")
    journal.interrupted("p", "unavailable")
    assert not journal.went_on("p")
    journal.ack("p", "g", 2, "m2")
    assert journal.went_on("p")
    journal.interrupted("q", "reconnect")
    assert journal.went_on("p") and not journal.went_on("q")  # each player's record is its own


def test_the_run_keeps_an_interrupted_player_playing_until_it_moves_again():
    async def scenario() -> list[bool]:
        journal, stop = Journal(), asyncio.Event()
        player, other = _session(journal), _session(journal, "race-0")
        seen = [run_over(stop, player)]  # the run goes on
        stop.set()
        player.failover("socket: ConnectionClosedError")
        seen.append(run_over(stop, player))  # interrupted, not moved since: plays on
        seen.append(run_over(stop, other))  # never interrupted: may stop
        journal.ack(player.name, "g", 3, "m3")
        seen.append(run_over(stop, player, other))
        return seen

    assert asyncio.run(scenario()) == [False, False, True, True]


def test_a_player_that_never_moves_again_is_reported_stuck(monkeypatch):
    monkeypatch.setattr(fault_players, "GIVE_UP_S", 0.05)

    async def scenario() -> None:
        journal, stop = Journal(), asyncio.Event()
        player = _session(journal)
        player.failover("http 503")
        stop.set()
        assert not run_over(stop, player)
        await asyncio.sleep(0.1)
        run_over(stop, player)

    with pytest.raises(Stuck, match="did not move again"):
        asyncio.run(scenario())
