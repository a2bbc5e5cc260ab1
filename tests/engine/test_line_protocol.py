"""The engine line protocol, in process and through the real `arena engine` command."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.adapters.line_protocol import EngineSession


def ask(session: EngineSession, request) -> dict:
    line = request if isinstance(request, (str, bytes)) else json.dumps(request)
    return json.loads(session.handle_line(line))


def test_start_legal_move_view_round_trip():
    session = EngineSession()
    started = ask(session, {"cmd": "start", "game": "wish", "seed": 42, "id": "a"})
    assert started["ok"] and started["id"] == "a" and started["view"]["game"] == "wish"
    legal = ask(session, {"cmd": "legal"})["moves"]
    moved = ask(session, {"cmd": "move", "move": legal[0]})
    assert moved["ok"] and moved["view"]["moves"] == 1 and moved["events"][0]["type"] == "pair_removed"


@pytest.mark.parametrize(
    ("request_line", "code"),
    [
        ("not json", "bad_json"),
        ("[" * 100_000, "bad_json"),
        ("[1, 2]", "bad_request"),
        ('{"cmd": "fly"}', "unknown_command"),
        ('{"cmd": "start", "game": "chess", "seed": 1}', "unknown_game"),
        ('{"cmd": "start", "game": ["wish"], "seed": 1}', "unknown_game"),
        ('{"cmd": "start", "game": "wish", "variant": {"mode": "closed"}, "seed": 1}', "bad_variant"),
        ('{"cmd": "start", "game": "wish", "seed": -5}', "bad_seed"),
        ('{"cmd": "move", "move": {"type": "pair", "a": 0, "b": 99}}', "no_such_pile"),
        ('{"cmd": "move", "move": {"type": "teleport"}}', "bad_intent"),
        ('{"cmd": "move", "move": {"type": "pair", "a": "x", "b": 1}}', "bad_intent"),
        ('{"cmd": "move"}', "bad_intent"),
        ('{"cmd": "replay", "game": "wish", "seed": 1, "moves": 3}', "bad_request"),
    ],
)
def test_bad_input_gets_a_clear_error_and_changes_nothing(request_line, code):
    session = EngineSession()
    before = ask(session, {"cmd": "start", "game": "wish", "seed": 3})["view"]
    answer = ask(session, request_line)
    assert answer["ok"] is False and answer["error"]["code"] == code and answer["error"]["message"]
    assert ask(session, {"cmd": "view"})["view"] == before


def test_commands_before_a_start_say_how_to_start():
    answer = ask(EngineSession(), {"cmd": "legal"})
    assert answer["error"]["code"] == "no_game" and '"start"' in answer["error"]["message"]


def test_replay_stops_at_the_first_illegal_move_and_says_which():
    session = EngineSession()
    line = ask(session, {"cmd": "solve", "game": "wish", "seed": 3})["line"]
    good = ask(session, {"cmd": "replay", "game": "wish", "seed": 3, "moves": line})
    assert good["complete"] and good["view"]["status"] == "won"
    bad = ask(session, {"cmd": "replay", "game": "wish", "seed": 3, "moves": line[:2] + [line[5]] + line[3:]})
    assert not bad["complete"] and bad["applied"] == 2 and bad["error"]["index"] == 2


@given(st.one_of(st.binary(max_size=64), st.text(max_size=64), st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["cmd", "move", "game", "seed", "type", "a"]), inner, max_size=4),
    max_leaves=8,
).map(json.dumps)))
def test_fuzzed_lines_never_crash_the_session(line):
    session = EngineSession()
    ask(session, {"cmd": "start", "game": "wish", "seed": 9})
    if isinstance(line, bytes) or line.strip():
        answer = json.loads(session.handle_line(line))
        assert answer["ok"] in (True, False)
        assert answer["ok"] or answer["error"]["code"] != "internal_error", answer


def test_a_wish_deal_played_to_the_end_through_arena_engine():
    """Acceptance: a Wish deal is played to the end through `arena engine` alone."""
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "engine"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)

    def call(request: dict) -> dict:
        proc.stdin.write(json.dumps(request) + "\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    try:
        first = call({"cmd": "start", "game": "wish", "seed": 3})
        assert call({"cmd": "start", "game": "wish", "seed": 3})["view"] == first["view"]  # same seed, same deal
        line = call({"cmd": "solve"})["line"]
        for move in line:
            answer = call({"cmd": "move", "move": move})
            assert answer["ok"], answer
        assert answer["view"]["status"] == "won" and answer["view"]["moves"] == 16
        over = call({"cmd": "move", "move": line[0]})
        assert over["error"]["code"] == "game_over"
        assert call({"cmd": "quit"})["bye"]
    finally:
        proc.stdin.close()
        assert proc.wait(timeout=10) == 0


def test_solve_answers_a_verdict_within_a_budget_for_every_solvable_game():
    session = EngineSession()
    won = ask(session, {"cmd": "solve", "game": "spider", "variant": {"suits": 1}, "seed": 1, "budget": 5000})
    assert won["result"] == "winnable" and won["winnable"] and won["line"] and won["nodes"] > 0
    short = ask(session, {"cmd": "solve", "game": "spider", "variant": {"suits": 4}, "seed": 1, "budget": 10})
    assert short == {"ok": True, "result": "unknown", "winnable": False, "line": [], "nodes": 10}
    lost = ask(session, {"cmd": "solve", "game": "wading-pool", "seed": 1})
    assert lost["result"] == "unwinnable" and lost["line"] == []
    bad = ask(session, {"cmd": "solve", "game": "wizard", "seed": 1, "budget": 0})
    assert bad["ok"] is False and bad["error"]["code"] == "bad_budget"
