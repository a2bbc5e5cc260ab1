"""The engine line protocol: one JSON object a line in, one JSON object a line out.

Like UCI for chess engines, it is the engine's face for bots, scripts and tools outside Python.
Every request is an object with a ``cmd``; an optional ``id`` is echoed back. Every answer has
``ok``: true with the command's fields, or false with ``error: {code, message}``; an error never
changes the current game and the session keeps running. The commands are documented with an
example session in docs/engine-protocol.md.
"""

from __future__ import annotations

from typing import Any, TypeVar
from collections.abc import Callable

import msgspec

from .. import decider
from ..errors import RuleError, rule_error
from ..catalog import catalog
from ..registry import game_ids, rules_for
from ..solver import solve
from ..state import GameState
from .codec import intent_from, to_builtins

T = TypeVar("T")

PROTOCOL_VERSION = 1
_decoder = msgspec.json.Decoder()
_encoder = msgspec.json.Encoder()


class _Failure(Exception):
    def __init__(self, error: RuleError) -> None:
        self.error = error


def _deal_of(request: dict[str, Any]) -> GameState:  # Any: a JSON request and its JSON answer
    """The deal a request names; its game, variant and seed are unchecked JSON (Any), which
    initial_state checks and refuses with a clear error."""
    game: Any = request.get("game")  # Any: unchecked JSON
    seed: Any = request.get("seed")  # Any: unchecked JSON
    state = decider.initial_state(game, request.get("variant"), seed)
    if isinstance(state, RuleError):
        raise _Failure(state)
    return state


def _ok(value: T | RuleError) -> T:
    if isinstance(value, RuleError):
        raise _Failure(value)
    return value


