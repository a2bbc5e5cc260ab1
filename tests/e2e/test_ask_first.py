"""A new casual or practice game resigns the player's unfinished one (the server does it): the start
page asks first, naming that game, and the player may go back to it, cancel, or go ahead."""

from __future__ import annotations

import json

import pytest

from .board import Board
from .deals import winnable_pairing_deal

pytestmark = pytest.mark.browser


def my_games(page) -> list[dict]:
    """GET /api/games as this page's player (the token the page keeps)."""
    return page.evaluate("""async () => {
        const { token } = JSON.parse(localStorage.getItem("arena.guest"));
        const response = await fetch("/api/games", { headers: { Authorization: `Bearer ${token}` } });
        return response.json();
    }""")


def deal_from_start_page(page, game: str):
    page.goto("/#/")
    page.check(f"input[name=game][value='{game}']")
    page.click("#new-game button[type=submit]")
    dialog = page.locator("#abandon-dialog[open]")
    dialog.wait_for()
    return dialog


def test_a_new_game_over_an_unfinished_one_asks_first_naming_it(page):
    seed, line = winnable_pairing_deal("wish", (("mode", "standard"),))
    board = Board(page)
    first = board.new_game("wish", seed=seed)  # nothing unfinished yet: no question
    assert page.locator("#abandon-dialog[open]").count() == 0
    board.play_line(line[:2])

    dialog = deal_from_start_page(page, "spider")
    assert dialog.get_attribute("data-game-id") == first
    text = dialog.inner_text()
    assert "Resign your unfinished The Wish?" in text
    assert "Your practice game of The Wish (Standard (3 face down), 2 moves" in text
    assert dialog.locator("#abandon-text strong").inner_text() == "a new game of Spider"

    # Go back to it: the same game, as it was.
    dialog.locator("[data-abandon=resume]").click()
    page.wait_for_url(f"**/#/play/{first}")
    board.wait_ready(2)
    assert board.view()["status"] == "in_progress" and board.view()["moves"] == 2

    # Cancel: nothing is dealt, nothing resigned.
    deal_from_start_page(page, "spider").locator("[data-abandon=cancel]").click()
    assert page.evaluate("location.hash") == "#/"
    games = my_games(page)
    assert [(g["id"], g["status"]) for g in games] == [(first, "in_progress")], json.dumps(games)

    # Go ahead: the new game opens, and the unfinished one was resigned.
    deal_from_start_page(page, "spider").locator("[data-abandon=go]").click()
    page.wait_for_url("**/#/play/*")
    board.wait_ready(0)
    second = page.evaluate("window.arena.state.gameId")
    statuses = {g["id"]: g["status"] for g in my_games(page)}
    assert statuses == {second: "in_progress", first: "abandoned"}


def test_a_finished_game_is_not_asked_about(page):
    seed, line = winnable_pairing_deal("wish", (("mode", "standard"),))
    board = Board(page)
    board.new_game("wish", seed=seed)
    board.play_line(line)
    board.end_dialog().get_by_role("button", name="New game").click()  # from the end-of-game dialog
    page.wait_for_function("window.arena && window.arena.state.version === 0 && window.arena.state.view.moves === 0")
    assert page.locator("#abandon-dialog[open]").count() == 0
