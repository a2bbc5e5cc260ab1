"""`arena play`: play games in the terminal against a running server, over its websocket.

HTTP (cli/play_api.py) reads the server's catalogue (which games it has, their titles and named
presets), gets a guest token and creates the game; then this module keeps one socket
open: it shows every snapshot and update (cli/play_render.py), reads a choice from stdin
(cli/play_commands.py) and sends it as c2s.move. A next game (`new`, or `--games N`) is asked for over
the same socket (c2s.new_game): no HTTP request or new socket. The server's engine decides every rule; this
client only shows what it answers. A dropped socket is reopened and the client sends c2s.sync
with the last version it saw; a move in flight is sent again with the same move_id, which the
server answers once, never playing it twice.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import uuid
from typing import Any, TextIO
from collections.abc import Callable

import engine
from services.games.view_delta import applied_json

from .play_api import Api, PlayError, TokenStore, normalize_server, socket_address, token_file
from .play_commands import HELP, parse_line
from .play_render import Style, catalog_lines, move_text, render_view, result_line
from .play_socket import CONNECT_ERRORS, GameLink

DEFAULT_SERVER = "http://127.0.0.1:8000"
ANSWER_TIMEOUT = 15.0  # no answer to a move this long: the socket is treated as dead and reopened
FATAL_CODES = ("unauthorized", "token_revoked", "no_such_game")  # the socket will not work by reopening it
AUTO_REFUSALS = 5
# After `unavailable` a new game may have been made and the socket moved to it: the same request again after
# each of these pauses (a repeat is answered with the game the first made), then the socket is reopened.
NEW_GAME_AGAIN = (0.3, 1.2, 3.0)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--server", default=DEFAULT_SERVER, help=f"the server's address (default {DEFAULT_SERVER})")
    parser.add_argument(
        "--game", help=f"a game id from the server's catalogue ({', '.join(engine.game_ids())} here; default the first)"
    )
    parser.add_argument("--preset", help="a named variant of the game by its id (see --list)")
    parser.add_argument("--variant", help='the variant as JSON, e.g. \'{"mode": "open"}\'')
    parser.add_argument("--list", action="store_true", help="list the server's games and their presets, then exit")
    parser.add_argument("--seed", type=int, help="deal this seed (the server picks one if absent)")
    parser.add_argument("--resume", metavar="GAME_ID", help="reopen an existing game instead of creating one")
    parser.add_argument("--games", type=int, default=1, metavar="N", help="play N games in a row (default 1): each "
                        "next one of the same game and variant, on a deal the server picks, over the same socket")
    parser.add_argument("--auto", action="store_true", help="play random legal moves until the game ends")
    parser.add_argument("--delay", type=float, default=0.06, help="seconds between --auto moves (default 0.06)")
    parser.add_argument("--max-moves", type=int, default=500, help="--auto resigns after this many moves")
    parser.add_argument("--reconnect-seconds", type=float, default=30.0, help="how long to retry a dropped socket")
    parser.add_argument("--ascii", action="store_true", help="draw suits as letters (S H D C), no colour")


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    try:
        server = normalize_server(args.server)
        api = Api(server, TokenStore(token_file()))
        games = {entry["id"]: entry for entry in api.catalog()}
        if args.list:
            print("\n".join(catalog_lines(list(games.values()))), file=out)
            return 0
        if args.resume:
            summary = api.game_summary(args.resume)
            game_id, game = summary["id"], summary["game"]
            if summary.get("assisted"):
                print("This game is marked assisted: a hint was taken in it.", file=out)
        else:
            game = args.game or next(iter(games), None)
            if game is None or game not in games:
                raise PlayError(f"unknown game {game!r}; this server offers: {', '.join(games) or 'none'}")
            variant = _variant(args.variant, args.preset, games[game])
            game_id = api.create_game(game, variant, args.seed)["id"]
            again = "" if server == DEFAULT_SERVER else f" --server {server}"
            print(f"Game {game_id}. Resume it later with: arena play{again} --resume {game_id}", file=out)
        assert api.token is not None
        if args.games < 1:
            raise PlayError(f"--games takes 1 or more, not {args.games}")
        # The socket's address follows the game it shows (a next game moves it): a new ticket per connect.
        link_to = (api.socket_url, lambda shown: socket_address(server, shown))
        title = games.get(game, {}).get("title")
        session = PlaySession(link_to, game_id, args, out, _style(args, out), title, hinter=api.hint,
                              next_game=(game, variant if not args.resume else summary["variant"]))
        return asyncio.run(session.run())
    except PlayError as exc:
        print(f"arena play: {exc}", file=sys.stderr)
        return 1


def _variant(text: str | None, preset: str | None, entry: dict[str, Any]) -> dict[str, Any] | None:  # Any: JSON
    if preset is not None:
        if text is not None:
            raise PlayError("give --preset or --variant, not both")
        for named in entry["presets"]:
            if preset in (named["id"], named["title"]):
                return named["variant"]
        ids = ", ".join(named["id"] for named in entry["presets"])
        raise PlayError(f"{entry['title']} has no preset {preset!r}; its presets: {ids}")
    if text is None:
        return None
    try:
        variant = json.loads(text)
    except ValueError as exc:
        raise PlayError(f"--variant is not JSON: {exc}") from None
    if not isinstance(variant, dict):
        raise PlayError('--variant must be a JSON object, like {"mode": "open"}')
    return variant


def _style(args: argparse.Namespace, out: TextIO) -> Style:
    try:
        "♠♥♦♣×→·".encode(out.encoding or "ascii")
        glyphs = True
    except (UnicodeEncodeError, LookupError):
        glyphs = False  # a terminal that cannot show suit symbols gets letters
    ascii_only = args.ascii or not glyphs
    color = not ascii_only and out.isatty() and not os.environ.get("NO_COLOR")
    return Style(ascii_only=ascii_only, color=color)


class PlaySession:
    """The game as this client shows it, the prompt loop, and moves sent and answered."""

    def __init__(
        self,
        link_to: tuple[Callable[[str], str], Callable[[str], str]],
        game_id: str,
        args: argparse.Namespace,
        out: TextIO,
        style: Style,
        title: str | None = None,
        hinter: Callable[[str, int], dict[str, Any]] | None = None,  # Any: JSON
        next_game: tuple[str, dict[str, Any] | None] | None = None,  # Any: a variant's JSON values
    ) -> None:
        self.game_id, self.args, self.out, self.style, self.title = game_id, args, out, style, title
        self.hinter = hinter  # asks the server for a hint at a game's version (blocking HTTP: run in a thread)
        self.next_game = next_game  # the game and variant `new` and --games ask for
        self.games_left = max(1, getattr(args, "games", 1)) - 1
        self.confirm_new = False  # `new` in an unfinished game was said once: the second one resigns it
        self.view: dict[str, Any] | None = None  # Any: JSON
        self.version = -1
        self.elapsed_ms: int | None = None
        self.seed: int | None = None
        self.role = "player"
        self.dirty = True  # the view changed since it was last drawn
        url_for, self.where_for = link_to
        self.link = GameLink(lambda: url_for(self.game_id), self.where_for(game_id), self.absorb, lambda: self.version,
                             self.say, args.reconnect_seconds)
        self.auto_moves = 0
        self.auto_refusals = 0
        self.lost_shown = False
        self.echo = not args.auto and not sys.stdin.isatty()


    @property
    def shown(self) -> dict[str, Any]:  # Any: JSON
        """The view last received; read only once the first snapshot came (the loop starts there)."""
        assert self.view is not None, "no snapshot yet"
        return self.view

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def absorb(self, frame: dict[str, Any]) -> None:  # Any: JSON
        """Take in what a frame says about the game; fatal errors end the session."""
        kind = frame.get("type")
        delta = frame.get("delta") if kind in ("s2c.update", "s2c.accepted") else None
        if delta is not None:  # the game after a move, as a change to the version before it
            if self.view is None or delta["base"] != self.version:
                return  # not what this client holds: the link asks for the whole (c2s.sync)
            held = {"version": self.version, "view": self.view, "elapsed_ms": self.elapsed_ms}
            whole = applied_json(held, delta)
            assert whole is not None  # (its base is the version held: checked above)
            self.view, self.version, self.elapsed_ms = whole["view"], whole["version"], whole["elapsed_ms"]
            self.dirty = True
        # The mover's acceptance carries the game after its move (none for a retry this socket showed).
        elif kind in ("s2c.snapshot", "s2c.update") or (kind == "s2c.accepted" and frame.get("snapshot")):
            snapshot = frame["snapshot"]  # the game service's snapshot: version, view, time, seed once ended
            if kind == "s2c.snapshot":
                self.role = frame.get("role", self.role)
            elif snapshot["version"] <= self.version:
                return  # an echo of what this client already shows
            self.view, self.version, self.elapsed_ms = snapshot["view"], snapshot["version"], snapshot["elapsed_ms"]
            self.seed = snapshot["seed"]
            self.dirty = True
        elif kind == "s2c.new_game":  # the socket moved to our next game: everything from here is that game's
            snapshot = frame["snapshot"]
            self.game_id, self.role = frame["summary"]["id"], frame["role"]
            self.view, self.version, self.elapsed_ms = snapshot["view"], snapshot["version"], snapshot["elapsed_ms"]
            self.seed = snapshot["seed"]
            self.link.where = self.where_for(self.game_id)
            self.dirty, self.lost_shown, self.confirm_new, self.auto_moves = True, False, False, 0
        elif kind == "s2c.error" and frame.get("code") in FATAL_CODES:
            raise PlayError(f"the server refused the game socket: {frame.get('message')}")

    async def run(self) -> int:
        try:
            await self.link.open()
        except CONNECT_ERRORS as exc:
            raise PlayError(f"cannot open the game socket {self.link.where}: {exc}") from None
        if not self.args.auto:
            self.link.read_stdin()
        try:
            return await self.play()
        finally:
            await self.link.close()

    def draw(self) -> bool:
        if not self.dirty or self.view is None:
            return False
        self.say("")
        self.say(render_view(self.view, self.game_id, self.version, self.elapsed_ms, self.role, self.style, self.title))
        self.dirty = False
        return True

    def finished(self) -> bool:
        """Won and abandoned games take nothing more. A lost game may still list an undo (if it has one),
        so only --auto stops there; a player is told and may take it or quit."""
        status = self.shown["status"]
        if status == "in_progress":
            self.lost_shown = False
            return False
        can_undo = any(move["type"] == "undo" for move in self.shown["legal"])
        if status == "lost" and can_undo and not self.args.auto and self.role == "player":
            if not self.lost_shown:
                self.say(self.result() + " Undo is still listed: take it, start a new game (new), or quit.")
                self.lost_shown = True
            return False
        self.say(self.result())
        return True

    def result(self) -> str:
        seed = f" Seed {self.seed}." if self.seed is not None else ""
        return result_line(self.shown, self.elapsed_ms) + seed

    async def play(self) -> int:
        while True:
            drew = self.draw()
            if self.finished():
                if self.games_left == 0:
                    return 0
                self.games_left -= 1
                if not await self.new_game():
                    return 1
                continue
            if self.args.auto:
                if self.role != "player":
                    raise PlayError("--auto plays only your own games; this one you can only watch")
                move = self.auto_move()
                self.say(f"> {move_text(move, self.shown, self.style)}")
                await asyncio.sleep(self.args.delay)
            else:
                if self.role == "player" and (drew or not self.link.waiting_for_line):
                    print("move number or command (help)> ", end="", file=self.out, flush=True)
                line, frame = await self.link.line_or_frame()
                if frame is not None:
                    continue  # an update from elsewhere (another tab, a spectator's view): drawn next
                if line is None:
                    self.say("")
                    return 0  # end of input: the game stays on the server, resumable
                if self.echo:
                    self.say(line.rstrip())  # piped input is not echoed: keep the transcript readable
                command = parse_line(line, self.shown["legal"])
                if command.action == "quit":
                    return 0
                if command.action == "help":
                    self.say(HELP)
                    continue
                if command.action == "show":
                    self.dirty = True
                    continue
                if command.action == "hint":
                    await self.hint()
                    continue
                if command.action == "new":
                    if self.shown["status"] == "in_progress" and self.role == "player" and not self.confirm_new:
                        self.confirm_new = True
                        self.say("  A new game resigns this one. Type new again to start it.")
                    else:
                        await self.new_game()
                    continue
                if command.error:
                    self.say(f"  {command.error}")
                    continue
                if self.role != "player":
                    self.say("  You are watching this game; only its player can move.")
                    continue
                if command.move is None:  # a line is a move, an action or an error: nothing else
                    continue
                move = command.move
            accepted = await self.submit(move)
            # --auto only sends listed moves; a run of refusals means another client moves this game.
            self.auto_refusals = 0 if accepted else self.auto_refusals + 1
            if self.args.auto and self.auto_refusals > AUTO_REFUSALS:
                raise PlayError(f"the server refused {AUTO_REFUSALS} moves in a row from --auto; giving up")

    async def hint(self) -> None:
        """Ask the server for a hint and say it as the command that plays it (and its list number)."""
        if self.role != "player" or self.hinter is None:
            self.say("  You are watching this game; only its player can ask for a hint.")
            return
        try:
            answer = await asyncio.to_thread(self.hinter, self.game_id, self.version)
        except PlayError as exc:
            self.say(f"  No hint: {exc}")
            return
        move = answer.get("move")
        if answer["result"] == "unwinnable":
            self.say("  No winning line from here.")
        elif answer["result"] != "winnable" or move is None:
            self.say("  No hint: the search could not settle this position within its budget.")
        else:
            legal = self.shown["legal"] if answer["version"] == self.version else []
            number = f"  (move {legal.index(move) + 1} in the list)" if move in legal else ""
            self.say(f"  Hint: {move_text(move, self.shown, self.style)}{number}")
        if answer["assisted"]:
            self.say("  This game is marked assisted.")

    async def new_game(self) -> bool:
        """The next game over this socket (c2s.new_game); False when the server refused it (said why)."""
        if self.next_game is None:
            self.say("  No game to start from here.")
            return False
        game, variant = self.next_game
        frame = {"type": "c2s.new_game", "request_id": uuid.uuid4().hex[:16], "game": game, "variant": variant}
        await self.link.send(frame)
        sent_on, repeats = self.link.generation, 0
        while True:
            answer = await self.link.frame(ANSWER_TIMEOUT)
            if answer is None:
                self.say("No answer from the server; reopening the socket.")
                await self.link.drop()
                continue
            if self.link.generation != sent_on:  # a new socket: ask there (it knows no request of the old one)
                await self.link.send(frame)
                sent_on = self.link.generation
            if answer.get("type") == "s2c.new_game" and answer.get("request_id") == frame["request_id"]:
                game_id = answer["summary"]["id"]
                again = "" if self.args.server in (None, DEFAULT_SERVER) else f" --server {self.args.server}"
                self.say(f"Game {game_id}. Resume it later with: arena play{again} --resume {game_id}")
                return True
            if answer.get("type") == "s2c.error" and answer.get("request_id") in (None, frame["request_id"]):
                if answer.get("code") == "unavailable" and repeats < len(NEW_GAME_AGAIN):
                    self.say(f"  The server is busy; asking again in {NEW_GAME_AGAIN[repeats]:g} s.")
                    await asyncio.sleep(NEW_GAME_AGAIN[repeats])
                    repeats += 1
                    await self.link.send(frame)
                    sent_on = self.link.generation
                    continue
                self.say(f"  No new game ({answer.get('code')}): {answer.get('message')}")
                if answer.get("code") == "unavailable":  # the socket may have moved: a new one shows our game
                    await self.link.drop()
                return False

    def auto_move(self) -> dict[str, Any]:  # Any: JSON
        # Undo and resign are listed too: picked at random, resign would end the game at once.
        moves = [move for move in self.shown["legal"] if move["type"] not in ("undo", "resign")]
        if not moves or self.auto_moves >= self.args.max_moves:
            self.say(f"No legal move or --max-moves {self.args.max_moves} reached: resigning.")
            return {"type": "resign"}
        self.auto_moves += 1
        return random.choice(moves)

    async def submit(self, move: dict[str, Any]) -> bool:  # Any: JSON
        """Send one move and wait for its answer, then for the update that shows it; True when
        the server accepted it."""
        frame = {"type": "c2s.move", "move_id": uuid.uuid4().hex[:16], "version": self.version, "move": move}
        await self.link.send(frame)
        sent_on = self.link.generation
        accepted_version = None
        while accepted_version is None or self.version < accepted_version:
            answer = await self.link.frame(ANSWER_TIMEOUT)
            if answer is None:
                self.say("No answer from the server; reopening the socket.")
                await self.link.drop()
                continue
            if self.link.generation != sent_on:  # a new socket: ask again, the move_id makes it safe
                await self.link.send(frame)
                sent_on = self.link.generation
            if answer.get("move_id") == frame["move_id"]:
                if answer["type"] == "s2c.accepted":
                    accepted_version = answer["version"]
                elif answer["type"] == "s2c.rejected":
                    self.say(f"  Rejected ({answer['code']}): {answer['message']}")
                    if answer["code"] == "stale_version":
                        await self.link.send({"type": "c2s.sync", "version": self.version})
                    return False
            elif answer["type"] == "s2c.error":
                if answer.get("code") == "rate_limited":
                    await asyncio.sleep(1.0)  # the frame was dropped: send it again once the bucket refills
                    await self.link.send(frame)
                    continue
                self.say(f"  Server error ({answer.get('code')}): {answer.get('message')}")
                return False
        return True
