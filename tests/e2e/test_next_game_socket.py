"""The end dialog's "New game" goes over the socket already open (c2s.new_game): the page becomes the new
game's with no new websocket, no POST /api/games and no GET of its summary, and plays on (moves, a
reconnect to the new game, the end dialog again). When the socket cannot make it (not open, dropped before
the answer) the game is made over HTTP as before; a refusal is a toast and the page stays."""

from __future__ import annotations

import json
from urllib.parse import urlparse

import pytest

from .api_play import ApiPlayer
from .board import Board

pytestmark = pytest.mark.browser

# A socket dropped on purpose, and tickets refused while it should stay down: Chromium logs both.
NO_TICKET = r"Failed to load resource|WebSocket connection to .* failed"


class Traffic:
    """Every websocket the page opens, the c2s.new_game frames it sends, and every HTTP request it makes,
    as (method, path)."""

    def __init__(self, page) -> None:
        self.sockets: list[str] = []
        self.new_games: list[dict] = []
        self.requests: list[tuple[str, str]] = []
        page.on("websocket", self.opened)
        page.on("request", lambda request: self.requests.append((request.method, urlparse(request.url).path)))

    def opened(self, ws) -> None:
        self.sockets.append(ws.url)
        ws.on("framesent", self.sent)

    def sent(self, payload) -> None:
        frame = json.loads(payload)
        if frame.get("type") == "c2s.new_game":
            self.new_games.append(frame)

    def since(self, mark: int) -> list[tuple[str, str]]:
        return self.requests[mark:]


def end_with_new_game(page, board: Board) -> str:
    """Resign the game shown, choose "New game" in the end dialog; the id of the game it left."""
    left = page.evaluate("window.arena.state.gameId")
    board.play({"type": "resign"})
    board.end_dialog().get_by_role("button", name="New game").click()
    return left


def wait_new_game(page, board: Board, left: str) -> str:
    page.wait_for_function(f"window.arena && window.arena.state.gameId !== '{left}' && window.arena.state.view")
    board.wait_ready(0)
    board.wait_online()
    return page.evaluate("window.arena.state.gameId")


def assert_made_over_http(page, board: Board, traffic, mark: int, new: str) -> None:
    """The page shows the new game `new`, made with POST /api/games since `mark`, and it plays."""
    assert page.evaluate("location.hash") == f"#/play/{new}"
    assert ("POST", "/api/games") in traffic.since(mark)
    first_move(board)
    assert board.version() == 1


def first_move(board: Board) -> None:
    """A move on whatever deal the server picked: Spider's deal from the stock is there from the start
    (a random Wish may have no pair at all, lost at once)."""
    legal = board.legal()
    board.play(next((i for i in legal if i["type"] == "deal"), None) or next(i for i in legal if i["type"] == "move"))


def test_new_game_from_the_end_dialog_comes_over_the_open_socket(page):
    traffic = Traffic(page)
    board = Board(page)
    board.new_game("spider")
    variant = board.view().get("variant")
    mark = len(traffic.requests)
    left = end_with_new_game(page, board)
    new = wait_new_game(page, board, left)

    assert new != left
    assert page.evaluate("location.hash") == f"#/play/{new}", "the URL names the new game"
    assert board.version() == 0
    view = board.view()
    assert (view["status"], view["moves"], view.get("variant")) == ("in_progress", 0, variant)
    assert page.locator("#end-dialog[open]").count() == 0
    first_move(board)
    assert board.version() == 1 and board.view()["moves"] == 1, "a move on the new game is accepted"
    assert len(traffic.sockets) == 1, "no new websocket for the next game"
    [asked] = traffic.new_games
    assert (asked["game"], asked["variant"], asked["seed"]) == ("spider", variant, None)
    sent = traffic.since(mark)
    assert ("POST", "/api/games") not in sent, "the game was made over the socket"
    assert ("GET", f"/api/games/{new}") not in sent, "its summary came with it"

    # Dropped, the socket reconnects to the new game (a ticket for it), and play goes on.
    with page.expect_websocket() as reconnected:
        page.evaluate("window.arena.link.ws.close()")
    assert f"/ws/games/{new}?" in reconnected.value.url
    board.wait_online()
    assert len(traffic.sockets) == 2
    first_move(board)
    assert board.version() == 2

    # Its end dialog works again, and so does a next game over the socket it reconnected with.
    third = wait_new_game(page, board, end_with_new_game(page, board))
    assert third not in (left, new) and page.evaluate("location.hash") == f"#/play/{third}"
    first_move(board)
    assert len(traffic.sockets) == 2
    assert ("POST", "/api/games") not in traffic.since(mark)


