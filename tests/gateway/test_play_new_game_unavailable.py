"""`arena play`'s next game answered `unavailable`: it asks again with the same request on the same socket, so
the game the first request made is the one it plays, and no second game is made.

The client is `arena play`'s own session, in this process, against a real `arena serve`; its socket goes
through a relay on loopback that passes every frame both ways and answers the server's first s2c.new_game
frames to the client as s2c.error unavailable naming their request (the game made, the socket moved, the
client told the store timed out: the worst case of a store timeout after the move).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import urllib.request
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

from cli.play import PlaySession, add_arguments
from cli.play_api import Api, TokenStore, socket_address
from cli.play_render import Style
from services.redis.embedded import free_port

from .test_play_cli import ServeProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    serve_process = ServeProcess(tmp_path_factory.mktemp("play-unavailable"), free_port()).start()
    yield serve_process
    serve_process.stop()


class UnavailableRelay:
    """A websocket relay to `upstream` that turns the first `answers` s2c.new_game frames into
    s2c.error unavailable; it keeps every c2s.new_game the client sends."""

    def __init__(self, upstream: str, answers: int) -> None:
        self.upstream, self.left = upstream, answers
        self.asked: list[dict] = []
        self.port = free_port()

    async def handle(self, client) -> None:
        async with connect(self.upstream + client.request.path, compression=None) as server:
            async def up() -> None:
                async for message in client:
                    if '"c2s.new_game"' in message:
                        self.asked.append(json.loads(message))
                    await server.send(message)

            async def down() -> None:
                async for message in server:
                    await client.send(self.rewrite(message))

            tasks = [asyncio.ensure_future(up()), asyncio.ensure_future(down())]
            try:
                await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            except ConnectionClosed:
                pass
            finally:
                for task in tasks:
                    task.cancel()

    def rewrite(self, message):
        if not self.left or '"s2c.new_game"' not in message:
            return message
        self.left -= 1
        return json.dumps({"type": "s2c.error", "code": "unavailable", "message": "the store did not answer in time",
                           "request_id": json.loads(message)["request_id"]})


async def play_two_games(server_url: str, token_file: Path, answers: int) -> tuple[UnavailableRelay, str, str, int]:
    """A Wish game, then `--games 2`'s next one over the relayed socket; (relay, first id, output, exit code)."""
    relay = UnavailableRelay(server_url.replace("http://", "ws://"), answers)
    api = Api(server_url, TokenStore(token_file))
    first = api.create_game("wish", None, None)["id"]
    relayed = f"http://127.0.0.1:{relay.port}"

    def url_for(game_id: str) -> str:
        return api.socket_url(game_id).replace(socket_address(server_url, ""), socket_address(relayed, ""))

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--auto", "--delay", "0", "--games", "2", "--max-moves", "3", "--reconnect-seconds", "5"])
    out = io.StringIO()
    session = PlaySession((url_for, lambda game_id: socket_address(relayed, game_id)), first, args, out,
                          Style(ascii_only=True, color=False), next_game=("wish", None))
    async with serve(relay.handle, "127.0.0.1", relay.port, compression=None):
        code = await asyncio.wait_for(session.run(), 60)
    return relay, first, out.getvalue(), code


def players_games(server_url: str, token_file: Path) -> dict[str, str]:
    token = json.loads(token_file.read_text())[server_url]["token"]
    request = urllib.request.Request(f"{server_url}/api/games", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return {game["id"]: game["status"] for game in json.loads(response.read())}


def test_an_unavailable_next_game_is_asked_again_and_the_first_one_made_is_played(server, tmp_path):
    relay, first, out, code = asyncio.run(play_two_games(server.url, tmp_path / "token", answers=1))
    assert code == 0, out[-800:]
    asked, again = relay.asked
    assert again == asked, "the same request, request id and all"
    assert "The server is busy; asking again in 0.3 s." in out
    games = players_games(server.url, tmp_path / "token")
    [second] = set(games) - {first}
    assert f"Game {second}. Resume it later" in out, "the session moved to the game the first request made"
    assert games[second] != "in_progress" and "Game over:" in out.split(f"Game {second}.")[1], "and played it out"


def test_a_next_game_unavailable_every_time_ends_the_session_with_why(server, tmp_path):
    relay, first, out, code = asyncio.run(play_two_games(server.url, tmp_path / "token", answers=1_000))
    assert code == 1
    assert len(relay.asked) == 4 and all(asked == relay.asked[0] for asked in relay.asked), "once, then three repeats"
    assert "No new game (unavailable)" in out
    assert len(players_games(server.url, tmp_path / "token")) == 2, "the one game the request made, made once"
