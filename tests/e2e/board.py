"""Drives the web client the way a player does: the start page form, clicks on cards and piles,
the action buttons. Moves are chosen from the page's own state (window.arena.state.view.legal)."""

from __future__ import annotations

import json
from typing import Any

Intent = dict[str, Any]


class Board:
    def __init__(self, page) -> None:
        self.page = page

    # Reading the page's state -------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        return self.page.evaluate("JSON.parse(JSON.stringify(window.arena.state.view))")

    def version(self) -> int:
        return self.page.evaluate("window.arena.state.version")

    def legal(self) -> list[Intent]:
        return self.view()["legal"]

    def wait_ready(self, version: int | None = None) -> None:
        """The page shows a view (of at least `version`) and no move is in flight."""
        condition = "window.arena && window.arena.state.view && window.arena.state.pending === null"
        if version is not None:
            condition += f" && window.arena.state.version >= {version}"
        self.page.wait_for_function(condition)

    def wait_online(self) -> None:
        self.page.wait_for_selector('#connection[data-connection="online"]')

    # Starting games --------------------------------------------------------------------------
    def new_game(self, game: str, seed: int | None = None, preset: str | None = None) -> str:
        """Deal through the start page; `preset` is the title of one of the game's presets (the
        menu's default when absent). When the page asks first because an unfinished casual or
        practice game would be resigned, the answer is yes. Returns the game id."""
        self.page.goto("/#/")
        self.page.check(f"input[name=game][value='{game}']")
        if preset is not None:
            self.page.select_option("select[name=preset]", label=preset)
        if seed is not None:
            self.page.fill("input[name=seed]", str(seed))
        self.page.click("#new-game button[type=submit]")
        self.page.wait_for_function(
            "location.hash.startsWith('#/play/') || document.querySelector('#abandon-dialog[open]') !== null")
        if self.page.locator("#abandon-dialog[open]").count():
            self.page.click("#abandon-dialog [data-abandon=go]")
        self.page.wait_for_url("**/#/play/*")
        self.wait_ready(0)
        self.wait_online()
        return self.page.evaluate("window.arena.state.gameId")

    # Playing -----------------------------------------------------------------------------------
    def pile(self, pile_id: str):
        return self.page.locator(f'#board .pile[data-pile="{pile_id}"]')

    def source_card(self, pile_id: str, depth: int):
        return self.pile(pile_id).locator(f'.card.face[data-depth="{depth}"]')

    def play(self, intent: Intent) -> None:
        """Make one legal intent with the mouse and wait until the server's update is shown."""
        before = self.version()
        kind = intent["type"]
        if kind == "pair":
            self.source_card(f"t{intent['a']}", 1).click()
            self.pile(f"t{intent['b']}").click()
        elif kind == "move":
            # The visible strip of a fanned card is its top edge: a player clicks there.
            self.source_card(intent["src"], intent.get("count", 1)).click(position={"x": 8, "y": 5})
            self.pile(intent["dst"]).click(position={"x": 10, "y": 10})
        elif kind == "luck":
            self.page.locator(f'.luck-tray .card[data-card-id="{intent["card"]}"]').click()
            self.pile(intent["dst"]).click(position={"x": 10, "y": 10})
        elif kind == "resign":
            self.page.click("button[data-action=resign]")
            self.page.click("button[data-action=resign]")  # the second press confirms
        else:
            self.page.click(f"button[data-action={kind}]")
        self.wait_ready(before + 1)

    def play_line(self, intents: list[Intent]) -> None:
        for intent in intents:
            assert intent in self.legal(), f"{json.dumps(intent)} is not legal on the page"
            self.play(intent)

    def end_dialog(self):
        dialog = self.page.locator("#end-dialog[open]")
        dialog.wait_for()
        return dialog
