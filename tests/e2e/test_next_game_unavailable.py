"""A next game asked for over the socket and answered `unavailable`: the page sends the same request again on
the same socket (the protocol's rule: the game may have been made and the socket moved to it), and a repeat
answered with the game brings the page to it, with no second game made, no orphan resigned and no HTTP.
Only when the repeats are unavailable too does the page fall back to HTTP.

The server's answers are rewritten between the page and the real server (Playwright's websocket routing):
the game is made, the socket moved, and the page is told `unavailable`, the worst case a store timeout after
the move can give it. Everything else passes through unchanged.
"""

from __future__ import annotations

import json
import re

import pytest

from .board import Board
from .test_next_game_socket import Traffic, assert_made_over_http, end_with_new_game, first_move, wait_new_game

pytestmark = pytest.mark.browser

GAME_SOCKETS = re.compile(r"/ws/games/")


class UnavailableAnswers:
    """Routes the page's game sockets to the server and answers its first `answers` s2c.new_game frames
    with s2c.error unavailable naming their request instead; keeps every c2s.new_game the page sends."""

    def __init__(self, page, answers: int) -> None:
        self.left = answers
        self.asked: list[dict] = []
        page.route_web_socket(GAME_SOCKETS, self.route)

    def route(self, ws) -> None:
        server = ws.connect_to_server()
        ws.on_message(lambda message: self.to_server(server, message))
        server.on_message(lambda message: ws.send(self.to_page(message)))

    def to_server(self, server, message) -> None:
        if isinstance(message, str) and '"c2s.new_game"' in message:
            self.asked.append(json.loads(message))
        server.send(message)

    def to_page(self, message):
        if not isinstance(message, str) or not self.left or '"s2c.new_game"' not in message:
            return message
        self.left -= 1
        request_id = json.loads(message)["request_id"]
        return json.dumps({"type": "s2c.error", "code": "unavailable", "message": "the store did not answer in time",
                           "request_id": request_id})


def player_games(page) -> dict[str, str]:
    return page.evaluate("""async () => {
        const { token } = JSON.parse(localStorage.getItem("arena.guest"));
        const games = await (await fetch("/api/games", { headers: { Authorization: `Bearer ${token}` } })).json();
        return Object.fromEntries(games.map((g) => [g.id, g.status]));
    }""")


def next_game_through(page, unavailable: int):
    """A Spider game ended and its "New game" chosen, the server's first `unavailable` s2c.new_game answers
    rewritten; (the rewriter, the traffic, the board, the request mark before it, the game left, the new one)."""
    answers = UnavailableAnswers(page, answers=unavailable)
    traffic = Traffic(page)
    board = Board(page)
    board.new_game("spider")
    mark = len(traffic.requests)
    left = end_with_new_game(page, board)
    return answers, traffic, board, mark, left, wait_new_game(page, board, left)


def test_an_unavailable_answer_is_asked_again_on_the_same_socket(page):
    answers, traffic, board, mark, left, new = next_game_through(page, unavailable=1)

    first, again = answers.asked
    assert again == first, "the same request, request id and all, sent again"
    assert page.evaluate("location.hash") == f"#/play/{new}"
    first_move(board)
    assert board.version() == 1, "the game the first request made plays on"
    assert len(traffic.sockets) == 1, "on the same socket"
    assert ("POST", "/api/games") not in traffic.since(mark)
    assert player_games(page) == {left: "abandoned", new: "in_progress"}, "one game made: none orphaned, none resigned"


def test_the_page_goes_over_http_only_when_every_repeat_is_unavailable(page):
    answers, traffic, board, mark, left, new = next_game_through(page, unavailable=1_000)

    assert len(answers.asked) == 3 and all(asked == answers.asked[0] for asked in answers.asked), \
        "the request, then the same request twice more"
    assert_made_over_http(page, board, traffic, mark, new)
    made_over_socket = set(player_games(page)) - {left, new}
    assert len(made_over_socket) == 1, "the socket's game was made once, however often it was asked for"
    assert player_games(page)[made_over_socket.pop()] == "abandoned", "and resigned by the game made over HTTP"
