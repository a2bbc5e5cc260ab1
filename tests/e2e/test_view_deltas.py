"""The browser applies update deltas exactly as the server means them: over random play of every registered
game, the client's own `appliedDelta` (web_client/static/js/state.js), run in real Chromium on the view at a
delta's base, gives the view the server would have sent whole; and `receiveView` takes a delta only when its
base is the version it holds (older: stale, any other: a gap it resyncs)."""

from __future__ import annotations

import json
import random

import msgspec
import pytest

import engine
from services.games.model import Snapshot
from services.games.view_delta import Baseline, delta_between
from tests.strategies import forward_moves, registered_variants

pytestmark = pytest.mark.browser

encode = msgspec.json.Encoder().encode


def cases(moves: int = 40) -> list[dict]:
    """(before view, delta, after view) as JSON, for a random line of every preset of every game."""
    found = []
    for number, (game, variant) in enumerate(registered_variants()):
        rng = random.Random(number)
        state = engine.initial_state(game, variant, rng.randrange(2**64))
        view = engine.player_view(state)
        for version in range(1, moves + 1):
            options = forward_moves(state)
            if not options or state.status != engine.IN_PROGRESS:
                break
            state, _ = engine.play(rng.choice(options), state)
            before, view = view, engine.player_view(state)
            delta = delta_between(Baseline(version - 1, before, None), Snapshot("g", version, view, version))
            if delta is not None:
                found.append({"before": json.loads(encode(before)), "delta": json.loads(encode(delta)),
                              "after": json.loads(encode(view))})
    return found


def test_the_browser_applies_a_delta_to_the_view_the_server_would_send_whole(page):
    page.goto("/")
    examples = cases()
    assert len(examples) > 100
    wrong = page.evaluate("""async (examples) => {
        const { appliedDelta } = await import(new URL("js/state.js", location.href));
        const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
        return examples.map((e, i) => [i, appliedDelta(e.before, e.delta)])
            .filter(([i, got]) => !same(got, examples[i].after)).map(([i]) => i);
    }""", examples)
    assert wrong == [], f"{len(wrong)} of {len(examples)} deltas applied wrong, e.g. {examples[wrong[0]]}"


def test_the_browser_takes_a_delta_only_on_its_base(page):
    page.goto("/")
    example = cases(3)[0]
    answers = page.evaluate("""async (e) => {
        const { createState, receiveView } = await import(new URL("js/state.js", location.href));
        const state = createState("g");
        receiveView(state, { type: "s2c.snapshot", role: "player", snapshot: { version: 0, view: e.before,
            elapsed_ms: 0, seed: null, deal: null, deal_number: null } }, true);
        const delta = (base, version) => ({ type: "s2c.update", delta: { ...e.delta, base, version } });
        return [receiveView(state, delta(1, 2), false), state.version,
                receiveView(state, delta(0, 1), false), state.version, JSON.stringify(state.view) === JSON.stringify(e.after),
                receiveView(state, delta(0, 1), false)];
    }""", example)
    assert answers == ["gap", 0, "applied", 1, True, "stale"]
