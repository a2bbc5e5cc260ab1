"""Websocket routes: the game socket, and the echo route the bench measures the ceiling with."""

from __future__ import annotations

from litestar import WebSocket, websocket
from litestar.channels import ChannelsPlugin
from litestar.di import NamedDependency
from litestar.params import FromPath

from ..games.service import GameService
from ..identity import Identity
from ..settings import Settings
from ..logging import bind_ids
from ..metrics import socket_closed
from .fanout import BatchingPubSubBackend
from .game_socket import CLOSE_UNAUTHORIZED, GameSocket
from .messages import ErrorS2C, encode_s2c


@websocket("/ws/games/{game_id:str}")
async def game_socket(
    socket: WebSocket,
    game_id: FromPath[str],
    service: NamedDependency[GameService],
    channels: NamedDependency[ChannelsPlugin],
    fanout: NamedDependency[BatchingPubSubBackend],
    settings: NamedDependency[Settings],
    identity: NamedDependency[Identity],
) -> None:
    await socket.accept()
    viewer_id = identity.player_of(socket.query_params.get("token"))
    if viewer_id is None:
        # Accepted first so a browser can read why: a refused handshake shows no reason.
        await socket.send_text(encode_s2c(ErrorS2C("unauthorized", "connect with ?token=<token>")).decode())
        await socket.close(CLOSE_UNAUTHORIZED, "unauthorized")
        return
    bind_ids(player_id=viewer_id)
    game = GameSocket(socket, service, channels, fanout, settings, game_id, viewer_id)
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
        await socket.send_text(message.get("text") or "")
