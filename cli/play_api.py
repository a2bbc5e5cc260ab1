"""The HTTP side of `arena play`: the guest token kept on disk (and refreshed once half its lifetime
has passed), game creation, game summaries, hints, and the one-use tickets a socket connects with.

Uses only urllib, so the terminal client needs nothing beyond the server's own dependencies. Every
failure becomes a PlayError with a sentence for the player; no traceback reaches the terminal.
"""

from __future__ import annotations

import json
import os
import time
import uuid
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

TIMEOUT_SECONDS = 10.0
CREATE_AGAIN_SECONDS = (0.4, 1.5)  # a new game's repeats after a 503 or a lost answer (the same key)


class PlayError(Exception):
    """A failure the player is told about in one sentence; `arena play` exits non-zero."""


class Unauthorized(PlayError):
    """The server does not accept the stored token (its data folder or secret changed)."""


class Unanswered(PlayError):
    """No answer that says what happened: a 503 (the store away) or a connection lost on the way back."""


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


def socket_address(server: str, game_id: str) -> str:
    """http -> ws, https -> wss: the game socket's address without its ticket (safe to print)."""
    scheme = "wss" if server.startswith("https://") else "ws"
    rest = server.split("://", 1)[1]
    return f"{scheme}://{rest}/ws/games/{urllib.parse.quote(game_id, safe='')}"


def socket_url(server: str, game_id: str, ticket: str) -> str:
    """The socket's address with a one-use ticket; the token itself never goes in a URL."""
    return f"{socket_address(server, game_id)}?{urllib.parse.urlencode({'ticket': ticket})}"


def refresh_due(entry: dict[str, Any], now_ms: int) -> bool:  # Any: JSON
    """Half of the token's lifetime has passed (an entry from before tokens expired counts as due)."""
    issued, expires = entry.get("issued_at_ms"), entry.get("expires_at_ms")
    if not isinstance(issued, int) or not isinstance(expires, int):
        return True
    return now_ms >= issued + (expires - issued) // 2


class TokenStore:
    """Tokens per server in one small JSON file: a token is signed by one server's secret."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _load(self) -> dict[str, Any]:  # Any: JSON
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}  # no file yet, or unreadable: a fresh guest token replaces it
        return data if isinstance(data, dict) else {}

    def entry(self, server: str) -> dict[str, Any]:  # Any: JSON
        entry = self._load().get(server)
        return entry if isinstance(entry, dict) else {}

    def get(self, server: str) -> str | None:
        return self.entry(server).get("token")

    def put(self, server: str, issued: dict[str, Any]) -> None:  # Any: JSON
        """Keep a token answer: {player_id, token, issued_at_ms, expires_at_ms}."""
        data = self._load()
        data[server] = {key: issued.get(key) for key in ("player_id", "token", "issued_at_ms", "expires_at_ms")}
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
        self.spare_tickets: dict[str, str] = {}  # game id -> the ticket its creation came with

    def request(self, method: str, path: str, body: Any = None, auth: bool = True,  # Any: JSON in and out
                headers: dict[str, str] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.server + path, data=data, method=method, headers=headers or {})
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
            if exc.code == 503:
                raise Unanswered(f"the server is busy ({code}): {message}") from None
            raise PlayError(f"the server refused ({exc.code} {code}): {message}") from None
        except urllib.error.URLError as exc:
            reason = getattr(exc.reason, "strerror", None) or exc.reason
            raise PlayError(f"cannot reach the server at {self.server}: {reason}") from None
        except OSError as exc:  # timeouts, resets: the request may have been done
            raise Unanswered(f"no answer from the server at {self.server}: {exc}") from None
        except ValueError as exc:  # a body that is not JSON
            raise PlayError(f"no usable answer from the server at {self.server}: {exc}") from None

    def _keep(self, answer: dict[str, Any]) -> str:  # Any: JSON
        self.token = answer["token"]
        self.tokens.put(self.server, answer)
        return self.token

    def new_guest(self) -> str:
        return self._keep(self.request("POST", "/api/players/guest", auth=False))

    def ensure_token(self) -> str:
        """The stored token, refreshed first once half its lifetime has passed; else a new guest's."""
        if not self.token:
            return self.new_guest()
        if refresh_due(self.tokens.entry(self.server), int(time.time() * 1000)):
            try:
                return self._keep(self.request("POST", "/api/session/refresh"))
            except Unauthorized:
                return self.new_guest()  # expired, signed out, or from another server's secret
            except PlayError:
                pass  # not refreshed this time (the server is busy or away); the token still works
        return self.token

    def ticket(self) -> str:
        """A one-use ticket for one socket connection (asked for on every connect and reconnect)."""
        return self.request("POST", "/api/tickets")["ticket"]

    def socket_url(self, game_id: str) -> str:
        spare = self.spare_tickets.pop(game_id, None)  # the one a new game came with, used once
        return socket_url(self.server, game_id, spare or self.ticket())

    def create_game(self, game: str, variant: dict[str, Any] | None, seed: int | None) -> dict[str, Any]:  # Any: a variant's JSON values
        self.ensure_token()
        body = {"game": game, "variant": variant, "seed": seed}
        try:
            created = self._create(body)
        except Unauthorized:
            self.new_guest()  # the stored token is from another server or an older secret
            created = self._create(body)
        if created.get("ticket"):  # a new game comes with a ticket for its first socket (none: ask for one)
            self.spare_tickets[created["id"]] = created["ticket"]
        return created

    def _create(self, body: dict[str, Any]) -> Any:  # Any: JSON
        """POST /api/games with a request key, asked again with the same key while no answer says what
        happened: the server answers a repeat with the game the first ask made, never a second game."""
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        for pause in (*CREATE_AGAIN_SECONDS, None):
            try:
                return self.request("POST", "/api/games", body, headers=headers)
            except Unanswered:
                if pause is None:
                    raise
                time.sleep(pause)
        raise AssertionError("unreachable: the last pause re-raises")

    def hint(self, game_id: str, version: int) -> dict[str, Any]:  # Any: JSON
        """A hint for the position at `version` (POST /api/games/{id}/hint); PlayError when refused."""
        return self.request("POST", "/api/games/" + urllib.parse.quote(game_id, safe="") + "/hint", {"version": version})

    def catalog(self) -> list[dict[str, Any]]:  # Any: JSON
        """The server's games (GET /api/catalog): ids, titles, presets; needs no token."""
        return self.request("GET", "/api/catalog", auth=False)["games"]

    def game_summary(self, game_id: str) -> dict[str, Any]:  # Any: JSON
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
