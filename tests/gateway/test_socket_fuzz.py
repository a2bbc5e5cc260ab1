"""Hypothesis-fuzzed frames: no crash, no change but through accepted moves, never a hidden card.

Every frame the server sends back is audited (tests/gateway/client.py) against the engine's hidden
cards of the game rebuilt from the store at the frame's version.
"""

from __future__ import annotations

import json

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.gateway.sockets.messages import PingC2S, decode_c2s
from tests.strategies import any_intent

pytestmark = pytest.mark.integration

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
intent_json = any_intent.map(lambda intent: json.loads(msgspec.json.encode(intent)))
well_formed_moves = st.fixed_dictionaries(
    {"type": st.just("c2s.move"), "move_id": st.text(min_size=1, max_size=8), "version": st.integers(0, 6),
     "move": intent_json}
).map(json.dumps)
shapes = st.fixed_dictionaries(
    {"type": st.sampled_from(["c2s.move", "c2s.sync", "c2s.ping", "c2s.other", "s2c.update", ""])},
    optional={"move_id": json_values, "version": json_values, "move": json_values | intent_json},
).map(json.dumps)
frames = st.one_of(
    st.binary(max_size=64),
    st.text(max_size=64),
    json_values.map(json.dumps),
    shapes,
    well_formed_moves,
    st.integers(4097, 6000).map(lambda n: json.dumps({"type": "c2s.ping", "pad": "x" * n})),
)


@pytest.fixture
def fuzz_game(alice):
    created = alice.create("wish", {"mode": "standard"}, 31)
    sock = alice.open(created["id"])
    assert sock.recv()["snapshot"]["version"] == 0
    state = {"accepted": set()}
    yield alice, created["id"], sock, state
    sock.close()


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=st.lists(frames, min_size=1, max_size=5))
def test_fuzzed_frames_change_nothing_but_accepted_moves(fuzz_game, batch):
    player, game_id, sock, state = fuzz_game
    for frame in batch:
        sock.send(frame)
    sock.send('{"type": "c2s.ping"}')  # a marker: every answer to the batch comes before the last pong
    pongs = 1 + sum(len(f) <= 4096 and isinstance(decode_c2s(f), PingC2S) for f in batch)
    while pongs:
        answer = sock.recv()
        assert answer["type"] in {"s2c.error", "s2c.accepted", "s2c.rejected", "s2c.update", "s2c.snapshot",
                                  "s2c.pong"}, answer
        if answer["type"] == "s2c.accepted":
            state["accepted"].add(answer["version"])
        pongs -= answer["type"] == "s2c.pong"
    assert player.summary(game_id)["version"] == len(state["accepted"])
