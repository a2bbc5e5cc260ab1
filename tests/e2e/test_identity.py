"""The web client's identity: its socket connects with a one-use ticket, never the token, and a token
past half its lifetime is refreshed for the same player (an old one without an expiry is replaced)."""

from __future__ import annotations

import json

import pytest

from .board import Board

pytestmark = pytest.mark.browser

STORED = "JSON.parse(localStorage.getItem('arena.guest'))"


def test_the_socket_url_carries_a_ticket_never_the_token(page):
    board = Board(page)
    board.new_game("wish", seed=2)
    url, token = page.evaluate("window.arena.link.ws.url"), page.evaluate(f"{STORED}.token")
    assert "?ticket=" in url and token not in url and "token" not in url
    page.evaluate("window.arena.link.ws.close()")  # a reconnect takes a ticket of its own
    page.wait_for_function(f"(ws => ws && ws.readyState === WebSocket.OPEN && ws.url !== {json.dumps(url)})"
                           "(window.arena.link.ws)")
    again = page.evaluate("window.arena.link.ws.url")
    assert "?ticket=" in again and again != url


def test_a_half_spent_token_is_refreshed_for_the_same_player(page, console_errors):
    board = Board(page)
    game_id = board.new_game("wish", seed=3)
    known = page.evaluate(STORED)
    lifetime = known["expires_at_ms"] - known["issued_at_ms"]
    aged = {**known, "issued_at_ms": known["issued_at_ms"] - lifetime}  # now is past its middle
    page.evaluate(f"localStorage.setItem('arena.guest', {json.dumps(json.dumps(aged))})")
    page.reload()
    board.wait_ready(0)
    renewed = page.evaluate(STORED)
    assert renewed["player_id"] == known["player_id"] and renewed["token"] != known["token"]
    assert renewed["issued_at_ms"] >= known["issued_at_ms"]
    assert page.evaluate("window.arena.state.role") == "player"  # still this game's player
    assert page.evaluate("window.arena.state.gameId") == game_id
    # An identity from before tokens expired: refused by the server (401), replaced by a new guest.
    console_errors.allow(r"Failed to load resource: .*401")
    page.evaluate("localStorage.setItem('arena.guest', JSON.stringify({player_id: 'g_old', token: 'g_old.c2ln'}))")
    page.goto("/#/")
    page.wait_for_function(f"(g => g && g.player_id !== 'g_old' && g.expires_at_ms > Date.now())({STORED})")
