"""The client survives what real networks and servers do: a reload, a dropped socket, a missed
update (a version gap), and a server restart."""

from __future__ import annotations

import pytest

from .board import Board
from .deals import winnable_pairing_deal

WISH = ("wish", (("mode", "standard"),))
# What Chromium logs while the server is down: failed socket handshakes and ticket requests that never
# reached it, nothing of ours.
SOCKET_DOWN = r"WebSocket connection to .* failed|Failed to load resource: net::ERR_CONNECTION_REFUSED"

pytestmark = pytest.mark.browser


def test_reload_mid_game_continues_where_it_was(page):
    seed, line = winnable_pairing_deal(*WISH)
    board = Board(page)
    game_id = board.new_game("wish", seed=seed)
    board.play_line(line[:3])
    shown = board.view()
    page.reload()
    board.wait_ready(3)
    assert page.evaluate("window.arena.state.gameId") == game_id
    assert board.view() == shown
    board.play_line(line[3:])
    assert board.end_dialog().get_attribute("data-outcome") == "won"


def test_a_dropped_socket_reconnects_and_a_move_sent_meanwhile_lands_once(page):
    seed, line = winnable_pairing_deal(*WISH)
    board = Board(page)
    board.new_game("wish", seed=seed)
    board.play_line(line[:2])
    page.evaluate("window.arena.link.ws.close()")
    page.wait_for_selector('#connection[data-connection="reconnecting"], #connection[data-connection="online"]')
    board.wait_online()
    board.play(line[2])
    # Drop the socket, then move at once: the move waits for the new socket and is sent exactly once.
    page.evaluate("window.arena.link.ws.close()")
    board.play(line[3])
    board.wait_online()
    page.wait_for_timeout(300)
    assert board.version() == 4
    assert board.view()["moves"] == 4


def test_going_offline_and_back_online_recovers(page, console_errors):
    console_errors.allow(SOCKET_DOWN)
    seed, line = winnable_pairing_deal(*WISH)
    board = Board(page)
    board.new_game("wish", seed=seed)
    board.play_line(line[:1])
    page.context.set_offline(True)
    page.wait_for_selector('#connection[data-connection="reconnecting"]')
    page.context.set_offline(False)
    board.wait_online()
    board.play_line(line[1:3])
    assert board.view()["moves"] == 3


def test_a_missed_update_is_noticed_and_resynced(page):
    """A second tab of the same player moves twice; the first tab loses one update on the way and
    must ask for a resync rather than show a stale board."""
    seed, line = winnable_pairing_deal(*WISH)
    board = Board(page)
    game_id = board.new_game("wish", seed=seed)
    page.evaluate("""() => {
        const link = window.arena.link;
        const receive = link.receive.bind(link);
        window.syncsSent = 0;
        const send = link.send.bind(link);
        link.send = (frame) => { if (frame.type === "c2s.sync") window.syncsSent += 1; return send(frame); };
        let dropped = false;
        link.receive = (data) => {
            if (!dropped && JSON.parse(data).type === "s2c.update") { dropped = true; return; }
            receive(data);
        };
    }""")
    other = page.context.new_page()
    other.goto(f"/#/play/{game_id}")
    second = Board(other)
    second.wait_ready(0)
    second.play_line(line[:2])
    board.wait_ready(2)
    assert page.evaluate("window.syncsSent") >= 1
    assert board.view() == second.view()
    other.close()


def test_an_unavailable_first_snapshot_is_asked_for_again(page):
    """An overloaded server answers a (re)connect with s2c.error unavailable in place of the snapshot and keeps
    the socket open: the client asks again with c2s.sync (after a backoff) and comes back online."""
    seed, line = winnable_pairing_deal(*WISH)
    board = Board(page)
    board.new_game("wish", seed=seed)
    board.play_line(line[:2])
    shown = board.view()
    page.evaluate("""() => {
        const link = window.arena.link;
        const receive = link.receive.bind(link);
        const send = link.send.bind(link);
        window.syncsSent = 0;
        link.send = (frame) => { if (frame.type === "c2s.sync") window.syncsSent += 1; return send(frame); };
        let replaced = false;
        link.receive = (data) => {
            if (!replaced && JSON.parse(data).type === "s2c.snapshot") {
                replaced = true;
                data = JSON.stringify({type: "s2c.error", code: "unavailable", message: "the game store did not answer"});
            }
            receive(data);
        };
        link.ws.close();
    }""")
    page.wait_for_function("window.syncsSent >= 1")
    board.wait_online()
    assert board.version() == 2 and board.view() == shown
    board.play_line(line[2:4])


def test_the_client_rides_out_a_server_restart(page, arena, console_errors):
    if not arena.owned:
        pytest.skip("E2E_BASE_URL names a server these tests cannot restart")
    console_errors.allow(SOCKET_DOWN)
    seed, line = winnable_pairing_deal(*WISH)
    board = Board(page)
    board.new_game("wish", seed=seed)
    board.play_line(line[:2])
    arena.stop()
    page.wait_for_selector('#connection[data-connection="reconnecting"]')
    arena.start()
    page.wait_for_selector('#connection[data-connection="online"]', timeout=30_000)
    assert board.version() == 2
    board.play_line(line[2:4])
    assert board.view()["moves"] == 4