class EngineSession:
    """One client's session: at most one current game."""

    def __init__(self) -> None:
        self.state: GameState | None = None
        self.commands: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {  # Any: JSON requests and answers
            "hello": self.hello, "games": self.games, "catalog": self.catalog, "start": self.start,
            "legal": self.legal, "move": self.move, "view": self.view, "state": self.full_state, "replay": self.replay,
            "solve": self.solve, "quit": self.quit,
        }
        self.finished = False

    # Framing ------------------------------------------------------------------------------

    def handle_line(self, line: bytes | str) -> bytes:
        """One request line to one answer line (without the newline)."""
        request_id = None
        try:
            try:
                request = _decoder.decode(line)
            except RecursionError:  # msgspec gives up on very deep nesting; no real request has it
                raise msgspec.DecodeError("nested too deeply") from None
            if not isinstance(request, dict):
                raise _Failure(rule_error("bad_request", "a request must be a JSON object with a \"cmd\""))
            request_id = request.get("id")
            command = request.get("cmd")
            handler = self.commands.get(command) if isinstance(command, str) else None
            if handler is None:
                known = ", ".join(self.commands)
                raise _Failure(rule_error("unknown_command", f"unknown cmd {request.get('cmd')!r}; known: {known}"))
            answer = {"ok": True, **handler(request)}
        except msgspec.DecodeError as exc:
            answer = {"ok": False, "error": {"code": "bad_json", "message": f"not valid JSON: {exc}"}}
        except _Failure as failure:
            answer = {"ok": False, "error": to_builtins(failure.error)}
        except Exception as exc:  # a bug must not end the session; the game is left as it was
            answer = {"ok": False, "error": {"code": "internal_error", "message": f"{type(exc).__name__}: {exc}"}}
        if request_id is not None:
            answer["id"] = request_id
        return _encoder.encode(answer)

    # Commands -----------------------------------------------------------------------------

    def hello(self, request: dict[str, Any]) -> dict[str, Any]:  # Any: a JSON request and its JSON answer
        return {"engine": "patience-arena", "protocol": PROTOCOL_VERSION, "games": game_ids()}

    def games(self, request: dict[str, Any]) -> dict[str, Any]:  # Any: a JSON request and its JSON answer
        out = []
        for game in game_ids():
            rules = _ok(rules_for(game))
            defaults = to_builtins(rules.variant_type())
            out.append({"game": game, "title": rules.title, "variant_defaults": defaults, "undo": rules.has_undo})
        return {"games": out}

    def catalog(self, request: dict[str, Any]) -> dict[str, Any]:  # Any: a JSON request and its JSON answer
        """The whole catalogue, as GET /api/catalog serves it: presets, variant fields, capabilities."""
        built: dict[str, Any] = to_builtins(catalog())  # Any: the catalogue as JSON
        return built

    def start(self, request: dict[str, Any]) -> dict[str, Any]:  # Any: a JSON request and its JSON answer
        self.state = _deal_of(request)
        return {"view": to_builtins(decider.player_view(self.state))}

    def _current(self) -> GameState:
        if self.state is None:
            raise _Failure(rule_error("no_game", "no game: send {\"cmd\": \"start\", \"game\": ..., \"seed\": ...}"))
        return self.state

    def legal(self, request: dict[str, Any]) -> dict[str, Any]:  # Any: a JSON request and its JSON answer
        return {"moves": to_builtins(decider.legal_moves(self._current()))}

    def move(self, request: dict[str, Any]) -> dict[str, Any]:  # Any: a JSON request and its JSON answer
        parsed = intent_from(request.get("move"))
        if isinstance(parsed, RuleError):
            raise _Failure(parsed)
        state, events = _ok(decider.play(parsed, self._current()))
        self.state = state
        return {"events": to_builtins(events), "view": to_builtins(decider.player_view(state))}

    def view(self, request: dict[str, Any]) -> dict[str, Any]:  # Any: a JSON request and its JSON answer
        return {"view": to_builtins(decider.player_view(self._current()))}

    def full_state(self, request: dict[str, Any]) -> dict[str, Any]:  # Any: a JSON request and its JSON answer
        """Everything, face-down cards included: a tool's view, not a player's."""
        state = self._current()
        return {
            "state": {
                "game": state.game, "variant": to_builtins(state.variant), "seed": state.seed,
                "status": state.status, "moves": state.moves, "undos": state.undos,
                "board": to_builtins(state.board),
            },
            "view": to_builtins(decider.player_view(state)),
        }

    def replay(self, request: dict[str, Any]) -> dict[str, Any]:  # Any: a JSON request and its JSON answer
        """Play a list of moves from a fresh deal; stops at the first illegal one and says why."""
        state = _deal_of(request)
        moves = request.get("moves")
        if not isinstance(moves, list):
            raise _Failure(rule_error("bad_request", "replay needs \"moves\": a list of moves"))
        for index, raw in enumerate(moves):
            intent = intent_from(raw)
            result = intent if isinstance(intent, RuleError) else decider.play(intent, state)
            if isinstance(result, RuleError):
                message = f"move {index} is illegal: {result.message}"
                return {"applied": index, "complete": False, "error": {"index": index, "code": result.code,
                        "message": message}, "view": to_builtins(decider.player_view(state))}
            state = result[0]
        self.state = state
        return {"applied": len(moves), "complete": True, "view": to_builtins(decider.player_view(state))}

    def solve(self, request: dict[str, Any]) -> dict[str, Any]:  # Any: a JSON request and its JSON answer
        if "game" in request:  # a deal of its own; the current game is left alone
            state = _deal_of(request)
        else:
            state = self._current()
        verdict = _ok(solve(state, request.get("budget")))
        return {"result": verdict.result, "winnable": verdict.winnable, "line": to_builtins(verdict.line),
                "nodes": verdict.nodes}

    def quit(self, request: dict[str, Any]) -> dict[str, Any]:  # Any: a JSON request and its JSON answer
        self.finished = True
        return {"bye": True}


def serve_lines(read_line: Callable[[], bytes], write_line: Callable[[bytes], None]) -> None:
    """Run a session until end of input or a quit; blank lines are ignored."""
    session = EngineSession()
    while not session.finished:
        line = read_line()
        if not line:
            return
        if line.strip():
            write_line(session.handle_line(line) + b"\n")


__all__ = ["EngineSession", "serve_lines"]
