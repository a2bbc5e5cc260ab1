"""GET /metrics on a real server: what a game does shows in the counters, in Prometheus's text format."""

from __future__ import annotations

import time

import pytest
from prometheus_client.parser import text_string_to_metric_families

pytestmark = pytest.mark.integration


def scrape(http) -> dict[tuple[str, frozenset], float]:
    """Every sample of /metrics, by (name, labels); the text must parse as Prometheus's format."""
    response = http.get("/metrics")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def value(samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def total(samples, name: str) -> float:
    """A metric summed over all its labels."""
    return sum(v for (n, _), v in samples.items() if n == name)


def until(predicate, what: str, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while not (found := predicate()):
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout}s"
        time.sleep(0.05)
    return found


def test_moves_sockets_games_and_http_requests_are_counted(http, alice, bob):
    before = scrape(http)
    created = alice.create("wish", {"mode": "standard"}, 9)
    sock = alice.open(created["id"])
    legal = sock.recv()["snapshot"]["view"]["legal"]
    spectator = bob.open(created["id"])
    assert spectator.recv()["role"] == "spectator"
    assert sock.move(0, legal[0])["type"] == "s2c.accepted"
    assert sock.move(1, legal[0])["type"] in ("s2c.accepted", "s2c.rejected")  # whatever the deal allows
    assert sock.move(0, legal[0])["code"] == "stale_version"
    assert sock.move(2, {"type": "pair", "a": 0, "b": 0}, move_id="bad")["code"] in ("illegal_move", "stale_version")
    after = scrape(http)

    assert total(after, "arena_moves_total") - total(before, "arena_moves_total") == 4
    assert value(after, "arena_moves_total", outcome="rejected", code="stale_version") - value(
        before, "arena_moves_total", outcome="rejected", code="stale_version") >= 1
    assert value(after, "arena_moves_total", outcome="accepted", code="none") - value(
        before, "arena_moves_total", outcome="accepted", code="none") >= 1
    assert value(after, "arena_move_seconds_count") - value(before, "arena_move_seconds_count") == 4
    assert value(after, "arena_move_seconds_bucket", le="+Inf") == value(after, "arena_move_seconds_count")
    for kind in ("player", "spectator"):
        assert value(after, "arena_sockets_open", kind=kind) - value(before, "arena_sockets_open", kind=kind) == 1
    assert value(after, "arena_games_created_total", game="wish", kind="practice") - value(
        before, "arena_games_created_total", game="wish", kind="practice") == 1
    # Litestar's middleware: by route template, so a game id is no series of its own.
    templates = {dict(labels).get("path") for name, labels in after if name == "arena_http_requests_total"}
    assert "/api/games" in templates and not any(created["id"] in (t or "") for t in templates)
    for name in ("arena_validator_pending", "arena_validator_lag"):
        assert (name, frozenset()) in after
    assert ("arena_fanout_pending", frozenset({("stage", "publish")})) in after

    sock.close()
    spectator.close()
    until(lambda: all(value(scrape(http), "arena_sockets_open", kind=k) == value(before, "arena_sockets_open", kind=k)
                      for k in ("player", "spectator")), "the sockets' close counted")


def test_a_resigned_game_counts_as_ended(http, alice):
    before = scrape(http)
    created = alice.create("wish", {"mode": "standard"}, 11)
    sock = alice.open(created["id"])
    sock.recv()
    assert sock.move(0, {"type": "resign"})["type"] == "s2c.accepted"
    sock.close()
    after = scrape(http)
    labels = {"game": "wish", "kind": "practice", "status": "abandoned"}
    assert value(after, "arena_games_ended_total", **labels) - value(before, "arena_games_ended_total", **labels) == 1
