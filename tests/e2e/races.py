"""Races run through the server's own HTTP and websocket API (as `arena` or any client would): guests
take seats, get ready, wait for the start signal and play their games, to set up what a browser test
then watches. The deal's seed comes from the server's Redis (no response shows it before the end)."""

from __future__ import annotations

import time

import httpx

import engine
from engine.solver import solve

from .api_play import ApiPlayer
from .daily import seed_from_log

WISH = {"game": "wish", "variant": {"mode": "standard"}, "time_limit_ms": 600_000}


def call(base_url: str, player: ApiPlayer, method: str, path: str, body: dict | None = None) -> dict:
    with httpx.Client(base_url=base_url, timeout=30) as http:
        response = http.request(method, path, json=body, headers={"Authorization": f"Bearer {player.token}"})
        return response.raise_for_status().json()


def until_status(base_url: str, player: ApiPlayer, race_id: str, statuses: tuple[str, ...], seconds: float = 60) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        view = call(base_url, player, "GET", f"/api/races/{race_id}")
        if view["status"] in statuses:
            return view
        time.sleep(0.2)
    raise AssertionError(f"race {race_id} did not reach {statuses} in {seconds} s")


class StartedRace:
    """A race of `seats` new guests, all ready, after its start signal: its id, racers, games, deal."""

    def __init__(self, base_url: str, redis_url: str, seats: int) -> None:
        self.base_url = base_url
        self.racers = [ApiPlayer(base_url) for _ in range(seats)]
        host = self.racers[0]
        view = call(base_url, host, "POST", "/api/races", {**WISH, "seats": seats})
        self.race_id = view["race_id"]
        for racer in self.racers[1:]:
            call(base_url, racer, "POST", f"/api/races/join/{view['code']}")
        for racer in self.racers:
            call(base_url, racer, "POST", f"/api/races/{self.race_id}/ready")
        started = until_status(base_url, host, self.race_id, ("started",))
        self.games = {r["player"]: r["game_id"] for r in started["racers"]}
        self.players = [r["player"] for r in started["racers"]]
        self.seed = seed_from_log(redis_url, next(iter(self.games.values())))
        self.line = list(solve(engine.initial_state("wish", WISH["variant"], self.seed)).line)

    def play(self, index: int, moves: list) -> None:
        racer = self.racers[index]
        racer.play(self.games[self.players[index]], moves)

    def ended(self) -> dict:
        return until_status(self.base_url, self.racers[0], self.race_id, ("ended", "final"))
