"""Websocket routes: the game socket, and the echo route the bench measures the ceiling with."""

from __future__ import annotations

from litestar import WebSocket, websocket
from litestar.datastructures import State
from litestar.params import FromPath

from ...games.service import GameService
from ...identity.sessions import Sessions
from ...runtime.settings import Settings
from ..guards.auth import socket_player
from ..links.fanout import Fanout
from .game_socket import GameSocket
from .player_budget import PlayerBudgets
from ...runtime.logging import bind_ids
from ...metrics import socket_closed


@websocket("/ws/games/{game_id:str}")
async def game_socket(socket: WebSocket, game_id: FromPath[str], state: State) -> None:
    # The process's services straight from the app's state (plugin.py puts them there), not as five
    # dependencies: Litestar resolves a handler's independent dependencies in an anyio task group, a task
    # each, which cost some 2.5 % of a short game's whole CPU for five lookups that cannot fail.
    service: GameService = state.service
    fanout: Fanout = state.fanout
    settings: Settings = state.settings
    sessions: Sessions = state.sessions
    budgets: PlayerBudgets = state.budgets
    await socket.accept()
    viewer_id = await socket_player(socket, sessions)  # ?ticket=, used once; it says why not and closes
    if viewer_id is None:
        return
    bind_ids(player_id=viewer_id)
    game = GameSocket(socket, service, fanout, settings, game_id, viewer_id)
    with budgets.hold(viewer_id) as bucket:
        game.admission.bucket = bucket  # one frame budget per player, shared by all of their sockets
        game.games_bucket = budgets.games_of(viewer_id)  # and one of new games (c2s.new_game)
        try:
            await game.run()
        finally:
            socket_closed(game)


@websocket("/ws/echo")
async def echo_socket(socket: WebSocket) -> None:
    """Bench only (ARENA_BENCH_ECHO): the cost of a websocket round trip with no work behind it."""
    await socket.accept()
    while True:
        message = await socket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        await socket.send_text(text if isinstance(text, str) else "")
