"""The whole system under faults, short (bench/bench_faults.py runs it longer and prints the table): a local
cluster of 3 masters with replicas, two gateways, two validators, casual, daily and race players on both; then
kill -9 a gateway, a validator and a Redis master, and pause Redis for 2 s. No acknowledged move is lost, every interrupted player
goes on, every win has exactly one verdict."""

from __future__ import annotations

import asyncio

import pytest

from bench.bench_faults import report, run

pytestmark = pytest.mark.integration


def test_no_acknowledged_move_is_lost_and_every_player_goes_on_through_each_fault(tmp_path):
    result = asyncio.run(run(tmp_path, players=1, phase_s=3.0))
    report(result)  # shown with -s, and in the failure's output
    rows = {row.fault.split(" (")[0]: row for row in result.rows}
    assert not result.stuck
    assert all(row.acked for row in result.rows), "a phase where nobody could move"
    assert [row.lost for row in result.rows] == [0] * len(result.rows)
    assert all(row.resumed == row.interrupted for row in result.rows)
    # Each fault did reach the players it should have: the gateway's and the master's were interrupted.
    assert rows["kill -9 a gateway"].interrupted >= 1 and rows["kill -9 a Redis master"].interrupted >= 1
    assert sum(row.wins for row in result.rows) > 0
    assert set(result.moves_by_kind) == {"casual", "daily", "race"}, "a kind of player never moved"
    assert [row.missing for row in result.rows] == [0] * len(result.rows) and result.doubled == 0
