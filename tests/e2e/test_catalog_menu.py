"""The start page's menus are the server's catalogue (GET /api/catalog): every game's title and
blurb in catalogue order, each game's presets with its default chosen. A game that no client file
names (Tiny Pairs, added to a server of its own with ARENA_GAME_MODULES) is offered, dealt, titled
and won through the page with no change to the client."""

from __future__ import annotations

import json
import os
import urllib.request

import pytest

from web_client import STATIC_DIR

from .board import Board
from .conftest import REPO, watched_page
from .server import ArenaServer

pytestmark = pytest.mark.browser

EXTRA_MODULE = "tests.support.tiny_pairs"


def server_catalog(url: str) -> list[dict]:
    with urllib.request.urlopen(f"{url}/api/catalog", timeout=10) as response:
        return json.loads(response.read())["games"]


def menu_of(page) -> list[dict]:
    """The start page's game menu as shown: per game its title, blurb and preset menu."""
    page.goto("/#/")
    page.wait_for_selector("#new-game")
    shown = []
    for option in page.locator("label.game-option").all():
        option.locator("input[name=game]").check()
        presets = page.locator("select[name=preset] option")
        shown.append({
            "id": option.locator("input[name=game]").get_attribute("value"),
            "title": option.locator(".title").inner_text(),
            "blurb": option.locator(".blurb").inner_text(),
            "presets": [text.strip() for text in presets.all_inner_texts()],
            "chosen": page.locator("select[name=preset]").evaluate("el => el.selectedIndex") if presets.count() else 0,
        })
    return shown


def expected_menu(catalog: list[dict]) -> list[dict]:
    def default_index(game: dict) -> int:
        return [p["variant"] for p in game["presets"]].index(game["default_variant"])

    return [{"id": g["id"], "title": g["title"], "blurb": g["blurb"],
             "presets": [p["title"] for p in g["presets"]] if len(g["presets"]) > 1 else [],
             "chosen": default_index(g)} for g in catalog]


def test_the_new_game_menu_lists_exactly_the_catalogue(page, arena):
    catalog = server_catalog(arena.url)
    assert menu_of(page) == expected_menu(catalog)


@pytest.fixture(scope="module")
def extra_arena(tmp_path_factory, chromium_path):
    if os.environ.get("E2E_BASE_URL"):
        pytest.skip("needs a server of its own, started with an extra game module")
    env = {"ARENA_GAME_MODULES": EXTRA_MODULE, "PYTHONPATH": str(REPO)}
    server = ArenaServer(tmp_path_factory.mktemp("arena-extra-game"), env=env)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def extra_page(browser, extra_arena, console_errors):
    with watched_page(browser, extra_arena.url, console_errors, 1280, 860) as page:
        yield page


def test_a_game_no_client_file_names_is_offered_dealt_and_won(extra_page, extra_arena):
    catalog = server_catalog(extra_arena.url)
    extra = next(game for game in catalog if game["id"] == "tiny-pairs")
    for module in (STATIC_DIR / "js").glob("*.js"):
        assert extra["id"] not in module.read_text() and extra["title"] not in module.read_text()
    assert menu_of(extra_page) == expected_menu(catalog)
    board = Board(extra_page)
    board.new_game(extra["id"], seed=3, preset=extra["presets"][0]["title"])
    assert extra_page.locator(".game-title").inner_text() == extra["title"]
    assert board.view()["variant"] == extra["presets"][0]["variant"]
    while board.view()["status"] == "in_progress":
        board.play(board.legal()[0])
    assert "You won" in board.end_dialog().inner_text()
