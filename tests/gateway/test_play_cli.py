"""`arena play` end to end: a real `arena serve` subprocess (embedded Redis, uvicorn) and the client
run as the player runs it, as a subprocess reading stdin and writing the board to stdout."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

import engine
from engine.solver.advice import hint
from services.redis.embedded import free_port

REPO = Path(__file__).resolve().parents[2]
RESULT = re.compile(r"Game over: (won|lost|abandoned) after (\d+) moves")
GAME_ID = re.compile(r"Game ([A-Za-z0-9_-]+)\. Resume it later")


class ServeProcess:
    """`arena serve` on a fixed port and data folder, so a restart comes back where it was."""

    def __init__(self, data_dir: Path, port: int) -> None:
        self.data_dir, self.port = data_dir, port
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServeProcess:
        command = [sys.executable, "-m", "cli.main", "serve", "--port", str(self.port), "--data-dir", str(self.data_dir)]
        self.proc = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"arena serve exited: {self.proc.stderr.read().decode()}")
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=2) as response:
                    if json.loads(response.read())["status"] == "ok":
                        return self
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("arena serve did not answer GET /health within 60 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(30)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    serve = ServeProcess(tmp_path_factory.mktemp("play-serve"), free_port()).start()
    yield serve
    serve.stop()


@pytest.fixture
def token_file(tmp_path) -> Path:
    return tmp_path / "token"


def play_env(token_file: Path) -> dict[str, str]:
    return {**os.environ, "ARENA_TOKEN_FILE": str(token_file), "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"}


def play(server_url: str, token_file: Path, *args: str, stdin: str = "", timeout: float = 120):
    command = [sys.executable, "-m", "cli.main", "play", "--server", server_url, *args]
    return subprocess.run(
        command, cwd=REPO, input=stdin, capture_output=True, text=True, timeout=timeout,
        env=play_env(token_file), encoding="utf-8",
    )


def game_summary(server_url: str, token_file: Path, game_id: str) -> dict:
    token = json.loads(token_file.read_text())[server_url]["token"]
    request = urllib.request.Request(f"{server_url}/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


@pytest.mark.parametrize("game", ["wish", "patient-pairs"])
def test_auto_plays_to_the_end(server, token_file, game):
    done = play(server.url, token_file, "--game", game, "--seed", "3", "--auto", "--delay", "0")
    assert done.returncode == 0, done.stderr
    result = RESULT.search(done.stdout.splitlines()[-1])
    assert result and result.group(1) in ("won", "lost"), done.stdout[-500:]
    played = [line for line in done.stdout.splitlines() if line.startswith("> pair ")]
    assert len(played) == int(result.group(2)) > 0
    game_id = GAME_ID.search(done.stdout).group(1)
    summary = game_summary(server.url, token_file, game_id)
    assert summary["status"] == result.group(1) and summary["version"] == len(played)


def test_scripted_session_plays_by_number_and_shows_rejections(server, token_file):
    # The Wish, seed 1: piles 1 and 3 show 9s, pile 0 an Ace.
    done = play(server.url, token_file, "--game", "wish", "--seed", "1", stdin="1\npair 0 1\nfrob\nquit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "1) pair 1 3" in out and "version 1" in out
    assert "Rejected (illegal_move): the tops of piles 0 and 1" in out
    assert "unknown command 'frob'" in out
    game_id = GAME_ID.search(out).group(1)
    summary = game_summary(server.url, token_file, game_id)
    assert summary["version"] == 1 and summary["status"] == "in_progress"  # the rejected move changed nothing

    resumed = play(server.url, token_file, "--resume", game_id, stdin="")
    assert resumed.returncode == 0, resumed.stderr
    assert "version 1" in resumed.stdout and "watching" not in resumed.stdout
    watched = play(server.url, token_file.with_name("other-token"), "--resume", game_id, stdin="")
    assert watched.returncode == 0, watched.stderr
    assert "[watching: not your game]" in watched.stdout and "Legal moves" not in watched.stdout


def test_list_titles_and_presets_come_from_the_servers_catalogue(server, token_file):
    with urllib.request.urlopen(server.url + "/api/catalog", timeout=10) as response:
        catalogue = json.loads(response.read())["games"]
    listed = play(server.url, token_file, "--list", timeout=30)
    assert listed.returncode == 0, listed.stderr
    assert [line.split()[0] for line in listed.stdout.splitlines()[::2]] == [entry["id"] for entry in catalogue]
    for entry in catalogue:
        assert entry["title"] in listed.stdout and all(p["id"] in listed.stdout for p in entry["presets"])
    pairs = next(entry for entry in catalogue if entry["id"] == "patient-pairs")
    smallest = pairs["presets"][-1]
    done = play(server.url, token_file, "--game", "patient-pairs", "--preset", smallest["id"], stdin="quit\n")
    assert done.returncode == 0, done.stderr
    assert f"{pairs['title']} (piles {smallest['variant']['piles']})  game" in done.stdout  # the catalogue's title
    summary = game_summary(server.url, token_file, GAME_ID.search(done.stdout).group(1))
    assert summary["variant"] == smallest["variant"]


def test_closed_port_is_a_clear_error(token_file):
    done = play(f"http://127.0.0.1:{free_port()}", token_file, "--auto", timeout=30)
    assert done.returncode != 0
    assert "cannot reach the server" in done.stderr and "Traceback" not in done.stderr
    assert not token_file.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "chess"], "unknown game 'chess'; this server offers: wish"),
        (["--preset", "nope"], "has no preset 'nope'; its presets: standard, open"),
        (["--preset", "open", "--variant", "{}"], "give --preset or --variant, not both"),
        (["--variant", '{"mode": "x"}'], "bad_variant"),
        (["--variant", "not json"], "--variant is not JSON"),
        (["--resume", "no-such-game"], "there is no game 'no-such-game'"),
        (["--server", "http://["], "--server is not a usable address"),  # the last --server wins
        (["--server", "localhost:99999"], "--server is not a usable address"),
    ],
)
def test_bad_requests_are_clear_errors(server, token_file, args, message):
    done = play(server.url, token_file, *args, timeout=30)
    assert done.returncode == 1
    assert message in done.stderr and "Traceback" not in done.stderr


class LiveClient:
    """`arena play` with a pipe on stdin, its stdout collected line by line as it comes."""

    def __init__(self, server_url: str, token_file: Path, *args: str) -> None:
        command = [sys.executable, "-m", "cli.main", "play", "--server", server_url, *args]
        self.proc = subprocess.Popen(
            command, cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, encoding="utf-8", env=play_env(token_file),
        )
        self.text = ""
        self.lock = threading.Lock()
        threading.Thread(target=self._collect, daemon=True).start()

    def _collect(self) -> None:
        for chunk in iter(lambda: self.proc.stdout.read(1), ""):
            with self.lock:
                self.text += chunk

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, needle: str, after: int = 0, timeout: float = 60) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                found = self.text.find(needle, after)
            if found >= 0:
                return found + len(needle)
            assert self.proc.poll() is None, f"arena play exited: {self.text[-800:]} {self.proc.stderr.read()}"
            time.sleep(0.05)
        raise AssertionError(f"no {needle!r} in time; output so far: {self.text[-800:]}")


def test_reconnects_after_the_server_restarts(tmp_path, token_file):
    serve = ServeProcess(tmp_path / "data", free_port()).start()
    client = LiveClient(serve.url, token_file, "--game", "wish", "--seed", "1", "--reconnect-seconds", "60")
    try:
        at = client.wait_for("version 0")
        client.send("1")
        at = client.wait_for("version 1", at)
        serve.stop()  # the socket drops; the game's log stays in the data folder's Redis
        at = client.wait_for("Connection lost; reconnecting", at)
        serve.start()
        at = client.wait_for("Reconnected at version 1.", at, timeout=90)
        client.send("1")  # pair 1 7: the first legal move at version 1
        at = client.wait_for("version 2", at)
        client.send("quit")
        assert client.proc.wait(30) == 0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()
        serve.stop()
    game_id = GAME_ID.search(client.text).group(1)
    serve.start()
    try:
        assert game_summary(serve.url, token_file, game_id)["version"] == 2
    finally:
        serve.stop()


def test_a_watcher_sees_the_players_moves_as_they_happen(server, token_file, tmp_path):
    player = LiveClient(server.url, token_file, "--game", "patient-pairs", "--seed", "5")
    watcher = None
    try:
        player.wait_for("version 0")
        game_id = GAME_ID.search(player.text).group(1)
        watcher = LiveClient(server.url, tmp_path / "watcher-token", "--resume", game_id)
        at = watcher.wait_for("[watching: not your game]")
        player.send("1")
        at = watcher.wait_for("version 1", at)  # pushed while the watcher sits waiting for a line
        watcher.send("1")
        watcher.wait_for("only its player can move", at)
        done = play(server.url, tmp_path / "watcher-token", "--resume", game_id, "--auto", timeout=30)
        assert done.returncode == 1 and "only your own games" in done.stderr
        for client in (player, watcher):
            client.send("quit")
            assert client.proc.wait(30) == 0
    finally:
        for client in (player, watcher):
            if client is not None and client.proc.poll() is None:
                client.proc.kill()
    assert game_summary(server.url, token_file, game_id)["version"] == 1


def test_a_token_is_refreshed_at_half_life_and_an_old_style_one_replaced(server, token_file):
    with urllib.request.urlopen(urllib.request.Request(f"{server.url}/api/players/guest", method="POST")) as answer:
        guest = json.loads(answer.read())
    half_gone = {**guest, "issued_at_ms": guest["issued_at_ms"] - (guest["expires_at_ms"] - guest["issued_at_ms"])}
    token_file.write_text(json.dumps({server.url: half_gone}))
    done = play(server.url, token_file, "--game", "wish", "--seed", "2", stdin="quit\n", timeout=60)
    assert done.returncode == 0, done.stderr
    kept = json.loads(token_file.read_text())[server.url]
    assert kept["player_id"] == guest["player_id"] and kept["token"] != guest["token"]  # the same player, renewed
    assert kept["issued_at_ms"] >= guest["issued_at_ms"]
    # A token of the old kind (no expiry) is refused by the server: the client becomes a new guest.
    token_file.write_text(json.dumps({server.url: {"player_id": "g_0123456789abcdef", "token": "g_0123.c2ln"}}))
    done = play(server.url, token_file, "--game", "wish", "--seed", "2", stdin="quit\n", timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(token_file.read_text())[server.url]["player_id"] != "g_0123456789abcdef"


def test_hint_in_a_practice_game_and_none_in_a_casual_one(server, token_file):
    expected = hint(engine.initial_state("wish", None, 3)).move  # the solver is deterministic: the server's too
    done = play(server.url, token_file, "--game", "wish", "--seed", "3", stdin="hint\nquit\n")
    assert done.returncode == 0, done.stderr
    assert f"Hint: pair {expected.a} {expected.b}" in done.stdout and "This game is marked assisted." in done.stdout
    game_id = GAME_ID.search(done.stdout).group(1)
    assert game_summary(server.url, token_file, game_id)["assisted"] is True
    resumed = play(server.url, token_file, "--resume", game_id, stdin="")
    assert "This game is marked assisted" in resumed.stdout
    # A casual game's deal is the server's random choice: Spider's, never lost as dealt (its stock can always
    # be dealt), so the client always reaches the prompt. (A Wish deal with eight different top ranks, about
    # one in 160, is over before the first command, which made this test fail now and then.)
    casual = play(server.url, token_file, "--game", "spider", stdin="hint\nquit\n")
    assert casual.returncode == 0, casual.stderr
    assert "No hint: the server refused (403 hints_practice_only)" in casual.stdout
    summary = game_summary(server.url, token_file, GAME_ID.search(casual.stdout).group(1))
    assert summary["assisted"] is False and summary["kind"] == "casual"


def test_games_in_a_row_come_over_the_same_socket(server, token_file):
    """--games 3: each next game is asked for over the open socket (c2s.new_game) once one ends."""
    done = play(server.url, token_file, "--game", "wish", "--auto", "--delay", "0", "--games", "3")
    assert done.returncode == 0, done.stderr
    results = RESULT.findall(done.stdout)
    game_ids = GAME_ID.findall(done.stdout)
    assert len(results) == 3 and len(set(game_ids)) == 3, done.stdout[-800:]
    for game_id, (status, moves) in zip(game_ids, results):
        summary = game_summary(server.url, token_file, game_id)
        assert summary["status"] == status and summary["moves"] == int(moves) and summary["game"] == "wish"
    assert "cannot open" not in done.stdout + done.stderr


def test_new_asks_first_in_a_game_in_play_then_moves_the_session_to_a_new_game(server, token_file):
    # Spider's deals are never over as dealt: the prompt comes for both games.
    done = play(server.url, token_file, "--game", "spider", "--seed", "3", stdin="new\nnew\n1\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "A new game resigns this one. Type new again to start it." in done.stdout
    first, second = GAME_ID.findall(done.stdout)
    assert game_summary(server.url, token_file, first)["status"] == "abandoned"
    summary = game_summary(server.url, token_file, second)
    assert summary["kind"] == "casual" and summary["version"] == 1 and summary["game"] == "spider"
    assert summary["variant"] == game_summary(server.url, token_file, first)["variant"]
