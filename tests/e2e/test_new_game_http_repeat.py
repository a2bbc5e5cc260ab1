"""A new game over HTTP whose answer is `503 unavailable` after the server made it (the worst case a store
timeout after the log can give): the page asks again with the same Idempotency-Key and lands on that game,
with no second game made and none resigned. The first answer is rewritten between the page and the real
server (Playwright's request routing: the request reaches the server, its answer is replaced)."""

from __future__ import annotations

import json

import pytest

from .board import Board
from .test_next_game_unavailable import player_games

pytestmark = pytest.mark.browser


class UnavailableOnce:
    """Passes every POST /api/games to the server; the first one's answer is replaced by a 503."""

    def __init__(self, page) -> None:
        self.keys: list[str | None] = []
        self.made: list[str] = []
        page.route("**/api/games", self.route)

    def route(self, route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        self.keys.append(route.request.headers.get("idempotency-key"))
        if len(self.keys) > 1:
            route.continue_()
            return
        answer = route.fetch()  # the server makes the game
        self.made.append(answer.json()["id"])
        route.fulfill(status=503, content_type="application/json",
                      body=json.dumps({"code": "unavailable", "message": "the store did not answer in time"}))


def test_a_new_game_answered_unavailable_is_asked_again_with_its_key_and_made_once(page, console_errors):
    console_errors.allow(r"status of 503")  # the browser's own line for the rewritten answer
    board = Board(page)
    routed = UnavailableOnce(page)
    game_id = board.new_game("spider")
    assert len(routed.keys) == 2 and routed.keys[0] and routed.keys[0] == routed.keys[1], routed.keys
    assert routed.made == [game_id], "the page is on the game the first request made"
    board.wait_ready(0)
    assert player_games(page) == {game_id: "in_progress"}, "no second game"
    second = board.new_game("spider")  # the next new game has a key of its own: a new game
    assert routed.keys[2] != routed.keys[0] and second != game_id
