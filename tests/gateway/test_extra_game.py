"""Acceptance: a sixth game registered in process is known everywhere, with no other change.

tests/support/tiny_pairs.py is a made-up four-card pairing game that no list in the project names.
After one `engine.register` call the engine deals, plays and solves it, the line protocol lists and
plays it, the real gateway (uvicorn in a thread, real Redis) serves it in GET /api/catalog and plays
it over the socket, and the shared property suites, which read their cases from the registry, pass
for each of its presets. (The browser's menus: tests/e2e/test_catalog_menu.py.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

import engine
from engine.adapters.line_protocol import EngineSession
from engine.solver import solvable_games, solve
from tests.engine import test_properties
from tests.gateway import test_play_render
from tests.strategies import registered_variants
from tests.support import tiny_pairs

GAME = tiny_pairs.RULES.game_id
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def tiny():
    already = GAME in engine.game_ids()  # ARENA_GAME_MODULES may have added it for the whole run
    if not already:
        assert isinstance(engine.rules_for(GAME), engine.RuleError), "nothing knows the game before it registers"
        engine.register(tiny_pairs.RULES)
    yield tiny_pairs.RULES
    if not already:
        engine.unregister(GAME)


def test_the_engine_deals_plays_and_solves_it(tiny):
    assert GAME in engine.game_ids() and GAME in solvable_games()
    state = engine.initial_state(GAME, None, 7)
    assert state.variant == tiny_pairs.TinyPairsVariant(4) and len(state.board.piles) == 4
    solution = solve(state)
    assert solution.winnable and len(solution.line) == 2  # four piles of one card: always won
    for intent in solution.line:
        state, _ = engine.play(intent, state)
    assert state.status == engine.WON
    # Two piles of two, the lower card face down: some deals are lost as dealt, and hide cards.
    dealt = [engine.initial_state(GAME, {"piles": 2}, seed) for seed in range(40)]
    assert {d.status for d in dealt} == {engine.IN_PROGRESS, engine.LOST}
    assert all(len(engine.hidden_cards(d)) == 2 for d in dealt if d.status == engine.IN_PROGRESS)


def test_the_line_protocol_lists_and_plays_it(tiny):
    session = EngineSession()

    def ask(request: dict) -> dict:
        answer = json.loads(session.handle_line(json.dumps(request)))
        assert answer["ok"], answer
        return answer

    assert GAME in ask({"cmd": "hello"})["games"]
    listed = {g["game"]: g for g in ask({"cmd": "games"})["games"]}
    assert listed[GAME]["title"] == "Tiny Pairs" and listed[GAME]["variant_defaults"] == {"piles": 4}
    entry = next(g for g in ask({"cmd": "catalog"})["games"] if g["id"] == GAME)
    assert [p["variant"] for p in entry["presets"]] == [{"piles": 4}, {"piles": 2}]
    view = ask({"cmd": "start", "game": GAME, "seed": 3})["view"]
    while view["status"] == "in_progress":
        view = ask({"cmd": "move", "move": view["legal"][0]})["view"]
    assert view["status"] == "won" and view["moves"] == 2
    assert ask({"cmd": "solve", "game": GAME, "variant": {"piles": 4}, "seed": 9})["winnable"] is True


@pytest.mark.integration
def test_the_gateway_serves_it_in_the_catalogue_and_plays_it_over_the_socket(tiny, http, alice):
    body = http.get("/api/catalog").json()
    assert body == json.loads(msgspec.json.encode(engine.catalog()))
    entry = next(g for g in body["games"] if g["id"] == GAME)
    assert entry["title"] == "Tiny Pairs" and entry["has_solver"] and not entry["daily_eligible"]
    assert [p["title"] for p in entry["presets"]] == ["4 piles", "2 piles"]
    created = alice.create(GAME, entry["presets"][0]["variant"], seed=5)
    sock = alice.open(created["id"])
    snapshot = sock.recv()["snapshot"]
    version, view = snapshot["version"], snapshot["view"]
    while view["status"] == "in_progress":
        accepted = sock.move(version, view["legal"][0])
        assert accepted["type"] == "s2c.accepted"
        update = accepted["snapshot"]  # the acceptance carries the game after the move
        version, view = update["version"], update["view"]
    assert view["status"] == "won" and alice.summary(created["id"])["status"] == "won"
    sock.close()


def test_arena_serve_refuses_a_game_module_it_cannot_load(tmp_path):
    for name, reason in [("tests.support.no_such_game", "No module named"), ("tests.support", "has no RULES")]:
        env = {**os.environ, "ARENA_GAME_MODULES": name}
        command = [sys.executable, "-m", "cli.main", "serve", "--port", "0", "--data-dir", str(tmp_path)]
        done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 1 and f"cannot add the game module {name}" in done.stderr and reason in done.stderr
        assert "Traceback" not in done.stderr


def test_the_shared_property_suites_take_it_from_the_registry(tiny):
    cases = [case for case in registered_variants() if case[0] == GAME]
    assert cases == [(GAME, {"piles": 4}), (GAME, {"piles": 2})]
    suites = [
        test_properties.test_replay_of_the_events_equals_live_play,
        test_properties.test_legal_moves_and_decide_agree,
        test_properties.test_no_view_ever_shows_a_hidden_card,
        test_play_render.test_every_pile_line_reads_back_as_the_view,
        test_play_render.test_each_listed_move_typed_as_shown_or_by_number_is_that_move,
    ]
    for game, variant in cases:
        for suite in suites:
            suite(game=game, variant=variant)  # each runs its Hypothesis examples for this case