def test_new_game_goes_over_http_when_the_socket_is_not_open(page, console_errors):
    console_errors.allow(NO_TICKET)
    traffic = Traffic(page)
    board = Board(page)
    board.new_game("spider")
    board.play({"type": "resign"})
    board.end_dialog()
    # The socket goes and stays away: no ticket to reconnect with (the new game's own comes with it).
    page.route("**/api/tickets", lambda route: route.fulfill(status=503, json={"code": "unavailable", "message": "away"}))
    page.evaluate("window.arena.link.ws.close()")
    page.wait_for_selector('#connection[data-connection="reconnecting"]')
    mark = len(traffic.requests)
    left = page.evaluate("window.arena.state.gameId")
    board.end_dialog().get_by_role("button", name="New game").click()
    assert_made_over_http(page, board, traffic, mark, wait_new_game(page, board, left))
    assert traffic.new_games == []


def test_new_game_goes_over_http_when_the_socket_drops_before_the_answer(page):
    traffic = Traffic(page)
    board = Board(page)
    board.new_game("spider")
    # The request never reaches the server: the socket drops instead.
    page.evaluate("""() => {
        const link = window.arena.link;
        const send = link.send.bind(link);
        link.send = (frame) => {
            if (frame.type !== "c2s.new_game") return send(frame);
            window.newGameAsked = true;
            link.ws.close();
            return true;
        };
    }""")
    mark = len(traffic.requests)
    left = end_with_new_game(page, board)
    assert_made_over_http(page, board, traffic, mark, wait_new_game(page, board, left))
    assert page.evaluate("window.newGameAsked") is True, "the socket was asked first"


def test_a_refused_new_game_is_a_toast_and_the_page_stays(page):
    traffic = Traffic(page)
    board = Board(page)
    board.new_game("spider")
    # A game the server does not play: refused over the socket (unknown_game), never sent over HTTP.
    page.evaluate("""() => {
        const link = window.arena.link;
        const ask = link.newGame.bind(link);
        link.newGame = (request) => ask({ ...request, game: "no-such-game" });
    }""")
    mark = len(traffic.requests)
    left = end_with_new_game(page, board)
    toast = page.locator("#toast:not([hidden])")
    toast.wait_for()
    assert toast.inner_text().startswith("The new game did not start: ")
    assert page.evaluate("window.arena.state.gameId") == left and board.view()["status"] == "abandoned"
    assert ("POST", "/api/games") not in traffic.since(mark)
    assert page.evaluate("window.arena.state.connection") == "online", "the socket stays on its game"

    # Asked again as it should be, the same socket makes it.
    page.evaluate("delete window.arena.link.newGame")
    page.evaluate("document.getElementById('end-dialog').showModal()")  # (the page shows it once per end)
    board.end_dialog().get_by_role("button", name="New game").click()
    new = wait_new_game(page, board, left)
    assert page.evaluate("location.hash") == f"#/play/{new}"
    assert len(traffic.sockets) == 1 and ("POST", "/api/games") not in traffic.since(mark)


def test_the_page_still_asks_before_a_new_game_resigns_an_unfinished_one(page, arena):
    traffic = Traffic(page)
    board = Board(page)
    board.new_game("spider")
    token = page.evaluate("JSON.parse(localStorage.getItem('arena.guest')).token")
    board.play({"type": "resign"})
    other = ApiPlayer(arena.url, token).create("wish", None)  # as in another tab: unfinished
    dialog = board.end_dialog()
    left = page.evaluate("window.arena.state.gameId")

    # Asked before anything is sent: cancelled, nothing goes to the server.
    dialog.get_by_role("button", name="New game").click()
    asked = page.locator("#abandon-dialog[open]")
    asked.wait_for()
    assert asked.get_attribute("data-game-id") == other
    asked.locator("[data-abandon=cancel]").click()
    page.wait_for_selector("#abandon-dialog", state="hidden")
    assert traffic.new_games == [] and page.evaluate("window.arena.state.gameId") == left

    # Gone ahead: over the socket, and the unfinished game was resigned.
    page.evaluate("document.getElementById('end-dialog').showModal()")
    board.end_dialog().get_by_role("button", name="New game").click()
    asked.wait_for()
    asked.locator("[data-abandon=go]").click()
    new = wait_new_game(page, board, left)
    assert len(traffic.new_games) == 1 and len(traffic.sockets) == 1
    games = page.evaluate("""async () => {
        const { token } = JSON.parse(localStorage.getItem("arena.guest"));
        return (await fetch("/api/games", { headers: { Authorization: `Bearer ${token}` } })).json();
    }""")
    assert {g["id"]: g["status"] for g in games} == {left: "abandoned", other: "abandoned", new: "in_progress"}
