"""The HTTP side of `arena play`: the guest token kept on disk, game creation, game summaries.

Uses only urllib, so the terminal client needs nothing beyond the server's own dependencies. Every
failure becomes a PlayError with a sentence for the player; no traceback reaches the terminal.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

TIMEOUT_SECONDS = 10.0


class PlayError(Exception):
    """A failure the player is told about in one sentence; `arena play` exits non-zero."""


class Unauthorized(PlayError):
    """The server does not accept the stored token (its data folder or secret changed)."""


def token_file() -> Path:
    """$ARENA_TOKEN_FILE, else ~/.config/patience-arena/token (under $XDG_CONFIG_HOME when set)."""
    named = os.environ.get("ARENA_TOKEN_FILE")
    if named:
        return Path(named).expanduser()
    config = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return config / "patience-arena" / "token"


def normalize_server(server: str) -> str:
    server = server.strip().rstrip("/")
    if "://" not in server:
        server = "http://" + server
    try:
        parts = urllib.parse.urlsplit(server)
        parts.port  # noqa: B018 - reading it checks the port: "host:x" or "host:99999" raise here
    except ValueError as exc:  # "http://[", a port that is not a number
        raise PlayError(f"--server is not a usable address ({exc}): {server!r}") from None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise PlayError(f"--server must be an http:// or https:// address, not {server!r}")
    return server


def socket_url(server: str, game_id: str, token: str) -> str:
    """http -> ws, https -> wss; the token travels as ?token=, as the protocol asks."""
    scheme = "wss" if server.startswith("https://") else "ws"
    rest = server.split("://", 1)[1]
    query = urllib.parse.urlencode({"token": token})
    return f"{scheme}://{rest}/ws/games/{urllib.parse.quote(game_id, safe='')}?{query}"


class TokenStore:
    """Tokens per server in one small JSON file: a token is signed by one server's secret."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _load(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}  # no file yet, or unreadable: a fresh guest token replaces it
        return data if isinstance(data, dict) else {}

    def get(self, server: str) -> str | None:
        entry = self._load().get(server)
        return entry.get("token") if isinstance(entry, dict) else None

    def put(self, server: str, player_id: str, token: str) -> None:
        data = self._load()
        data[server] = {"player_id": player_id, "token": token}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(data, indent=2) + "\n")
            self.path.chmod(0o600)  # the token is the player's identity
        except OSError as exc:
            raise PlayError(f"cannot keep the token in {self.path}: {exc.strerror or exc}") from exc


class Api:
    def __init__(self, server: str, tokens: TokenStore) -> None:
        self.server = server
        self.tokens = tokens
        self.token: str | None = tokens.get(server)

    def request(self, method: str, path: str, body: Any = None, auth: bool = True) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.server + path, data=data, method=method)
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if auth and self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:
            code, message = _error_body(exc)
            if exc.code == 401:
                raise Unauthorized(message) from None
            raise PlayError(f"the server refused ({exc.code} {code}): {message}") from None
        except urllib.error.URLError as exc:
            reason = getattr(exc.reason, "strerror", None) or exc.reason
            raise PlayError(f"cannot reach the server at {self.server}: {reason}") from None
        except (OSError, ValueError) as exc:  # timeouts, resets, a body that is not JSON
            raise PlayError(f"no usable answer from the server at {self.server}: {exc}") from None

    def new_guest(self) -> str:
        answer = self.request("POST", "/api/players/guest", auth=False)
        self.token = answer["token"]
        self.tokens.put(self.server, answer["player_id"], answer["token"])
        return self.token

    def ensure_token(self) -> str:
        return self.token or self.new_guest()

    def create_game(self, game: str, variant: dict[str, Any] | None, seed: int | None) -> dict[str, Any]:
        self.ensure_token()
        body = {"game": game, "variant": variant, "seed": seed}
        try:
            return self.request("POST", "/api/games", body)
        except Unauthorized:
            self.new_guest()  # the stored token is from another server or an older secret
            return self.request("POST", "/api/games", body)

    def catalog(self) -> list[dict[str, Any]]:
        """The server's games (GET /api/catalog): ids, titles, presets; needs no token."""
        return self.request("GET", "/api/catalog", auth=False)["games"]

    def game_summary(self, game_id: str) -> dict[str, Any]:
        self.ensure_token()
        path = "/api/games/" + urllib.parse.quote(game_id, safe="")
        try:
            return self.request("GET", path)
        except Unauthorized:
            self.new_guest()  # a new identity can still watch the game, not play it
            return self.request("GET", path)


def _error_body(exc: urllib.error.HTTPError) -> tuple[str, str]:
    """The gateway's `{"code", "message"}` body, or Litestar's own `{"detail"}`, or the reason."""
    try:
        body = json.loads(exc.read() or b"{}")
    except (OSError, ValueError):
        body = {}
    if not isinstance(body, dict):
        body = {}
    code = str(body.get("code") or body.get("status_code") or "error")
    message = str(body.get("message") or body.get("detail") or exc.reason)
    extra = body.get("extra")
    if extra and not body.get("message"):
        message += f" {extra}"
    return code, message
